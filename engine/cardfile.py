"""The card file format as a schema: every key, word and value a card file may contain.

``CARD.check(data, ())`` accepts exactly what ``data/cards/README.md`` documents — known keys,
the known keyword list (:data:`KEYWORDS`), typed and bounded values — and raises
:class:`~engine.cardschema.SchemaError` with the path of the first offending value.
Effect kinds come from the effect registry (:data:`engine.effects.EFFECTS`); the type of each of
their keys is one table, :data:`EFFECT_KEYS`.  References between parts of a card (an effect
naming a target word) are checked when the card is read (:mod:`engine.cards`).
"""
from __future__ import annotations

# the modules whose effect kinds and handlers card files may name (imported for their registrations)
from . import (  # noqa: F401  # noqa: F401
    asitenters,
    cant,
    conditions,
    continuous,
    copies,
    delayed,
    effects,
    flashback,
    instead,
    insteadmore,
    instructions,
    nextspell,
    oneshot,
    paylife,
    phasing,
    prevention,
    redirect,
    skip,
    stickers,
    ties,
    timestamps,
    tokens,
    transform,
    triggers,
    until,
)
from .cardschema import Bool, Check, Const, Either, Int, ListOf, SchemaError, Spec, Str, Table, Word, hint
from .costs import CostSyntaxError, ManaCost, parse_cost_string, pool_from
from .state import STEPS, ZONES

CARD_TYPES = ("artifact", "creature", "enchantment", "instant", "land", "planeswalker", "sorcery",
              "plane", "phenomenon", "scheme", "vanguard", "conspiracy")  # the last five: engine.command
SUPERTYPES = ("basic", "legendary", "snow", "world")
COLORS = ("W", "U", "B", "R", "G")

#: the keywords the engine knows, with the rule that gives them meaning (each is enforced somewhere)
KEYWORDS = {
    "flash": "702.8: may be cast any time its controller could cast an instant",
    "haste": "702.10: may attack and use {T} abilities the turn it comes under its controller's control",
    "flying": "702.9: can be blocked only by creatures with flying or reach",
    "reach": "702.17: can block creatures with flying",
    "defender": "702.3: cannot attack",
    "vigilance": "702.20: attacking does not cause it to tap",
    "trample": "702.19: excess combat damage may be assigned to the player or planeswalker it attacks",
    "first_strike": "702.7: deals combat damage in a first combat damage step",
    "deathtouch": "702.2: any damage it deals to a creature is lethal",
    "lifelink": "702.15: damage it deals also causes its controller to gain that much life",
    "hexproof": "702.11: cannot be the target of spells or abilities an opponent controls",
    "shroud": "702.18: cannot be the target of spells or abilities",
    "indestructible": "702.12: is not destroyed by lethal damage or destroy effects",
    "changeling": "702.73: a characteristic-defining ability: it is every creature type",
    "devoid": "702.114: a characteristic-defining ability: it is colourless",
    "cant_be_countered": "604.5: a static ability that functions on the stack: the spell cannot be countered",
    "phasing": "702.26: phases out (and back in) in its controller's untap step",
    "prowess": "702.108a: a triggered ability: whenever you cast a noncreature spell, +1/+1 until end of turn "
               "(engine.cardread.KEYWORD_TRIGGERS)",
}
KEYWORD_WORDS = tuple(KEYWORDS) + tuple(f"protection:{c}" for c in COLORS) + \
    tuple(f"devour:{n}" for n in range(1, 11))  # 702.82a (engine.asitenters)

NAME = Str(80, r"[^\n;]+", "a name (no line breaks or ';')")
TEXT = Str(4000)
RULE = Str(20, r"(?:[a-z]{2}-[\w-]+/)?\d{3}(?:\.\d+[a-z]?)?|\?", "a rule number like 613 or 611.2c")


def _mana_cost(value) -> None:
    if not isinstance(value, str):
        raise ValueError(f"expected a mana cost like \"{{2}}{{R}}\", got {value!r}")
    try:
        ManaCost.parse(value)
    except CostSyntaxError as e:
        raise ValueError(str(e)) from None


def _mana(value) -> None:
    if not isinstance(value, str):
        raise ValueError(f"expected mana like \"{{G}}{{G}}\", got {value!r}")
    try:
        pool_from(value)
    except CostSyntaxError as e:
        raise ValueError(str(e)) from None


def _cost_string(value) -> None:
    try:
        parse_cost_string(value)
    except CostSyntaxError as e:
        raise ValueError(str(e)) from None


MANA_COST = Check(_mana_cost, "a mana cost")
MANA = Check(_mana, "mana")
SMALL = Int(0, 1000)
X = Word(("X",), "variable")


def words(known, what: str) -> Spec:
    """One word of ``known`` or a list of them."""
    return ListOf(Word(known, what), one_or_more=True)


FILTER_FIELDS: dict[str, Spec] = {
    "types": words((*CARD_TYPES, "permanent"), "card type (or \"permanent\": any permanent type)"),
    "all_types": words(CARD_TYPES, "card type"),
    "not_types": words(CARD_TYPES, "card type"), "subtypes": ListOf(NAME, one_or_more=True),
    "supertypes": words(SUPERTYPES, "supertype"), "not_supertypes": words(SUPERTYPES, "supertype"),
    "mana_value_max": SMALL, "token": Bool(), "attacking": Bool(), "face_down": Bool(),
    "colors": words(COLORS, "colour"), "not_colors": words(COLORS, "colour"),
    "controller": Word(("you", "opponent"), "controller"), "owner": Word(("you", "opponent"), "owner"),
    "tapped": Bool(), "zone": Word(ZONES, "zone"),
    "mana_value": Either(((int,), SMALL), ((str,), X), ((dict,), Table({"counters": Str(30)}, required=("counters",))),
                         describe="a number, \"X\" or {counters = KIND} (the counters on the source)"),
    "chosen_color": Str(30, describe="the name of an 'as … enters, choose a color' choice of the source (607.2d)"),
    "mana_value_parity": Word(("even", "odd"), "parity"), "power_max": Int(-1000, 1000),
    "power_min": Int(-1000, 1000), "other": Bool(), "spell": Bool(), "ability": Bool(),
    "names": ListOf(NAME, one_or_more=True),
    # criteria of engine.filters.CRITERIA
    "mana_value_min": SMALL, "not_subtypes": ListOf(NAME, one_or_more=True), "unblocked": Bool(),
    "dealt_damage_by": Const("self"), "same_name_as": NAME,
}
FILTER = Table(FILTER_FIELDS, describe="object criteria (a table)")

COUNT = Either(((int,), Int(0, 100)), ((str,), Word(("X", "any"), "count")), describe="a number, \"X\" or \"any\"")
REQUIREMENT = Either(((str,), Const("self")), ((dict,), Table({**FILTER_FIELDS, "count": COUNT, "self": Bool()})),
                     describe="\"self\" or a table with criteria and count")
REQUIREMENTS = Either(((list,), ListOf(REQUIREMENT, 10)), ((str, dict), REQUIREMENT), describe=REQUIREMENT.describe)
COST_FIELDS: dict[str, Spec] = {
    "mana": MANA_COST, "tap": Bool(), "untap": Bool(), "sacrifice": REQUIREMENTS, "discard": REQUIREMENTS,
    "life": Either(((int,), SMALL), ((str,), X), describe="a number or \"X\""),
    "loyalty": Int(-99, 99),
    "counters": Table(lambda: _CostCounters(), describe="counters put on this as a cost: KIND = N"),
}
COST = Either(((str,), Check(_cost_string, "a cost like \"{2}{T}\"")), ((dict,), Table(COST_FIELDS)),
              describe="a cost: a string like \"{2}{T}\" or a table")
NAMED_COST = Table({"name": NAME, **COST_FIELDS, "haste": Bool(), "return_at_end": Bool()}, required=("name",),
                   describe="a named cost")

RANGE = Either(((int,), Int(0, 100)), ((str,), Word(("any",), "amount")),
               ((dict,), Table({"min": Int(0, 100), "max": Int(0, 100)})), describe="a number, \"any\" or {min, max}")
SLOT = Table({"name": NAME, "count": Either(((int,), Int(1, 100)), ((str,), X),
                                             ((dict,), Table({"min": Int(0, 100), "max": Int(1, 100)},
                                                             required=("max",))),
                                             describe="a number, \"X\" or {min, max}"),
              "player": Word(("any", "you", "opponent"), "player"), "distinct_from": ListOf(NAME, 10),
              "if_paid": NAME, "divide": Either(((int,), Int(1, 1000)), ((str,), X), describe="a number or \"X\""),
              "objects": Bool(), **FILTER_FIELDS}, required=("name",), describe="a target (a table with a name)")


class Amount(Spec):
    """A number, "X", "divided", or a table naming game information (with times/plus)."""

    BASES = {"count": FILTER, "greatest_power": NAME, "sacrificed": Const(True), "discarded": Const(True),
             "power_of": NAME, "mana_value_of": NAME, "event_amount": Const(True), "counters": Str(30),
             "remembered": Word(("discarded", "sacrificed"), "remembered objects"), "linked": NAME,
             "announced_x": Const(True), "noted": NAME, "paid_as_entered": NAME, "colors_spent": Const(True),
             "devotion": ListOf(Word(COLORS, "colour"), 5)}
    describe = ("a number, \"X\", \"divided\" or a table with one of count = {criteria}, greatest_power = WORD, "
                "power_of = WORD, mana_value_of = WORD, counters = KIND, event_amount = true, sacrificed = true, "
                "discarded = true (and optionally times = N, plus = N)")

    def __init__(self, signed: bool = False):
        self.signed = signed  # a change of power or toughness may be negative ("-2/-2", "-X/-X": times = -1)

    def check(self, value, path) -> None:
        if isinstance(value, bool):
            raise self.fail(path, value)
        if isinstance(value, int):
            (Int(-1000, 1000) if self.signed else SMALL).check(value, path)
            return
        if isinstance(value, str):
            Word(("X", "divided"), "amount").check(value, path)
            return
        if not isinstance(value, dict):
            raise self.fail(path, value)
        Table({**self.BASES, "times": Int(-100, 100) if self.signed else Int(1, 100),
               "plus": Int(-1000, 1000)}).check(value, path)
        if sum(1 for k in value if k in self.BASES) != 1:
            raise SchemaError(path, f"expected {self.describe}")


AMOUNT = Amount()
SIGNED_AMOUNT = Amount(signed=True)


class Effect(Spec):
    """An effect table: ``do`` names a registered effect kind, whose keys are then checked."""

    describe = "an effect (a table with 'do')"

    def check(self, value, path) -> None:
        if not isinstance(value, dict) or "do" not in value:
            raise SchemaError(path, "an effect is a table with 'do'")
        kind = effects.EFFECTS.get(value["do"]) if isinstance(value["do"], str) else None
        if kind is None:
            raise SchemaError((*path, "do"), f"unknown effect {value['do']!r}{hint(str(value['do']), effects.EFFECTS)}"
                                             f" (known: {', '.join(sorted(effects.EFFECTS))})")
        fields = {k: EFFECT_KEYS[k] for k in (*kind.required, *kind.optional, *COMMON_EFFECT_KEYS)}
        Table(fields, required=kind.required, describe=f"a {kind.name} effect").check(value, path)


EFFECT = Effect()
#: what a continuous effect may change, by layer (engine.continuous.LAYER_OF); shared by the static ability
#: ``modify`` and the effect ``continuous``
LAYER_CHANGES: dict[str, Spec] = {
    "copy_of": NAME, "control": Word(("you",), "controller"),
    "change_text": Table({"from": Word(COLORS, "colour"), "to": Word(COLORS, "colour")}, required=("from", "to")),
    "set_name": NAME,
    "change_subtype": Table({"from": NAME, "to": NAME}, required=("from", "to")),
    "exchange_text": Bool(), "full_text_of": Word(("top_of_graveyard",), "object"), "all_names": Bool(),
    "name_word": Str(40, r"\S+", "one word (no spaces)"), "position": Int(0, 20),
    "types": ListOf(Word(CARD_TYPES, "card type"), 5), "add_types": ListOf(Word(CARD_TYPES, "card type"), 5),
    "add_subtypes": ListOf(NAME, 10), "set_subtypes": ListOf(NAME, 10), "set_land_types": ListOf(NAME, 10),
    "lose_supertypes": ListOf(Word(SUPERTYPES, "supertype"), 4),
    "colors": ListOf(Word(COLORS, "colour"), 5), "add_colors": ListOf(Word(COLORS, "colour"), 5),
    "keywords": ListOf(Word(KEYWORD_WORDS, "keyword")), "lose_keywords": ListOf(Word(KEYWORD_WORDS, "keyword")),
    "lose_all_abilities": Bool(),
    "set_power": Either(((int,), Int(-100, 100)), ((dict,), Table(lambda: SET_PT_FIELDS)),
                        describe="a number or a number the game computes ({ count = criteria } …)"),
    "set_toughness": Either(((int,), Int(-100, 100)), ((dict,), Table(lambda: SET_PT_FIELDS)),
                            describe="a number or a number the game computes ({ count = criteria } …)"),
    "switch": Bool(),
    "set_pt_count": FILTER,  # power and toughness each equal to the number of objects that meet these criteria
    "grants": Table(lambda: STATIC_KINDS["modify"], describe="a static ability it gives the object (like 'modify')"),
}
#: what a prevention effect does with the damage it prevented (615.5, engine.prevention.RIDERS)
PREVENTION_RIDERS: dict[str, Spec] = {
    "gain_prevented": Bool(), "source_controller_draws": Bool(),
    "counters_per_prevented": Str(30, r"[+\-\w/]+", "a counter kind like \"+1/+1\""),
    "remove_counter": Str(30, r"[+\-\w/]+", "a counter kind like \"+1/+1\""),
}
REF = NAME  # a target word or a player word; which is checked when the card is read
COMMON_EFFECT_KEYS = ("do", "if_paid", "text", "may")
#: the type of every key an effect kind may have
EFFECT_KEYS: dict[str, Spec] = {
    "do": Str(40), "if_paid": NAME, "text": TEXT, "may": Bool(),
    "link": NAME, "chosen": NAME, "about": REF, "this_turn": Bool(), "remember": NAME, "payer": REF,
    "pay_mana": MANA_COST, "spells": FILTER, "increase": MANA_COST, "reduce": MANA_COST,
    "effects": ListOf(EFFECT, 20),
    "trigger": Table(lambda: TRIGGER_FIELDS, required=("when",), describe="a delayed triggered ability"),
    "reflexive": Table(lambda: REFLEXIVE_FIELDS, describe="a reflexive triggered ability (targets, effects)"),
    "amount": AMOUNT, "to": REF, "what": REF, "on": REF, "who": REF, "a": REF, "b": REF,
    "all": FILTER, "filter": FILTER, "per": FILTER,
    "zone": Word(("hand", "graveyard", "exile", "battlefield", "library_top", "library_bottom"), "zone"),
    "controller": Word(("you",), "controller"),
    "kind": Str(30, r"[+\-\w/]+", "a counter kind like \"+1/+1\" or \"loyalty\""),
    "mana": MANA, "one_of": ListOf(MANA, 10), "optional": Bool(), "whole_hand": Bool(), "produced": Bool(),
    "reflexive_each": Bool(), "tapped": Bool(), "face_down": Bool(),
    "otherwise": ListOf(EFFECT, 10), "rule": RULE,
    "step": Word((*STEPS, "turn"), "step or turn"), "discard_unless": FILTER, "then": ListOf(EFFECT, 10),
    **LAYER_CHANGES, "power": SIGNED_AMOUNT, "toughness": SIGNED_AMOUNT,
    "from": FILTER, "next_time": Bool(), "shares_color": Bool(), "source": REF, "choose_source": Bool(),
    "unpreventable": Bool(), "exile_instead": Bool(), "choose_color": Bool(), **PREVENTION_RIDERS,
    "all_but": Int(1, 100), "combat": Bool(), "protects": FILTER,
    "new_targets": Bool(),
    "of": Word(("most_life", "fewest_life"), "what is compared"), "tie": Word(("each", "none"), "what a tie does"),
    "becomes": Table(lambda: {k: v for k, v in LAYER_CHANGES.items() if k not in ("control", "copy_of")},
                     describe="what the permanent is as it enters (changes as in a continuous effect)"),
    "duration": Word(("end_of_turn", "while_controlled", "indefinite"), "duration"),
    "token": Table(lambda: TOKEN_FIELDS, required=("name",), describe="a token (a table with a name)"),
    # abilities a continuous effect of a resolving spell gives ("gains 'When this creature dies, …'", 613.1f)
    "grants_triggers": ListOf(Table(lambda: TRIGGER_FIELDS, required=("when",),
                                    describe="a triggered ability it gives the object"), 5),
    "grants_abilities": ListOf(Table(lambda: _ability_fields(), required=("cost",),
                                     describe="an activated ability it gives the object"), 5),
}



def _ability_fields() -> dict[str, Spec]:
    return ABILITY.fields


CASTABLE_FIELDS: dict[str, Spec] = {
    "targets": ListOf(SLOT, 20), "effects": ListOf(EFFECT, 30),
    "modes": ListOf(Table({"text": TEXT, "targets": ListOf(SLOT, 20), "effects": ListOf(EFFECT, 30)}), 10),
    "choose": RANGE, "choose_if_paid": Table({"name": NAME, "choose": RANGE}, required=("name", "choose")),
    "chooser": Word(("opponent",), "chooser"),
    "additional_costs": ListOf(Table(COST_FIELDS), 10), "optional_costs": ListOf(NAMED_COST, 10),
    "alternative_costs": ListOf(NAMED_COST, 10), "choose_cost": ListOf(NAMED_COST, 10),
}
ABILITY = Table({"cost": COST, "once_per_turn": Bool(), "timing": Word(("instant", "sorcery"), "timing"),
                 "text": TEXT, **CASTABLE_FIELDS}, required=("cost",),
                describe="an activated ability (a table with a cost)")

#: "you control N or more / N or fewer [criteria]"
CONTROLS = Table({**FILTER_FIELDS, "at_least": Int(1, 100), "at_most": Int(0, 100)},
                 describe="criteria with at_least = N and/or at_most = N")
CONDITION = Table({"source_untapped": Bool(), "opponent_controls": CONTROLS,
                   "you_control": CONTROLS, "you_control_none": FILTER,
                   "life_at_least": Int(-1000, 10_000), "cards_in_hand": Int(0, 100), "paid": NAME,
                   "your_turn": Bool(), "controlled_since_last_upkeep": Bool(),
                   "chosen": Table({"link": NAME, "value": NAME}, required=("link", "value"))},
                  describe="a condition (a table of tests that must all hold)")
#: a number a characteristic-defining ability defines: a count, or the total of the cards a linked ability exiled
DEFINED_FIELDS: dict[str, Spec] = {"count": FILTER, "plus": Int(-100, 100),
                                   "devotion": ListOf(Word(COLORS, "colour"), 5)}
#: set_power / set_toughness of a continuous effect: also the affected object's own mana value ("each")
SET_PT_FIELDS: dict[str, Spec] = {**DEFINED_FIELDS, "mana_value_of": Const("each")}
DEFINED = Either(((dict,), Table({**DEFINED_FIELDS,
                                  "exiled_total": Word(("power", "toughness"), "characteristic"), "link": NAME})),
                 describe="{ count = criteria, plus = N }, { devotion = [\"B\"] } or { exiled_total = \"power\", "
                          "link = NAME }")
STATIC_KINDS: dict[str, dict[str, Spec]] = {
    "cost": {"spells": FILTER, "applies": Const("self"), "increase": MANA_COST, "reduce": MANA_COST,
             "minimum": Int(0, 100), "per": FILTER, "per_attacker": Bool(), "condition": CONDITION, "text": TEXT},
    "loyalty_cost": {"abilities_of": FILTER, "increase": Int(-20, 20), "text": TEXT},
    "prohibit_cast": {"players": Word(("opponents", "you", "all"), "players"), "spells": FILTER, "text": TEXT},
    "damage_unpreventable": {"from": FILTER, "text": TEXT},
    "prohibit_activate": {"players": Word(("opponents", "you", "all"), "players"), "abilities_of": FILTER,
                          "mana_abilities": Bool(), "text": TEXT},
    "pending": {"rule": RULE, "text": TEXT, "blocks_resolution": Bool()},
    "enters": {"tapped": Bool(), "unless": CONDITION,
               "counters": Table(lambda: _counter_table(), describe="counters: KIND = N or \"X\""),
               "choose": Word(("color", "word"), "choice"), "options": ListOf(NAME, 10),
               "pay_life": Either(((bool,), Bool()), ((int,), Int(1, 100)), describe="true (any amount) or N"),
               "tapped_unless_paid": Bool(), "exile": FILTER,
               "link": NAME, "text": TEXT},
    "modify": {"objects": Either(((str,), Word(("attached", "self"), "objects")), ((dict,), FILTER),
                                 describe="\"attached\", \"self\" or object criteria"),
               "power": Int(-100, 100), "toughness": Int(-100, 100), "text": TEXT, "condition": CONDITION,
               "grants_triggers": ListOf(Table(lambda: TRIGGER_FIELDS, required=("when",),
                                               describe="a triggered ability it gives the object"), 5),
               "grants_abilities": ListOf(ABILITY, 5),
               **{k: v for k, v in LAYER_CHANGES.items() if k != "copy_of"}},
    "cda": {"power": DEFINED, "toughness": DEFINED,
            "colors": ListOf(Word(COLORS, "colour"), 5), "text": TEXT},
    "reveal_draws": {"first_each_turn": Bool(), "link": NAME, "text": TEXT},
    "cant_enter": {"objects": FILTER, "text": TEXT},
    "cant": {"event": Word(tuple(cant.EVENTS), "event"), "who": Word(("you", "opponents", "all"), "players"),
             "text": TEXT},
    "morph": {"cost": Either(((str,), MANA_COST), ((dict,), Table({"reveal": FILTER}, required=("reveal",))),
                             describe="a mana cost or { reveal = criteria } (a card in your hand)"),
              "as_turned_face_up": Word(("color",), "choice"), "link": NAME, "text": TEXT},
    "enters_as_copy": {"of": FILTER, "text": TEXT},
    "chosen_protection": {"link": NAME, "text": TEXT},
    "buyback": {"cost": NAME, "text": TEXT},
    "replace": {"event": Word(("damage", "to_graveyard", "enters", "draw", "gain_life", "counters", "pay_life",
                               "create_token", "mana"),
                              "event"),
                "how": Word(("double", "exile_instead", "library_instead", "enters_tapped", "draw_instead_of_life",
                             "return_instead_of_draw", "enter_as_copy", "redirect_to_self", "double_counters",
                             "enters_under_your_control", "exile_top_instead", "double_tokens",
                             "draw_two_instead", "enters_transformed", "plus_one", "additional_counter",
                             "win_instead_of_draw", "exile_and_token", "counters_instead", "double_mana"),
                            "replacement"),
                "counter": Str(30, r"[+\-\w/]+", "a counter kind like \"+1/+1\""), "unless": CONDITION,
                "token": Table(lambda: TOKEN_FIELDS, required=("name",), describe="a token (a table with a name)"),
                "objects": FILTER, "to": FILTER, "noncombat": Bool(),
                "from_zone": Word(("battlefield", "hand", "library", "stack", "graveyard", "exile"), "zone"),
                "condition": CONDITION, "by_effect": Bool(), "text": TEXT},
    "prevent": {"to": Either(((str,), Word(("you", "self"), "player or self")), ((dict,), FILTER),
                             describe="\"you\", \"self\" or object criteria"),
                "from": FILTER, "amount": Int(1, 100), "condition": CONDITION, "text": TEXT, **PREVENTION_RIDERS},
    "extra_trigger": {"when": Word(tuple(triggers.TRIGGERS), "trigger event"), "what": FILTER, "text": TEXT},
    "cast_only": {"phase": Word(("beginning", "main1", "combat", "main2", "ending"), "phase"), "text": TEXT},
    "cast_from": {"zone": Word(("library_top", "graveyard"), "zone"), "spells": FILTER,
                  "keywords": ListOf(Word(KEYWORD_WORDS, "keyword")), "text": TEXT},
    "flash_for": {"spells": FILTER, "text": TEXT},
    "flash": {"if_paid": NAME, "condition": CONDITION, "text": TEXT},
    "hidden_agenda": {"text": TEXT},
    "mana_as_any_color": {"text": TEXT},
    "splice": {"onto": NAME, "cost": MANA_COST, "text": TEXT},
    "player": {"players": Word(("you", "opponents", "all"), "players"),
               "keywords": ListOf(Word(("hexproof",), "ability")),
               "lose_keywords": ListOf(Word(("hexproof",), "ability")),
               "condition": CONDITION, "text": TEXT},
}


class Static(Spec):
    describe = "a static ability (a table with 'kind')"

    def check(self, value, path) -> None:
        if not isinstance(value, dict) or "kind" not in value:
            raise SchemaError(path, "a static ability is a table with 'kind'")
        fields = STATIC_KINDS.get(value["kind"]) if isinstance(value["kind"], str) else None
        if fields is None:
            raise SchemaError((*path, "kind"), f"unknown static ability kind {value['kind']!r}"
                                               f"{hint(str(value['kind']), STATIC_KINDS)} "
                                               f"(known: {', '.join(STATIC_KINDS)})")
        Table({"kind": Str(40), **fields}).check(value, path)


class _CounterTable(dict):
    """Any counter kind: N or "X"."""

    def __contains__(self, key) -> bool:
        return isinstance(key, str) and len(key) <= 30

    def __getitem__(self, key):
        return Either(((int,), Int(0, 100)), ((str,), X), describe="a number or \"X\"")


def _counter_table() -> dict[str, Spec]:
    return _CounterTable()


class _CostCounters(_CounterTable):
    """Any counter kind: a whole number from 1 (counters put on the permanent as a cost)."""

    def __getitem__(self, key):
        return Int(1, 100)

WHEN = Word(tuple(triggers.TRIGGERS) + ("state",), "trigger event")
TRIGGER_FIELDS: dict[str, Spec] = {
    "when": WHEN, "what": Either(((str,), Word(("self", "any", "enchanted"), "object")), ((dict,), FILTER),
                                 describe="\"self\", \"any\", \"enchanted\" or object criteria"),
    "who": Word(("you", "opponent", "any"), "player"), "from": Word(ZONES, "zone"), "to": Word(ZONES, "zone"),
    "step": Word(STEPS, "step"), "if": CONDITION, "state": CONDITION, "once_each_turn": Bool(), "link": NAME,
    "cant_be_countered": Bool(),
    "anchor": Table({"link": NAME, "word": NAME}, required=("link", "word"),
                    describe="{ link = NAME, word = WORD }: an ability marked with an anchor word (614.12b)"),
    "text": TEXT, **{k: v for k, v in CASTABLE_FIELDS.items() if k in ("targets", "effects", "modes", "choose")},
}
TRIGGER = Table(TRIGGER_FIELDS, required=("when",), describe="a triggered ability (a table with 'when')")
REFLEXIVE_FIELDS: dict[str, Spec] = {k: TRIGGER_FIELDS[k] for k in ("targets", "effects", "text")}

CARD_FIELDS: dict[str, Spec] = {
    "name": NAME, "name_en": NAME, "cost": MANA_COST, "types": ListOf(Word(CARD_TYPES, "card type"), 5),
    "subtypes": ListOf(NAME, 10), "supertypes": ListOf(Word(SUPERTYPES, "supertype"), 4),
    "colors": ListOf(Word(COLORS, "colour"), 5), "power": Int(-1000, 1000), "toughness": Int(-1000, 1000),
    "loyalty": Int(0, 100), "keywords": ListOf(Word(KEYWORD_WORDS, "keyword"), 20), "text": TEXT,
    "synthetic": Bool(), "source": Str(300), "note": TEXT,
    "abilities": ListOf(ABILITY, 10), "statics": ListOf(Static(), 10), "triggers": ListOf(TRIGGER, 10),
    **CASTABLE_FIELDS,
}
FACE_FIELDS: dict[str, Spec] = {
    **{k: v for k, v in CARD_FIELDS.items() if k not in ("name_en", "synthetic", "source", "note", "abilities",
                                                          "triggers")},
    "way": Word(("face_down", "bestow", "adventure", "back"), "way of casting (or back: the back face)"),
    "inherit": Bool(),
    "pay": MANA_COST,  # what is paid instead of the mana cost (morph's {3}, a bestow cost)
}
CARD_FIELDS["faces"] = ListOf(Table(FACE_FIELDS, required=("name", "way"),
                                    describe="alternative characteristics (a table with name and way)"), 5)
CARD = Table(CARD_FIELDS, required=("name", "types"), describe="a card")
TOKEN_FIELDS: dict[str, Spec] = {k: CARD_FIELDS[k] for k in ("name", "types", "subtypes", "supertypes", "colors",
                                                             "power", "toughness", "keywords", "text", "abilities",
                                                             "statics", "triggers")}
