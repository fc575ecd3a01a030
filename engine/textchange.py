"""Text-changing effects (612), applied in layer 3 (613.1c): how one effect's part changes the text of an object.

An object's text here is what the card file makes of it: its name, its type line (subtypes), its
rules text (keywords, static, triggered and activated abilities, with the criteria and token
definitions in them), and for "full text" also mana cost, colour and power/toughness.  A change
reaches only words used in the right way (612.2): a colour word in a criterion or in "protection
from", a creature type in the type line, in a criterion or in a token definition — never a card's
name (but a token's name, which a creature type defines, 612.2a).  Abilities added by other effects
are not text and are not changed (612.3: they are added later, in layer 6).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .carddefs import StaticDef
from .costs import Cost
from .filters import Filter
from .memo import outside
from .printed import base
from .registry import _ACTIVE as TRACING
from .registry import applied, enforces

#: the rules text of an object: what a text box holds (exchanged by 612.5)
RULES_TEXT = ("keywords", "statics", "triggers", "abilities", "text")
#: its full text (612.6): also the name, mana cost, colour indicator, type line, power and toughness
FULL_TEXT = (*RULES_TEXT, "name", "mana_cost", "colors", "types", "subtypes", "supertypes", "power", "toughness")


def apply_text(game, obj, res, eff) -> None:
    """Apply the parts of one text-changing effect, in the order of :data:`TEXT_CHANGES`."""
    p = eff.parts["3"]
    for key, change in TEXT_CHANGES:
        if key in p:
            change(game, obj, res, eff, p[key])


@enforces("612.8")
def set_name(game, obj, res, eff, name: str) -> None:
    """The object has this name and loses the others (612.8)."""
    applied("612.8")
    res.ch.name = name
    res.ch.also_names = frozenset()


@enforces("612.1", "612.2", "612.3")
def change_color_word(game, obj, res, eff, change: dict) -> None:
    """A colour word used as a colour word — "protection from red", the criteria of static abilities — is
    replaced (612.1, 612.2); granted abilities are not text (612.3)."""
    if TRACING:
        applied("612.1")
        applied("612.2")
        applied("612.3")
    old, new = change["from"], change["to"]
    ch = res.ch
    ch.keywords = frozenset(f"protection:{new}" if k == f"protection:{old}" else k for k in ch.keywords)
    ch.statics = tuple(_swap_static(s, ("colors", "not_colors"), old, new) for s in ch.statics)


@enforces("612.2", "612.2a", "612.4")
def change_subtype(game, obj, res, eff, change: dict) -> None:
    """A creature type used as a creature type is replaced: in the type line — a token's subtypes too (612.4) —
    in criteria, and in the tokens its abilities create, whose names the creature type also defines (612.2a)."""
    old, new = change["from"], change["to"]
    ch = res.ch
    applied("612.2")
    if old in ch.subtypes:
        if ch.token:
            applied("612.4")  # the subtypes the creating spell or ability defined
        ch.subtypes = ch.subtypes - {old} | {new}
    ch.statics = tuple(_swap_static(s, ("subtypes",), old, new) for s in ch.statics)
    ch.abilities = tuple(_swap_tokens(ab, old, new) for ab in ch.abilities)
    if ch.spell is not None:
        ch.spell = _swap_tokens(ch.spell, old, new)


def _swap_tokens(ab, old: str, new: str):
    modes = tuple(replace(m, effects=tuple(_swap_token(e, old, new) for e in m.effects)) for m in ab.modes)
    return replace(ab, modes=modes) if modes != ab.modes else ab


@enforces("612.2a")
def _swap_token(spec: dict, old: str, new: str) -> dict:
    token = spec.get("_token")
    if token is None or old not in token.subtypes:
        return spec
    applied("612.2a")  # used as a creature type and as the token's name: both change
    name = " ".join(new if w == old else w for w in token.name.split())
    changed = replace(token, name=name, subtypes=token.subtypes - {old} | {new})
    return {**spec, "_token": changed, "token": {**spec.get("token", {}), "name": name}}


@enforces("612.5")
def exchange_text(game, obj, res, eff, value) -> None:
    """Exchange of Words: the rules text of each of the two objects is replaced by the other's (612.5) — its
    text box as printed (or as the object's alternative characteristics give it)."""
    others = [oid for oid in eff.locked or () if oid != obj.id and oid in game.state.objects]
    if not others:
        return
    applied("612.5")
    other = base(game, game.state.objects[others[0]])
    for name in RULES_TEXT:
        setattr(res.ch, name, getattr(other, name))


@enforces("612.6")
def full_text_of(game, obj, res, eff, which: str) -> None:
    """Volrath's Shapeshifter: "has the full text of" the top card of its controller's graveyard, if that is a
    creature card — name, mana cost, colour, type line, text box, power and toughness (612.6); it keeps its own
    activated abilities (the Shapeshifter's "{2}: Discard a card." it also has)."""
    outside()  # a graveyard is read: not kept with the board (engine.memo)
    grave = game.state.players[res.controller].graveyard
    if which != "top_of_graveyard" or not grave:
        return
    top = base(game, game.state.objects[grave[-1]])
    if "creature" not in top.types:
        return
    applied("612.6")
    own = res.ch.abilities
    for name in FULL_TEXT:
        setattr(res.ch, name, getattr(top, name))
    res.ch.abilities = top.abilities + own
    res.power, res.toughness = top.power, top.toughness


@enforces("612.7")
def all_names(game, obj, res, eff, value) -> None:
    """Spy Kit: the object has the name of each nonlegendary creature card (612.7) — of the card reference, here
    the engine's card files — in addition to its name."""
    applied("612.7")
    cards = game.db.cards.values()
    res.ch.also_names = frozenset(c.name for c in cards if "creature" in c.types and "legendary" not in c.supertypes
                                  and not c.token and c.name)


@enforces("612.9", "en-2024-11-08/123.6c")
def add_name_word(game, obj, res, eff, word: str) -> None:
    """A name sticker adds its word to the object's name after as many words as it was placed after — at the end
    if the name now has fewer (123.6c); it never changes the other words (612.9)."""
    applied("612.9")
    words = res.ch.name.split()
    at = eff.parts["3"].get("position", len(words))
    if at > len(words):
        applied("en-2024-11-08/123.6c")
    at = min(at, len(words))
    res.ch.name = " ".join(words[:at] + [word] + words[at:])


@enforces("612.10", "en-2024-11-08/702.47c")
def add_spliced(game, obj, res, eff, texts: tuple) -> None:
    """A spliced card's rules text follows the spell's own, which it neither changes nor replaces (612.10): its
    targets and effects are added after the spell's; its splice cost is an additional cost of the spell
    (702.47a); the spell gains no other characteristic of the card (702.47c)."""
    spell = res.ch.spell
    if spell is None:
        return
    applied("612.10")
    applied("en-2024-11-08/702.47c")
    mode = spell.modes[0]
    for added, cost in texts:
        extra = added.modes[0]
        mode = replace(mode, targets=mode.targets + extra.targets, effects=mode.effects + extra.effects)
        spell = replace(spell, additional=spell.additional + (Cost(mana=cost),))
    res.ch.spell = replace(spell, modes=(mode,))


def _swap_static(static, keys: tuple, old: str, new: str):
    params = dict(static.params)
    changed = False
    for key, value in static.params.items():
        if isinstance(value, Filter) and any(old in getattr(value, k) for k in keys):
            swapped: dict[str, Any] = {k: _swap(getattr(value, k), old, new) for k in keys}
            params[key] = replace(value, **swapped)
            changed = True
    return StaticDef(static.kind, params) if changed else static


def _swap(words: frozenset, old: str, new: str) -> frozenset:
    return frozenset(new if w == old else w for w in words)


#: the text changes one effect may make, in the order they are applied
TEXT_CHANGES = (("set_name", set_name), ("change_text", change_color_word), ("change_subtype", change_subtype),
                ("exchange_text", exchange_text), ("full_text_of", full_text_of), ("all_names", all_names),
                ("name_word", add_name_word), ("splice", add_spliced))
