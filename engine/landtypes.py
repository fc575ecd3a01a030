"""Land types (305.6, 305.7): an effect that sets a land's subtype to basic land types.

Which subtypes are land types, and the mana ability each basic land type gives, are read from the card
data, not written here: a land type is a subtype of a card that is only a land; a basic land type's
ability is the one of the basic land card of that type ("{T}: Erzeuge {R}." of the Gebirge).
"""
from __future__ import annotations

from .registry import EN, applied, enforces

#: id(card database) -> (the database, its land types, basic land type -> its intrinsic abilities)
_KNOWN: dict = {}


def land_types(db) -> tuple[frozenset, dict]:
    """The land types the cards of ``db`` know, and the intrinsic mana abilities of each basic land type."""
    known = _KNOWN.get(id(db))
    if known is None or known[0] is not db:
        types: set = set()
        basic: dict = {}
        for name in db.names():
            card = db[name]
            if card.types == frozenset({"land"}):
                types |= card.subtypes
                if "basic" in card.supertypes and len(card.subtypes) == 1:
                    basic.setdefault(next(iter(card.subtypes)), card.abilities)
        known = _KNOWN[id(db)] = (db, frozenset(types), basic)
    return known[1], known[2]


@enforces(EN + "305.7")
def set_land_types(game, ch, new: list) -> None:
    """A land whose land type an effect sets: it keeps its other subtypes (a creature type), loses its old land
    types and — when a new one is a basic land type — every ability from its rules text, gaining the mana ability
    of each new basic land type (305.7).  Abilities other effects grant come later (layer 6) and stay."""
    if "land" not in ch.types:
        return
    known, basic = land_types(game.db)
    ch.subtypes = frozenset(t for t in ch.subtypes if t not in known) | frozenset(new)
    if any(t in basic for t in new):
        applied(EN + "305.7")
        ch.abilities = tuple(a for t in new for a in basic.get(t, ()))
        ch.statics, ch.triggers, ch.keywords = (), (), frozenset()
