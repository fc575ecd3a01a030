"""The whole procedures: casting a spell (601.2), activating an ability (602.2) and a mana ability (605.3).

The steps live in the modules named after their rules — :mod:`engine.casting` (601.2a–i),
:mod:`engine.activation` (602), :mod:`engine.mana` (605), :mod:`engine.targets`,
:mod:`engine.resolution` — and know nothing of each other's order.  This module puts them in
order, and it is the one place where the procedures call each other: paying a cost may
activate mana abilities (601.2g), and activating a mana ability follows the same steps
601.2b–h as casting (602.2b, 605.3a).

    cast_spell / activate_ability
      └─ announce_and_pay  (601.2b–h)
           └─ activate_mana_abilities  (601.2g)
                └─ activate_mana_ability  (605.3) ─ announce_and_pay …
"""
from __future__ import annotations

from . import activation, casting, mana, resolution
from .choices import NO_CHOICES
from .errors import IllegalAction
from .registry import applied, enforces
from .state import Announcement, Obj
from .targets import choose_targets, divide


def announce_and_pay(game, player: int, obj, ab, choices, source=None) -> None:
    """601.2b–h (also used for activated abilities, 602.2b).

    A step with nothing to do for this spell or ability (no modes, no X, no targets …) is
    skipped, so that a trace lists only the rules that applied.
    """
    if ab.modal or choices.modes:
        casting.announce_modes(game, obj, ab, choices)
    else:
        obj.ann.modes = (0,)
    if choices.x is not None or casting.uses_x(ab, obj.ann.modes, choices.alternative, choices.optional,
                                               choices.chosen):
        casting.announce_x(game, obj, ab, choices)
    if ab.alternative or ab.optional or ab.choose_cost or choices.alternative or choices.optional or choices.chosen:
        casting.announce_costs(game, obj, ab, choices)
    if choices.targets or ab.all_slots():
        choose_targets(game, obj, ab, choices)
    if choices.division or any(s.divide is not None for s in ab.all_slots()):
        divide(game, obj, ab, choices)
    if obj.ability is None and casting.any_prohibition(game, player):
        casting.check_announced_spell(game, player, obj, ab)
    casting.determine_total_cost(game, obj, ab)
    if choices.mana:
        activate_mana_abilities(game, player, obj, choices)
    casting.pay_total_cost(game, player, obj, ab, choices, source)


@enforces("601.2g", "605.3a")
def activate_mana_abilities(game, player: int, obj, choices) -> None:
    """If the total cost includes mana, the player may now activate mana abilities (before paying)."""
    applied("601.2g")
    if obj.ann.cost.mana.amount == 0:
        raise IllegalAction("601.2g", "the total cost includes no mana: no mana abilities now")
    applied("605.3a")
    for act in choices.mana:
        activate_mana_ability(game, player, act.obj_id, act.index, act.choices, paying_for=obj)


@enforces("605.3", "605.3b", "605.5b")
def activate_mana_ability(game, player: int, obj_id: int, index: int | None, choices, paying_for=None) -> None:
    """Activate like any activated ability (602.2), but it does not use the stack: it resolves at once."""
    st = game.state
    src = st.objects.get(obj_id)
    if src is None:
        raise IllegalAction("605.3", "no such object")
    ch = game.characteristics(src)
    if index is None:
        abilities = mana.mana_abilities(game, src)
        if ch.spell is not None and not ch.abilities and ch.spell.modes[0].effects and any(
                e["do"] == "add_mana" for e in ch.spell.modes[0].effects):
            applied("605.5b")
            raise IllegalAction("605.5b", f"{ch.name} is a spell, not a mana ability: cast it and let it "
                                          f"resolve before paying")
        if len(abilities) != 1:
            raise IllegalAction("605.1a", f"{ch.name} has {len(abilities)} mana abilities; say which (#n)")
        ab = abilities[0]
    else:
        ab = activation.ability_of(game, src, index)
        if not mana.is_mana_ability(ab):
            raise IllegalAction("605.1a", f"ability #{index} of {ch.name} is not a mana ability")
    applied("605.3")
    activation.may_begin_activating(game, player, src, ab, mana_ability=True, while_paying=paying_for is not None)
    choices = choices or NO_CHOICES
    transient = Obj(-1, -1, None, src.owner, player, "", ann=Announcement(), ability=(src.id, ab.index),
                    source_card=src.card)
    announce_and_pay(game, player, transient, ab, choices, source=src)
    activation.record_activation(st, src, ab)
    applied("605.3b")
    resolution.follow_instructions(game, transient, ab, {}, list(choices.resolve))


@enforces("602.2", "602.2b", "602.1c")
def activate_ability(game, player: int, obj_id: int, index: int | None, choices) -> int | None:
    """Activate: checks (602.5), onto the stack (602.2a), then 601.2b–h as for a spell (602.2b)."""
    st = game.state
    src = st.objects.get(obj_id)
    if src is None or src.ability is not None:
        raise IllegalAction("602.2", "no such object")
    ab = activation.ability_of(game, src, index)
    if mana.is_mana_ability(ab):
        activate_mana_ability(game, player, obj_id, ab.index, choices)
        return None
    applied("602.2")
    applied("602.2b")
    if game.characteristics(src).triggers or game.characteristics(src).statics:
        applied("602.1c")  # only its activated abilities can be activated
    activation.may_begin_activating(game, player, src, ab)
    obj = activation.put_ability_on_stack(game, player, src, ab)
    announce_and_pay(game, player, obj, ab, choices, source=src)
    activation.record_activation(st, src, ab)
    casting.become_cast(game, player, obj)
    return obj.id


@enforces("601.2")
def cast_spell(game, player: int, obj_id: int, choices) -> int:
    """Cast a spell: the steps of 601.2 in order.  Returns the id of the spell on the stack."""
    st = game.state
    card = st.objects.get(obj_id)
    if card is None or card.ability is not None:
        raise IllegalAction("601.3", "no such card")
    ab = casting.spell_of(game, card)
    applied("601.2")
    casting.may_begin_casting(game, player, card, ab, choices)
    obj = casting.move_to_stack(game, player, obj_id)
    announce_and_pay(game, player, obj, ab, choices)
    casting.become_cast(game, player, obj)
    return obj.id
