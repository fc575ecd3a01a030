"""Objects the rules themselves put on the stack (the rules of 1999: combat damage, the draw of the draw step).

Such an object is not a spell and not an ability of a card: it has no card and no source, only a
name and what it does when it resolves.  :func:`engine.resolution.resolve_top` hands it to its
``resolve``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .state import STACK


@dataclass(frozen=True)
class StackedByRule:
    """What a rule put on the stack: its name (as the stack shows it) and how it resolves."""

    name: str

    def resolve(self, game, obj) -> None:
        raise NotImplementedError


def put_on_stack(game, what: StackedByRule, controller: int):
    """Put ``what`` on top of the stack, controlled by ``controller``; the object."""
    obj = game.state.new_object(None, controller, STACK)
    obj.source_card = what.name
    obj.abdef = what
    return obj
