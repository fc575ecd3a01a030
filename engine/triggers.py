"""Triggered abilities trigger (603.2–603.10): events are checked against every trigger condition.

:func:`emit` is called with the events of one moment (a zone change, several creatures dying
at once, a step beginning …).  Each triggered ability whose trigger event matches and whose
intervening "if" holds (603.4) triggers: a :class:`Triggered` record goes to
``state.pending``, to be put on the stack the next time a player would receive priority
(603.3, :mod:`engine.stacking`).  Abilities that trigger on leaving the battlefield or on a
player losing look back in time (603.10): the objects that left in the same event are checked
as they last existed.  State triggers (603.8) are checked after every event and whenever a
player would receive priority; delayed triggered abilities (603.7) wait in ``state.delayed``.

The trigger events a card file may name (``when = "enters"``) are :data:`TRIGGERS`, a table of
matching functions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import conditions
from .characteristics import statics_on_battlefield
from .events import Event
from .filters import matches
from .registry import applied, enforces
from .state import BATTLEFIELD


@dataclass(frozen=True, slots=True)
class Triggered:
    """A triggered ability that has triggered: what goes on the stack and what it remembers."""

    ability: Any  # the AbilityDef: targets, modes, effects
    definition: Any  # the TriggerDef (or None for a reflexive trigger)
    source_id: int  # the source object's id when it triggered (it may be gone)
    source_uid: int
    source_card: str
    controller: int  # 603.3a / 603.7d–e
    event: Event | None = None
    kind: str = "triggered"  # "triggered", "delayed", "reflexive", "state"
    bound: int | None = None  # a delayed trigger: the object it refers to (603.7c)
    memory: tuple = ()  # (name, value) pairs it carries (a reflexive trigger: what was sacrificed …)


@dataclass(frozen=True, slots=True)
class Delayed:
    """A delayed triggered ability waiting for its event (603.7)."""

    definition: Any  # a TriggerDef (its ``what = "self"`` means the bound object)
    source_id: int
    source_uid: int
    source_card: str
    controller: int
    bound: int | None  # the object it refers to
    created_turn: int
    this_turn: bool = False  # a stated duration ("this turn"): triggers each time until the turn ends


# -- matching one trigger against one event ---------------------------------------------------------------------

def _about(game, trig, holder, obj, ch, source_id) -> bool:
    """Is the object ``obj`` (with characteristics ``ch``) the one the trigger is about?"""
    if trig.what == "self":
        if getattr(holder, "by_id", False):
            return obj is not None and obj.id == holder.id
        return obj is not None and obj.uid == holder.uid
    if trig.what is None:
        return True
    if obj is None:
        return False
    return matches(game, obj, trig.what, holder.controller, source_id, ch=ch)


def _player(trig, holder, player) -> bool:
    if trig.who == "any":
        return player is not None
    return player is not None and (player == holder.controller) == (trig.who == "you")


def _enters(game, trig, holder, ev) -> bool:
    if ev.kind != "zone" or ev.to_zone != BATTLEFIELD:
        return False
    obj = game.state.objects.get(ev.obj)
    return _about(game, trig, holder, obj, None, holder.id)


def _leaves(game, trig, holder, ev) -> bool:
    """Leaves the battlefield (to ``to_zone`` if given): checked as the object last existed (603.10a)."""
    if ev.kind != "zone" or ev.from_zone != BATTLEFIELD or (trig.to_zone and ev.to_zone != trig.to_zone):
        return False
    if trig.what == "enchanted":  # the permanent this Aura was attached to (603.6e)
        return holder.id in ev.attached
    return _about(game, trig, holder, ev.before, ev.before_ch, holder.id)


def _put_into(game, trig, holder, ev) -> bool:
    """Put into a zone from anywhere (never a leaves-the-battlefield ability, 603.6c), or from a given zone."""
    if ev.kind != "zone" or ev.to_zone != trig.to_zone or (trig.from_zone and ev.from_zone != trig.from_zone):
        return False
    if trig.from_zone == BATTLEFIELD:
        return _about(game, trig, holder, ev.before, ev.before_ch, holder.id)
    return _about(game, trig, holder, game.state.objects.get(ev.obj), None, holder.id)


def _step(game, trig, holder, ev) -> bool:
    return ev.kind == "step" and ev.step == trig.step and _player(trig, holder, ev.active)


def _object_event(kind: str) -> Callable:
    def match(game, trig, holder, ev) -> bool:
        if ev.kind != kind:
            return False
        obj = game.state.objects.get(ev.obj) if ev.obj is not None else None
        if obj is None and ev.before is not None:
            return _about(game, trig, holder, ev.before, ev.before_ch, holder.id) and _player(trig, holder,
                                                                                             ev.player)
        return _about(game, trig, holder, obj, None, holder.id) and (trig.who == "any" or
                                                                     _player(trig, holder, ev.player))
    return match


def _player_event(kind: str) -> Callable:
    def match(game, trig, holder, ev) -> bool:
        return ev.kind == kind and _player(trig, holder, ev.player)
    return match


def _deals_damage(game, trig, holder, ev) -> bool:
    if ev.kind != "damage":
        return False
    src = game.state.objects.get(ev.source)
    return _about(game, trig, holder, src, None, holder.id) and (trig.who == "any" or _player(trig, holder,
                                                                                              ev.player))


def _dealt_damage(game, trig, holder, ev) -> bool:
    if ev.kind != "damage":
        return False
    if ev.obj is None:
        return trig.what is None and _player(trig, holder, ev.player)
    return _about(game, trig, holder, game.state.objects.get(ev.obj), None, holder.id)


def _revealed(game, trig, holder, ev) -> bool:
    """Revealed by the static ability this trigger is linked to (603.11, 607.2h)."""
    if ev.kind != "revealed" or ev.cause != (holder.uid, trig.link):
        return False
    return _about(game, trig, holder, game.state.objects.get(ev.obj), None, holder.id)


#: ``when`` of a card file -> (event kind, matching function)
TRIGGERS: dict[str, tuple[str, Callable]] = {
    "enters": ("zone", _enters), "leaves": ("zone", _leaves), "put_into": ("zone", _put_into),
    "beginning_of": ("step", _step), "cast": ("cast", _object_event("cast")),
    "tapped": ("tapped", _object_event("tapped")), "untapped": ("untapped", _object_event("untapped")),
    "tapped_for_mana": ("tapped_for_mana", _object_event("tapped_for_mana")),
    "deals_damage": ("damage", _deals_damage), "dealt_damage": ("damage", _dealt_damage),
    "draws": ("draw", _player_event("draw")), "gains_life": ("life_gained", _player_event("life_gained")),
    "loses_game": ("lost", _player_event("lost")), "attacks": ("attacks", _object_event("attacks")),
    "blocks": ("blocks", _object_event("blocks")), "countered": ("countered", _object_event("countered")),
    "revealed": ("revealed", _revealed), "resolves": ("resolved", _object_event("resolved")),
    "becomes_target": ("target", _object_event("target")), "sacrificed": ("sacrificed", _object_event("sacrificed")),
    "mana_added": ("mana_added", _player_event("mana_added")),
    "unattached": ("unattached", _object_event("unattached")),
    "damage_prevented": ("prevented", _player_event("prevented")),
    "turned_face_up": ("turned_face_up", _object_event("turned_face_up")),
}
#: event kinds whose trigger conditions are checked as the objects last existed (603.10)
LOOK_BACK = ("zone", "lost", "countered", "unattached")


# -- emitting events ------------------------------------------------------------------------------------------------

def emit(game, events: list[Event]) -> None:
    """Events of one moment happened: every matching triggered ability triggers (603.2)."""
    st = game.state
    for ev in events:
        for holder, ch, trig, match in _listening(game, events, ev):
            if match(game, trig, holder, ev):
                trigger(game, trig, holder, ch, ev, events)
        if st.delayed:
            _delayed(game, ev)
    check_state_triggers(game)


def listeners(game) -> dict[str, list]:
    """The triggered abilities on the battlefield by the event kind they wait for: (object id, TriggerDef),
    kept until the battlefield or the effects of resolved spells and abilities change (an object id always names
    the same object; the abilities it has are its characteristics through the layers, 613.1f)."""
    st = game.state
    cache = game.holders_cache
    if cache is not None and cache[0] == st.battlefield and cache[2] == st.effects:
        return cache[1]
    index: dict[str, list] = {}
    for oid in st.battlefield:
        for trig in game.characteristics(st.objects[oid]).triggers:
            kind = TRIGGERS[trig.when][0] if trig.when in TRIGGERS else trig.when
            index.setdefault(kind, []).append((oid, trig))
    game.holders_cache = (st.battlefield[:], index, st.effects[:])
    return index


def _listening(game, events: list[Event], ev: Event):
    """(object, characteristics, trigger, matching function) for every triggered ability that waits for events
    of this kind — on the battlefield now, or, looking back, on an object that left it in this event."""
    st = game.state
    for oid, trig in listeners(game).get(ev.kind, ()):
        obj = st.objects.get(oid)
        if obj is not None and obj.zone == BATTLEFIELD:
            ch = game.characteristics(obj)
            if trig in ch.triggers:  # it still has the ability (a face turned, an effect removed it: 613.1f)
                yield obj, ch, trig, TRIGGERS[trig.when][1]
    if ev.kind in LOOK_BACK:
        for other in events:  # objects that left the battlefield in this event, as they last existed
            if other.kind == "zone" and other.from_zone == BATTLEFIELD and other.before_ch is not None:
                for trig in other.before_ch.triggers:
                    if trig.when in TRIGGERS and TRIGGERS[trig.when][0] == ev.kind:
                        yield other.before, other.before_ch, trig, TRIGGERS[trig.when][1]


@enforces("603.1", "603.2", "603.2a", "603.2c", "603.3a", "603.6a", "603.6c", "603.6e", "603.10", "603.10a",
          "603.10c", "603.10e", "603.10f", "603.2b", "603.2f", "603.2i", "603.4")
def trigger(game, trig, holder, ch, ev: Event, events: tuple = ()) -> None:
    """The ability triggers: it is remembered with its controller (the controller of its source now)."""
    st = game.state
    if trig.once_each_turn and holder.memory.get(f"once:{trig.index}") == st.turn:
        applied("603.2i")  # it already did this this turn
        return
    if trig.condition:
        applied("603.4")  # the intervening "if" is checked as it triggers …
        if not conditions.holds(game, trig.condition, holder, holder.controller):
            return
    applied("603.1")  # a trigger condition met; the effect comes later
    applied("603.2")
    applied("603.3a")
    if st.priority != holder.controller:
        applied("603.2a")  # it triggers although its controller could not cast or activate anything now
    _record_kind(game, trig, holder, ev)
    if trig.once_each_turn:
        live = st.objects.get(holder.id)
        if live is not None:
            live.memory[f"once:{trig.index}"] = st.turn
    if any(p.definition is trig and p.source_uid == holder.uid for p in st.pending):
        applied("603.2c")  # one event with several occurrences: once for each
    for _ in range(1 + extra_times(game, trig.when, holder.controller, events if ev.kind in LOOK_BACK else (), ev)):
        st.pending.append(Triggered(trig.ability, trig, holder.id, holder.uid, ch.name, holder.controller, ev))


def _record_kind(game, trig, holder, ev: Event) -> None:
    """Which of the rules about trigger events this triggering followed."""
    if trig.when == "enters":
        applied("603.6a")
    elif ev.kind == "zone" and ev.from_zone == BATTLEFIELD and trig.when in ("leaves", "put_into"):
        applied("603.6c")
        if trig.what == "enchanted":
            applied("603.6e")
        if holder.id not in game.state.objects:
            applied("603.10")
            applied("603.10a")  # it looked back in time: its source left in the same event
    elif trig.when == "beginning_of":
        applied("603.2b")
    elif trig.when in ("tapped", "untapped"):
        applied("603.2f")
    elif trig.when == "countered":
        applied("603.10e")
    elif trig.when == "unattached":
        applied("603.10")
        applied("603.10c")
    elif trig.when == "loses_game":
        applied("603.10f")


@enforces("603.2d", "603.10a")
def extra_times(game, when: str, controller: int, events: tuple = (), ev: Event | None = None) -> int:
    """How many additional times a static ability makes a triggered ability of a permanent trigger (603.2d) —
    counting, for an event that looks back in time, the static abilities of permanents that left the battlefield
    in that same event, as they last existed (603.10a).  A static ability with ``what`` criteria counts only when
    the object the event is about meets them ("an artifact or creature entering")."""
    st = game.state
    n = 0
    for oid, static in statics_on_battlefield(game).get("extra_trigger", ()):
        if static.params["when"] == when and st.objects[oid].controller == controller \
                and _event_object_matches(game, static, controller, ev):
            applied("603.2d")
            n += 1
    for other in events:
        if other.kind == "zone" and other.from_zone == BATTLEFIELD and other.before_ch is not None \
                and other.before.controller == controller:
            for static in other.before_ch.statics:
                if static.kind == "extra_trigger" and static.params["when"] == when \
                        and _event_object_matches(game, static, controller, ev):
                    applied("603.2d")
                    applied("603.10a")  # its source left in this event: the game looks back at it
                    n += 1
    return n


def _event_object_matches(game, static, controller: int, ev: Event | None) -> bool:
    flt = static.params.get("what")
    if flt is None:
        return True
    obj = game.state.objects.get(ev.obj) if ev is not None and ev.obj is not None else None
    if obj is None and ev is not None and ev.before is not None:
        return matches(game, ev.before, flt, controller, ch=ev.before_ch, any_zone=True)
    return obj is not None and matches(game, obj, flt, controller, any_zone=True)


# -- state triggers (603.8) -------------------------------------------------------------------------------------

def check_state_triggers(game) -> None:
    st = game.state
    for oid, trig in listeners(game).get("state", ()):
        obj = st.objects.get(oid)
        if obj is not None and obj.zone == BATTLEFIELD and conditions.holds(game, trig.state, obj, obj.controller):
            state_trigger(game, trig, obj, game.characteristics(obj))


@enforces("603.8")
def state_trigger(game, trig, obj, ch) -> None:
    """A state trigger triggers once, and not again until the ability has left the stack."""
    st = game.state
    waiting = any(p.definition is trig and p.source_uid == obj.uid for p in st.pending)
    on_stack = any(st.objects[s].trigger is not None and st.objects[s].trigger.definition is trig
                   and st.objects[s].trigger.source_uid == obj.uid for s in st.stack)
    if waiting or on_stack:
        return
    applied("603.8")
    st.pending.append(Triggered(trig.ability, trig, obj.id, obj.uid, ch.name, obj.controller, None, "state"))


# -- delayed triggered abilities (603.7) ------------------------------------------------------------------------

class _Bound:
    """What a delayed trigger's "self" means: the one object it refers to, by id — an object that left its zone
    and came back is a new object (400.7), and one gone before the delayed trigger was created never triggers it."""

    by_id = True
    memory: dict = {}
    zone = ""

    def __init__(self, d: Delayed):
        self.controller = d.controller
        self.id = d.bound if d.bound is not None else -1
        self.uid = -1


def _delayed(game, ev: Event) -> None:
    st = game.state
    for d in list(st.delayed):
        if d.this_turn and d.created_turn != st.turn:
            st.delayed.remove(d)
            continue
        kind, match = TRIGGERS[d.definition.when]
        if kind == ev.kind and match(game, d.definition, _Bound(d), ev):
            delayed_trigger(game, d, ev)


@enforces("603.7", "603.7b", "603.2b", "603.2e")
def delayed_trigger(game, d: Delayed, ev: Event) -> None:
    """A delayed triggered ability triggers — only once, unless it has a stated duration ("this turn").  Effects
    about the triggered abilities of an object do not make it trigger additional times (603.2e)."""
    st = game.state
    applied("603.7")
    if any(s.params["when"] == d.definition.when for _, s in statics_on_battlefield(game).get("extra_trigger", ())):
        applied("603.2e")
    if d.definition.when == "beginning_of":
        applied("603.2b")
    if not d.this_turn:
        applied("603.7b")
        st.delayed.remove(d)
    st.pending.append(Triggered(d.definition.ability, d.definition, d.source_id, d.source_uid, d.source_card,
                                d.controller, ev, "delayed", d.bound))
