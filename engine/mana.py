"""Mana abilities (605): what they are, and activating them without the stack.

Whether an ability is a mana ability is decided from its definition by the
criteria of 605.1a — no card says "I am a mana ability".  A spell that adds
mana (Dark Ritual) is never one (605.5b): it cannot be used while paying.
"""
from __future__ import annotations

from . import activation, casting, resolution
from .choices import NO_CHOICES
from .errors import IllegalAction
from .registry import enforces
from .state import Announcement, Obj


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


@enforces("605.3", "605.3a", "605.3b")
def activate_mana_ability(game, player: int, obj_id: int, index: int | None, choices, paying_for=None) -> None:
    """Activate like any activated ability (602.2), but it does not use the stack: it resolves at once."""
    st = game.state
    src = st.objects.get(obj_id)
    if src is None:
        raise IllegalAction("605.3", "no such object")
    ch = game.characteristics(src)
    if index is None:
        abilities = mana_abilities(game, src)
        if ch.spell is not None and not ch.abilities and ch.spell.modes[0].effects and any(
                e["do"] == "add_mana" for e in ch.spell.modes[0].effects):
            raise IllegalAction("605.5b", f"{ch.name} is a spell, not a mana ability: cast it and let it "
                                          f"resolve before paying")
        if len(abilities) != 1:
            raise IllegalAction("605.1a", f"{ch.name} has {len(abilities)} mana abilities; say which (#n)")
        ab = abilities[0]
    else:
        ab = activation.ability_of(game, src, index)
        if not is_mana_ability(ab):
            raise IllegalAction("605.1a", f"ability #{index} of {ch.name} is not a mana ability")
    activation.may_begin_activating(game, player, src, ab, mana_ability=True, while_paying=paying_for is not None)
    choices = choices or NO_CHOICES
    transient = Obj(-1, -1, None, src.owner, player, "", ann=Announcement(), ability=(src.id, ab.index),
                    source_card=src.card)
    casting.announce_and_pay(game, player, transient, ab, choices, source=src)
    activation.record_activation(st, src, ab)
    resolution.follow_instructions(game, transient, ab, {}, list(choices.resolve))

