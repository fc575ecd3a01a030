"""Current characteristics of objects — the seam for continuous effects.

Today an object's characteristics are its card's printed ones, plus what the
rules add without continuous effects (counters on power and toughness, X on
the stack).  The layer system of rule 613 will plug in here: every reader of
characteristics goes through :func:`characteristics`, never through the card.
"""
from __future__ import annotations

from .carddefs import CardDef
from .state import STACK

#: an ability on the stack has the text of its ability and no other characteristics (602.2a)
ABILITY = CardDef(name="", types=frozenset(), token=True)


def characteristics(db, obj) -> CardDef:
    if obj.card is None:
        return ABILITY
    return db.cards[obj.card]


def mana_value(db, obj) -> int:
    """Mana value; ``{X}`` counts its announced value on the stack and 0 elsewhere."""
    ch = characteristics(db, obj)
    x = obj.ann.x if obj.zone == STACK and obj.ann is not None else 0
    return ch.mana_cost.mana_value(x)


def power(db, obj) -> int | None:
    p = characteristics(db, obj).power
    if p is None:
        return None
    return p + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)


def toughness(db, obj) -> int | None:
    t = characteristics(db, obj).toughness
    if t is None:
        return None
    return t + obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)

