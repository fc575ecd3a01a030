"""State-based actions, checked whenever a player would receive priority.

Chapter 6 of the 2024 rules does not contain them (they are rule 704), so the
citations are the 1999 "automatische Spieleffekte" (420).  Each action is its
own function, called only when its condition holds, so a trace shows exactly
the state-based actions that happened.  Planeswalkers did not exist in 1999;
the zero-loyalty check follows today's 704.5i, which the knowledge base does
not hold, and is therefore not cited.
"""
from __future__ import annotations

from .registry import applied, enforces
from .state import BATTLEFIELD, GRAVEYARD


@enforces("de-1999/420.3")
def check_state_based_actions(game) -> None:
    """Whenever a player would receive priority: perform all that apply at once, then check again."""
    st = game.state
    while True:
        losers = [p for p in st.players if (p.life <= 0 or p.drew_from_empty) and not p.lost]
        zero, lethal, auras, walkers = [], [], [], []
        for oid in st.battlefield:
            obj = st.objects[oid]
            ch = game.characteristics(obj)
            if "creature" in ch.types:
                t = game.toughness(obj)
                if t <= 0:
                    zero.append(oid)
                    continue
                if obj.damage >= t:
                    lethal.append(oid)
                    continue
            if "planeswalker" in ch.types and obj.counters.get("loyalty", 0) <= 0:
                walkers.append(oid)
            elif "Aura" in ch.subtypes and not _attached_legally(st, obj):
                auras.append(oid)
        tokens = [oid for oid, o in st.objects.items() if o.token and o.zone != BATTLEFIELD]
        if not (losers or zero or lethal or auras or walkers or tokens):
            return
        applied("de-1999/420.3")
        if losers:
            lose_game(game, losers)
        if zero:
            zero_toughness(game, zero)
        if lethal:
            lethal_damage(game, lethal)
        if auras:
            unattached_auras(game, auras)
        for oid in walkers:
            st.move(oid, GRAVEYARD)
        if tokens:
            tokens_cease(game, tokens)


def _attached_legally(st, aura) -> bool:
    target = st.objects.get(aura.attached_to) if aura.attached_to is not None else None
    return target is not None and target.zone == BATTLEFIELD


@enforces("de-1999/420.5a")
def lose_game(game, players) -> None:
    """A player with 0 or less life loses the game."""
    applied("de-1999/420.5a")
    for p in players:
        p.lost = True
    if sum(1 for p in game.state.players if not p.lost) <= 1:
        game.state.over = True


@enforces("de-1999/420.5b")
def zero_toughness(game, ids) -> None:
    """A creature with toughness 0 is put into its owner's graveyard."""
    applied("de-1999/420.5b")
    for oid in ids:
        game.state.move(oid, GRAVEYARD)


@enforces("de-1999/420.5c")
def lethal_damage(game, ids) -> None:
    """A creature with lethal damage is destroyed."""
    applied("de-1999/420.5c")
    for oid in ids:
        game.state.move(oid, GRAVEYARD)


@enforces("de-1999/420.5d")
def unattached_auras(game, ids) -> None:
    """An Aura attached to an illegal or nonexistent permanent is put into its owner's graveyard."""
    applied("de-1999/420.5d")
    for oid in ids:
        game.state.move(oid, GRAVEYARD)


@enforces("de-1999/420.5f")
def tokens_cease(game, ids) -> None:
    """A token in a zone other than the battlefield ceases to exist."""
    applied("de-1999/420.5f")
    for oid in ids:
        game.state.remove(oid)
