"""Object criteria ("eine nichtschwarze Kreatur, die du kontrollierst") as data.

A :class:`Filter` is read from a card file (``types = ["creature"], not_colors = ["B"]``)
and matched against an object's current characteristics.  Words like "you"
are relative to a perspective player: the controller of the spell, ability or
static ability that uses the filter.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from .lastknown import object_of
from .memo import outside
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, ZONES

#: the steps of combat in which blockers have been declared (509.1h: an attacker with no blocker is unblocked)
BLOCKS_DECLARED = frozenset({"declare_blockers", "combat_damage", "first_strike_damage", "end_of_combat"})

#: the permanent types (110.4), for the word "permanent" in criteria (engine.carddefs has the same set)
PERMANENT = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker"})

#: keys a filter table may have, with their meaning (documented in data/cards/README.md)
FILTER_KEYS = {
    "types": "has at least one of these card types",
    "all_types": "has all of these card types",
    "not_types": "has none of these card types",
    "subtypes": "has at least one of these subtypes",
    "colors": "has at least one of these colours (W U B R G)",
    "not_colors": "has none of these colours",
    "controller": '"you" or "opponent" (relative to the spell\'s or ability\'s controller)',
    "owner": '"you" or "opponent"',
    "tapped": "true: tapped; false: untapped",
    "zone": "battlefield (default), stack, graveyard, hand, library, exile",
    "mana_value": 'an integer or "X" (the announced value of X)',
    "mana_value_parity": '"even" or "odd"',
    "power_max": "power at most this",
    "power_min": "power at least this",
    "supertypes": "has at least one of these supertypes (legendary, basic, …)",
    "not_supertypes": "has none of these supertypes (\"nonbasic\": [\"basic\"])",
    "mana_value_max": "mana value at most this (\"mana value N or less\")",
    "token": "true: a token; false: not a token (a card or a copy of a spell)",
    "attacking": "true: an attacking creature; false: not attacking",
    "face_down": "true: a face-down permanent or spell (708); false: not face down",
    "other": "true: not the object the filter belongs to",
    "spell": "on the stack: true = spells only (default), false = abilities too",
    "ability": "on the stack: true = activated or triggered abilities only",
    "names": "one of these card names",
    "chosen_color": "has the colour chosen for the source's 'as … enters, choose a color' (607.2d)",
}

#: criteria each tested by one function of :data:`CRITERIA` — key -> (game, obj, ch, argument, perspective,
#: source id) -> bool; a Filter keeps them as ``tests``, ((key, argument), …), checked after the fields above
CRITERIA: dict[str, Callable[..., bool]] = {}
#: criteria whose argument names something of the resolving spell or ability (a target word): the effect binds
#: it as it resolves (:func:`bind`) — key -> fn(argument, the objects the word names) -> the bound argument
BOUND: dict[str, Callable] = {}


def criterion(key: str, meaning: str, bound: Callable | None = None):
    """Register a criterion test under ``key`` (documented by ``meaning``, as in :data:`FILTER_KEYS`)."""
    def register(fn):
        CRITERIA[key] = fn
        FILTER_KEYS[key] = meaning
        if bound is not None:
            BOUND[key] = bound
        return fn
    return register


@dataclass(frozen=True, slots=True)
class Filter:
    types: frozenset = frozenset()
    all_types: frozenset = frozenset()
    not_types: frozenset = frozenset()
    subtypes: frozenset = frozenset()
    colors: frozenset = frozenset()
    not_colors: frozenset = frozenset()
    controller: str | None = None
    owner: str | None = None
    tapped: bool | None = None
    zone: str = BATTLEFIELD
    mana_value: int | str | None = None
    mana_value_parity: str | None = None
    power_max: int | None = None
    power_min: int | None = None
    supertypes: frozenset = frozenset()
    other: bool = False
    spell: bool = True
    ability: bool = False
    names: frozenset = frozenset()
    chosen_color: str | None = None
    not_supertypes: frozenset = frozenset()
    mana_value_max: int | None = None
    token: bool | None = None
    attacking: bool | None = None
    face_down: bool | None = None
    tests: tuple = ()  # ((key of CRITERIA, argument), …)

    @staticmethod
    def from_table(table: dict, where: str) -> "Filter":
        kw: dict[str, Any] = {}
        tests = []
        for key, value in table.items():
            if key not in FILTER_KEYS:
                raise ValueError(f"{where}: unknown filter key {key!r} (known: {', '.join(FILTER_KEYS)})")
            if key in CRITERIA:
                tests.append((key, tuple(value) if isinstance(value, list) else value))
            elif key in ("types", "all_types", "not_types", "subtypes", "supertypes", "not_supertypes", "colors",
                       "not_colors", "names"):
                if isinstance(value, str):
                    value = [value]
                kw[key] = frozenset(value)
                if key == "types" and "permanent" in kw[key]:  # "permanent": any of the permanent types (110.4)
                    kw[key] = (kw[key] - {"permanent"}) | PERMANENT
            else:
                kw[key] = value
        if kw.get("ability"):
            kw["spell"] = False
        if isinstance(kw.get("mana_value"), dict):
            kw["mana_value"] = ("counters", kw["mana_value"]["counters"])
        if kw.get("zone", BATTLEFIELD) not in ZONES:
            raise ValueError(f"{where}: unknown zone {kw['zone']!r}")
        for rel in ("controller", "owner"):
            if kw.get(rel) not in (None, "you", "opponent"):
                raise ValueError(f"{where}: {rel} must be \"you\" or \"opponent\"")
        return Filter(**kw, tests=tuple(tests))


def matches(game, obj, flt: Filter, perspective: int, source_id: int | None = None, x: int = 0, ch=None,
            any_zone: bool = False) -> bool:
    """Does ``obj`` meet ``flt`` as seen by player ``perspective``?  ``ch``: its characteristics, if not the
    current ones (an object as it last existed, 603.10); ``any_zone``: wherever it is."""
    if obj.zone != flt.zone and not any_zone:
        return False
    if obj.ability is not None and (obj.zone != "stack" or flt.spell):
        return False
    if flt.ability and obj.ability is None:
        return False
    if flt.other and source_id is not None and obj.id == source_id:
        return False
    if ch is None:
        ch = game.characteristics(obj)
    return (_types_and_colors(flt, ch) and _relations_and_name(flt, obj, ch, perspective)
            and _numbers(game, flt, obj, ch, x, source_id) and _chosen(game, flt, ch, source_id)
            and (not flt.tests or _tests_hold(game, obj, ch, flt.tests, perspective, source_id)))


def _tests_hold(game, obj, ch, tests: tuple, perspective: int, source_id) -> bool:
    return all(CRITERIA[key](game, obj, ch, arg, perspective, source_id) for key, arg in tests)


def bind(flt: Filter, objects_of: Callable) -> Filter:
    """The criteria with each argument that names something of the resolving spell or ability (a target word)
    replaced by what it names now (``objects_of(word)``: those objects) — "creatures with the same name as that
    creature" as it resolves."""
    if not any(key in BOUND for key, _ in flt.tests):
        return flt
    tests = tuple((key, BOUND[key](arg, objects_of(arg)) if key in BOUND else arg) for key, arg in flt.tests)
    return replace(flt, tests=tests)


@criterion("mana_value_min", "mana value at least this (\"mana value N or greater\")")
def _mana_value_min(game, obj, ch, arg: int, perspective: int, source_id) -> bool:
    return game.mana_value(obj) >= arg


@criterion("not_subtypes", "has none of these subtypes (\"non-Aura\": [\"Aura\"])")
def _not_subtypes(game, obj, ch, arg: tuple, perspective: int, source_id) -> bool:
    return ch.subtypes.isdisjoint(arg)


@criterion("unblocked", "true: an attacking creature that is unblocked (509.1h); false: not so")
@enforces(EN + "509.1h")
def _unblocked(game, obj, ch, arg: bool, perspective: int, source_id) -> bool:
    st = game.state
    is_unblocked = obj.id in st.attackers and st.step in BLOCKS_DECLARED and obj.id not in st.blocked
    if is_unblocked:
        applied(EN + "509.1h")
    return is_unblocked == arg


@criterion("dealt_damage_by", '"self": dealt damage this turn by the source of the ability (the object as it is '
                              "now: a new object is a new one, 400.7)")
def _dealt_damage_by(game, obj, ch, arg: str, perspective: int, source_id) -> bool:
    outside()  # damage is not part of the board's characteristics (engine.memo)
    return (game.state.turn, source_id) in obj.damaged_by


def _same_name_bound(word: str, objects: list) -> tuple:
    return tuple(o.id for o in objects)


@criterion("same_name_as", "a target word: another object with the same name as that object now (201.2a: an object "
                           "with no name has the same name as nothing)", bound=_same_name_bound)
@enforces(EN + "201.2a")
def _same_name_as(game, obj, ch, arg, perspective: int, source_id) -> bool:
    if not isinstance(arg, tuple):
        return False  # not bound: outside a resolving spell the word names nothing
    mine = _names(ch)
    for oid in arg:
        other = game.state.objects.get(oid)
        if other is None or other.id == obj.id:
            continue
        theirs = _names(game.characteristics(other))
        if mine & theirs:
            return True  # at least one name in common (201.2a)
        if not mine or not theirs:
            applied(EN + "201.2a")  # an object with no name has the same name as nothing
    return False


def _names(ch) -> set:
    return {n for n in (ch.name, *ch.also_names) if n}


def _chosen(game, flt: Filter, ch, source_id) -> bool:
    if flt.chosen_color is None:
        return True
    return chosen_color(game, flt, ch, source_id)


@enforces("607.2d", "607.5a")
def chosen_color(game, flt: Filter, ch, source_id) -> bool:
    """The colour chosen by the source's linked "choose a color" ability (607.2d); nothing chosen for it (a
    copy, a gained ability): the choice is undefined and nothing matches (607.5a)."""
    applied("607.2d")
    source = game.state.objects.get(source_id) if source_id is not None else None
    color = source.memory.get(flt.chosen_color) if source is not None else None
    if color is None:
        applied("607.5a")
        return False
    return color in ch.colors


def _types_and_colors(flt: Filter, ch) -> bool:
    if flt.types and not (flt.types & ch.types):
        return False
    if flt.all_types and not flt.all_types <= ch.types:
        return False
    if flt.not_types and flt.not_types & ch.types:
        return False
    if flt.subtypes and not (flt.subtypes & ch.subtypes):
        return False
    if flt.supertypes and not (flt.supertypes & ch.supertypes):
        return False
    if flt.not_supertypes and flt.not_supertypes & ch.supertypes:
        return False
    if flt.colors or flt.not_colors:
        return color_criteria(flt, ch)
    return True


@enforces("608.2j")
def color_criteria(flt: Filter, ch) -> bool:
    """A criterion about a colour checks only that colour: "all black creatures" includes a white-black one,
    "all nonblack creatures" does not."""
    applied("608.2j")
    if flt.colors and not (flt.colors & ch.colors):
        return False
    return not (flt.not_colors and flt.not_colors & ch.colors)


def _relations_and_name(flt: Filter, obj, ch, perspective: int) -> bool:
    if flt.controller and (obj.controller == perspective) != (flt.controller == "you"):
        return False
    if flt.owner and (obj.owner == perspective) != (flt.owner == "you"):
        return False
    if flt.tapped is not None and obj.tapped != flt.tapped:
        return False
    if flt.token is not None and obj.token != flt.token:
        return False

    return not (flt.names and ch.name not in flt.names and not flt.names & ch.also_names)


def _face_down(game, obj) -> bool:
    return obj.face is not None and obj.card in game.db and game.db[obj.card].faces[obj.face].way == "face_down"


def _numbers(game, flt: Filter, obj, ch, x: int, source_id=None) -> bool:
    if flt.attacking is not None and (obj.id in game.state.attackers) != flt.attacking:
        return False
    if flt.face_down is not None and _face_down(game, obj) != flt.face_down:
        return False
    if flt.mana_value_max is not None and game.mana_value(obj) > flt.mana_value_max:
        return False
    if flt.mana_value is not None or flt.mana_value_parity:
        mv = game.mana_value(obj)
        want = x if flt.mana_value == "X" else flt.mana_value
        if isinstance(want, tuple):  # ("counters", kind): as many as there are such counters on the source
            source = object_of(game, source_id) if source_id is not None else None  # or as it last existed
            want = source.counters.get(want[1], 0) if source is not None else None
            if want is None:
                return False
        if want is not None and mv != want:
            return False
        if flt.mana_value_parity and (mv % 2 == 0) != (flt.mana_value_parity == "even"):
            return False
    if flt.power_max is None and flt.power_min is None:
        return True
    power = game.power(obj)   # after the layers: a characteristic-defining ability counts (604.3)
    if power is None:
        return False
    return (flt.power_max is None or power <= flt.power_max) and (flt.power_min is None or power >= flt.power_min)
