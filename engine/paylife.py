"""Paying life — a cost, or a payment as a permanent enters — as an event replacement effects may modify (614).

:func:`pay_life` is the one place life is paid.  The event ``pay_life`` holds the player, the amount and the
objects entering the battlefield in the event the payment is part of (``entering``, as they were before they
moved).  Ashiok's "If you would pay life while your library has at least that many cards in it, exile that many
cards from the top of your library instead" is the handler ``exile_top_instead``.
"""
from __future__ import annotations

from .cant import check_payment
from .registry import applied, enforces
from .replacement import Replacement, applies_when, exists, handler, replace_event
from .state import EXILE, LIBRARY


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
    from .zones import move_all
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
