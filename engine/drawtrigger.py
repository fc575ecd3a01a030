"""The draw of the draw step as a triggered ability (the rules of 1999, 304.1).

In 1999 the draw of the draw step is a triggered ability, as if every player's card said so: it goes
on the stack, players receive priority, and the card is drawn when it resolves.  Today the draw is a turn-based action
that does not use the stack (504.1, :func:`engine.turn.draw`); the rule set chooses (feature ``draw_step``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .drawing import draw_card
from .registry import applied, enforces
from .ruleobjects import StackedByRule, put_on_stack

D = "de-1999/"


@dataclass(frozen=True)
class DrawStepDraw(StackedByRule):
    player: int = 0

    def resolve(self, game, obj) -> None:
        draw_from_trigger(game, obj, self)


@enforces(D + "304.1")
def draw_step_trigger(game) -> None:
    """As the draw step begins, "draw a card" goes on the stack for the active player."""
    applied(D + "304.1")
    active = game.state.active
    put_on_stack(game, DrawStepDraw("Ziehen", active), active)


@enforces(D + "304.1")
def draw_from_trigger(game, obj, what: DrawStepDraw) -> None:
    """The draw of the draw step resolves: the active player draws a card."""
    applied(D + "304.1")
    game.state.remove(obj.id)
    draw_card(game, what.player)
