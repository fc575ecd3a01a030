"""Drawing from an empty library under the rules of 1999 (102.2, 102.3): the player has lost, at once.

A player who must draw more cards than their library holds has lost (102.2), and the game ends
the moment a rule says so (102.3), in the middle of a resolution if need be; the state-based
effects of 420.5 do not include it.  Today the attempt is remembered and the player
loses when state-based actions are next checked (121.4, 704.5b; :func:`engine.drawing.remember_empty_draw`);
the rule set chooses (feature ``draw_from_empty_library``).
"""
from __future__ import annotations

from .players import lose_game
from .registry import applied, enforces

D = "de-1999/"


@enforces(D + "102.2", D + "102.3")
def loses_at_once(game, player: int) -> None:
    """A player who must draw a card their library does not have loses the game at once."""
    applied(D + "102.2")
    applied(D + "102.3")
    lose_game(game, [player], D + "102.2")
