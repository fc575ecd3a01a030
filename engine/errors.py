"""What can go wrong in a game, as exceptions carrying the rule that says so."""
from __future__ import annotations


class IllegalAction(Exception):
    """A player cannot legally complete an action; the game returns to the moment before it.

    ``rule`` is the citation (as in :mod:`engine.registry`) of the rule that makes it illegal.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class NotExecutable(Exception):
    """The card text needs rules the engine does not implement yet (a ``pending`` part of a card)."""
