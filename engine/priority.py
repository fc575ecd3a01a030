"""Receiving priority (117.3, 117.5): first state-based actions, then triggered abilities onto the stack.

Each time a player would receive priority, the game performs all state-based actions as one event
and repeats until none is performed (704.3); then the triggered abilities waiting are put on the
stack (603.3b); and this repeats until neither happens — a loop of these mandatory actions that does not
end is a draw (104.4b, :mod:`engine.loops`).  Only then does the player receive
priority — a player who has left the game never does: the next player in turn order receives it
instead (800.4j).  Chapter 1 and 7 rules are cited from the English 2024 rules.
"""
from __future__ import annotations

from . import continuous, sba, stacking, triggers
from .loops import mandatory_loop, spend
from .registry import EN, applied, enforces


@enforces(EN + "117.5", EN + "800.4j")
def give_priority(game, player: int, passing: bool = False) -> None:
    """``player`` would receive priority: state-based actions and triggered abilities first, repeatedly.

    ``passing``: the previous player passed; the passes in succession go on counting unless something was put
    on the stack meanwhile."""
    st = game.state
    applied(EN + "117.5")
    stacked = False
    rounds = 0
    while not st.over:
        continuous.refresh(game)
        sba.check_state_based_actions(game)
        triggers.check_state_triggers(game)
        if not st.pending:
            break
        stacking.put_triggered_abilities_on_stack(game)
        stacked = True
        rounds += 1
        spend(game, EN + "117.5")
        if mandatory_loop(game, rounds):  # triggers that keep triggering as they go on the stack: a draw (104.4b)
            break
    if not passing or stacked:
        st.passes = 0
    if st.over:
        st.priority = None
        return
    if not st.players[player].in_game:
        applied(EN + "800.4j")
        player = st.in_turn_order(player)[0]
    st.priority = player
