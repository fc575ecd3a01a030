"""Creating tokens — from a token definition or as a copy of a permanent — and the event of creating them.

Creating tokens is an event replacement effects may modify ("if an effect would create one or more tokens",
614.16: ``create_token`` in :data:`engine.replacement.EVENTS`, Zeit der Verdopplung's ``double_tokens``).
Each token created then enters the battlefield — an event contained in the first one — with what its own
abilities say (:func:`engine.zones.created`): "as [this] enters, choose a colour" applies to each token on its
own, after the replacement effects for creating them (616.1g).  A token created as a copy of a permanent has
the permanent's copiable values (707.2) and makes its own "as … enters" choices (614.12).
"""
from __future__ import annotations

from .copies import becomes_copy_as_it_enters, copiable_values
from .effects import Resolution, effect
from .loops import spend
from .oneshot import remember_linked
from .printed import base
from .registry import EN, applied, enforces
from .replacement import Replacement, applies_when, exists, handler, replace_event
from .state import BATTLEFIELD
from .timestamps import simultaneous
from .zones import created


@effect("create_token", required=("token",), optional=("amount", "who", "link", "tapped"))
@enforces("610.1")
def create_token(ctx: Resolution, spec: dict) -> None:
    """Create tokens under a player's control."""
    applied("610.1")
    token = spec["_token"]
    if token.name not in ctx.game.db:
        ctx.game.db.add(token)
    _create(ctx, spec, token.name, None)


@effect("create_copy_token", required=("copy_of",), optional=("amount", "who", "link", "tapped"))
@enforces("610.1", EN + "707.2")
def create_copy_token(ctx: Resolution, spec: dict) -> None:
    """"Create a token that's a copy of [permanent]": its copiable values now (707.2)."""
    applied("610.1")
    for original in ctx.objects(spec["copy_of"])[:1]:
        applied(EN + "707.2")
        card = copiable_values(ctx.game, original)
        _create(ctx, spec, original.card or "", card if card is not base(ctx.game, original) else None)


@enforces("614.16", "616.1g")
def _create(ctx: Resolution, spec: dict, name: str, copy_of) -> None:
    """The event of creating tokens first (its replacement effects, 614.16), then each token entering the
    battlefield — an event contained in it, whose own replacement effects come only after (616.1g)."""
    game, st = ctx.game, ctx.state
    made = []
    for p in ctx.players(spec.get("who", "you")):
        ev: dict | None = {"player": p, "amount": ctx.amount(spec.get("amount", 1))}
        replaced = exists(game, "create_token")
        if replaced:
            ev = replace_event(game, "create_token", ev, p)
        if ev is None:
            continue
        spend(game, "614.16", ev["amount"])  # a number of tokens no game could hold is refused (engine.loops)
        for _ in range(ev["amount"]):
            obj = st.new_object(name, p, BATTLEFIELD, token=True)
            obj.tapped = bool(spec.get("tapped"))  # "create a tapped token": it is created, and enters, tapped
            if copy_of is not None:
                becomes_copy_as_it_enters(game, obj, copy_of)
            made.append(obj)
        if replaced and any(_enters_with_a_choice(game, o) for o in made):
            applied("616.1g")  # creating them was modified first; now each one's own effects for entering
    if made:
        simultaneous(game, made)
        created(game, made, ctx.queue)
    if "link" in spec:
        remember_linked(ctx, spec["link"], made, "battlefield")


def _enters_with_a_choice(game, obj) -> bool:
    return any(s.kind == "enters" for s in game.characteristics(obj).statics) or exists(game, "enters")


@handler("double_tokens")
@enforces("614.16", "614.1a")
def double_tokens(game, r: Replacement, ev: dict) -> dict:
    """"If an effect would create one or more tokens under your control, it creates twice that many of those
    tokens instead" (614.16)."""
    applied("614.16")
    applied("614.1a")
    return {**ev, "amount": ev["amount"] * 2}


@applies_when("double_tokens")
def _tokens_for_you(game, r: Replacement, ev: dict) -> bool:
    return ev["player"] == r.controller and ev["amount"] > 0
