"""Moving objects between zones — the one place game code does it — and reporting the event.

An object that moves becomes a new object (400.7); the event carries the object as it last
existed and its characteristics then, for abilities that look back in time (603.10).  Several
objects moving at once (a spell destroying all creatures, state-based actions) are one event
(:func:`move_all`), so that each leaves-the-battlefield ability sees all of them (603.10a).
A permanent entering the battlefield gets what its own static abilities say it enters with —
tapped, with counters, with a choice made — as part of that event (603.6d).
"""
from __future__ import annotations

from typing import Callable

from . import conditions
from .characteristics import continuous
from .errors import IllegalAction
from .events import Event
from .facedown import revealed
from .flashback import leaving_the_stack
from .lastknown import remember
from .layers import as_it_enters
from .registry import applied, enforces
from .replacement import exists, replace_event
from .state import BATTLEFIELD, GRAVEYARD
from .timestamps import simultaneous
from .triggers import emit

#: keys of an ``enters`` static ability other modules act on: key -> fn(game, obj, params, queue, entering, chosen)
#: (engine.paylife: paying life as it enters; engine.asitenters: exiling other cards as it enters)
ENTERS_KEYS: dict[str, Callable] = {}
#: what else happens as a permanent enters, after its ``enters`` static abilities: fn(game, obj, characteristics,
#: queue, entering, chosen) (engine.asitenters: devour)
ENTERING: list[Callable] = []
#: what else happens right after objects moved (engine.until: objects exiled "until" their source leaves return;
#: engine.copies: a copy of a spell off the stack ceases to exist)
AFTER_MOVE: list = []


def move(game, obj_id: int, zone: str, *, controller: int | None = None, bottom: bool = False,
         queue: list | None = None, cause=None, setup=None):
    """Move one object to ``zone``; returns the new object."""
    return move_all(game, [obj_id], zone, controller=controller, bottom=bottom, queue=queue, cause=cause,
                    setup=setup)[0]


def move_all(game, ids: list[int], zone: str, *, controller: int | None = None, bottom: bool = False,
             queue: list | None = None, cause=None, setup=None) -> list:
    """Move several objects to ``zone`` at the same time: one event, one check for triggered abilities.

    ``setup(old, new)`` is called for each moved object before the event is reported (what the object enters
    with: the spell's announcements it remembers, the object an Aura is attached to)."""
    st = game.state
    events, moved = [], []
    instead = _destinations(game, ids) if zone == GRAVEYARD and exists(game, "to_graveyard") else {}
    entering = tuple(st.objects[i] for i in ids) if zone == BATTLEFIELD else ()
    for oid in ids:
        before = st.objects[oid]  # leaves the state with the move and is never changed again: its last known state
        before_ch = game.characteristics(before)
        remember(game, before, before_ch)
        attached = tuple(a for a in st.battlefield if st.objects[a].attached_to == oid) \
            if before.zone == BATTLEFIELD else ()
        to_zone = leaving_the_stack(before, instead.get(oid, zone))
        new = st.move(oid, to_zone, controller=controller, bottom=bottom or to_zone != zone)
        if before.face is not None:
            revealed(game, before, new)
        if setup is not None:
            setup(before, new)
        if to_zone == BATTLEFIELD:
            enter(game, new, queue, entering)
        moved.append(new)
        events.append(Event("zone", obj=new.id, player=new.owner, before=before, before_ch=before_ch,
                            from_zone=before.zone, to_zone=to_zone, cause=cause, attached=attached))
    if len(moved) > 1:
        simultaneous(game, [m for m in moved if m.zone == BATTLEFIELD])
    emit(game, events + _unattached(game, events))
    for hook in AFTER_MOVE:
        hook(game, events)
    return moved


def enter(game, new, queue: list | None, entering: tuple = ()) -> None:
    """A permanent enters the battlefield: what its own abilities say it enters with, then the replacement effects
    for entering, then the continuous effects that apply to it as it enters."""
    st = game.state
    new.since_turn = st.turn
    enters_with(game, new, queue, entering)
    if exists(game, "enters") or new.counters and exists(game, "counters"):
        entering_with(game, new)
    if st.effects or continuous(game):
        as_it_enters(game, new)


def created(game, made: list, queue: list | None) -> None:
    """Tokens created on the battlefield enter it (each with what it enters with), as one event."""
    for new in made:
        enter(game, new, queue)
    emit(game, [Event("zone", obj=o.id, player=o.owner, from_zone="", to_zone=BATTLEFIELD) for o in made])


def _destinations(game, ids: list[int]) -> dict:
    """Where each object that would be put into a graveyard goes after the replacement effects (614.1a)."""
    st = game.state
    out = {}
    for oid in ids:
        obj = st.objects[oid]
        ev = replace_event(game, "to_graveyard", {"obj": oid, "zone": GRAVEYARD, "from": obj.zone}, obj.controller
                           if obj.zone == BATTLEFIELD else obj.owner)
        if ev is not None and ev["zone"] != GRAVEYARD:
            out[oid] = ev["zone"]
    return out


def _unattached(game, events: list) -> list:
    """What was attached to a permanent that left becomes unattached: an event too (603.10c looks back at it)."""
    out = []
    st = game.state
    for aid in (a for e in events for a in e.attached):
        if aid in st.objects:
            out.append(Event("unattached", obj=aid, player=st.objects[aid].controller))
        else:  # it left in the same event: as it last existed
            lki = next(e for e in events if e.before is not None and e.before.id == aid)
            out.append(Event("unattached", before=lki.before, before_ch=lki.before_ch, player=lki.before.controller))
    return out


def remove_all(game, ids: list[int], cause=None) -> None:
    """Objects leave the game entirely (an owner leaving it, 800.4a; a token ceasing to exist): one event."""
    st = game.state
    events = []
    for oid in ids:
        old = st.objects[oid]
        before, before_ch = old.copy(), game.characteristics(old)
        remember(game, before, before_ch)
        st.remove(oid)
        for other in st.objects.values():
            if other.attached_to == oid:
                other.attached_to = None
        events.append(Event("zone", obj=None, player=before.owner, before=before, before_ch=before_ch,
                            from_zone=before.zone, to_zone="", cause=cause))
    emit(game, events)


def tap_all(game, objs: list, tapped: bool) -> None:
    """Permanents become tapped (or untapped): an event only for those whose state changes (603.2f)."""
    changed = [o for o in objs if o.tapped != tapped]
    for o in changed:
        o.tapped = tapped
    if changed:
        emit(game, [Event("tapped" if tapped else "untapped", obj=o.id, player=o.controller) for o in changed])


@enforces("606.4", "614.16")
def put_counters_on(game, obj, kind: str, n: int, by_effect: bool = True) -> int:
    """Put ``n`` counters of ``kind`` on a permanent — the one place counters are put on a permanent on the
    battlefield, so that the replacement effects for putting counters see every such event.  ``by_effect``: an
    effect puts them (a resolving spell or ability, a prevention effect's rider); False for a cost — a loyalty
    cost (606.4) or a cost of putting counters — to which "if an effect would put …" does not apply until another
    replacement effect puts them (614.16).  Returns how many were put."""
    if n > 0 and exists(game, "counters"):
        if not by_effect:
            applied("606.4")
        ev = replace_event(game, "counters", {"obj": obj.id, "counters": {kind: n}, "by_effect": by_effect},
                           obj.controller)
        n = ev["counters"].get(kind, 0) if ev is not None else 0
    if n > 0:
        obj.counters[kind] = obj.counters.get(kind, 0) + n
    return max(n, 0)


@enforces("en-2024-11-08/122.6", "614.1c", "614.5")
def entering_with(game, obj) -> None:
    """The entering event with the counters the permanent is given as it enters (its own "enters with" abilities,
    devour …): one event, modified by the replacement effects for entering ("enters with an additional counter",
    614.1c) and — being given counters as it enters is putting them (122.6) — by those for putting counters, in
    the order its controller chooses, each once (614.5)."""
    given = dict(obj.counters)
    ev = replace_event(game, "enters", {"obj": obj.id, "counters": given, "by_effect": True}, obj.controller)
    now = {k: n for k, n in ev["counters"].items() if n > 0} if ev is not None else {}
    if now != {k: n for k, n in given.items() if n > 0}:
        applied("en-2024-11-08/122.6")
    obj.counters.clear()
    obj.counters.update(now)


@enforces("603.6d", "en-2024-11-08/306.5b", "607.4", "614.1c", "614.12", "614.12a")
def enters_with(game, obj, queue: list | None, entering: tuple = ()) -> None:
    """"[This permanent] enters tapped / with … counters / as …, choose …": part of the event, not a trigger.
    ``entering``: every object entering the battlefield in this event, as it was before it moved (614.13).  The
    counters it is given are put on it with the entering event (:func:`entering_with`)."""
    ch = game.characteristics(obj)
    if ch.loyalty is not None and "loyalty" not in obj.counters:
        applied("en-2024-11-08/306.5b")
        obj.counters["loyalty"] = ch.loyalty  # given as it enters: replaced with the entering event (122.6)
    chosen: set = set()  # objects chosen to change zones by its effects for entering (614.13b)
    for static in ch.statics:
        if static.kind != "enters":
            continue
        applied("603.6d")
        applied("614.1c")  # "enters with …", "as … enters": a replacement effect of the permanent itself
        applied("614.12")
        p = static.params
        if p.get("tapped") and not ("unless" in p and conditions.holds(game, p["unless"], obj, obj.controller)):
            obj.tapped = True  # "enters tapped" — "unless you control a Forest" (614.1d)
        for kind, n in p.get("counters", {}).items():
            n = obj.memory.get("x", 0) if n == "X" else n  # X: as announced for the spell it was
            obj.counters[kind] = obj.counters.get(kind, 0) + n  # given as it enters (entering_with)
        if "choose" in p:
            applied("614.12a")  # the choice is made before it enters
            link = p.get("link", "chosen")
            obj.memory[link] = _choose(game, obj, p["choose"], p.get("options"), queue)
            if _link_users(ch, link) > 1:
                applied("607.4")  # one ability, part of several pairs of linked abilities
        for key, fn in ENTERS_KEYS.items():
            if key in p:
                fn(game, obj, p, queue, entering, chosen)
    for hook in ENTERING:
        hook(game, obj, ch, queue, entering, chosen)


def _link_users(card, link: str) -> int:
    """How many abilities of the card refer to what the ability named ``link`` chose."""
    users = sum(1 for t in card.triggers if getattr(t.what, "chosen_color", None) == link)
    for ab in (*card.abilities, *(t.ability for t in card.triggers)):
        users += sum(1 for m in ab.modes for e in m.effects if e.get("chosen") == link)
    return users


#: what "as … enters, choose …" may ask for
CHOICES = {"color": ("W", "U", "B", "R", "G")}


def _choose(game, obj, what: str, words: list | None, queue: list | None) -> str:
    options: tuple[str, ...] = tuple(words) if what == "word" and words else CHOICES[what]
    if not queue:
        raise IllegalAction("603.6d", f"{obj.card} enters: its controller chooses a {what} "
                                      f"({', '.join(options)}); add 'choose: …' to the step")
    pick = queue.pop(0)
    if pick not in options:
        raise IllegalAction("603.6d", f"{pick!r} is not a {what} ({', '.join(options)})")
    return pick
