"""Putting triggered abilities on the stack (603.3): APNAP order, modes and targets chosen then.

The next time a player would receive priority, each player in APNAP order puts the triggered
abilities they control on the stack in the order they choose (603.3b); the choices the ability
needs — modes, targets, division — are made now, as for a spell (603.3c, 603.3d, 601.2b–d).
An ability whose choices cannot be made is removed (603.3d).  Triggered mana abilities do not
use the stack: they resolve right after the mana ability that triggered them (605.4a).

What the players decide comes from ``game.decisions`` (:class:`~engine.choices.Choices`):
``order`` (which triggers go on the stack first) and ``triggers`` (the choices for each).
"""
from __future__ import annotations

from . import casting
from .choices import NO_CHOICES, Choices
from .errors import IllegalAction
from .registry import applied, enforces
from .state import STACK, Announcement, object_target, player_target
from .targets import active_slots, choose_targets, divide, is_legal_target, slot_count


@enforces("603.3", "603.3b")
def put_triggered_abilities_on_stack(game) -> None:
    """Each player in APNAP order puts the abilities they control on the stack, in the order they choose."""
    st = game.state
    pending, st.pending = st.pending, []
    applied("603.3")
    if len({t.controller for t in pending}) > 1 or len(pending) > 1:
        applied("603.3b")
    for player in st.in_turn_order(st.active):
        mine = [t for t in pending if t.controller == player]
        for t in _ordered(game, mine):
            put_on_stack(game, t)


def _ordered(game, mine: list) -> list:
    """The controller's order: the triggers named in ``order:`` first (bottom of the stack), then the rest."""
    wanted = game.decisions.order if game.decisions is not None else []
    out = []
    for ref in list(wanted):
        for t in mine:
            if t not in out and refers_to(game, ref, t):
                out.append(t)
                wanted.remove(ref)
                break
    return out + [t for t in mine if t not in out]


def refers_to(game, ref: tuple[str, int | None], t) -> bool:
    """Does a player's reference (a card name or label, and which trigger of it) mean triggered ability ``t``?"""
    name, index = ref
    if index is not None and (t.definition is None or t.definition.index != index):
        return False
    if name == t.source_card:
        return True
    obj = game.state.find_uid(t.source_uid)
    return obj is not None and game.namer is not None and game.namer(name, [obj.id]) == obj.id


def _choices_for(game, t) -> Choices:
    decisions = game.decisions
    if decisions is None:
        return NO_CHOICES
    for i, (ref, choices) in enumerate(decisions.triggers):
        if refers_to(game, ref, t):
            del decisions.triggers[i]
            return choices
    return NO_CHOICES


@enforces("603.3c", "603.3d")
def put_on_stack(game, t) -> None:
    """The ability becomes the topmost object of the stack; its modes and targets are chosen now."""
    st = game.state
    obj = st.new_object(None, t.controller, STACK)
    obj.ability = (t.source_id, 0)
    obj.source_card = t.source_card
    obj.source_uid = t.source_uid
    obj.abdef = t.ability
    obj.trigger = t
    obj.ann = Announcement()
    ab = t.ability
    choices = _choices_for(game, t)
    if ab.modal:
        applied("603.3c")
        if not choices.modes:
            raise IllegalAction("603.3c", f"the triggered ability of {t.source_card} is modal: its controller "
                                          f"chooses the mode as it goes on the stack (add 'trigger: "
                                          f"{t.source_card} (mode: …)')")
        casting.announce_modes(game, obj, ab, choices)
    else:
        obj.ann.modes = (0,)
    if choices.x is not None:
        obj.ann.x = choices.x
    slots = active_slots(ab, obj.ann)
    if slots:
        applied("603.3d")
        if _impossible(game, obj, slots):
            st.remove(obj.id)  # no legal choices: the ability is removed from the stack
            return
        if not choices.targets:
            raise IllegalAction("603.3d", f"choose the target(s) of the triggered ability of {t.source_card} "
                                          f"(add 'trigger: {t.source_card} (target: …)')")
        if "*" in choices.targets and len(slots) == 1:  # "target: X" names the only target word
            choices.targets = {slots[0].name: choices.targets["*"]}
        choose_targets(game, obj, ab, choices)
        if any(s.divide is not None for s in slots):
            divide(game, obj, ab, choices)


def _impossible(game, obj, slots) -> bool:
    """Could no legal choice be made for some instance of "target"?"""
    st = game.state
    everything = [player_target(p.index) for p in st.players] + [object_target(o) for o in st.objects]
    for slot in slots:
        lo, _ = slot_count(slot, obj.ann.x)
        legal = sum(1 for t in everything if is_legal_target(game, slot, t, obj.controller, obj, obj.ann.x))
        if legal < lo:
            return True
    return False
