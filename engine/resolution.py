"""Resolving spells and abilities (608).

When all players pass in succession the top object resolves (608.1,
:func:`engine.turn.pass_priority`).  Instants, sorceries and abilities check
their targets, follow their instructions in order and leave the stack
(608.2); permanent spells become permanents (608.3).
"""
from __future__ import annotations

from .effects import Resolution, run_effect
from .errors import IllegalAction, NotExecutable
from .registry import applied, enforces
from .state import BATTLEFIELD, GRAVEYARD
from .targets import active_slots, recheck_targets


def definition_of(game, obj):
    """The spell or ability definition of an object on the stack (an ability's, from its source's last known card)."""
    if obj.ability is not None:
        return game.db[obj.source_card].abilities[obj.ability[1] - 1]
    return game.characteristics(obj).spell


def resolve_top(game, choices) -> None:
    """Resolve the object on top of the stack."""
    st = game.state
    obj = st.objects[st.stack[-1]]
    ab = definition_of(game, obj)
    queue = list(choices.resolve)
    if obj.ability is None and game.characteristics(obj).is_permanent:
        resolve_permanent_spell(game, obj, ab)
    else:
        resolve_instant_sorcery_or_ability(game, obj, ab, queue)
    if queue:
        raise IllegalAction("608.2d", f"choice(s) not needed while resolving: {', '.join(map(str, queue))}")


@enforces("608.2")
def resolve_instant_sorcery_or_ability(game, obj, ab, queue: list) -> None:
    """Targets rechecked first: if every target is illegal it does not resolve; otherwise it resolves normally."""
    applied("608.2")
    legal, all_illegal = recheck_targets(game, obj, ab) if active_slots(ab, obj.ann) else ({}, False)
    if all_illegal:
        remove_without_resolving(game, obj)
        return
    follow_instructions(game, obj, ab, legal, queue)
    finish_resolution(game, obj)


@enforces("608.2b")
def remove_without_resolving(game, obj) -> None:
    """It is removed from the stack; a spell goes to its owner's graveyard."""
    applied("608.2b")
    if obj.ability is not None:
        game.state.remove(obj.id)
    else:
        game.state.move(obj.id, GRAVEYARD)


@enforces("608.2c", "609.1")
def follow_instructions(game, obj, ab, legal: dict, queue: list) -> None:
    """Follow the instructions in order; illegal targets are untouched by the parts they are illegal for."""
    applied("608.2c")
    applied("609.1")
    ctx = Resolution(game, obj, ab, legal, queue)
    for m in obj.ann.modes or (0,):
        for spec in ab.modes[m].effects:
            run_effect(ctx, spec)


@enforces("608.2n")
def finish_resolution(game, obj) -> None:
    """Last step: an instant or sorcery goes to its owner's graveyard; an ability ceases to exist."""
    st = game.state
    if obj.id not in st.objects:
        return  # it left the stack while resolving (608.2m)
    applied("608.2n")
    if obj.ability is not None:
        st.remove(obj.id)
    else:
        st.move(obj.id, GRAVEYARD)


@enforces("608.3", "608.3a", "608.3b", "608.3c")
def resolve_permanent_spell(game, obj, ab) -> None:
    """It becomes a permanent under its controller's control; an Aura attached to its target.
    With its only target illegal it does not resolve and goes to the graveyard."""
    st = game.state
    for static in game.characteristics(obj).statics:
        if static.kind == "pending" and static.params.get("blocks_resolution"):
            raise NotExecutable(f"{obj.card} cannot become a permanent yet: it needs rule "
                                f"{static.params.get('rule')}: {static.params.get('text', '')}")
    applied("608.3")
    slots = active_slots(ab, obj.ann)
    attach_to = None
    if slots:
        applied("608.3b")
        legal, all_illegal = recheck_targets(game, obj, ab)
        if all_illegal:
            remove_without_resolving(game, obj)
            return
        chosen = [t for s in slots for t in legal.get(s.name, ())]
        if chosen and chosen[0][0] == "O":
            attach_to = chosen[0][1]
    if not slots:
        applied("608.3a")
    new = st.move(obj.id, BATTLEFIELD, controller=obj.controller)
    new.since_turn = st.turn
    ch = game.characteristics(new)
    if ch.loyalty is not None:
        new.counters["loyalty"] = ch.loyalty
    if attach_to is not None and "Aura" in ch.subtypes:
        applied("608.3c")
        new.attached_to = attach_to
