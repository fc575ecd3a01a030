"""Mana burn (the rules of 1999, 300.4): mana left in a pool when a phase ends is lost, and so is that much life.

Today the mana empties at the end of every step and phase and nobody loses life
(:func:`engine.turn.mana_empties`, 500.4); which of the two applies is the rule set's choice
(:mod:`engine.variants`, feature ``mana_pool_empties``).
"""
from __future__ import annotations

from .registry import applied, enforces
from .state import PHASE_OF, STEPS

D = "de-1999/"


@enforces(D + "300.4")
def mana_burn(game) -> None:
    """As a phase (not a step) ends, unused mana leaves each pool and its player loses that much life."""
    st = game.state
    i = STEPS.index(st.step)
    if i + 1 < len(STEPS) and PHASE_OF[STEPS[i + 1]] == PHASE_OF[st.step]:
        return  # only a step of the phase ends: the mana stays
    applied(D + "300.4")
    for p in st.players:
        p.life -= sum(p.pool)
        p.pool = [0] * 6
