"""Mana abilities (605): what they are.  Activating one without the stack is
:func:`engine.procedures.activate_mana_ability`.

Whether an ability is a mana ability is decided from its definition by the
criteria of 605.1a — no card says "I am a mana ability".  A spell that adds
mana (Dark Ritual) is never one (605.5b): it cannot be used while paying.
"""
from __future__ import annotations

from .registry import enforces


@enforces("605.1a", "605.2", "605.5", "605.5a", "605.5b")
def is_mana_ability(ab) -> bool:
    """An activated ability without a target that could add mana and is not a loyalty ability."""
    if ab is None or ab.kind != "activated" or ab.is_loyalty:
        return False
    if ab.all_slots():
        return False
    return any(e["do"] == "add_mana" for m in ab.modes for e in m.effects)


def mana_abilities(game, obj) -> list:
    return [a for a in game.characteristics(obj).abilities if is_mana_ability(a)]
