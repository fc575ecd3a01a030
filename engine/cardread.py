"""Reading a card file that passed the schema (:mod:`engine.cardfile`) into a :class:`~engine.cards.CardDef`.

The schema has checked keys, words and value types; this module checks what refers to what — an
effect naming a target word, a target "distinct from" another, an effect or target tied to a named
cost — and raises :class:`~engine.cardschema.SchemaError` with the path of the reference.
"""
from __future__ import annotations

from dataclasses import replace

from . import conditions
from .carddefs import AbilityDef, CardDef, Mode, NamedCost, StaticDef, TargetSlot, TriggerDef
from .cardschema import Path, SchemaError
from .costs import Cost, ManaCost, Requirement, parse_cost_string
from .effects import CONTROLLER_OF, EVENT_WORDS, LINKED, PLAYER_WORDS, SELF_WORDS
from .filters import BOUND, Filter

#: effect keys that name a target word (or, where marked, a player word too)
REF_KEYS = {"to": True, "what": False, "on": False, "who": True, "a": False, "b": False, "about": False,
            "payer": True, "copy_of": False, "source": False}
FILTER_KEYS = ("all", "filter", "per", "from", "discard_unless", "set_pt_count", "protects")
#: keywords that are triggered abilities: the ability each means, as a card file writes it (numbered after the
#: card's own triggered abilities)
KEYWORD_TRIGGERS = {
    "prowess": {"when": "cast", "who": "you", "what": {"not_types": ["creature"], "zone": "stack"},
                "effects": [{"do": "continuous", "what": "self", "power": 1, "toughness": 1}],
                "text": "Prowess (702.108a: \"Whenever you cast a noncreature spell, this creature gets +1/+1 until "
                        "end of turn.\")"},
}
COST_KEYS = ("mana", "tap", "untap", "sacrifice", "discard", "life", "loyalty", "counters")


def read_card(data: dict, file: str) -> tuple[CardDef, list[CardDef]]:
    """The card and the tokens its effects create."""
    tokens: list[CardDef] = []
    return _card(data, file, (), tokens, token=False), tokens


def _card(data: dict, file: str, path: Path, tokens: list, token: bool) -> CardDef:
    types = frozenset(data.get("types", ()))
    mana_cost = ManaCost.parse(data.get("cost", ""))
    spell = None
    if not token and "land" not in types:
        spell = _castable(data, "spell", 0, Cost(mana=mana_cost), path, tokens, file)
    elif any(k in data for k in ("targets", "effects", "modes")):
        raise SchemaError(path, "a land has no spell part (targets/effects/modes)")
    abilities = tuple(_ability(a, i + 1, (*path, "abilities", i), tokens, file)
                      for i, a in enumerate(data.get("abilities", [])))
    statics = tuple(_static(s, (*path, "statics", i)) for i, s in enumerate(data.get("statics", [])))
    written = list(data.get("triggers", []))
    written += [KEYWORD_TRIGGERS[k] for k in data.get("keywords", []) if k in KEYWORD_TRIGGERS]
    triggers = tuple(_trigger(t, i + 1, (*path, "triggers", i), tokens, file) for i, t in enumerate(written))
    pending = tuple(f"{s.params.get('rule', '?')}: {s.params.get('text', '')}" for s in statics if s.kind == "pending")
    for i, s in enumerate(statics):
        if s.kind == "buyback":   # 702.27a: the buyback cost is one of the spell's optional costs
            _names_cost(s.params["cost"], [n.name for n in spell.optional] if spell else [], (*path, "statics", i))
    keywords = frozenset(data.get("keywords", []))
    faces = {f["name"]: _face(f, data, file, (*path, "faces", i), tokens) for i, f in enumerate(data.get("faces", []))}
    cda = bool(keywords & {"devoid", "changeling"}) or any(s.kind == "cda" and "colors" in s.params for s in statics)
    return CardDef(
        name=data["name"], types=types, subtypes=frozenset(data.get("subtypes", [])),
        supertypes=frozenset(data.get("supertypes", [])),
        colors=frozenset(data["colors"]) if "colors" in data else mana_cost.colors(), mana_cost=mana_cost,
        power=data.get("power"), toughness=data.get("toughness"), loyalty=data.get("loyalty"),
        keywords=keywords, spell=spell, abilities=abilities, statics=statics, triggers=triggers, pending=pending,
        text=data.get("text", ""), name_en=data.get("name_en", ""), token=token, file=file, cda=cda, faces=faces,
        way=data.get("way", ""), anchored=any(t.anchor for t in triggers))


#: what a face-down spell or permanent is (708.2, 702.37c): a 2/2 creature with no name, text or mana cost
FACE_DOWN = {"types": ["creature"], "power": 2, "toughness": 2, "colors": [], "text": ""}


def _face(face: dict, card: dict, file: str, path: Path, tokens: list) -> CardDef:
    """Alternative characteristics a card may be cast with (601.3e): face down, bestowed, as an Adventure."""
    data = {k: v for k, v in card.items() if k != "faces"} if face.get("inherit") else {}
    if face["way"] == "face_down":
        data = dict(FACE_DOWN)
    data.update({k: v for k, v in face.items() if k not in ("inherit", "pay")})
    data["name"] = "" if face["way"] == "face_down" else face["name"] if face["way"] in ("adventure", "back") \
        else card["name"]
    data.setdefault("types", card["types"])
    made = _card(data, file, path, tokens, token=False)
    if "pay" in face and made.spell is not None:  # paid instead of the mana cost, which stays what it is
        made = replace(made, spell=replace(made.spell, cost=Cost(mana=ManaCost.parse(face["pay"]))))
    return made


def _ability(data: dict, index: int, path: Path, tokens: list, file: str) -> AbilityDef:
    return _castable(data, "activated", index, _cost(data["cost"]), path, tokens, file)


#: trigger events whose "what" is a spell or ability on the stack by default
ON_THE_STACK = ("cast", "countered", "resolves")


def _trigger(data: dict, index: int, path: Path, tokens: list, file: str) -> TriggerDef:
    """A triggered ability: its trigger event and condition, and what goes on the stack (603.1)."""
    ability = _castable(data, "triggered", 0, Cost(), path, tokens, file)
    what = data.get("what", "self" if data["when"] not in ("beginning_of", "state") else None)
    if what == "any":
        what = None
    if isinstance(what, dict):
        table = {"zone": "stack", "spell": False, **what} if data["when"] in ON_THE_STACK else what
        what = Filter.from_table(table, "")
    if data["when"] == "state" and "state" not in data:
        raise SchemaError(path, "a state trigger needs 'state' (the game state it triggers on, 603.8)")
    if data["when"] == "beginning_of" and "step" not in data:
        raise SchemaError(path, "'beginning_of' needs 'step' (upkeep, draw, end …)")
    return TriggerDef(index=index, when=data["when"], ability=ability, what=what, who=data.get("who", "any"),
                      from_zone=data.get("from"), to_zone=data.get("to"), step=data.get("step"),
                      condition=conditions.read(data.get("if", {})), state=conditions.read(data.get("state", {})),
                      once_each_turn=data.get("once_each_turn", False), link=data.get("link"),
                      cant_be_countered=data.get("cant_be_countered", False), text=data.get("text", ""),
                      anchor=(data["anchor"]["link"], data["anchor"]["word"]) if "anchor" in data else None)


def _castable(data: dict, kind: str, index: int, cost: Cost, path: Path, tokens: list, file: str) -> AbilityDef:
    named = {key: tuple(NamedCost(c["name"], _cost({k: v for k, v in c.items() if k in COST_KEYS}),
                                  c.get("haste", False), c.get("return_at_end", False))
                        for c in data.get(key, []))
             for key in ("choose_cost", "optional_costs", "alternative_costs")}
    cost_names = [n.name for costs in named.values() for n in costs]
    words = EVENT_WORDS if kind == "triggered" else ()
    if "modes" in data:
        if "targets" in data or "effects" in data:
            raise SchemaError(path, "a modal spell has targets and effects per mode, not at the top")
        modes = tuple(_mode(m, (*path, "modes", i), cost_names, tokens, file, words)
                      for i, m in enumerate(data["modes"]))
    else:
        modes = (_mode({"targets": data.get("targets", []), "effects": data.get("effects", [])}, path, cost_names,
                       tokens, file, words),)
    choose = _range(data.get("choose", 1), len(modes))
    choose_if_paid: tuple = ()
    if "choose_if_paid" in data:
        cip = data["choose_if_paid"]
        _names_cost(cip["name"], cost_names, (*path, "choose_if_paid", "name"))
        choose_if_paid = (cip["name"], _range(cip["choose"], len(modes)))
    additional = tuple(_cost(c) for c in data.get("additional_costs", []))
    ab = AbilityDef(kind=kind, index=index, cost=cost, additional=additional,
                    choose_cost=named["choose_cost"], optional=named["optional_costs"],
                    alternative=named["alternative_costs"], modes=modes, modal="modes" in data, choose=choose,
                    choose_if_paid=choose_if_paid, once_per_turn=data.get("once_per_turn", False),
                    chooser=data.get("chooser"),
                    timing=data.get("timing"), text=data.get("text", ""))
    _check_slots(ab, data, path)
    return ab


def _range(value, n_modes: int) -> tuple[int, int]:
    if value == "any":
        return (1, n_modes)
    if isinstance(value, int):
        return (value, value)
    return (value.get("min", 0), value.get("max", n_modes))


def _names_cost(name: str, cost_names: list[str], path: Path) -> None:
    if name not in cost_names:
        raise SchemaError(path, f"names no optional, alternative or chosen cost of this card: {name!r} "
                                f"(costs: {', '.join(cost_names) or 'none'})")


def _cost(data) -> Cost:
    if isinstance(data, str):
        return parse_cost_string(data)
    base = parse_cost_string(data.get("mana", ""))
    return Cost(mana=base.mana, tap=base.tap or data.get("tap", False), untap=base.untap or data.get("untap", False),
                sacrifice=tuple(_requirement(r) for r in _listify(data.get("sacrifice"))),
                discard=tuple(_requirement(r) for r in _listify(data.get("discard"))),
                life=data.get("life", 0), loyalty=data.get("loyalty"),
                counters=tuple(data.get("counters", {}).items()))


def _listify(value) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _requirement(data) -> Requirement:
    if data == "self" or (isinstance(data, dict) and data.get("self")):
        return Requirement(itself=True)
    table = {k: v for k, v in data.items() if k != "count"}
    return Requirement(filter=Filter.from_table(table, ""), count=data.get("count", 1))


def _slot(data: dict) -> TargetSlot:
    criteria = {k: v for k, v in data.items()
                if k not in ("name", "count", "player", "distinct_from", "if_paid", "divide", "objects")}
    count = data.get("count", 1)
    if isinstance(count, dict):
        count = (count.get("min", 0), count["max"])
    player = data.get("player")
    wants_objects = data.get("objects", bool(criteria) or player is None)
    return TargetSlot(name=data["name"], count=count, player=player,
                      objects=Filter.from_table(criteria, "") if wants_objects else None,
                      distinct_from=tuple(data.get("distinct_from", ())), if_paid=data.get("if_paid"),
                      divide=data.get("divide"))


def _mode(data: dict, path: Path, cost_names: list[str], tokens: list, file: str, words: tuple = ()) -> Mode:
    slots = tuple(_slot(s) for s in data.get("targets", []))
    if any(not s.objects and s.player is None for s in slots):
        i = next(i for i, s in enumerate(slots) if not s.objects and s.player is None)
        raise SchemaError((*path, "targets", i), "objects = false needs player = …")
    names = {s.name for s in slots} | set(words) | set(SELF_WORDS) | _remembered(data.get("effects", []))
    effects = tuple(_effect(e, (*path, "effects", i), names, cost_names, tokens, file)
                    for i, e in enumerate(data.get("effects", [])))
    return Mode(slots, effects, data.get("text", ""))


def _remembered(effects: list) -> set[str]:
    """Names that effects give to what they did ("that card"), anywhere in the list — later effects may use them."""
    out: set[str] = set()
    for e in effects:
        if isinstance(e, dict):
            if isinstance(e.get("remember"), str):
                out.add(e["remember"])
            out |= _remembered(e.get("effects", []))
    return out


def _effect(data: dict, path: Path, slots: set[str], cost_names: list[str], tokens: list, file: str) -> dict:
    """The effect table as the engine reads it: references checked, criteria read into filters."""
    spec = dict(data)
    _check_references(spec, path, slots)
    if "if_paid" in spec:
        _names_cost(spec["if_paid"], cost_names, (*path, "if_paid"))
    _read_values(spec, path, slots)
    if spec["do"] == "continuous":
        _granted(spec, path)
    for key in ("otherwise", "then"):
        if key in spec:
            spec[key] = [_effect(e, (*path, key, i), slots, cost_names, tokens, file)
                         for i, e in enumerate(spec[key])]
    if spec["do"] in ("for_each", "for_most"):
        spec["effects"] = [_effect(e, (*path, "effects", i), slots | {"each"}, cost_names, tokens, file)
                           for i, e in enumerate(spec["effects"])]
    if spec["do"] == "delayed":
        spec["trigger"] = _trigger(spec["trigger"], 0, (*path, "trigger"), tokens, file)
    if "reflexive" in spec:
        spec["reflexive"] = _castable(spec["reflexive"], "triggered", 0, Cost(), (*path, "reflexive"), tokens, file)
    if spec["do"] == "create_token":
        token = _card(spec["token"], file, (*path, "token"), tokens, token=True)
        spec["_token"] = token
        tokens.append(token)
    return spec


def _check_references(spec: dict, path: Path, slots: set[str]) -> None:
    for key, players_too in REF_KEYS.items():
        value = spec.get(key)
        if players_too and isinstance(value, str) and value.startswith(CONTROLLER_OF):
            value = value[len(CONTROLLER_OF):]   # "its controller": the controller of that target
        if value is not None and value not in slots and not (players_too and value in PLAYER_WORDS) \
                and not value.startswith(LINKED):
            words = f" or one of {', '.join(PLAYER_WORDS)}, {CONTROLLER_OF}TARGET" if players_too else ""
            raise SchemaError((*path, key), f"{value!r} names no target of this spell or ability"
                                            f" (targets and words: {', '.join(sorted(slots)) or 'none'}){words}")


def _read_values(spec: dict, path: Path, slots: set[str]) -> None:
    """Criteria into filters, mana costs into ManaCost; references inside amounts checked."""
    for key in FILTER_KEYS:
        if key in spec:
            for crit in BOUND:  # a criterion naming a target word ("the same name as that creature")
                ref = spec[key].get(crit)
                if ref is not None and ref not in slots:
                    raise SchemaError((*path, key, crit), f"{ref!r} names no target of this spell or ability"
                                                          f" (targets: {', '.join(sorted(slots)) or 'none'})")
                if ref is not None:
                    spec["_binds"] = True  # bound as the effect resolves (engine.effects.bound_criteria)
            spec[key] = Filter.from_table(spec[key], "")
    if spec["do"] in ("cost_change", "next_spell"):
        spec["spells"] = Filter.from_table({"zone": "stack", **spec["spells"]}, "")
        for key in ("increase", "reduce"):
            if key in spec:
                spec[key] = ManaCost.parse(spec[key])
    for field in ("amount", "power", "toughness", "set_power", "set_toughness"):  # an amount; a continuous effect's
        # changes of power and toughness may be one (611.2d)
        amount = spec.get(field)
        if not isinstance(amount, dict):
            continue
        if "count" in amount:
            spec[field] = {**amount, "count": Filter.from_table(amount["count"], "")}
        for key in ("greatest_power", "power_of", "mana_value_of"):
            ref = amount.get(key)
            if ref is not None and ref not in slots and ref not in PLAYER_WORDS:
                raise SchemaError((*path, field, key), f"{ref!r} names no target or word of this ability")


def _check_slots(ab: AbilityDef, data: dict, path: Path) -> None:
    seen: set[str] = set()
    for slot in ab.all_slots():
        if slot.name in seen:
            raise SchemaError(path, f"two targets named {slot.name!r}")
        seen.add(slot.name)
    cost_names = [n.name for n in ab.optional + ab.alternative + ab.choose_cost]
    for slot in ab.all_slots():
        for other in slot.distinct_from:
            if other not in seen:
                raise SchemaError(path, f"target {slot.name!r}: distinct_from names unknown target {other!r}")
        if slot.if_paid:
            _names_cost(slot.if_paid, cost_names, path)


def _granted(params: dict, path: Path) -> None:
    """The abilities a static ability gives another object: a static one (613.7a), triggered and activated ones
    (613.1f) — read like the card's own."""
    if "grants" in params:
        params["grants"] = _static({"kind": "modify", **params["grants"]}, (*path, "grants"))
    if "grants_triggers" in params:
        params["grants_triggers"] = tuple(_trigger(t, i + 1, (*path, "grants_triggers", i), [], "")
                                          for i, t in enumerate(params["grants_triggers"]))
    if "grants_abilities" in params:
        params["grants_abilities"] = tuple(_ability(a, i + 1, (*path, "grants_abilities", i), [], "")
                                           for i, a in enumerate(params["grants_abilities"]))


def _static(data: dict, path: Path) -> StaticDef:
    params = {k: v for k, v in data.items() if k != "kind"}
    for key in ("spells", "per", "abilities_of"):
        if key in params:
            table = {"zone": "stack", **params[key]} if key == "spells" else params[key]
            params[key] = Filter.from_table(table, "")
    for key in ("increase", "reduce"):
        if key in params and data["kind"] == "cost":
            params[key] = ManaCost.parse(params[key])
    if data["kind"] in ("morph", "splice") and isinstance(params["cost"], str):
        params["cost"] = ManaCost.parse(params["cost"])
    elif data["kind"] == "morph":  # a cost that is not mana: "reveal a [criteria] card in your hand"
        params["cost"] = {"reveal": Filter.from_table({"zone": "hand", **params["cost"]["reveal"]}, "")}
    if "condition" in params:
        params["condition"] = conditions.read(params["condition"])
    _granted(params, path)
    for key in ("objects", "to", "from", "of", "exile", "set_pt_count", "what"):
        if isinstance(params.get(key), dict):
            params[key] = Filter.from_table(params[key], "")
    if data["kind"] == "prevent":
        params.update(event="damage", how="prevent")
    if "unless" in params:
        params["unless"] = conditions.read(params["unless"])
    if data["kind"] == "replace" and "token" in params:  # the token a replacement effect creates (exile_and_token)
        params["_token"] = _card({**params["token"], "types": params["token"].get("types", ["creature"])}, "",
                                 (*path, "token"), [], token=True)
    for key in ("power", "toughness", "set_power", "set_toughness"):
        value = params.get(key)
        if (data["kind"] == "cda" or key.startswith("set_")) and isinstance(value, dict) and "count" in value:
            params[key] = {**value, "count": Filter.from_table(value["count"], "")}
    return StaticDef(data["kind"], params)
