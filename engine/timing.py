"""When a player may act: priority and the timing of spells, abilities and special actions (117.1).

Priority and timing are rules of chapter 1, cited from the English 2024 rules
(``en-2024-11-08/117.1a`` …); a player who has left the game can do nothing (800.4a).
"""
from __future__ import annotations

from .errors import IllegalAction
from .registry import EN, applied, enforces
from .state import MAIN_PHASES


def has_priority(state, player: int) -> bool:
    return state.priority == player and not state.over and state.players[player].in_game


@enforces(EN + "117.1", EN + "117.1a", EN + "117.1b", EN + "800.4a")
def check_timing(game, player: int, sorcery_speed: bool, what: str, ability: bool = False) -> None:
    """Only with priority; sorcery speed also needs the player's own main phase and an empty stack."""
    st = game.state
    if not st.players[player].in_game:
        applied(EN + "800.4a")
        raise IllegalAction(EN + "800.4a", f"{st.players[player].name} has left the game")
    applied(EN + "117.1")
    if not has_priority(st, player):
        raise IllegalAction(EN + "117.1", f"{st.players[player].name} does not have priority")
    applied(EN + ("117.1b" if ability else "117.1a"))
    if sorcery_speed:
        if st.active != player:
            raise IllegalAction(EN + "117.1a", f"{what} only in your own turn")
        if st.step not in MAIN_PHASES:
            raise IllegalAction(EN + "117.1a", f"{what} only in a main phase (now: {st.step})")
        if st.stack:
            raise IllegalAction(EN + "117.1a", f"{what} only while the stack is empty")
