"""Replacement effects (614) and how several of them, and prevention effects, apply to one event (616).

An event the engine is about to perform — damage being dealt, an object going to a graveyard, a
permanent being destroyed or entering the battlefield, a player drawing a card or gaining life —
is a small dict handed to :func:`replace_event` before it happens.  Every replacement or
prevention effect that would modify it is a :class:`Replacement`: from a static ability on the
battlefield (``replace`` and ``prevent`` statics of card files), from a keyword (protection,
:mod:`engine.prevention`), or from a resolved spell or ability (a shield, a regeneration shield).
They apply one at a time: self-replacement effects first (616.1a), otherwise the one the affected
player or the affected object's controller chooses (616.1e); each applies to an event at most once
(614.5), and the choice is made again for the modified event until none is left (616.1f).  An event
replaced entirely never happens (614.6): :func:`replace_event` returns None.

Each kind of replacement is one handler in :data:`HANDLERS`; card files name it with ``how``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import conditions
from .characteristics import statics_on_battlefield
from .filters import matches
from .loops import bounded
from .registry import applied, enforces

#: the events replacement effects may modify, and what their dict holds
EVENTS = {
    "damage": "source, source_ch, target (a target tuple), amount, combat, unpreventable",
    "destroy": "obj: the permanent that would be destroyed",
    "to_graveyard": "obj, zone: an object that would be put into a graveyard (zone: where it goes instead)",
    "enters": "obj: the permanent entering the battlefield (already there, before the event is reported)",
    "draw": "player: a player who would draw a card",
    "gain_life": "player, amount: a player who would gain life",
    "lose_life": "player, amount: a player who would lose life (through an effect)",
    "pay_life": "player, amount, entering: a player who would pay life (entering: objects entering the battlefield)",
    "counters": "obj, counters ({kind: n}), by_effect: counters that would be put on a permanent (by_effect: by an "
                "effect, not as a cost); an entering event with \"counters\" is one too (122.6)",
    "create_token": "player, amount: an effect would create tokens under a player's control (engine.tokens)",
    "step": "step, player: a step (or \"turn\": a turn) of a player would begin (engine.skip)",
}


@dataclass(frozen=True, slots=True, eq=False)
class Replacement:
    """One replacement or prevention effect that may modify events of one kind."""

    event: str  # a key of EVENTS
    how: str  # a key of HANDLERS
    controller: int
    card: str  # the source's name: how a player names the effect when choosing (616.1)
    timestamp: int
    params: dict = field(default_factory=dict)
    source_id: int | None = None
    locked: frozenset | None = None  # the objects (ids) or players (("P", i)) a resolved effect protects
    left: int | None = None  # a shield: damage it still prevents (615.7), or uses left
    self_replacement: bool = False  # 614.15
    duration: str = "static"  # "static", "end_of_turn", "used_up"
    key: tuple = ()  # what identifies it among the effects applied to one event (614.5)


#: handlers that change under whose control a permanent enters (616.1b: chosen before the others)
CONTROL = frozenset({"enters_under_your_control"})
#: handlers that have a card enter with its back face up (616.1d: chosen next)
BACK_FACE = frozenset({"enters_transformed"})
#: handlers: (game, replacement, event) -> the modified event, or None when it no longer happens
HANDLERS: dict[str, Callable] = {}


def handler(name: str):
    def register(fn):
        HANDLERS[name] = fn
        return fn
    return register


#: "can't" effects (614.17, engine.cant): event kind -> fn(game, kind, event), whether the event can't happen
FORBIDS: dict[str, Callable] = {}
#: the sources of replacement effects other than static abilities and resolved effects: fn(game, event kind,
#: event) -> [Replacement]  (protection, engine.prevention)
BUILT_IN: list[Callable] = []


def candidates(game, kind: str, ev: dict) -> list[Replacement]:
    """Every replacement or prevention effect that exists now for events of ``kind`` (614.4, 615.4: it must exist
    before the event happens — nothing created later goes back in time)."""
    st = game.state
    out = []
    on_bf = statics_on_battlefield(game)
    kinds = also_kinds(kind, ev)
    for static_kind in ("replace", "prevent"):
        for index, (oid, static) in enumerate(on_bf.get(static_kind, ())):
            if static.params.get("event", "damage") in kinds:
                source = st.objects[oid]
                out.append(Replacement(kind, static.params["how"], source.controller, source.card or "", oid,
                                       static.params, oid, key=("static", oid, index)))
    for e in st.effects:
        if isinstance(e, Replacement) and e.event in kinds:
            out.append(e)
    for fn in BUILT_IN:
        out += fn(game, kind, ev)
    return out


@enforces("en-2024-11-08/122.6")
def also_kinds(kind: str, ev: dict) -> tuple[str, ...]:
    """The kinds of event an event is: a permanent entering with counters is also counters being put (122.6)."""
    if kind == "enters" and ev.get("counters"):
        applied("en-2024-11-08/122.6")
        return (kind, "counters")
    return (kind,)


def exists(game, kind: str) -> bool:
    """A quick test: could any replacement effect apply to an event of ``kind``?"""
    on_bf = statics_on_battlefield(game)
    if any(s.params.get("event", "damage") == kind for k in ("replace", "prevent") for _, s in on_bf.get(k, ())):
        return True
    if kind in FORBIDS and "cant" in on_bf:
        return True
    return any(isinstance(e, Replacement) and e.event == kind for e in game.state.effects)


@enforces("614.1", "614.5", "614.6", "614.16", "616.1", "616.1a", "616.1b", "616.1d", "616.1e", "616.1f", "616.2",
          "609.6")
def replace_event(game, kind: str, ev: dict, affected: int) -> dict | None:
    """Apply the replacement and prevention effects to an event before it happens; ``affected`` is the affected
    player or the affected object's controller, who chooses the order (616.1).  Returns the event that happens
    instead, or None if nothing happens (614.6)."""
    used: set = set()
    seen: set = set()
    rounds = 0
    forbids = FORBIDS.get(kind)
    cant = forbids is not None and forbids(game, kind, ev)
    while ev is not None:
        bounded(game, "616.1f", rounds, f"applying replacement effects to one {kind} event")
        found = [r for r in candidates(game, kind, ev)
                 if r.key not in used and criteria_hold(game, r, kind, ev) and APPLIES[r.how](game, r, ev)]
        if cant:
            found = only_self_replacement(found)
        if not found:
            break
        applied("609.6")
        applied("614.1")
        if rounds:
            applied("616.1f")  # once one is applied, the remaining applicable ones are looked at again
            if any(r.key not in seen for r in found):
                applied("616.2")  # it became applicable through the modified event
        seen = {r.key for r in found}
        selfs = [r for r in found if r.self_replacement]
        control = [r for r in found if r.how in CONTROL]
        back = [r for r in found if r.how in BACK_FACE]
        if selfs:
            applied("616.1a")
        elif control:
            applied("616.1b")  # one that changes under whose control it enters must be chosen first
        elif back and len(back) < len(found):
            applied("616.1d")  # then one that has it enter with its back face up
        pool = selfs or control or back or found
        if len(pool) > 1:
            applied("616.1")
            applied("616.1e")
        chosen = choose(game, affected, pool)
        used.add(chosen.key)
        applied("614.5")  # it gets only this one opportunity to affect the event
        ev = HANDLERS[chosen.how](game, chosen, ev)
        if ev is not None and ev.get("by_effect") is False:
            applied("614.16")  # a replacement effect now puts them: "if an effect would put …" applies too
            ev = {**ev, "by_effect": True}
        rounds += 1
    if ev is None:
        applied("614.6")  # replaced: the original event never happens
    elif cant and (not rounds or forbids is None or forbids(game, kind, ev)):
        return None  # it can't happen (614.17) — nor what a self-replacement effect made of it, if that can't
    return ev


def _event_object(game, ev: dict):
    obj = game.state.objects.get(ev.get("obj"))
    return (obj, None) if obj is not None else None


#: what an event of each kind is about, for a replacement effect's object criteria: fn(game, event) -> (object,
#: its characteristics or None for its current ones), or None — damage: its source ("damage a source you control
#: would deal"); the others: the object the event happens to
SUBJECTS: dict[str, Callable] = {
    "damage": lambda game, ev: (ev["source"], ev["source_ch"]),
    "destroy": _event_object, "to_graveyard": _event_object, "enters": _event_object, "counters": _event_object,
}


@enforces("614.1a", "614.16")
def criteria_hold(game, r: Replacement, kind: str, ev: dict) -> bool:
    """Does the event match what the replacement effect's text describes (614.1a: "if [this] would happen")?  The
    one place where the criteria written in a card file are applied, for every kind of replacement: ``objects``
    (what the event is about: a creature, one an opponent controls, a token …, judged as it is now) and
    ``from_zone`` (the zone it leaves: "would die" is from the battlefield) and ``by_effect`` ("if an effect would
    put …", not a cost, 614.16).  Each handler's own test
    (:data:`APPLIES`) adds only what its kind of effect means."""
    p = r.params
    flt = p.get("objects")
    if flt is not None:
        subject = SUBJECTS.get(kind, _nothing)(game, ev)
        if subject is None or not matches(game, subject[0], flt, r.controller, r.source_id, ch=subject[1],
                                          any_zone=True):
            return False
    if "from_zone" in p and ev.get("from") != p["from_zone"]:
        return False
    if p.get("by_effect") and not ev.get("by_effect", True):
        return False  # "if an effect would put …": not counters put as a cost (614.16)
    if "condition" in p:  # a static ability's condition ("during your turn", 611.3a): it applies while that holds
        source = game.state.objects.get(r.source_id)
        return source is not None and conditions.holds(game, p["condition"], source, r.controller)
    return True


def _nothing(game, ev: dict) -> None:
    return None


@enforces("614.17c")
def only_self_replacement(found: list[Replacement]) -> list[Replacement]:
    """An event that can't happen can be replaced only by a self-replacement effect; other replacement and
    prevention effects can't modify it (614.17c)."""
    selfs = [r for r in found if r.self_replacement]
    if len(selfs) != len(found):
        applied("614.17c")
    return selfs


def choose(game, player: int, pool: list[Replacement]) -> Replacement:
    """The affected player's choice among several (``replace: CARD; CARD`` in a scenario step: the first named that
    applies); by default the earliest."""
    if len(pool) == 1:
        return pool[0]
    decisions = game.decisions
    for name in (getattr(decisions, "replace", None) or ()):
        for r in pool:
            if r.card == name:
                return r
    return min(pool, key=lambda r: r.timestamp)


def use(game, r: Replacement, left: int | None = None) -> None:
    """A resolved effect was used: a shield with ``left`` damage to prevent stays, one used up goes (615.7, 614.8)."""
    st = game.state
    if r not in st.effects:
        return
    i = st.effects.index(r)
    if left:
        from dataclasses import replace
        st.effects[i] = replace(r, left=left)
    else:
        del st.effects[i]


#: whether a replacement applies to an event: one test per handler (each has one: test_replacement_criteria.py)
APPLIES: dict[str, Callable] = {}


def applies_when(name: str):
    def register(fn):
        APPLIES[name] = fn
        return fn
    return register
