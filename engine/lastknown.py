"""Last-known information (608.2h): an object that left its zone, as it last existed — one mechanism for every
effect that needs it.

When an object changes zones it becomes a new object (400.7); :func:`remember` (called by
:func:`engine.zones.move_all` and :func:`engine.zones.remove_all`) keeps the old one as it last existed: the
object (its counters, what its linked abilities remember, 607.2a), its characteristics through the layers, and
its power and toughness after every layer (7a–7d).  :func:`known` answers "this object, now if it is still
where it was, else as it last existed"; :func:`source_memory` is what an ability's source remembers for its
linked abilities, also after the source left the battlefield (607.2a, 603.6c, 603.10a).

Only the most recent :data:`KEEP` departures are kept (they are part of the copied game state): abilities and
effects that look back do so while they are on the stack, long before that many other objects have moved.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .registry import applied, enforces

#: how many objects that left their zones are remembered
KEEP = 64


@dataclass(frozen=True, slots=True)
class Known:
    """An object and what it was: now, or as it last existed before it left its zone."""

    obj: Any  # an engine.state.Obj (never changed again once it has left)
    ch: Any  # its characteristics (a CardDef)
    power: int | None
    toughness: int | None
    gone: bool = False  # True: as it last existed (it has left the zone it was in)


def remember(game, before, before_ch) -> None:
    """``before`` is leaving its zone: keep it as it last existed (power and toughness through every layer)."""
    st = game.state
    creature = "creature" in before_ch.types
    power = game.power(before) if creature else before_ch.power
    toughness = game.toughness(before) if creature else before_ch.toughness
    lk = st.last_known
    lk[before.id] = Known(before, before_ch, power, toughness, True)
    if len(lk) > KEEP:
        del lk[next(iter(lk))]


@enforces("608.2h")
def known(game, obj_id: int, ch=None) -> Known | None:
    """The object with this id as it is now — or, if it has left its zone, as it last existed (608.2h)."""
    st = game.state
    obj = st.objects.get(obj_id)
    if obj is not None:
        return Known(obj, ch if ch is not None else game.characteristics(obj), game.power(obj), game.toughness(obj))
    found = st.last_known.get(obj_id)
    if found is not None:
        applied("608.2h")
    return found


def object_of(game, obj_id: int):
    """The object with this id now, or the object as it last existed (608.2h) — only its own state (tapped,
    counters, what it remembers), without computing its characteristics; None if it is not known."""
    obj = game.state.objects.get(obj_id)
    if obj is not None:
        return obj
    found = game.state.last_known.get(obj_id)
    if found is None:
        return None
    applied("608.2h")
    return found.obj


@enforces("607.2a", "603.10a")
def source_memory(ctx) -> dict:
    """What the source of a resolving spell or ability remembers for its linked abilities (607.2a): the source
    as it is now, or — it left the battlefield, its leaves-the-battlefield ability looking back (603.10a) — as it
    last existed; never the new object it became in another zone (400.7)."""
    st = ctx.state
    obj = st.objects.get(ctx.source_id)
    if obj is not None:
        return obj.memory
    found = st.last_known.get(ctx.source_id)
    if found is None:
        event = ctx.trigger.event if ctx.trigger is not None else None
        before = event.before if event is not None else None
        if before is None or before.id != ctx.source_id:
            return {}
        memory = before.memory
    else:
        memory = found.obj.memory
    if memory:
        applied("607.2a")
        applied("603.10a")
    return memory
