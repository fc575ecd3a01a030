"""Instructions that shape a resolution (608.2f, 608.2g): one action per target in turn, paying mana or not.

``for_each`` repeats its effects for each target of a target word, in the order the targets were
announced, when the action cannot be done to all of them at once (608.2f: the top card of a
library can be exiled only once at a time); ``each`` names the current one.  ``exile_top`` exiles
the top card of a library and remembers it, so that later effects can ask for "that card"'s mana value.
``unless_pays`` gives a player the option to pay mana — they may activate mana abilities first
(608.2g) — and does its ``otherwise`` effects if they don't.
"""
from __future__ import annotations

from . import procedures
from .costs import ManaCost, find_payment
from .effects import Resolution, effect, run_effect
from .errors import IllegalAction
from .registry import applied, enforces
from .state import EXILE
from .zones import move


@effect("for_each", required=("what", "effects"))
@enforces("610.1", "608.2f")
def for_each(ctx: Resolution, spec: dict) -> None:
    """For each target in turn: the effects are followed for one of them, then for the next (608.2f)."""
    applied("610.1")
    targets = list(ctx.targets(spec["what"]))
    if len(targets) > 1:
        applied("608.2f")
    for target in targets:
        ctx.legal["each"] = [target]
        for sub in spec["effects"]:
            run_effect(ctx, sub)
    ctx.legal.pop("each", None)


@effect("exile_top", required=("who",), optional=("remember",))
@enforces("610.1")
def exile_top(ctx: Resolution, spec: dict) -> None:
    """Exile the top card of a player's library (as many as possible: none from an empty library)."""
    applied("610.1")
    for p in ctx.players(spec["who"]):
        library = ctx.state.players[p].library
        if not library:
            continue
        card = move(ctx.game, library[-1], EXILE)
        if "remember" in spec:
            ctx.memory[spec["remember"]] = ((card, ctx.game.characteristics(card)),)


@effect("unless_pays", required=("payer", "pay_mana"), optional=("otherwise",))
@enforces("610.1", "608.2g", "608.2d", "605.3a")
def unless_pays(ctx: Resolution, spec: dict) -> None:
    """A player may pay mana — activating mana abilities first — or the ``otherwise`` effects happen."""
    applied("610.1")
    game = ctx.game
    for payer in _payers(ctx, spec["payer"]):
        applied("608.2d")
        if ctx.choose_option(["pay", "no"], f"pay {spec['pay_mana']}") == "no":
            for sub in spec.get("otherwise", []):
                run_effect(ctx, sub)
            continue
        applied("608.2g")
        cost = ManaCost.parse(spec["pay_mana"])
        decisions = game.decisions
        for act in (decisions.mana if decisions is not None else ()):
            applied("605.3a")  # a mana payment is asked for: mana abilities may be activated
            procedures.activate_mana_ability(game, payer, act.obj_id, act.index, act.choices, paying_for=ctx.obj)
        pool = game.state.players[payer].pool
        spend = find_payment(cost, pool)
        if spend is None:
            raise IllegalAction("608.2d", f"{game.state.players[payer].name} cannot pay {cost}: "
                                          f"that option cannot be chosen")
        for i, n in enumerate(spend):
            pool[i] -= n


def _payers(ctx: Resolution, ref: str) -> list[int]:
    """The player a word names, or the controller of the object a target word names."""
    players = ctx.players(ref)
    if players:
        return players
    return [o.controller for o in ctx.objects(ref)]
