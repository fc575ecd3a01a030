"""What an object is before any continuous effect: its printed or alternative characteristics (layer 1b for a
face-down one), the static abilities on the battlefield, and numbers characteristic-defining abilities define.

The layer system (:mod:`engine.layers`) starts from these; :mod:`engine.characteristics` is what the rest of
the engine reads.
"""
from __future__ import annotations

from .carddefs import CardDef
from .devotion import devotion
from .filters import matches
from .memo import outside
from .registry import EN, applied, enforces

#: an ability on the stack has the text of its ability and no other characteristics (602.2a)
ABILITY = CardDef(name="", types=frozenset(), token=True)


def base(game, obj) -> CardDef:
    """The printed characteristics, or the alternative ones the object has (``face``)."""
    if obj.card is None:
        return ABILITY
    card = game.db.cards[obj.card]
    if obj.face is not None:
        face = card.faces[obj.face]
        return face_down(face) if face.way == "face_down" else face
    return card


@enforces("613.2b", EN + "708.2")
def face_down(card: CardDef) -> CardDef:
    """Layer 1b: a face-down spell or permanent has only the characteristics its rules give it (708.2) — the
    alternative characteristics the object has."""
    applied("613.2b")
    applied(EN + "708.2")
    return card


def printed_statics(game) -> dict[str, list]:
    """Static abilities on the battlefield by kind as printed: (source id, static), kept until the battlefield or the
    copy effects change (an object id always names the same object, so the ids on the battlefield say which
    abilities are there).  A permanent that is a copy has the static abilities of what it copies (707.2).  These are
    what the layer system starts from (its ``modify`` abilities, :func:`continuous`); which abilities an object has
    after the layers is :func:`engine.characteristics.statics_on_battlefield`'s."""
    st = game.state
    copies = _copy_effects(st) if st.effects else ()
    cache = game.statics_cache
    if cache is not None and cache[0] == st.battlefield and cache[2] == copies and cache[3] == st.command:
        return cache[1]
    copied = {oid: e.parts["1a"]["copy_of"] for e in copies for oid in e.locked}
    out: dict[str, list] = {}
    for oid in st.battlefield:
        card = copied.get(oid) or base(game, st.objects[oid])
        for static in card.statics:
            out.setdefault(static.kind, []).append((oid, static))
    for oid in st.command:  # a face-up plane, vanguard … in the command zone (engine.command): its abilities apply
        if not st.objects[oid].memory.get("face_down"):
            for static in base(game, st.objects[oid]).statics:
                out.setdefault(static.kind, []).append((oid, static))
    game.statics_cache = (st.battlefield[:], out, copies, st.command[:])
    return out


def _copy_effects(st) -> tuple:
    return tuple(e for e in st.effects if getattr(e, "parts", None) and "1a" in e.parts and e.locked)


#: the same empty value every time (the layers' cache compares by identity)
NO_STATICS: list = []


def continuous(game) -> list:
    """(source id, static) for each static ability on the battlefield that changes other objects' characteristics."""
    return printed_statics(game).get("modify", NO_STATICS)


@enforces("604.3")
def defined_number(game, obj, value) -> int:
    """A power or toughness a characteristic-defining ability defines ("equal to the number of …")."""
    outside()  # counted over the whole game: not kept with the board (engine.memo)
    if "exiled_total" in value:
        return exiled_total(game, obj, value)
    if "devotion" in value:
        return devotion(game, obj.controller, value["devotion"]) + value.get("plus", 0)
    applied("604.3")
    st = game.state
    flt = value["count"]
    zones = [st.objects[o] for o in st.objects if st.objects[o].ability is None]
    return sum(1 for other in zones if matches(game, other, flt, obj.controller, obj.id)) + value.get("plus", 0)


@enforces("614.14", "604.3")
def exiled_total(game, obj, value: dict) -> int:
    """"Its power is equal to the total power of the exiled cards": only the cards in exile that were put there
    by the linked replacement effect (614.14) count."""
    applied("604.3")
    uids = set(obj.memory.get(value["link"], ()))
    if not uids:
        return 0
    applied("614.14")
    st = game.state
    which = value["exiled_total"]
    return sum(getattr(game.characteristics(st.objects[oid]), which) or 0 for oid in st.exile
               if st.objects[oid].uid in uids)
