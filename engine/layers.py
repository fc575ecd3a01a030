"""The layer system (613): an object's characteristics, computed from its printed ones when they are read.

Nothing computed here is stored (613.5: the game does it continually and automatically): every
read of a characteristic starts from the object (its card, or the alternative characteristics it
has: a face-down permanent's, 613.2b) and applies the continuous effects in force in layer order
(613.1) — one function per layer, each citing its rule (:data:`LAYER_FUNCTIONS`); what one effect's part
changes is :mod:`engine.layerparts`' (layer 3: :mod:`engine.textchange`).  Within a layer,
characteristic-defining abilities apply first (613.3, 613.4a), then the others in timestamp order
(613.7) unless one depends on another (613.8).  Whether an effect applies to the object is decided
with the characteristics the earlier layers gave it (613.9: "white creatures get +1/+1" and
"enchanted creature is white").

When no continuous effect is in force, :mod:`engine.characteristics` takes a fast path and never
comes here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .carddefs import CardDef
from .continuous import Continuous, affects, from_statics, layered, timestamp_of
from .equipment import granted_effects, sort_key
from .filters import Filter
from .layerparts import APPLY, Draft
from .printed import base, continuous, defined_number
from .registry import _ACTIVE as TRACING
from .registry import EN, applied, enforces, silenced


@dataclass(slots=True)
class Result:
    ch: CardDef  # characteristics after layers 1–6, power and toughness after 7a–7b (base values)
    controller: int
    power: int | None
    toughness: int | None
    #: id of an effect with parts in several layers -> whether it applies to the object, decided in its first (613.6)
    began: dict = field(default_factory=dict)


@dataclass(slots=True)
class Active:
    """The continuous effects in force, grouped by layer."""

    by_layer: dict  # layer -> [Continuous]
    shapes: bool  # some effect changes layers 1–7b (the CardDef); if not, only power and toughness change
    plan: tuple = ()  # (layer function, its effects) for each layer with something to do, in order
    sensitive: frozenset = frozenset()  # layers with an effect whose criteria another effect of the layer may change
    elsewhere: bool = False  # some effect applies to objects in a zone other than the battlefield
    tests: dict = field(default_factory=dict)  # layer -> ((effect, a quicker equivalent of affects()), …)
    #: which objects any of the effects can apply to — (card types of their criteria, locked ids, sources of
    #: "self" effects, sources of "attached" effects) — or None when that cannot be told without the layers
    reach: tuple | None = None

    def __bool__(self) -> bool:
        return bool(self.by_layer)


NONE = Active({}, False)
#: the layers whose results are part of the characteristics (CardDef); 7c and 7d change only power and toughness
SHAPING = frozenset({"1a", "2", "3", "4", "5", "6", "7b"})


def _grouped(game, all_effects: list) -> Active:
    """The effects by layer, ordered, with what the reads need to know about them."""
    by_layer: dict = {}
    for e in all_effects:
        for layer in e.parts:
            by_layer.setdefault(layer, []).append(e)
    for effects_of_layer in by_layer.values():  # CDAs first, then timestamps (613.3, 613.7); a new timestamp
        effects_of_layer.sort(key=lambda e: (not e.cda, _ts(game, e)))  # takes a new id: the cache is made again
    plan = tuple((fn, by_layer.get(layer, [])) for layer, fn in LAYER_FUNCTIONS.items()
                 if layer in by_layer or layer in ALWAYS)
    sensitive = frozenset(layer for layer, effects in by_layer.items() if any(_sensitive(e, layer) for e in effects))
    elsewhere = any(isinstance(e.objects, Filter) and e.objects.zone != "battlefield" or e.objects == "spell"
                    for e in all_effects)  # "spell": an effect on a spell on the stack (611.2f, 612.10)
    tests = {layer: tuple((e, _test_of(e)) for e in effects) for layer, effects in by_layer.items()}
    return Active(by_layer, bool(SHAPING.intersection(by_layer)), plan, sensitive, elsewhere,
                  tests, _reach(all_effects)) if by_layer else NONE


#: the layers whose effects could change which objects the other effects reach (copy, control, text, type)
_CHANGES_REACH = frozenset({"1a", "2", "3", "4"})


def _reach(effects: list) -> tuple | None:
    """Which objects the effects can apply to at all, when that can be told from the objects as they start: no
    effect changes types, text, control or copiable values, and every criterion names card types."""
    types: set = set()
    locked: set = set()
    selfs, attached = set(), []
    for e in effects:
        if not _CHANGES_REACH.isdisjoint(e.parts):
            return None
        if e.locked is not None:
            locked |= e.locked
        elif e.objects.__class__ is Filter and e.objects.types and e.objects.zone == "battlefield":
            types |= e.objects.types
        elif e.objects == "self":
            selfs.add(e.source_id)
        elif e.objects == "attached":
            attached.append(e.source_id)
        else:
            return None
    return frozenset(types), frozenset(locked), frozenset(selfs), tuple(attached)


def untouched(game, obj, card: CardDef, active: Active) -> bool:
    """Is it certain, without applying the layers, that no effect in force applies to ``obj`` (its card types are
    none an effect's criteria name, it is in no locked set, no effect is its own or its Aura's)?  Then its
    characteristics are the ones it starts with (613.1: no layer changes anything).  Not used while rules are
    being recorded, so that a trace shows the layers looked at."""
    reach = active.reach
    if reach is None or TRACING:
        return False
    types, locked, selfs, attached = reach
    if card.types & types or obj.id in locked or obj.id in selfs:
        return False
    objects = game.state.objects
    return not any(objects[s].attached_to == obj.id for s in attached if s in objects)


def _test_of(eff: Continuous):
    """How to decide quickly, when no rules are being recorded, whether ``eff`` applies to an object: the same
    answer as :func:`engine.continuous.affects`, without its general criteria for the two common cases."""
    if eff.locked is not None:
        return _in_locked_set
    if eff.objects.__class__ is Filter and _only_types(eff.objects) and not eff.condition:
        return _of_type
    return affects


#: id(filter) -> (the filter, whether its criteria name only card types): filters are card data, kept for good
_ONLY_TYPES: dict = {}


def _only_types(flt: Filter) -> bool:
    known = _ONLY_TYPES.get(id(flt))
    if known is None or known[0] is not flt:
        if len(_ONLY_TYPES) > 10_000:  # filters made on the fly (none today): keep the table bounded
            _ONLY_TYPES.clear()
        known = _ONLY_TYPES[id(flt)] = (flt, flt == Filter(types=flt.types))
    return known[1]


def _in_locked_set(game, eff: Continuous, obj, ch) -> bool:
    return obj.id in eff.locked  # type: ignore[operator]


def _of_type(game, eff: Continuous, obj, ch) -> bool:
    """Criteria that name only card types ("creatures get …"): a permanent with one of them, while the source
    exists."""
    types: frozenset = eff.objects.types  # type: ignore[attr-defined]
    return obj.zone == "battlefield" and obj.ability is None and bool(types & ch.types) \
        and eff.source_id in game.state.objects


def effects_in_force(game) -> Active:
    """All continuous effects that change characteristics now — from static abilities and from resolved spells
    and abilities — by layer; made again only when the battlefield or the effects in force change (a permanent
    that turns face up or transforms, whose static abilities change with it, receives a new timestamp).  Effects of
    static abilities that another effect takes away from their source before they begin to apply do not exist
    (:func:`existing`)."""
    st = game.state
    effects = st.effects
    cache = getattr(game, "continuous_cache", None)
    if cache is not None and cache[3] == st.next_id and cache[1] == effects and cache[4] == st.battlefield:
        return cache[2]
    statics = continuous(game)
    if cache is not None and cache[0] is statics and cache[1] == effects and cache[3] == st.next_id:
        return cache[2]
    all_effects = from_statics(game, statics) + layered(st)
    all_effects += granted_effects(game, all_effects)
    active = _grouped(game, all_effects)
    # while the existence of effects is decided, criteria that read other objects' characteristics see all of them
    game.continuous_cache = (statics, effects[:], active, st.next_id, st.battlefield[:])
    if any(_may_remove_abilities(e) for e in all_effects):
        kept = existing(game, active)
        if kept != all_effects:
            active = _grouped(game, kept)
            game.continuous_cache = (statics, effects[:], active, st.next_id, st.battlefield[:])
    return active


def _may_remove_abilities(eff: Continuous) -> bool:
    """Could ``eff`` take a static ability away from an object: a copy effect (1a), a text change (3), setting a land
    type (4, 305.7), removing all abilities (6)?"""
    p = eff.parts
    return "1a" in p or "3" in p or "set_land_types" in p.get("4", ()) or bool(p.get("6", {}).get("lose_all_abilities"))


#: the layers in which an effect can take an ability away (after 6, abilities no longer change)
_UP_TO_6 = ("1a", "2", "3", "4", "5", "6")


@enforces("613.8a", "613.8b", "613.6", "604.1", "612.1", "612.2")
def existing(game, active: Active) -> list[Continuous]:
    """The continuous effects that exist: an effect of a static ability exists only while its source has that
    ability (604.1) — judged when the effect would begin to apply, in its first layer, after the effects that apply
    before it there.  So the layers are applied to every permanent at once, layer by layer up to 6 (the last in
    which abilities change), each layer's effects in timestamp order, except that an effect whose existence another
    effect of the same layer would change waits until just after it (613.8a, 613.8b: Blood Moon before Urborg's
    "each land is a Swamp", which it takes away, 305.7); in a loop, timestamp order.  An effect that began to apply
    keeps applying in its later layers even if its ability is removed meanwhile (613.6); one that begins after
    layer 6 exists if its source still has the ability then (Humility and a lord's +1/+1).  A text change makes
    an effect say what the changed ability says (612.1, 612.2: "green creatures" made "blue creatures")."""
    st = game.state
    objects = st.objects
    probes = {oid: _start(game, objects[oid]) for oid in st.battlefield}
    gone: set = set()
    begun: set = set()
    said: dict = {}  # (source id, id of a static as printed) -> the static as text changes made it (layer 3)
    # every permanent is being computed: a criterion that reads one sees its values so far (nothing is kept)
    mine = [oid for oid in probes if oid not in _COMPUTING]
    _COMPUTING.update((oid, probes[oid]) for oid in mine)
    try:
        _up_to_6(game, active, probes, gone, begun, said)
    finally:
        for oid in mine:
            del _COMPUTING[oid]
    for e in (e for effects in active.by_layer.values() for e in effects):
        if id(e) not in begun and id(e) not in gone and not _has_ability(e, probes):
            applied("613.8a")  # it would begin after layer 6, when its source no longer has the ability
            gone.add(id(e))
    seen: set = set()
    kept = []
    for effects in active.by_layer.values():
        for e in effects:
            if id(e) not in gone and id(e) not in seen:
                seen.add(id(e))
                kept += _as_said(game, e, said)
    return kept


@enforces("613.8a", "613.8b", "613.6")
def _up_to_6(game, active: Active, probes: dict, gone: set, begun: set, said: dict) -> None:
    """:func:`existing`'s layers 1–6, applied to every permanent's probe: which effects begin (``begun``), which do
    not exist (``gone``), what text changes made the abilities say (``said``)."""
    objects = game.state.objects
    for layer in _UP_TO_6:
        rest = [e for e in active.by_layer.get(layer, ()) if id(e) not in gone]
        while rest:
            waiting = {id(a) for a in rest if id(a) not in begun and any(
                b is not a and _changes_existence(game, layer, a, b, probes) for b in rest)}
            pick = next((a for a in rest if id(a) not in waiting), rest[0])  # a loop: timestamp order (613.8b)
            if pick is not rest[0]:
                applied("613.8b")
            rest.remove(pick)
            if id(pick) not in begun:
                if not _has_ability(pick, probes):
                    applied("613.8a")  # its ability was taken away before it began: it does not exist
                    gone.add(id(pick))
                    continue
                begun.add(id(pick))
            elif not _has_ability(pick, probes):
                applied("613.6")  # it began in an earlier layer: it keeps applying
            for oid, probe in probes.items():
                with silenced():  # trying the layers out: the objects' characteristics are computed later
                    hit = _applies(game, pick, objects[oid], probe)
                if hit:
                    _apply_keeping_text(game, layer, objects[oid], probe, pick, said)


def _as_said(game, eff: Continuous, said: dict) -> list[Continuous]:
    """The effect as its ability says after text changes: generated from the changed ability (none if that no
    longer changes characteristics)."""
    changed = said.get((eff.source_id, id(eff.static))) if not eff.granted else None
    if changed is None:
        return [eff]
    applied("612.1")
    applied("612.2")
    return from_statics(game, [(eff.source_id, changed)])


def _start(game, obj) -> Result:
    card = START[0](game, obj) if START else base(game, obj)
    return Result(Draft.of(card), obj.memory.get("base_controller", obj.controller), card.power,  # type: ignore
                  card.toughness)


def _has_ability(eff: Continuous, probes: dict) -> bool:
    """Does the source of a static ability's effect have that ability now (in the layers applied so far)?  Effects
    of resolved spells, of granted abilities and of sources off the battlefield are not judged here."""
    if eff.static is None or eff.granted:
        return True
    probe = probes.get(eff.source_id)
    return probe is None or eff.static in probe.ch.statics


def _apply_keeping_text(game, layer: str, obj, res: Result, eff: Continuous, said: dict | None = None) -> None:
    """Apply one effect's part to a probe; a text change changes what an ability says, not whether it exists
    (612): the abilities are kept as they were if only their text changed — what they say now goes to ``said``,
    where a later text change starts from (``said``: (object id, id of the static kept) -> the static changed)."""
    before = res.ch.statics
    if said and layer == "3":
        res.ch.statics = tuple(said.get((obj.id, id(s)), s) for s in before)  # type: ignore[misc]
    with silenced():
        APPLY[layer](game, obj, res, eff)
    after = res.ch.statics
    if layer == "3" and after is not before and len(after) == len(before) and all(
            a.kind == b.kind for a, b in zip(after, before)):
        if said is not None:
            said.update(((obj.id, id(b)), a) for a, b in zip(after, before) if a is not b)
        res.ch.statics = before  # type: ignore[misc]


def _changes_existence(game, layer: str, a: Continuous, b: Continuous, probes: dict) -> bool:
    """Would applying ``b`` (same layer) change whether ``a``'s ability exists — take it from its source or give
    it (613.8a)?  Not if exactly one of them is from a characteristic-defining ability (613.8a (c))."""
    if a.static is None or a.granted or a.cda != b.cda:
        return False
    probe = probes.get(a.source_id)
    if probe is None:
        return False
    obj = game.state.objects[a.source_id]
    with silenced():
        if not _would_apply(game, b, obj, probe):
            return False
    trial = _copy_result(probe)
    _apply_keeping_text(game, layer, obj, trial, b)
    return (a.static in trial.ch.statics) != (a.static in probe.ch.statics)


#: the objects whose characteristics are being computed -> their values so far
_COMPUTING: dict = {}
#: the effects in force of the computations going on (innermost last)
_CURRENT: list = []


@enforces("613.1", "613.5", "613.3")
def compute(game, obj, card: CardDef, active: Active, finish: bool = True, stop: str | None = None) -> Result:
    """Apply the layers in order (613.1) to ``card``, the object's values after layer 1 (``finish``: also make the
    characteristics a CardDef again — not needed when only power and toughness are read; ``stop``: the layer
    before which to stop, for the values an object has as that layer begins)."""
    so_far = _COMPUTING.get(obj.id)
    if so_far is not None:  # an effect's criterion asks about the object being computed: its values so far
        return _copy_result(so_far)
    try:
        if TRACING:
            applied("613.1")
            applied("613.5")
            if card.cda and ("4" in active.by_layer or "5" in active.by_layer):
                applied("613.3")  # its characteristic-defining abilities were applied first (604.3), then the others
        res = Result(card, obj.memory.get("base_controller", obj.controller), card.power, card.toughness)
        if active.shapes:
            res.ch = Draft.of(card)  # type: ignore[assignment]
        _COMPUTING[obj.id] = res
        _CURRENT.append(active)
        try:
            for fn, effects in active.plan:
                if stop is not None and _LAYER_OF[fn] == stop:
                    break
                fn(game, obj, res, effects)
        finally:
            _CURRENT.pop()
        if active.shapes and finish:
            res.ch = res.ch.done()  # type: ignore[attr-defined]
        return res
    finally:
        _COMPUTING.pop(obj.id, None)


def _ts(game, eff: Continuous) -> tuple:
    if eff.duration != "static":
        return (eff.timestamp, 0)
    source = game.state.objects.get(eff.source_id)
    return sort_key(game, eff, timestamp_of(source) if source is not None else eff.timestamp)


@enforces("613.3", "613.7", "613.8", "613.8a", "613.8b", "613.8c", "613.9")
def in_order(game, obj, res: Result, layer: str, effects: list[Continuous]) -> list[Continuous]:
    """The effects of one layer that apply to ``obj``, in the order they apply: characteristic-defining ones first
    (613.3), then by timestamp (613.7) — except that an effect that depends on another waits until just after it
    (613.8b), re-evaluated after each effect applied (613.8c); a dependency loop falls back to timestamps."""
    if len(effects) == 1 and not effects[0].cda:
        return effects
    if layer not in _CURRENT[-1].sensitive:
        if TRACING:
            applied("613.7")
            if effects[0].cda:
                applied("613.3")
        return effects  # already in that order
    cdas = [e for e in effects if e.cda]
    rest = sorted((e for e in effects if not e.cda), key=lambda e: _ts(game, e))
    if cdas:
        applied("613.3")
    if len(rest) > 1:
        applied("613.7")
    if len(rest) < 2 or not any(_sensitive(e, layer) for e in rest):  # no effect's criteria can change here
        return cdas + rest
    return cdas + dependency_order(game, obj, res, layer, rest)


#: the objects whose values as a layer begins are looked at to order its effects (613.8a: "what it applies to")
def _probes(game, obj, res: Result, layer: str) -> list:
    st = game.state
    others = [st.objects[oid] for oid in st.battlefield if oid != obj.id and oid not in _COMPUTING]
    active = _CURRENT[-1]
    out = [(obj, _copy_result(res))]
    for other in others:
        start = START[0](game, other) if START else base(game, other)
        out.append((other, compute(game, other, start, active, finish=False, stop=layer)))
    return out


def _order_key(game, layer: str, effects: list) -> tuple:
    st = game.state
    objs = st.objects
    return (layer, id(_CURRENT[-1]), st.next_id, tuple(map(id, effects)),
            tuple((oid, objs[oid].controller, objs[oid].face, tuple(objs[oid].counters.items()))
                  for oid in st.battlefield))


@enforces("613.8", "613.8a", "613.8b", "613.8c")
def dependency_order(game, obj, res: Result, layer: str, rest: list[Continuous]) -> list[Continuous]:
    """The order of a layer's effects (in timestamp order) with dependencies: judged over every object the effects
    may apply to (613.8a: applying one changes *what* the other applies to — the set, not one object), the effect
    that depends on others waiting until just after them (613.8b), re-evaluated after each effect applied
    (613.8c); effects in a dependency loop, and only those, in timestamp order.  The order is the same for every
    object, so it is made once per state of the game — kept only if judged over the permanents and nothing else
    (not for an object off the battlefield, itself among those judged, nor while another permanent is being
    computed, left out)."""
    key = _order_key(game, layer, rest)
    cache = getattr(game, "layer_order_cache", None)
    if cache is not None and cache[0] == key and not TRACING:
        return list(cache[1])
    probes = _probes(game, obj, res, layer)
    held = {o.id: _COMPUTING.get(o.id) for o, _ in probes}
    _COMPUTING.update((o.id, probe) for o, probe in probes)  # a criterion that reads an object sees its probe
    try:
        ordered = _ordered(game, layer, list(rest), probes)
    finally:
        _hold(held)
    battlefield = game.state.battlefield
    if obj.id in battlefield and len(probes) == len(battlefield):  # judged over every permanent and nothing else
        game.layer_order_cache = (key, tuple(ordered))
    return ordered


@enforces("613.8", "613.8b", "613.8c")
def _ordered(game, layer: str, rest: list[Continuous], probes: list) -> list[Continuous]:
    """:func:`dependency_order`'s order, judged over ``probes`` (each object with its values as the layer
    begins), applying each effect picked to them."""
    ordered: list[Continuous] = []
    while rest:
        waiting = {id(a) for a in rest if any(
            depends(game, o, probe, layer, a, b) for b in rest if b is not a for o, probe in probes)}
        pick = next((a for a in rest if id(a) not in waiting), None)
        if pick is None:
            pick = rest[0]  # every one waits for another: a dependency loop, timestamp order (613.8b)
        elif pick is not rest[0]:
            applied("613.8")
            applied("613.8b")
        applied("613.8c")
        rest.remove(pick)
        ordered.append(pick)
        with silenced():
            for o, probe in probes:
                if _applies(game, pick, o, probe):
                    APPLY[layer](game, o, probe, pick)
    return ordered


def _hold(held: dict) -> None:
    """Put back what :data:`_COMPUTING` held for these objects (None: nothing)."""
    for oid, values in held.items():
        if values is None:
            del _COMPUTING[oid]
        else:
            _COMPUTING[oid] = values


def _copy_result(res: Result) -> Result:
    ch = Draft.of(res.ch) if isinstance(res.ch, Draft) else res.ch
    return Result(ch, res.controller, res.power, res.toughness, dict(res.began))  # type: ignore[arg-type]


def _criteria_based(eff: Continuous) -> bool:
    return eff.locked is None and not isinstance(eff.objects, str)


#: the criteria that what a layer changes can make true or false
CRITERIA_OF = {"2": ("controller",), "4": ("types", "all_types", "not_types", "subtypes", "supertypes",
                                            "not_supertypes"),
               "5": ("colors", "not_colors"), "7b": ("power_max", "power_min"), "7c": ("power_max", "power_min"),
               "7d": ("power_max", "power_min")}


def _sensitive(eff: Continuous, layer: str) -> bool:
    """Could another effect of this layer change whether ``eff`` applies?  Only if its criteria look at what the
    layer changes."""
    if not _criteria_based(eff):
        return False
    flt = eff.objects
    return any(getattr(flt, key) for key in CRITERIA_OF.get(layer, ()))


@enforces("613.8a")
def depends(game, obj, res: Result, layer: str, a: Continuous, b: Continuous) -> bool:
    """``a`` depends on ``b`` (613.8a): same layer, ``b`` does not come from a characteristic-defining ability, and
    applying ``b`` would change whether ``a`` applies to the object."""
    with silenced():
        if b.cda or not _criteria_based(a) or not _would_apply(game, b, obj, res):
            return False
        before = _would_apply(game, a, obj, res)  # (one that began in an earlier layer cannot change, 613.6)
        trial = _copy_result(res)
        APPLY[layer](game, obj, trial, b)
        held = {obj.id: _COMPUTING.get(obj.id)}
        _COMPUTING[obj.id] = trial  # what the criteria read of the object: its values with ``b`` applied
        try:
            changed = _would_apply(game, a, obj, trial) != before
        finally:
            _hold(held)
    if changed:
        applied("613.8a")
        return True
    return False


def _run(game, obj, res: Result, layer: str, effects: list[Continuous]) -> None:
    apply = APPLY[layer]
    if TRACING:
        for eff in in_order(game, obj, res, layer, effects):
            if _applies(game, eff, obj, res):
                apply(game, obj, res, eff)
        return
    active = _CURRENT[-1]
    if layer in active.sensitive:
        for eff in in_order(game, obj, res, layer, effects):
            if _applies(game, eff, obj, res):
                apply(game, obj, res, eff)
        return
    for eff, test in active.tests[layer]:  # in timestamp order already (613.7), as in_order() would give them
        if _applies(game, eff, obj, res, test):
            apply(game, obj, res, eff)


def _applies(game, eff: Continuous, obj, res: Result, test=affects) -> bool:
    """Does ``eff`` apply to ``obj`` in this layer?  An effect with parts in several layers applies in each to the
    set of objects it applied to in the first (613.6: "all noncreature artifacts become 2/2 artifact creatures" sets
    the power of those that were noncreature artifacts in layer 4): decided there, and remembered."""
    began = res.began.get(id(eff))
    if began is not None:
        return began
    hit = test(game, eff, obj, res.ch)
    if len(eff.parts) > 1:
        res.began[id(eff)] = hit
    return hit


def _would_apply(game, eff: Continuous, obj, res: Result) -> bool:
    """:func:`_applies` without deciding anything: for a trial (613.8a)."""
    began = res.began.get(id(eff))
    return began if began is not None else affects(game, eff, obj, res.ch)


# -- the layers ----------------------------------------------------------------------------------------------------

@enforces("613.1a", "613.2", "613.2a", "613.2c", EN + "707.2")
def layer_1(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 1: copy effects (1a) — the object takes the copiable values of what it copies — then face-down
    characteristics (1b, already the object's alternative characteristics); the result is its copiable values."""
    if not effects:
        return
    applied("613.1a")
    applied("613.2")
    applied("613.2a")
    _run(game, obj, res, "1a", effects)
    applied("613.2c")


@enforces("613.1b")
def layer_2(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 2: control-changing effects."""
    if effects:
        _run(game, obj, res, "2", effects)


@enforces("613.1c")
def layer_3(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 3: text-changing effects (612, :mod:`engine.textchange`)."""
    if effects:
        applied("613.1c")
        _run(game, obj, res, "3", effects)


@enforces("613.1d")
def layer_4(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 4: type-changing effects (card types, subtypes, supertypes)."""
    if effects:
        _run(game, obj, res, "4", effects)


@enforces("613.1e")
def layer_5(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 5: colour-changing effects."""
    if effects:
        _run(game, obj, res, "5", effects)


@enforces("613.1f")
def layer_6(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 6: ability-adding and ability-removing effects."""
    if effects:
        _run(game, obj, res, "6", effects)


@enforces("613.4", "613.4a", "604.3")
def layer_7a(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 7a: characteristic-defining abilities that define power and toughness — only if the object still has
    them after layer 6."""
    for static in res.ch.statics:
        if static.kind == "cda" and ("power" in static.params or "toughness" in static.params):
            applied("613.4")
            applied("613.4a")
            if "power" in static.params:
                res.power = defined_number(game, obj, static.params["power"])
            if "toughness" in static.params:
                res.toughness = defined_number(game, obj, static.params["toughness"])


@enforces("613.4b", "613.1g")
def layer_7b(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 7b: effects that set power and/or toughness to a number."""
    if effects:
        _run(game, obj, res, "7b", effects)


@enforces("613.4c", "613.7c", "613.1g")
def layer_7c(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 7c: effects and counters that modify power and/or toughness."""
    dp, dt = counter_modifiers(obj) if obj.counters else (0, 0)
    if (dp or dt) and res.power is not None:
        applied("613.4c")
        applied("613.7c")
        res.power += dp
        res.toughness = (res.toughness or 0) + dt
    if effects:
        _run(game, obj, res, "7c", effects)


@enforces("613.4d", "613.1g")
def layer_7d(game, obj, res: Result, effects: list[Continuous]) -> None:
    """Layer 7d: effects that switch power and toughness."""
    if effects:
        _run(game, obj, res, "7d", effects)


_PT_COUNTER = re.compile(r"([+-]\d+)/([+-]\d+)")
#: counter kind -> what one such counter adds to power and toughness, (0, 0) for other kinds (kept for good)
_PT_OF: dict[str, tuple[int, int]] = {}


@enforces(EN + "122.1a")
def counter_modifiers(obj) -> tuple[int, int]:
    """What the +X/+Y and -X/-Y counters on an object add to its power and toughness (122.1a): every such kind,
    not only +1/+1 and -1/-1."""
    dp = dt = 0
    for kind, n in obj.counters.items():
        pt = _PT_OF.get(kind)
        if pt is None:
            m = _PT_COUNTER.fullmatch(kind)
            pt = (int(m[1]), int(m[2])) if m else (0, 0)
            if len(_PT_OF) < 10_000:
                _PT_OF[kind] = pt
        if pt != (0, 0) and n:
            dp += pt[0] * n
            dt += pt[1] * n
    if dp or dt:
        applied(EN + "122.1a")
    return dp, dt


#: layers that have something to do without effects: face-down (1b), defined power (7a), counters (7c)
ALWAYS = frozenset({"1a", "7a", "7c"})
LAYER_FUNCTIONS = {"1a": layer_1, "2": layer_2, "3": layer_3, "4": layer_4, "5": layer_5, "6": layer_6,
                   "7a": layer_7a, "7b": layer_7b, "7c": layer_7c, "7d": layer_7d}
_LAYER_OF = {fn: layer for layer, fn in LAYER_FUNCTIONS.items()}
#: how an object's values before the layers are found (engine.characteristics registers it: printed or
#: alternative characteristics with characteristic-defining abilities)
START: list = []


@enforces("611.3c", "603.6b")
def as_it_enters(game, obj) -> None:
    """A permanent entering: the continuous effects that apply to it do so from the moment it enters, not after
    (611.3c) — its characteristics are read through the layers, so the event already sees them."""
    active = effects_in_force(game)
    ch = game.characteristics(obj)
    if any(affects(game, e, obj, ch) for effects in active.by_layer.values() for e in effects):
        applied("611.3c")
        applied("603.6b")  # never on the battlefield with its unmodified characteristics
