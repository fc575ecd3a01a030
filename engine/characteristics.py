"""Current characteristics of objects (604, 613): every reader of characteristics goes through here.

An object's characteristics are its card's printed ones, or the alternative ones it has (a
face-down spell, a bestowed Aura, an Adventure: ``obj.face``), with its characteristic-defining
abilities for colour and creature types (604.3, 604.3a).  When continuous effects are in force —
static abilities on the battlefield (``modify``) or effects of resolved spells and abilities — the
layer system (:mod:`engine.layers`) applies them on every read; nothing is stored.  With none in
force, the printed values, counters and defined power and toughness are returned directly.
"""
from __future__ import annotations

from dataclasses import replace

from . import memo
from .carddefs import CardDef
from .layers import _COMPUTING, NONE, START, Active, compute, counter_modifiers, effects_in_force, untouched
from .printed import (  # noqa: F401 (read here)
    ABILITY,
    NO_STATICS,
    base,
    continuous,
    defined_number,
    face_down,
    printed_statics,
)
from .registry import _ACTIVE as TRACING
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, STACK


def starting(game, obj) -> CardDef:
    """The values the layers start from: printed or alternative characteristics, with characteristic-defining
    abilities (604.3) and the abilities an anchor word chose (614.12b)."""
    card = base(game, obj)
    if card.cda:
        card = _defined(card)
    if card.anchored:
        card = anchored(card, obj)
    return card


def characteristics(game, obj) -> CardDef:
    """Current characteristics: the layers applied when a continuous effect that changes them is in force (613),
    else printed or alternative ones with characteristic-defining abilities (604.3)."""
    if obj.zone == BATTLEFIELD and game.state.objects.get(obj.id) is obj:
        return _on_board(game, obj)[0]
    card = starting(game, obj)
    active = _effects(game, obj)
    if not active.shapes or untouched(game, obj, card, active):
        return card
    return compute(game, obj, card, active).ch


def _effects(game, obj) -> Active:
    """The continuous effects that may change ``obj``: none off the battlefield (they affect permanents, 609.2)."""
    active = memo.kept(game, "effects in force", lambda: _in_force(game), comparable=False)
    return active if obj.zone == BATTLEFIELD or active.elsewhere else NONE


def _in_force(game) -> Active:
    return effects_in_force(game) if game.state.effects or continuous(game) else NONE


memo.COMPUTING[0] = _COMPUTING


def _on_board(game, obj) -> tuple[CardDef, int | None, int | None]:
    """A permanent's characteristics, power and toughness, kept for the board as it is (:mod:`engine.memo`)."""
    return memo.kept(game, obj.id, lambda: _layered(game, obj))


def _layered(game, obj) -> tuple[CardDef, int | None, int | None]:
    """Characteristics, power and toughness with one pass through the layers (613.1)."""
    card = starting(game, obj)
    active = _effects(game, obj)
    if not active or untouched(game, obj, card, active):
        return card, _unmodified(game, obj, "power", card), _unmodified(game, obj, "toughness", card)
    res = compute(game, obj, card, active)
    return (res.ch if active.shapes else card), res.power, res.toughness


@enforces("614.12b", "607.2d")
def anchored(card: CardDef, obj) -> CardDef:
    """"[Anchor word] — [ability]": it has the ability only as long as that word was chosen as it entered the
    battlefield (614.12b); the choice is the one its "as … enters, choose" ability linked to it made (607.2d)."""
    kept = tuple(t for t in card.triggers if t.anchor is None or obj.memory.get(t.anchor[0]) == t.anchor[1])
    if len(kept) == len(card.triggers):
        return card
    applied("614.12b")
    applied("607.2d")
    return replace(card, triggers=kept)


@enforces("604.3", "604.3a", EN + "702.73a", EN + "702.114a")
def _defined(card: CardDef) -> CardDef:
    """Characteristic-defining abilities (colour, creature types) — in every zone."""
    applied("604.3")
    applied("604.3a")
    changes: dict = {}
    if "devoid" in card.keywords:
        applied(EN + "702.114a")
        changes["colors"] = frozenset()
    if "changeling" in card.keywords:
        applied(EN + "702.73a")
        changes["subtypes"] = card.subtypes | ALL_CREATURE_TYPES
    for static in card.statics:
        if static.kind == "cda" and "colors" in static.params:
            changes["colors"] = frozenset(static.params["colors"])
    return replace(card, **changes)


START.append(starting)


@enforces("613.1f", "604.1")
def statics_on_battlefield(game) -> dict[str, list]:
    """The static abilities on the battlefield by kind, (source id, static), as the objects have them now — through
    the layers: an ability an effect removed (613.1f: Humility; 305.7: Blood Moon) generates no effect, one an effect
    granted does (604.1: a static ability is simply true while the object has it).  Abilities that change
    characteristics (``modify``) are the layer system's own input (:func:`engine.printed.continuous`); whether their
    effects exist is decided there (613.8a).  Kept for the board as it is (:mod:`engine.memo`)."""
    printed = printed_statics(game)
    st = game.state
    if not (st.effects or printed.get("modify")):
        return printed  # no continuous effect: every object has its printed abilities
    active = memo.kept(game, "effects in force", lambda: _in_force(game), comparable=False)
    if not _change_abilities(active):
        return printed  # no effect in force changes abilities: every object has its printed ones
    return memo.kept(game, "statics through the layers", lambda: _through_layers(game, printed), comparable=False)


def _through_layers(game, printed: dict[str, list]) -> dict[str, list]:
    st = game.state
    out: dict[str, list] = {"modify": printed.get("modify", NO_STATICS)} if "modify" in printed else {}
    for oid in (*st.battlefield, *st.command):
        if oid in st.command and st.objects[oid].memory.get("face_down"):
            continue
        for static in characteristics(game, st.objects[oid]).statics:
            if static.kind != "modify":
                out.setdefault(static.kind, []).append((oid, static))
    lost = sum(map(len, printed.values())) - sum(map(len, out.values()))
    if lost and TRACING:
        applied("613.1f")
        applied("604.1")
    return out


def _change_abilities(active: Active) -> bool:
    """Could an effect in force change an object's static abilities: a copy (1a), a text change (3), setting a land
    type (4, 305.7), adding or removing abilities (6)?"""
    by_layer = active.by_layer
    return "1a" in by_layer or "3" in by_layer or "6" in by_layer or any(
        "set_land_types" in e.parts["4"] for e in by_layer.get("4", ()))


def statics_of_kind_on_battlefield(game, kind: str):
    """(source object, static) for each static ability of ``kind`` on the battlefield (as the objects have them)."""
    st = game.state
    return [(st.objects[oid], s) for oid, s in statics_on_battlefield(game).get(kind, ())]

#: creature types a changeling has (the ones the cards here use; 205.3m lists them all)
ALL_CREATURE_TYPES = frozenset({"Goblin", "Elf", "Druid", "Beast", "Bear", "Human", "Soldier", "Wizard", "Zombie",
                                "Dragon", "Elemental", "Shapeshifter", "Wall", "Cat", "Myr", "Golem", "Bird",
                                "Spirit", "Plant", "Snake", "Manticore", "Warrior", "Shaman", "Knight"})


def keywords(game, obj) -> frozenset:
    """Keywords: printed, plus those static abilities and other effects give it (604.2, layer 6)."""
    card = characteristics(game, obj)
    gains = obj.memory.get("gains") if obj.zone == BATTLEFIELD else None
    kws = card.keywords | frozenset(gains) if gains else card.keywords
    if obj.memory and card.statics:
        kws = kws | chosen_protection(card, obj)
    return kws


@enforces("607.2d", EN + "702.16a")
def chosen_protection(card: CardDef, obj) -> frozenset:
    """"[This] has protection from the chosen colour": linked to its "as [this] enters, choose a colour" (607.2d);
    without a choice, nothing."""
    out = set()
    for static in card.statics:
        color = obj.memory.get(static.params.get("link")) if static.kind == "chosen_protection" else None
        if color:
            applied("607.2d")
            applied(EN + "702.16a")
            out.add(f"protection:{color}")
    return frozenset(out)


def mana_value(game, obj) -> int:
    """Mana value; ``{X}`` counts its announced value on the stack and 0 elsewhere."""
    ch = characteristics(game, obj)
    x = obj.ann.x if obj.zone == STACK and obj.ann is not None else 0
    return ch.mana_cost.mana_value(x)


def _printed_or_defined(game, obj, which: str, card: CardDef | None = None) -> int | None:
    card = card if card is not None else characteristics(game, obj)
    for static in card.statics:
        if static.kind == "cda" and which in static.params:
            return defined_number(game, obj, static.params[which])
    return getattr(card, which)


def _modified(game, obj, which: str) -> int | None:
    active = _effects(game, obj)
    if active:
        card = base(game, obj)
        card = _defined(card) if card.cda else card
        if not untouched(game, obj, card, active):
            res = compute(game, obj, card, active, finish=False)
            return res.power if which == "power" else res.toughness
    return _unmodified(game, obj, which)


def _unmodified(game, obj, which: str, card: CardDef | None = None) -> int | None:
    """Power or toughness when no continuous effect applies: printed or defined (604.3), with counters (7c)."""
    n = _printed_or_defined(game, obj, which, card)
    if n is None:
        return None
    if not obj.counters:
        return n
    dp, dt = counter_modifiers(obj)
    return n + (dp if which == "power" else dt)


def with_toughness(game, obj) -> tuple[CardDef, int | None]:
    """Characteristics and toughness with one pass through the layers (the state-based actions read both)."""
    if obj.zone == BATTLEFIELD and game.state.objects.get(obj.id) is obj:
        ch, _, toughness = _on_board(game, obj)
        return ch, toughness
    active = _effects(game, obj)
    card = starting(game, obj)
    if not active.shapes and not active or untouched(game, obj, card, active):
        return card, _unmodified(game, obj, "toughness", card)
    if not active.shapes:
        return card, _modified(game, obj, "toughness")
    res = compute(game, obj, card, active)
    return (res.ch if active.shapes else card), res.toughness


def board(game) -> list:
    """(object id, characteristics, toughness) for every permanent on the battlefield, kept for the board as it is
    (the state-based actions read them all, every time a player would receive priority)."""
    st = game.state
    return memo.kept(game, "board", lambda: [(oid, *with_toughness(game, st.objects[oid])) for oid in st.battlefield])


def power(game, obj) -> int | None:
    if obj.zone == BATTLEFIELD and game.state.objects.get(obj.id) is obj:
        return _on_board(game, obj)[1]
    return _modified(game, obj, "power")


def toughness(game, obj) -> int | None:
    if obj.zone == BATTLEFIELD and game.state.objects.get(obj.id) is obj:
        return _on_board(game, obj)[2]
    return _modified(game, obj, "toughness")
