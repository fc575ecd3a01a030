"""What one continuous effect's part does in its layer (613.1–613.4): the changes, applied to a draft.

:mod:`engine.layers` decides which effects apply to an object and in which order; the functions here
make the change of one effect's part — copy (1a), control (2), type (4), colour (5), abilities (6),
power and toughness (7b–7d); layer 3's are :mod:`engine.textchange`'s.  They are called from the
layer function that cites the rule (they apply it, :func:`engine.registry.applied`).
"""
from __future__ import annotations

from dataclasses import fields, replace
from operator import attrgetter

from .carddefs import CardDef
from .landtypes import set_land_types
from .printed import defined_number
from .registry import _ACTIVE as TRACING
from .registry import EN, applied
from .textchange import apply_text

_FIELDS = tuple(f.name for f in fields(CardDef))
_new = object.__new__
_set = object.__setattr__


#: the values the layers and the criteria of effects read most: copied at once (the others on first use)
_EAGER = ("name", "types", "subtypes", "supertypes", "colors", "keywords", "statics", "power", "toughness", "cda")
_GET_EAGER = attrgetter(*_EAGER)


class Draft:
    """The characteristics while the layers are applied: the values a layer changed are kept on the draft, the
    others are read from the card it started from; made a CardDef once at the end (only if something changed)."""

    @staticmethod
    def of(card) -> "Draft":
        d = _new(Draft)
        if card.__class__ is Draft:
            d.__dict__.update(card.__dict__)
        else:
            d.__dict__.update(zip(_EAGER, _GET_EAGER(card)), _card=card)
        return d

    def __getattr__(self, name: str):  # only for a value no layer changed
        return getattr(self.__dict__["_card"], name)

    def done(self) -> CardDef:
        values = self.__dict__
        card = values["_card"]
        new = _new(CardDef)
        for name in _FIELDS:
            _set(new, name, values[name] if name in values else getattr(card, name))
        return new


def _copy(game, obj, res, eff) -> None:
    """The copiable values fixed as the copy effect began (707.2b) replace the object's."""
    if TRACING:
        applied(EN + "707.2")
    copied = eff.parts["1a"]["copy_of"]
    res.ch = Draft.of(copied)
    res.power, res.toughness = copied.power, copied.toughness


def _control(game, obj, res, eff) -> None:
    if TRACING:
        applied("613.1b")
    res.controller = eff.parts["2"]["control"]


def _types(game, obj, res, eff) -> None:
    if TRACING:
        applied("613.1d")
    p = eff.parts["4"]
    ch = res.ch
    types = frozenset(p["types"]) if "types" in p else ch.types | frozenset(p.get("add_types", ()))
    subtypes = frozenset(p["set_subtypes"]) if "set_subtypes" in p else ch.subtypes | frozenset(
        p.get("add_subtypes", ()))
    supertypes = ch.supertypes - frozenset(p.get("lose_supertypes", ()))
    ch.types, ch.subtypes, ch.supertypes = types, subtypes, supertypes
    if "set_land_types" in p:
        set_land_types(game, ch, p["set_land_types"])


def _colors(game, obj, res, eff) -> None:
    if TRACING:
        applied("613.1e")
    p = eff.parts["5"]
    colors = frozenset(p["colors"]) if "colors" in p else res.ch.colors | frozenset(p.get("add_colors", ()))
    res.ch.colors = colors


def _abilities(game, obj, res, eff) -> None:
    if TRACING:
        applied("613.1f")
    p = eff.parts["6"]
    ch = res.ch
    if p.get("lose_all_abilities"):
        ch.keywords, ch.statics, ch.triggers, ch.abilities = frozenset(), (), (), ()
    if "grants" in p:  # a static ability: its effect is generated from the object (engine.equipment)
        ch.statics = ch.statics + (p["grants"],)
    if "grants_triggers" in p:  # numbered after the object's own (scenarios name them #n)
        ch.triggers = ch.triggers + tuple(replace(t, index=len(ch.triggers) + i + 1)
                                          for i, t in enumerate(p["grants_triggers"]))
    if "grants_abilities" in p:
        ch.abilities = ch.abilities + tuple(replace(a, index=len(ch.abilities) + i + 1)
                                            for i, a in enumerate(p["grants_abilities"]))
    gained, lost = p.get("keywords"), p.get("lose_keywords")
    kws = ch.keywords.union(gained) if gained else ch.keywords
    ch.keywords = kws.difference(lost) if lost else kws


def _set_pt(game, obj, res, eff) -> None:
    if TRACING:
        applied("613.1g")
        applied("613.4b")
    p = eff.parts["7b"]
    if "set_pt_count" in p:  # "… are each equal to the number of …": counted whenever it is read
        res.power = res.toughness = defined_number(game, obj, {"count": p["set_pt_count"]})
    for key in ("set_power", "set_toughness"):
        value = p.get(key)
        if isinstance(value, dict):  # a static ability's number the game computes, whenever it is read
            value = own_mana_value(res) if "mana_value_of" in value else defined_number(game, obj, value)
        if value is not None:
            setattr(res, key[4:], value)


def own_mana_value(res) -> int:
    """"Base power and toughness each equal to its mana value": the affected object's own, from its mana cost as the
    earlier layers left it (202.3; {X} is 0 off the stack, 107.3f)."""
    return res.ch.mana_cost.mana_value()


def _modify_pt(game, obj, res, eff) -> None:
    if res.power is None:
        return
    if TRACING:
        applied("613.1g")
        applied("613.4c")
    p = eff.parts["7c"]
    res.power += p.get("power", 0)
    res.toughness = (res.toughness or 0) + p.get("toughness", 0)


def _switch(game, obj, res, eff) -> None:
    if res.power is None:
        return
    if TRACING:
        applied("613.1g")
        applied("613.4d")
    res.power, res.toughness = res.toughness, res.power


#: how one effect's part applies in its layer
APPLY = {"1a": _copy, "2": _control, "3": apply_text, "4": _types, "5": _colors, "6": _abilities, "7b": _set_pt,
         "7c": _modify_pt, "7d": _switch}
