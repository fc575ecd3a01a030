"""Paying life — a cost, or a payment as a permanent enters — as an event replacement effects may modify (614).

:func:`pay_life` is the one place life is paid.  The event ``pay_life`` holds the player, the amount and the
objects entering the battlefield in the event the payment is part of (``entering``, as they were before they
moved).  Ashiok's "If you would pay life while your library has at least that many cards in it, exile that many
cards from the top of your library instead" is the handler ``exile_top_instead``.
"""
from __future__ import annotations

from .cant import check_payment
from .errors import IllegalAction
from .registry import applied, enforces
from .replacement import Replacement, applies_when, exists, handler, replace_event
from .state import EXILE, LIBRARY
from .zones import ENTERS_KEYS, move_all


def pay_life(game, player: int, amount: int, entering: tuple = ()) -> bool:
    """``player`` pays ``amount`` life (a payment the player chose; a "can't" effect forbids it, 614.17b).
    Returns whether it was paid — as is, or in the form a replacement effect gave it."""
    if not amount:
        return False
    check_payment(game, player, amount)
    if exists(game, "pay_life"):
        ev = replace_event(game, "pay_life", {"player": player, "amount": amount, "entering": entering}, player)
        if ev is None:
            return True  # paid in the modified form
        amount = ev["amount"]
    game.state.players[player].life -= amount
    return True


def _in_library(game, player: int, entering: tuple) -> list[int]:
    """The cards of the player's library the effect may take, top first: not one entering the battlefield from it
    (614.13c)."""
    gone = {b.uid for b in entering}
    return [oid for oid in reversed(game.state.players[player].library) if game.state.objects[oid].uid not in gone]


def _from_library(player: int, entering: tuple) -> list:
    return [b for b in entering if b.zone == LIBRARY and b.owner == player]


@handler("exile_top_instead")
@enforces("614.1a", "614.13", "614.13c")
def exile_top_instead(game, r: Replacement, ev: dict) -> None:
    """Exile that many cards from the top of your library instead of paying life.  While an effect modifies how a
    permanent enters, a card entering the battlefield from that library is not included, even though it is in the
    library as the effect is applied (614.13c): the next cards are exiled."""
    applied("614.1a")
    player, entering = ev["player"], ev.get("entering", ())
    if _from_library(player, entering):
        applied("614.13")  # other objects change zones while a permanent enters
        applied("614.13c")
    move_all(game, _in_library(game, player, entering)[:ev["amount"]], EXILE)
    return None


@applies_when("exile_top_instead")
def _library_large_enough(game, r: Replacement, ev: dict) -> bool:
    """"While your library has at least that many cards in it" — counting the cards in it as the effect is
    applied, an entering one included."""
    player = ev["player"]
    size = len(game.state.players[player].library) + len(_from_library(player, ev.get("entering", ())))
    return player == r.controller and size >= ev["amount"]


def pay_as_it_enters(game, obj, params: dict, queue: list | None, entering: tuple, chosen: set) -> None:
    """"As this enters, you may pay any amount of life" (``pay_life = true``: ``choose: N``) or "you may pay N
    life" (``choose: yes`` or ``no``; ``tapped_unless_paid``: "if you don't, it enters tapped"): the amount paid
    is remembered for the linked ability."""
    fixed = params["pay_life"]
    player = game.state.players[obj.controller]
    most = max(player.life, 0)
    if fixed is True:
        pick = queue.pop(0) if queue else "0"
        if not pick.isdigit() or int(pick) > most:
            raise IllegalAction("603.6d", f"{obj.card} enters: pay a number of life from 0 to {most}")
        amount = int(pick)
    else:
        pick = queue.pop(0) if queue else "no"
        if pick not in ("yes", "no") or (pick == "yes" and fixed > most):
            raise IllegalAction("603.6d", f"{obj.card} enters: pay {fixed} life (yes) or not (no); {most} life")
        amount = fixed if pick == "yes" else 0
    pay_life(game, obj.controller, amount, entering)
    obj.memory[params.get("link", "paid")] = amount
    if params.get("tapped_unless_paid") and not amount:
        obj.tapped = True


ENTERS_KEYS["pay_life"] = pay_as_it_enters
