"""Taking an action, and undoing it exactly when it turns out to be illegal — or when anything else goes wrong.

One mechanism for every illegal action — casting (601.2, 601.2e, 601.4),
activating (602.2), choices while resolving — instead of undo code per step:
the state is snapshotted before the action and put back if any step raises
:class:`IllegalAction`.  Mana abilities activated during the action are undone
with it, and the player who had priority keeps it (730.2).  Any other exception
(a card text the engine cannot execute, an engine bug) also restores the state
before it is passed on: no action leaves a half-changed game behind.
"""
from __future__ import annotations

from .errors import IllegalAction
from .registry import applied, enforces


def take_action(game, action, *args, procedure: str | None = None) -> IllegalAction | None:
    """Run ``action``; if it is illegal (or fails), return the game to the moment before it began.

    ``procedure`` is the rule that describes the action and says that it is reversed when a step cannot be
    completed ("601.2" casting, "602.2" activating).
    """
    live = game.state
    snapshot = live.snapshot()  # put back only if the action fails (then revived)
    last_cost = game.last_cost
    try:
        action(game, *args)
    except IllegalAction as illegal:
        return_to_moment_before(game, snapshot, last_cost, illegal, procedure)
        return illegal
    except BaseException:
        game.state = snapshot.revive()
        game.last_cost = last_cost
        raise
    finally:
        live.release(snapshot)
    return None


@enforces("601.2", "601.2e", "601.4", "602.2", "en-2024-11-08/730.1", "en-2024-11-08/730.2")
def return_to_moment_before(game, snapshot, last_cost, illegal: IllegalAction, procedure: str | None) -> None:
    """An illegal action is reversed entirely, paid costs included; the player who had priority keeps it."""
    game.state = snapshot.revive()
    game.last_cost = last_cost
    applied("en-2024-11-08/730.1")
    if procedure in ("601.2", "602.2"):
        applied(procedure)
    if illegal.rule in ("601.2e", "601.4"):
        applied(illegal.rule)
    if snapshot.priority is not None:
        applied("en-2024-11-08/730.2")
