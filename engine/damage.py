"""Dealing damage (120), and the keywords that change what damage does (702.2, 702.15, 702.16e).

One function deals all damage — from spells, abilities and combat — so that protection prevents
it, deathtouch and lifelink apply, and triggered abilities see one event per recipient
(an event whose damage was all prevented does not happen, 603.2h).  Chapter 1 and 7 rules are
cited from the English 2024 rules.
"""
from __future__ import annotations

from .characteristics import statics_on_battlefield
from .events import Event
from .filters import matches
from .registry import EN, applied, enforces
from .replacement import exists, replace_event
from .triggers import emit


def source_of(game, obj):
    """The object that deals an ability's damage is its source (as it last existed); a spell deals its own."""
    if obj.ability is None:
        return obj, game.characteristics(obj)
    src = game.state.objects.get(obj.ability[0])
    if src is not None:
        return src, game.characteristics(src)
    return obj, game.db[obj.source_card] if obj.source_card in game.db else game.characteristics(obj)


@enforces(EN + "120.3", EN + "120.3a", EN + "120.3c", EN + "120.3e", "603.2h", EN + "702.15b", "614.7", "614.7a")
def deal_damage(game, source, source_ch, targets: list[tuple], combat: bool = False,
                unpreventable: bool = False) -> list[Event]:
    """``source`` deals damage: ``targets`` is a list of (target, amount), dealt at the same time."""
    st = game.state
    events = []
    todo = list(targets)  # and the parts a redirection splits off, dealt at the same time as the rest (120.4)
    while todo:
        target, n = todo.pop(0)
        if n <= 0:
            if exists(game, "damage"):
                applied("614.7")  # no damage is dealt: the replacement and prevention effects do nothing
                applied("614.7a")
            continue
        kind, ref = target
        recipient = st.players[ref] if kind == "P" else st.objects.get(ref)
        if recipient is None:
            continue
        replaced = damage_event(game, source, source_ch, target, n, combat, unpreventable)
        if replaced is None:
            applied("603.2h")  # prevented or replaced: the event does not happen and triggers nothing
            continue
        target, n, also = replaced
        todo.extend(also)  # "the next 2 damage … is dealt to any target instead": a part goes elsewhere
        if n <= 0:
            continue
        kind, ref = target
        recipient = st.players[ref] if kind == "P" else st.objects.get(ref)
        if recipient is None:
            continue
        applied(EN + "120.3")
        if kind == "P":
            applied(EN + "120.3a")
            recipient.life -= n
            events.append(Event("damage", player=ref, source=source.id, amount=n, combat=combat))
        else:
            _to_permanent(game, recipient, n, _keywords(game, source, source_ch))
            _remember_source(st, recipient, source)
            events.append(Event("damage", obj=ref, player=recipient.controller, source=source.id, amount=n,
                                combat=combat))
        if "lifelink" in _keywords(game, source, source_ch):
            applied(EN + "702.15b")
            st.players[source.controller].life += n
            events.append(Event("life_gained", player=source.controller, amount=n))
    if events:
        emit(game, events)
    return events


def _remember_source(st, recipient, source) -> None:
    """The permanent remembers which objects dealt it damage this turn ("a creature dealt damage this turn by …",
    the criterion ``dealt_damage_by``): (turn, the source's id) — a new object after a zone change has a new id
    and no such memory (400.7)."""
    earlier = tuple(e for e in recipient.damaged_by if e[0] == st.turn)
    recipient.damaged_by = (*earlier, (st.turn, source.id))


def _keywords(game, source, source_ch) -> frozenset:
    return game.keywords(source) if source.id in game.state.objects else source_ch.keywords


def _to_permanent(game, obj, n: int, source_keywords: frozenset) -> None:
    ch = game.characteristics(obj)
    if "creature" in ch.types:
        applied(EN + "120.3e")
        obj.damage += n
        if "deathtouch" in source_keywords:
            obj.deathtouched = True
    if "planeswalker" in ch.types:
        applied(EN + "120.3c")
        obj.counters["loyalty"] = max(0, obj.counters.get("loyalty", 0) - n)


@enforces("615.12")
def cant_be_prevented(game, source, source_ch) -> bool:
    """A static ability "damage can't be prevented" (``damage_unpreventable``, optionally only damage from sources
    matching ``from``): the damage is dealt even where prevention effects apply (615.12)."""
    for oid, static in statics_on_battlefield(game).get("damage_unpreventable", ()):
        flt = static.params.get("from")
        if flt is None or matches(game, source, flt, game.state.objects[oid].controller, ch=source_ch, any_zone=True):
            applied("615.12")
            return True
    return False


@enforces("615.6")
def damage_event(game, source, source_ch, target, n: int, combat: bool, unpreventable: bool = False) -> tuple | None:
    """Damage about to be dealt, after the replacement and prevention effects that apply to it (protection among
    them, 702.16e): (recipient, amount, parts a redirection split off as (recipient, amount)), or None when none is
    dealt (prevented: it never happens, 615.6)."""
    kind, ref = target
    protected = kind == "O" and any(k.startswith("protection:") for k in game.keywords(game.state.objects[ref]))
    if not protected and not exists(game, "damage"):
        return target, n, ()
    affected = ref if kind == "P" else game.state.objects[ref].controller
    unpreventable = unpreventable or cant_be_prevented(game, source, source_ch)
    ev = replace_event(game, "damage", {"source": source, "source_ch": source_ch, "target": target, "amount": n,
                                        "combat": combat, "unpreventable": unpreventable}, affected)
    also = tuple(ev.get("also", ())) if ev is not None else ()
    if ev is None or ev["amount"] <= 0:
        applied("615.6")
        return (target, 0, also) if also else None
    return ev["target"], ev["amount"], also
