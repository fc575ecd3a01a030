"""Mana abilities (605): what they are.  Activating one without the stack is
:func:`engine.procedures.activate_mana_ability`.

Whether an ability is a mana ability is decided from its definition by the
criteria of 605.1a — no card says "I am a mana ability".  A spell that adds
mana (Dark Ritual) is never one (605.5b): it cannot be used while paying.
"""
from __future__ import annotations

from .registry import applied, enforces


@enforces("605.1", "605.1a", "605.2", "605.5", "605.5a", "605.5b")
def is_mana_ability(ab) -> bool:
    """An activated ability without a target that could add mana and is not a loyalty ability."""
    if ab is None:
        return False
    adds = [e for m in ab.modes for e in m.effects if e["do"] == "add_mana"]
    if ab.kind == "spell":
        if adds:
            applied("605.5b")
        return False
    applied("605.1a")
    if ab.is_loyalty or not adds:
        if adds:
            applied("605.5")
        return False
    if ab.all_slots():
        applied("605.5a")
        return False
    if any("per" in e for e in adds):
        applied("605.2")  # a mana ability even when the game state lets it produce no mana
    applied("605.1")
    return True


@enforces("605.1", "605.1b", "605.5a")
def is_triggered_mana_ability(t) -> bool:
    """A triggered ability without a target, triggered by a mana ability or by mana being added, that could add
    mana.  One that could add mana but triggered on anything else is not a mana ability (605.5a)."""
    ab = t.ability
    adds = any(e["do"] == "add_mana" for m in ab.modes for e in m.effects)
    if not adds or t.definition is None:
        return False
    if t.definition.when in ("tapped_for_mana", "mana_added") and not ab.all_slots():
        applied("605.1")
        applied("605.1b")
        return True
    applied("605.5a")
    return False


def mana_abilities(game, obj) -> list:
    return [a for a in game.characteristics(obj).abilities if is_mana_ability(a)]
