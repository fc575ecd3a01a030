"""Copying objects (707), as far as layer 1 needs it: the copiable values of an object (613.2c, 707.2).

A copy effect (``copy_of`` in a ``continuous`` effect of a card file) makes an object a copy of
another: in layer 1a its characteristics become the original's copiable values — the values printed
on it (or its alternative characteristics, a face-down permanent's) as modified by copy effects that
apply to it, but not by other effects (707.2, 707.2a) — and effects of later layers still apply to
the copy.  The values are taken as the effect begins: changing the original later does not change
the copy (707.2b).
"""
from __future__ import annotations

from .carddefs import CardDef
from .registry import applied, enforces

EN = "en-2024-11-08/"


@enforces(EN + "707.1", EN + "707.2", EN + "707.2a", EN + "707.2b", "613.2c")
def copiable_values(game, original, depth: int = 0) -> CardDef:
    """The copiable values of ``original`` now: its own values after layer 1 (another copy effect on it included),
    fixed from now on (707.2b)."""
    from .characteristics import base, effects_in_force
    from .continuous import affects
    applied(EN + "707.1")
    applied(EN + "707.2")
    applied(EN + "707.2a")
    applied(EN + "707.2b")
    applied("613.2c")
    card = base(game, original)
    if depth > 5:
        return card
    for eff in effects_in_force(game).by_layer.get("1a", ()):
        if affects(game, eff, original, card):
            card = eff.parts["1a"]["copy_of"]
    return card
