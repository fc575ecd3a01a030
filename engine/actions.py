"""Taking an action, and undoing it exactly when it turns out to be illegal.

One mechanism for every illegal action — casting (601.2, 601.2e, 601.4),
activating (602.2), choices while resolving — instead of undo code per step:
the state is snapshotted before the action and put back if any step raises
:class:`IllegalAction`.  Mana abilities activated during the action are undone
with it, and the player who had priority keeps it.
"""
from __future__ import annotations

from .errors import IllegalAction, NotExecutable
from .registry import enforces


def take_action(game, action, *args) -> IllegalAction | None:
    """Run ``action``; if it is illegal, return the game to the moment before it began."""
    snapshot = game.state.copy()
    last_cost = game.last_cost
    try:
        action(game, *args)
    except IllegalAction as illegal:
        return_to_moment_before(game, snapshot, last_cost)
        return illegal
    except NotExecutable:
        return_to_moment_before(game, snapshot, last_cost)
        raise
    return None


@enforces("601.2", "601.2e", "601.4", "602.2", "de-1999/422.1", "de-1999/422.2")
def return_to_moment_before(game, snapshot, last_cost) -> None:
    """An illegal action is reversed entirely, paid costs included; the player keeps priority."""
    game.state = snapshot
    game.last_cost = last_cost
