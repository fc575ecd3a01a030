"""Every loop the engine runs ends (104.4b): a bound on each loop, and a budget for the whole game.

The engine runs four loops that the rules repeat "until none is left": the state-based-action check
(704.3), state-based actions and triggered abilities before a player receives priority (117.5),
replacement effects applied to one event (616.1f), and the dependency order of a layer (613.8b, which
takes one effect per round and so cannot go round for ever).  Each round of such a loop, and every
other unit of engine work that a card's numbers could make large (a token created, a card drawn, a
step begun), is paid for with :func:`spend`:

* a loop of *mandatory* actions — state-based actions that keep changing the game, triggered
  abilities that keep being put on the stack with no player deciding anything — that goes round
  :data:`MAX_ROUNDS` times is a draw (:func:`mandatory_loop`, 104.4b);
* anything else that would not end (a replacement loop, the game's whole budget of
  :data:`BUDGET` units used up) is refused: :class:`Unbounded`, an illegal action with a clear message,
  so the game returns to the state before the action that started it.

The bounds are far beyond anything a real game does (the 258 scenarios of ``data/scenarios`` use at
most a few thousand units each), so they change no legal game; they only make sure that ``kb build``
and ``kb scenario run`` always return.
"""
from __future__ import annotations

from .errors import IllegalAction
from .registry import EN, applied, enforces

#: how often one loop may go round for one event, one check or one player receiving priority
MAX_ROUNDS = 1_000
#: the engine work one game may do in all (rounds of loops, tokens, draws, steps): ample for a long game
BUDGET = 5_000_000


class Unbounded(IllegalAction):
    """An action would make the engine loop without end (or use up the game's budget): it is refused, and the game
    returns to the moment before it (like any illegal action)."""


def spend(game, rule: str, units: int = 1) -> None:
    """Pay ``units`` of the game's budget for work done under ``rule``; refuse the action when it is used up."""
    game.budget -= units
    if game.budget < 0:
        game.budget += units  # the refused action is undone: its work is not charged twice
        raise Unbounded(rule, f"the game used up its budget of {BUDGET:,} units of engine work (a loop that does "
                              f"not end?); the action is refused")


def bounded(game, rule: str, rounds: int, what: str) -> None:
    """One more round of a loop that must end by itself (a replacement loop): refuse it past :data:`MAX_ROUNDS`."""
    spend(game, rule)
    if rounds > MAX_ROUNDS:
        raise Unbounded(rule, f"{what} went round {MAX_ROUNDS:,} times without end; the action is refused")


@enforces(EN + "104.4b")
def mandatory_loop(game, rounds: int) -> bool:
    """A loop of mandatory actions with no way to stop (state-based actions, triggered abilities put on the stack)
    that has gone round :data:`MAX_ROUNDS` times: the game is a draw (104.4b).  Returns whether the game ended."""
    if rounds <= MAX_ROUNDS:
        return False
    applied(EN + "104.4b")
    st = game.state
    st.over = True
    st.priority = None
    return True
