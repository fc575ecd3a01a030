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

from . import activation, casting, castpermission, lands, mana, nextspell, permissions, priority, resolution, splice
from .choices import NO_CHOICES
from .errors import IllegalAction
from .events import Event
from .registry import applied, enforces
from .state import Announcement, Obj
from .targets import choose_targets, divide
from .triggers import emit


def announce_and_pay(game, player: int, obj, ab, choices, source=None) -> None:
    """601.2b–h (also used for activated abilities, 602.2b).

    A step with nothing to do for this spell or ability (no modes, no X, no targets …) is
    skipped, so that a trace lists only the rules that applied.
    """
    if ab.chooser or choices.chooser is not None:
        casting.choices_by_opponent(game, player, obj, ab, choices)
    if ab.modal or choices.modes:
        casting.announce_modes(game, obj, ab, choices)
    else:
        obj.ann.modes = (0,)
    if choices.x is not None or casting.uses_x(ab, obj.ann.modes, choices.alternative, choices.optional,
                                               choices.chosen):
        casting.announce_x(game, obj, ab, choices)
    if ab.alternative or ab.optional or ab.choose_cost or choices.alternative or choices.optional or choices.chosen:
        casting.announce_costs(game, obj, ab, choices)
    if choices.hybrid or ab.cost.mana.hybrid or any(n.cost.mana.hybrid for n in ab.alternative):
        casting.announce_hybrid(game, obj, ab, choices)
    if choices.targets or ab.all_slots():
        choose_targets(game, obj, ab, choices)
    if choices.division or any(s.divide is not None for s in ab.all_slots()):
        divide(game, obj, ab, choices)
    if obj.ability is None and permissions.any_prohibition(game, player):
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


@enforces("605.3", "605.3b", "605.5b", "605.3c")
def activate_mana_ability(game, player: int, obj_id: int, index: int | None, choices, paying_for=None) -> None:
    """Activate like any activated ability (602.2), but it does not use the stack: it resolves at once.  Once
    begun, it cannot be activated again until it has resolved (605.3c)."""
    st = game.state
    src = st.objects.get(obj_id)
    if src is None:
        raise IllegalAction("605.3", "no such object")
    only = mana.mana_abilities(game, src) if index is None else []
    key = (obj_id, only[0].index if len(only) == 1 else index)
    if key in game.activating:
        applied("605.3c")
        raise IllegalAction("605.3c", f"this mana ability of {src.card} is being activated: it cannot be "
                                      f"activated again before it has resolved")
    game.activating.append(key)
    try:
        _activate_mana_ability(game, player, src, index, choices, paying_for)
    finally:
        game.activating.remove(key)


def _activate_mana_ability(game, player: int, src, index: int | None, choices, paying_for) -> None:
    st = game.state
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
                    source_card=src.card, abdef=ab, source_uid=src.uid)
    announce_and_pay(game, player, transient, ab, choices, source=src)
    activation.record_activation(st, src, ab)
    applied("605.3b")
    queue = list(choices.resolve)
    before = st.players[player].pool[:]
    resolution.follow_instructions(game, transient, ab, {}, queue)
    if ab.cost.tap:
        produced = tuple(a - b for a, b in zip(st.players[player].pool, before))
        emit(game, [Event("tapped_for_mana", obj=src.id, player=player, cause=produced)])
    resolve_triggered_mana_abilities(game, queue)


@enforces("605.4", "605.4a", "605.1b")
def resolve_triggered_mana_abilities(game, queue: list) -> None:
    """Triggered mana abilities do not go on the stack: they resolve right after the mana ability that
    triggered them, without waiting for priority."""
    st = game.state
    for t in [t for t in st.pending if mana.is_triggered_mana_ability(t)]:
        applied("605.1b")
        applied("605.4")
        applied("605.4a")
        st.pending.remove(t)
        transient = Obj(-1, -1, None, st.objects[t.source_id].owner if t.source_id in st.objects else t.controller,
                        t.controller, "", ann=Announcement(), ability=(t.source_id, 0), source_card=t.source_card,
                        abdef=t.ability, trigger=t, source_uid=t.source_uid)
        resolution.follow_instructions(game, transient, t.ability, {}, queue)


@enforces("602.1", "602.2", "602.2b", "602.1c", "en-2024-11-08/117.3c")
def activate_ability(game, player: int, obj_id: int, index: int | None, choices) -> int | None:
    """Activate: checks (602.5), onto the stack (602.2a), then 601.2b–h as for a spell (602.2b)."""
    st = game.state
    src = st.objects.get(obj_id)
    if src is None or src.ability is not None:
        raise IllegalAction("602.2", "no such object")
    ab = activation.ability_of(game, src, index)
    applied("602.1")  # a cost and an effect: the cost is paid as it is activated, the effect happens on resolution
    if game.characteristics(src).triggers or game.characteristics(src).statics:
        applied("602.1c")  # only its activated abilities can be activated
    if mana.is_mana_ability(ab):
        activate_mana_ability(game, player, obj_id, ab.index, choices)
        applied("en-2024-11-08/117.3c")
        priority.give_priority(game, player)  # the player keeps priority: state-based actions are checked first
        return None
    applied("602.2")
    applied("602.2b")
    activation.may_begin_activating(game, player, src, ab)
    obj = activation.put_ability_on_stack(game, player, src, ab)
    announce_and_pay(game, player, obj, ab, choices, source=src)
    activation.record_activation(st, src, ab)
    casting.become_cast(game, player, obj)
    priority.give_priority(game, player)
    return obj.id


@enforces("601.2")
def cast_spell(game, player: int, obj_id: int, choices) -> int:
    """Cast a spell: the steps of 601.2 in order.  Returns the id of the spell on the stack."""
    st = game.state
    card = st.objects.get(obj_id)
    if card is None or card.ability is not None:
        raise IllegalAction("601.3", "no such card")
    ab = casting.spell_of(game, card, choices.face)
    applied("601.2")
    permissions.may_begin_casting(game, player, card, ab, choices)
    from_graveyard = card.zone == "graveyard"
    obj = casting.move_to_stack(game, player, obj_id, choices.face)
    if from_graveyard:
        castpermission.remember_grants(game, player, card, obj)
    if game.state.effects:
        nextspell.begin_on(game, player, obj)
    if choices.splice:
        splice.splice_onto(game, player, obj, choices.splice)
        ab = game.characteristics(obj).spell
    announce_and_pay(game, player, obj, ab, choices)
    permissions.flash_kept(game, obj)
    casting.become_cast(game, player, obj)
    priority.give_priority(game, player)
    return obj.id


def play_land(game, player: int, obj_id: int, choices=None) -> None:
    """Play a land (a special action); the player receives priority again (117.3c)."""
    lands.play_land(game, player, obj_id, list(choices.resolve) if choices is not None else None)
    priority.give_priority(game, player)


@enforces("602.1d")
def play_ability(game, player: int, obj_id: int, index: int | None, choices) -> None:
    """"Playing" an ability (the older wording) is activating it."""
    applied("602.1d")
    activate_ability(game, player, obj_id, index, choices)


@enforces("601.1", "601.1a")
def play_card(game, player: int, obj_id: int, choices) -> None:
    """"Playing" a card means playing it as a land or casting it as a spell, whichever applies; a spell that
    is "played" (the older wording) is cast (601.1)."""
    applied("601.1a")
    obj = game.state.objects.get(obj_id)
    if obj is not None and "land" in game.characteristics(obj).types:
        play_land(game, player, obj_id, choices)
    else:
        applied("601.1")
        cast_spell(game, player, obj_id, choices)
