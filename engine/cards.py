"""Cards as data: one TOML file per card in ``data/cards/`` (format: ``data/cards/README.md``).

Loading validates every file against the engine's vocabulary (filters, costs,
effects) and reports problems as ``file: field: message``.  The result is a
:class:`CardDB` of immutable :class:`CardDef` objects shared by all game states.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .costs import NO_COST, Cost, CostSyntaxError, ManaCost, Requirement, parse_cost_string
from .effects import validate_effect
from .filters import Filter
from .paths import CARDS_DIR, ROOT

CARD_TYPES = ("artifact", "creature", "enchantment", "instant", "land", "planeswalker", "sorcery")
PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker"})


class CardError(ValueError):
    """A card file that cannot be used; the message names file and field."""


@dataclass(frozen=True, slots=True)
class TargetSlot:
    """One instance of the word "target" ("… deiner Wahl") and what it may target."""

    name: str
    count: int | str | tuple = 1  # int, "X", or (min, max)
    player: str | None = None  # None: no players; "any", "you", "opponent"
    objects: Filter | None = None  # None: no objects
    distinct_from: tuple[str, ...] = ()
    if_paid: str | None = None  # only a target if this optional/alternative cost was announced
    divide: int | str | None = None  # amount divided among this slot's targets (601.2d)


@dataclass(frozen=True, slots=True)
class Mode:
    targets: tuple[TargetSlot, ...] = ()
    effects: tuple[dict, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class NamedCost:
    name: str
    cost: Cost


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """The castable or activatable part of a card: a spell, or one activated ability."""

    kind: str  # "spell" or "activated"
    index: int  # 0 for the spell, 1.. for activated abilities
    cost: Cost = NO_COST  # mana cost of the spell / activation cost of the ability (602.1a)
    additional: tuple[Cost, ...] = ()
    choose_cost: tuple[NamedCost, ...] = ()
    optional: tuple[NamedCost, ...] = ()
    alternative: tuple[NamedCost, ...] = ()
    modes: tuple[Mode, ...] = (Mode(),)
    modal: bool = False
    choose: tuple[int, int] = (1, 1)
    choose_if_paid: tuple = ()  # (cost name, (min, max))
    once_per_turn: bool = False
    timing: str = "instant"  # "instant" or "sorcery" (602.5d/e)
    text: str = ""

    @property
    def is_loyalty(self) -> bool:
        return self.cost.loyalty is not None

    def slots(self, modes: tuple[int, ...] = (0,)) -> list[TargetSlot]:
        return [s for m in modes for s in self.modes[m].targets]

    def all_slots(self) -> list[TargetSlot]:
        return [s for m in self.modes for s in m.targets]


@dataclass(frozen=True, slots=True)
class StaticDef:
    kind: str  # "cost", "loyalty_cost", "prohibit_cast", "pending"
    params: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CardDef:
    name: str
    types: frozenset
    subtypes: frozenset = frozenset()
    supertypes: frozenset = frozenset()
    colors: frozenset = frozenset()
    mana_cost: ManaCost = ManaCost()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: frozenset = frozenset()
    spell: AbilityDef | None = None
    abilities: tuple[AbilityDef, ...] = ()
    statics: tuple[StaticDef, ...] = ()
    triggers: tuple = ()
    pending: tuple[str, ...] = ()  # parts of the card the engine does not execute yet
    text: str = ""
    name_en: str = ""
    token: bool = False
    file: str = ""

    @property
    def is_permanent(self) -> bool:
        return bool(self.types & PERMANENT_TYPES)


class CardDB:
    def __init__(self, cards: dict[str, CardDef] | None = None):
        self.cards: dict[str, CardDef] = dict(cards or {})

    def __getitem__(self, name: str) -> CardDef:
        return self.cards[name]

    def __contains__(self, name: str) -> bool:
        return name in self.cards

    def names(self) -> list[str]:
        return sorted(n for n, c in self.cards.items() if not c.token)

    def add(self, card: CardDef) -> None:
        if card.name in self.cards:
            raise CardError(f"{card.file}: card {card.name!r} is also defined in {self.cards[card.name].file}")
        self.cards[card.name] = card

    @staticmethod
    def load(directory: Path | str = CARDS_DIR) -> "CardDB":
        db = CardDB()
        for path in sorted(Path(directory).glob("*.toml")):
            for card in load_file(path):
                db.add(card)
        return db


_DEFAULT_DB: CardDB | None = None


def default_db() -> CardDB:
    global _DEFAULT_DB
    if _DEFAULT_DB is None:
        _DEFAULT_DB = CardDB.load()
    return _DEFAULT_DB


# -- parsing ---------------------------------------------------------------------------------------------------

def load_file(path: Path) -> list[CardDef]:
    try:
        rel = path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        rel = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise CardError(f"{rel}: {e}") from None
    card = parse_card(data, rel)
    return [card, *_tokens(card)]


def _tokens(card: CardDef) -> list[CardDef]:
    out = []
    for ab in ([card.spell] if card.spell else []) + list(card.abilities):
        for mode in ab.modes:
            for eff in mode.effects:
                if eff.get("do") == "create_token":
                    out.append(eff["_token"])
    return out


_CARD_KEYS = {"name", "name_en", "cost", "types", "subtypes", "supertypes", "colors", "power", "toughness",
              "loyalty", "keywords", "text", "synthetic", "source", "note", "additional_costs", "choose_cost",
              "optional_costs", "alternative_costs", "modes", "choose", "choose_if_paid", "targets", "effects",
              "abilities", "statics", "triggers"}


def _check_keys(table: dict, allowed, where: str) -> None:
    extra = set(table) - set(allowed)
    if extra:
        raise CardError(f"{where}: unknown key(s) {', '.join(sorted(extra))} (allowed: {', '.join(sorted(allowed))})")


def parse_card(data: dict, file: str, token: bool = False) -> CardDef:
    where = file
    _check_keys(data, _CARD_KEYS, where)
    if "name" not in data:
        raise CardError(f"{where}: missing 'name'")
    where = f"{file}: {data['name']}"
    types = frozenset(data.get("types", []))
    if not types and not token:
        raise CardError(f"{where}: missing 'types'")
    for t in types:
        if t not in CARD_TYPES:
            raise CardError(f"{where}: unknown card type {t!r} (known: {', '.join(CARD_TYPES)})")
    try:
        mana_cost = ManaCost.parse(data.get("cost", ""))
    except CostSyntaxError as e:
        raise CardError(f"{where}: cost: {e}") from None
    colors = frozenset(data["colors"]) if "colors" in data else mana_cost.colors()
    card_kw = dict(
        name=data["name"], types=types, subtypes=frozenset(data.get("subtypes", [])),
        supertypes=frozenset(data.get("supertypes", [])), colors=colors, mana_cost=mana_cost,
        power=data.get("power"), toughness=data.get("toughness"), loyalty=data.get("loyalty"),
        keywords=frozenset(data.get("keywords", [])), text=data.get("text", ""), name_en=data.get("name_en", ""),
        token=token, file=file,
    )
    spell = None
    if not token and "land" not in types:
        spell = _parse_castable(data, "spell", 0, Cost(mana=mana_cost), where)
    elif any(k in data for k in ("targets", "effects", "modes")):
        raise CardError(f"{where}: a land has no spell part (targets/effects/modes)")
    abilities = tuple(_parse_ability(a, i + 1, f"{where}: abilities[{i}]")
                      for i, a in enumerate(data.get("abilities", [])))
    statics = tuple(_parse_static(s, f"{where}: statics[{i}]") for i, s in enumerate(data.get("statics", [])))
    for i, t in enumerate(data.get("triggers", [])):
        _check_keys(t, {"rule", "text"}, f"{where}: triggers[{i}]")
    pending = tuple(f"{t.get('rule', '?')}: {t.get('text', '')}" for t in data.get("triggers", []))
    pending += tuple(f"{s.params.get('rule', '?')}: {s.params.get('text', '')}" for s in statics if s.kind == "pending")
    return CardDef(spell=spell, abilities=abilities, statics=statics, pending=pending, **card_kw)


def _parse_castable(data: dict, kind: str, index: int, cost: Cost, where: str) -> AbilityDef:
    additional = tuple(_parse_cost(c, f"{where}: additional_costs[{i}]")
                       for i, c in enumerate(data.get("additional_costs", [])))
    named = {}
    for key in ("choose_cost", "optional_costs", "alternative_costs"):
        out = []
        for i, c in enumerate(data.get(key, [])):
            w = f"{where}: {key}[{i}]"
            if not isinstance(c, dict) or "name" not in c:
                raise CardError(f"{w}: needs a 'name'")
            c = dict(c)
            out.append(NamedCost(c.pop("name"), _parse_cost(c, w)))
        named[key] = tuple(out)
    if "modes" in data:
        if "targets" in data or "effects" in data:
            raise CardError(f"{where}: a modal spell has targets and effects per mode, not at the top")
        modes = tuple(_parse_mode(m, f"{where}: modes[{i}]") for i, m in enumerate(data["modes"]))
        modal = True
    else:
        modes = (_parse_mode({"targets": data.get("targets", []), "effects": data.get("effects", [])}, where),)
        modal = False
    choose = _range(data.get("choose", 1), len(modes), f"{where}: choose")
    choose_if_paid: tuple = ()
    if "choose_if_paid" in data:
        cip = data["choose_if_paid"]
        _check_keys(cip, {"name", "choose"}, f"{where}: choose_if_paid")
        choose_if_paid = (cip["name"], _range(cip["choose"], len(modes), f"{where}: choose_if_paid"))
    names = [n.name for n in named["optional_costs"] + named["alternative_costs"] + named["choose_cost"]]
    ab = AbilityDef(kind=kind, index=index, cost=cost, additional=additional, choose_cost=named["choose_cost"],
                    optional=named["optional_costs"], alternative=named["alternative_costs"], modes=modes,
                    modal=modal, choose=choose, choose_if_paid=choose_if_paid,
                    once_per_turn=bool(data.get("once_per_turn", False)), timing=data.get("timing", "instant"),
                    text=data.get("text", ""))
    _validate_slots(ab, names, where)
    return ab


def _range(value, n_modes: int, where: str) -> tuple[int, int]:
    if value == "any":
        return (1, n_modes)
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, dict) and set(value) <= {"min", "max"}:
        return (value.get("min", 0), value.get("max", n_modes))
    raise CardError(f"{where}: expected a number, \"any\" or {{min, max}}")


_ABILITY_KEYS = {"cost", "targets", "effects", "modes", "choose", "once_per_turn", "timing", "text",
                 "additional_costs", "optional_costs", "alternative_costs", "choose_cost", "choose_if_paid"}


def _parse_ability(data: dict, index: int, where: str) -> AbilityDef:
    _check_keys(data, _ABILITY_KEYS, where)
    if "cost" not in data:
        raise CardError(f"{where}: an activated ability needs a 'cost' (everything before the colon)")
    if data.get("timing", "instant") not in ("instant", "sorcery"):
        raise CardError(f"{where}: timing must be \"instant\" or \"sorcery\"")
    return _parse_castable(data, "activated", index, _parse_cost(data["cost"], f"{where}: cost"), where)


_COST_KEYS = {"mana", "tap", "untap", "sacrifice", "discard", "life", "loyalty"}


def _parse_cost(data, where: str) -> Cost:
    try:
        if isinstance(data, str):
            return parse_cost_string(data)
        if not isinstance(data, dict):
            raise CardError(f"{where}: a cost is a string like \"{{2}}{{T}}\" or a table")
        _check_keys(data, _COST_KEYS, where)
        base = parse_cost_string(data.get("mana", ""))
        sac = tuple(_requirement(r, f"{where}: sacrifice") for r in _listify(data.get("sacrifice")))
        dis = tuple(_requirement(r, f"{where}: discard") for r in _listify(data.get("discard")))
        life = data.get("life", 0)
        if not (isinstance(life, int) or life == "X"):
            raise CardError(f"{where}: life must be a number or \"X\"")
        return Cost(mana=base.mana, tap=base.tap or bool(data.get("tap")), untap=base.untap or bool(data.get("untap")),
                    sacrifice=sac, discard=dis, life=life, loyalty=data.get("loyalty"))
    except CostSyntaxError as e:
        raise CardError(f"{where}: {e}") from None


def _listify(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _requirement(data, where: str) -> Requirement:
    if data == "self" or (isinstance(data, dict) and data.get("self")):
        return Requirement(itself=True)
    if not isinstance(data, dict):
        raise CardError(f"{where}: expected \"self\" or a table with a filter and 'count'")
    data = dict(data)
    count = data.pop("count", 1)
    if not (isinstance(count, int) or count in ("X", "any")):
        raise CardError(f"{where}: count must be a number, \"X\" or \"any\"")
    return Requirement(filter=_filter(data, where), count=count)


def _filter(data: dict, where: str) -> Filter:
    try:
        return Filter.from_table(data, where)
    except ValueError as e:
        raise CardError(str(e)) from None


_SLOT_KEYS = {"name", "count", "player", "distinct_from", "if_paid", "divide", "objects"}


def _parse_slot(data: dict, where: str) -> TargetSlot:
    if "name" not in data:
        raise CardError(f"{where}: a target needs a 'name' (effects refer to it)")
    data = dict(data)
    kw = {k: data.pop(k) for k in list(data) if k in _SLOT_KEYS}
    count = kw.get("count", 1)
    if isinstance(count, dict):
        count = (count.get("min", 0), count["max"])
    elif not (isinstance(count, int) or count == "X"):
        raise CardError(f"{where}: count must be a number, \"X\" or {{min, max}}")
    player = kw.get("player")
    if player not in (None, "any", "you", "opponent"):
        raise CardError(f"{where}: player must be \"any\", \"you\" or \"opponent\"")
    wants_objects = kw.get("objects", bool(data) or player is None)
    objects = _filter(data, where) if wants_objects else None
    if not wants_objects and data:
        raise CardError(f"{where}: object criteria given but objects = false")
    return TargetSlot(name=kw["name"], count=count, player=player, objects=objects,
                      distinct_from=tuple(kw.get("distinct_from", ())), if_paid=kw.get("if_paid"),
                      divide=kw.get("divide"))


def _parse_mode(data: dict, where: str) -> Mode:
    _check_keys(data, {"targets", "effects", "text"}, where)
    slots = tuple(_parse_slot(s, f"{where}: targets[{i}]") for i, s in enumerate(data.get("targets", [])))
    effects = []
    for i, e in enumerate(data.get("effects", [])):
        w = f"{where}: effects[{i}]"
        if not isinstance(e, dict) or "do" not in e:
            raise CardError(f"{w}: an effect is a table with 'do'")
        e = dict(e)
        if e["do"] == "create_token":
            tok = e.get("token")
            if not isinstance(tok, dict) or "name" not in tok:
                raise CardError(f"{w}: create_token needs token = {{name = …, types = …}}")
            e["_token"] = parse_card(tok, f"{where} (token)", token=True)
        try:
            validate_effect(e, {s.name for s in slots})
        except ValueError as err:
            raise CardError(f"{w}: {err}") from None
        effects.append(e)
    return Mode(slots, tuple(effects), data.get("text", ""))


def _validate_slots(ab: AbilityDef, cost_names: list[str], where: str) -> None:
    seen = set()
    for slot in ab.all_slots():
        if slot.name in seen:
            raise CardError(f"{where}: two targets named {slot.name!r}")
        seen.add(slot.name)
    for slot in ab.all_slots():
        for other in slot.distinct_from:
            if other not in seen:
                raise CardError(f"{where}: target {slot.name!r}: distinct_from names unknown target {other!r}")
        if slot.if_paid and slot.if_paid not in cost_names:
            raise CardError(f"{where}: target {slot.name!r}: if_paid names unknown cost {slot.if_paid!r}")


_STATIC_KINDS = {
    "cost": {"spells", "applies", "increase", "reduce", "minimum", "per", "condition", "text"},
    "loyalty_cost": {"abilities_of", "increase", "text"},
    "prohibit_cast": {"players", "spells", "text"},
    "pending": {"rule", "text", "blocks_resolution"},
}


def _parse_static(data: dict, where: str) -> StaticDef:
    kind = data.get("kind")
    if kind not in _STATIC_KINDS:
        raise CardError(f"{where}: kind must be one of {', '.join(_STATIC_KINDS)}")
    params = {k: v for k, v in data.items() if k != "kind"}
    _check_keys(params, _STATIC_KINDS[kind], where)
    for key in ("spells", "per", "abilities_of"):
        if key in params:
            table = {"zone": "stack", **params[key]} if key == "spells" else params[key]
            params[key] = _filter(table, f"{where}: {key}")
    for key in ("increase", "reduce"):
        if key in params and kind == "cost":
            try:
                params[key] = ManaCost.parse(params[key])
            except CostSyntaxError as e:
                raise CardError(f"{where}: {key}: {e}") from None
    if kind == "cost" and "applies" in params and params["applies"] != "self":
        raise CardError(f"{where}: applies must be \"self\" (the spell itself) or left out")
    if kind == "prohibit_cast" and params.get("players", "opponents") not in ("opponents", "you", "all"):
        raise CardError(f"{where}: players must be \"opponents\", \"you\" or \"all\"")
    if "condition" in params:
        cond = params["condition"]
        _check_keys(cond, {"source_untapped", "opponent_controls"}, f"{where}: condition")
        if "opponent_controls" in cond:
            oc = dict(cond["opponent_controls"])
            at_least = oc.pop("at_least", 1)
            params["condition"] = {**cond, "opponent_controls": (_filter(oc, f"{where}: condition"), at_least)}
    return StaticDef(kind, params)
