"""Continuous effects (611): from resolving spells and abilities, and from static abilities.

A continuous effect changes characteristics or control of objects for a while.  It is one
:class:`Continuous` record, split into the parts each layer applies (613.6); :mod:`engine.layers`
applies them when a characteristic is read.

* From a resolving spell or ability (effect ``continuous`` of a card file, 611.2): the set of
  objects it affects is determined once, as it resolves, and locked (611.2c) — an object that
  becomes white afterwards does not get "all white creatures get +1/+1"; a variable such as X is
  also fixed then (611.2d).  It lasts as stated: until end of turn (611.2a, ended in the cleanup
  step, 514.2), as long as its controller controls its source (611.2b), or indefinitely.
* From a static ability (static ``modify`` of a card file, 611.3): not locked (611.3a); it applies
  while its source is on the battlefield (611.3b), to whatever matches now, including a permanent
  the moment it enters (611.3c).

Both kinds get a timestamp (613.7a, 613.7b) from one sequence with object ids, so that an
object's timestamp — the id it got as it entered its zone (613.7d) — and effects' timestamps
compare.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import conditions
from .effects import Resolution, effect
from .filters import Filter, matches
from .printed import continuous as continuous_statics
from .registry import _ACTIVE as TRACING
from .registry import applied, enforces
from .state import BATTLEFIELD

#: the layers and sublayers, in order (613.1, 613.2, 613.4)
LAYERS = ("1a", "1b", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")

#: the key of a change in a card file -> the layer it applies in (613.6: one effect may have parts in several)
LAYER_OF = {
    "copy_of": "1a",
    "control": "2",
    "change_text": "3", "set_name": "3",
    "types": "4", "add_types": "4", "add_subtypes": "4", "set_subtypes": "4", "lose_supertypes": "4",
    "set_land_types": "4",
    "name_word": "3", "position": "3", "exchange_text": "3", "full_text_of": "3", "all_names": "3",
    "change_subtype": "3",
    "colors": "5", "add_colors": "5",
    "keywords": "6", "lose_keywords": "6", "lose_all_abilities": "6", "grants": "6",
    "grants_triggers": "6", "grants_abilities": "6",
    "set_power": "7b", "set_toughness": "7b", "set_pt_count": "7b",
    "power": "7c", "toughness": "7c",
    "switch": "7d",
}
#: the function that gives an object's copiable values (engine.copies puts it here; copies need the layers)
COPIABLE_VALUES: list = []
#: how long an effect of a resolved spell or ability lasts
#: changes an effect on the next spell (engine.nextspell) cannot make (abilities granted to objects: engine.cardread
#: reads them with the card, for a static ability or a resolving spell's effect)
STATIC_ONLY = ("grants_triggers", "grants_abilities")
DURATIONS = ("end_of_turn", "while_controlled", "indefinite")
#: called as ``hook(game, obj)`` after an object received a new timestamp (stickers follow it, 613.7k)
RESTAMPED: list = []


@dataclass(frozen=True, slots=True, eq=False)
class Continuous:
    """One continuous effect: its parts by layer, whom it affects, where it comes from and how long it lasts."""

    parts: dict  # layer -> {key: value}
    timestamp: int
    controller: int
    card: str  # the source's name, for explanations
    source_id: int | None = None  # the object it comes from (a static ability's permanent; an ability's source)
    source_uid: int = 0
    locked: frozenset | None = None  # object ids, fixed as the effect was created (611.2c); None: a static's filter
    objects: object = None  # a static ability's "self", "attached" or Filter (611.3a: evaluated when read)
    cda: bool = False  # a characteristic-defining ability (613.3, 613.4a)
    duration: str = "static"  # "static" (611.3b) or one of DURATIONS
    granted: int = 0  # a static ability another effect granted its source: its place after the source's own (613.7a)
    static: object = None  # the static ability (StaticDef) of its source that generates it (613.8a: its existence)
    condition: tuple = ()  # a static ability's condition ("as long as it's your turn"): it applies only while true


def parts_of(params: dict) -> dict:
    """The changes of a card-file table, grouped by the layer each applies in (613.6)."""
    parts: dict = {}
    for key, value in params.items():
        layer = LAYER_OF.get(key)
        if layer is not None:
            parts.setdefault(layer, {})[key] = value
    return parts


def new_timestamp(st) -> int:
    """The next timestamp: one sequence with object ids (an object's id is its timestamp in its zone, 613.7d)."""
    t = st.next_id
    st.next_id += 1
    return t


def layered(st) -> list:
    """The continuous effects of resolved spells and abilities now in force."""
    return [e for e in st.effects if isinstance(e, Continuous)]


@effect("continuous", optional=("what", "all", "duration", "choose_color", *LAYER_OF))
@enforces("611.1", "611.2", "611.2a", "611.2c", "611.2d", "613.6", "613.7b", "609.2")
def create_continuous(ctx: Resolution, spec: dict) -> None:
    """A continuous effect of a resolving spell or ability: the objects it affects are determined now and locked
    (611.2c); X and other values are fixed now (611.2d); it gets its timestamp now (613.7b)."""
    st = ctx.state
    game = ctx.game
    if "all" in spec:
        applied("609.2")  # "all lands": the lands on the battlefield, not land cards elsewhere
        affected = [o.id for o in (st.objects[oid] for oid in st.battlefield)
                    if matches(game, o, spec["all"], ctx.controller, ctx.source_id)]
    else:
        affected = [o.id for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD]
    params = {k: _fixed(ctx, k, v) for k, v in spec.items() if k in LAYER_OF}
    if "copy_of" in params:
        originals = ctx.objects(params["copy_of"])
        if not originals:
            del params["copy_of"]
        else:
            params["copy_of"] = COPIABLE_VALUES[0](game, originals[0])
    if spec.get("choose_color"):  # "becomes the colour of your choice": chosen as it resolves (608.2d)
        params["colors"] = [ctx.choose_option(["W", "U", "B", "R", "G"], "choose a colour")]
    if params.get("control") == "you":
        params["control"] = ctx.controller
    parts = parts_of(params)
    applied("611.1")
    applied("611.2")
    applied("611.2c")
    applied("613.7b")
    if any(isinstance(spec.get(k), (dict, str)) and spec.get(k) != "you" for k in ("power", "toughness")):
        applied("611.2d")
    if len(parts) > 1:
        applied("613.6")  # one effect, parts in several layers: each applies in its own
    duration = spec.get("duration", "end_of_turn")
    if duration == "end_of_turn":
        applied("611.2a")
    source = st.objects.get(ctx.source_id)
    eff = Continuous(parts, new_timestamp(st), ctx.controller, ctx.obj.source_card or ctx.obj.card or "",
                     ctx.source_id, source.uid if source is not None else 0, frozenset(affected), None, False, duration)
    st.effects.append(eff)
    refresh(game)


@enforces("611.2e")
def enters_as(ctx: Resolution, obj, changes: dict) -> None:
    """A resolving spell or ability puts a permanent onto the battlefield and says it "is [characteristic]": the
    effect applies as it enters — abilities that trigger on entering see it so (611.2e)."""
    applied("611.2e")
    st = ctx.state
    st.effects.append(Continuous(parts_of(changes), new_timestamp(st), ctx.controller,
                                 ctx.obj.source_card or ctx.obj.card or "", ctx.source_id, 0, frozenset({obj.id}),
                                 None, False, "indefinite"))


def _fixed(ctx: Resolution, key: str, value):
    if key in ("power", "toughness", "set_power", "set_toughness") and not isinstance(value, int):
        return ctx.amount(value)  # X or a number from the game: determined once (611.2d)
    return value


@enforces("611.3", "611.3a", "611.3b", "613.7a")
def from_statics(game, statics: list) -> list[Continuous]:
    """The continuous effects the static abilities on the battlefield generate now: each has its source's timestamp
    (613.7a) and applies to whatever its text indicates when read (611.3a), while its source is there (611.3b)."""
    st = game.state
    out = []
    for source_id, static in statics:
        source = st.objects.get(source_id)
        if source is None:
            continue
        parts = parts_of(static.params)
        if not parts:
            continue
        if parts.get("2", {}).get("control") == "you":  # "you control enchanted creature": its source's controller
            parts = {**parts, "2": {"control": source.controller}}
        applied("611.3")
        applied("611.3a")
        applied("611.3b")
        applied("613.7a")
        out.append(Continuous(parts, timestamp_of(source), source.controller, source.card or "", source_id,
                              source.uid, None, static.params.get("objects"), False, "static", static=static,
                              condition=static.params.get("condition", ())))
    return out


@enforces("613.7d", "613.7e", "613.7f", "613.7g", "613.7h", "613.7i", "613.7j", "613.7m")
def timestamp_of(obj) -> int:
    """An object's timestamp: when it entered its zone (613.7d, its id), or the one it received later — attached
    (613.7e), turned face up or down (613.7f), transformed (613.7g), a plane, phenomenon, scheme turned face up
    (613.7h), a vanguard or conspiracy at the beginning of the game (613.7i, 613.7j), several at once (613.7m)."""
    stamp = obj.memory.get("timestamp")
    if stamp is None:
        applied("613.7d")
        return obj.id
    applied(obj.memory.get("stamped", "613.7e"))
    return stamp


def restamp(game, obj, rule: str) -> None:
    """``obj`` receives a new timestamp (613.7e: attached; 613.7f: turned face up or down; …)."""
    obj.memory["timestamp"] = new_timestamp(game.state)
    obj.memory["stamped"] = rule
    game.holders_cache = None  # turned face up, transformed: the triggered abilities it has may have changed
    for hook in RESTAMPED:
        hook(game, obj)


@enforces("611.2c", "604.1", "604.2", "604.4", "604.7")
def affects(game, eff: Continuous, obj, ch) -> bool:
    """Does ``eff`` apply to ``obj`` (whose characteristics so far are ``ch``)?  An effect of a resolved spell:
    only if the object was in its locked set (611.2c).  A static ability's: judged from what its source is now
    (604.7) — the object an Aura or Equipment is attached to (604.4), or whatever matches its criteria."""
    if eff.locked is not None:
        hit = obj.id in eff.locked
        if hit and TRACING:
            applied("611.2c")
        return hit
    target = eff.objects
    source = game.state.objects.get(eff.source_id)
    if source is None:
        return False
    if eff.condition and not conditional_applies(game, eff, source):
        return False
    if target.__class__ is Filter:  # on the battlefield unless the criteria name another zone (609.2)
        hit = matches(game, obj, target, source.controller, eff.source_id, ch=ch)
    elif target == "self":
        hit = obj.id == eff.source_id
    elif target == "attached":
        hit = source.attached_to == obj.id
        if hit and TRACING:
            applied("604.4")
    else:
        hit = False
    if hit and TRACING:
        applied("604.1")
        applied("604.2")
        applied("604.7")
    return hit


@enforces("611.3a")
def conditional_applies(game, eff: Continuous, source) -> bool:
    """A static ability with a condition ("as long as it's your turn, [this] is a creature"): its effect applies
    at each moment the condition holds and not otherwise (611.3a: not locked in)."""
    applied("611.3a")
    return conditions.holds(game, eff.condition, source, source.controller)


@enforces("611.2b", "611.2a")
def refresh(game) -> None:
    """Effects whose "for as long as" duration is over end (611.2b) — one that never began ends at once; then
    control is brought up to date with layer 2 (:func:`sync_control`)."""
    st = game.state
    if not st.effects:
        if _control_statics(game) or any("base_controller" in st.objects[o].memory for o in st.battlefield):
            sync_control(game)
        return
    kept = []
    for e in st.effects:
        if isinstance(e, Continuous) and e.duration == "while_controlled" and not _still_controlled(st, e):
            applied("611.2b")
            continue
        kept.append(e)
    if len(kept) != len(st.effects):
        st.effects = kept
    sync_control(game)


def _still_controlled(st, eff: Continuous) -> bool:
    source = st.objects.get(eff.source_id) if eff.source_id is not None else None
    return source is not None and source.uid == eff.source_uid and source.zone == BATTLEFIELD \
        and source.controller == eff.controller


@enforces("611.2a")
def end_of_turn(game) -> None:
    """The cleanup step: "until end of turn" and "this turn" effects end (611.2a, 514.2) — continuous effects,
    cost changes, shields; others stay."""
    st = game.state
    kept = [e for e in st.effects if getattr(e, "duration", "end_of_turn") != "end_of_turn"]
    if len(kept) != len(st.effects):
        applied("611.2a")
        st.effects = kept
        sync_control(game)


@enforces("613.1b", "611.2b")
def _control_statics(game) -> list:
    """The static abilities on the battlefield that change control ("you control enchanted creature")."""
    return [(oid, s) for oid, s in continuous_statics(game) if "control" in s.params]


@enforces("613.1b")
def sync_control(game) -> None:
    """Control is read from ``Obj.controller`` everywhere; after effects began or ended it is brought up to date
    with what layer 2 says (the value before any control-changing effect is kept as the base)."""
    st = game.state
    effects = [e for e in layered(st) if "2" in e.parts]
    statics = from_statics(game, _control_statics(game))
    for oid in st.battlefield:
        obj = st.objects[oid]
        mine = [e for e in effects if e.locked is not None and oid in e.locked]
        mine += [e for e in statics if affects(game, e, obj, game.characteristics(obj))]  # 613.1b, 611.3a
        if not mine and "base_controller" not in obj.memory:
            continue
        base = obj.memory.setdefault("base_controller", obj.controller)
        now = base
        for e in sorted(mine, key=lambda e: e.timestamp):
            applied("613.1b")
            now = e.parts["2"]["control"]
        if not mine:
            del obj.memory["base_controller"]
        if now != obj.controller:
            obj.controller = now
            obj.since_turn = st.turn  # it came under this player's control now (302.6)
