"""Priority and a minimal turn structure: enough for timing.

A turn here is ``beginning, main1, combat, main2, end``; combat and the steps
inside phases are not modelled.  What matters for casting and activating is
who the active player is, whether it is a main phase, whether the stack is
empty and who has priority.  Priority and timing rules are not part of the
2024 chapter 6, so they are cited from the 1999 rules (408.1c, 408.1d).
"""
from __future__ import annotations

from . import resolution, sba
from .errors import IllegalAction
from .registry import applied, enforces
from .state import MAIN_PHASES, PHASES


def has_priority(state, player: int) -> bool:
    return state.priority == player and not state.over


@enforces("de-1999/408.1d")
def check_timing(game, player: int, sorcery_speed: bool, what: str) -> None:
    """Only with priority; sorcery speed also needs an own main phase and an empty stack."""
    st = game.state
    applied("de-1999/408.1d")
    if not has_priority(st, player):
        raise IllegalAction("de-1999/408.1d", f"{st.players[player].name} does not have priority")
    if sorcery_speed:
        if st.active != player:
            raise IllegalAction("de-1999/408.1d", f"{what} only in your own turn")
        if st.phase not in MAIN_PHASES:
            raise IllegalAction("de-1999/408.1d", f"{what} only in a main phase (now: {st.phase})")
        if st.stack:
            raise IllegalAction("de-1999/408.1d", f"{what} only while the stack is empty")


@enforces("de-1999/408.1c", "608.1")
def pass_priority(game, player: int, choices) -> None:
    """Pass; when all players have passed in succession the top object resolves or the phase ends."""
    st = game.state
    if not has_priority(st, player):
        raise IllegalAction("de-1999/408.1c", f"{st.players[player].name} does not have priority")
    applied("de-1999/408.1c")
    st.passes += 1
    if st.passes < len(st.players):
        st.priority = (player + 1) % len(st.players)
        return
    st.passes = 0
    if st.stack:
        applied("608.1")
        resolution.resolve_top(game, choices)
        give_priority(game, st.active)
    else:
        next_phase(game)


@enforces("de-1999/408.1c")
def give_priority(game, player: int) -> None:
    """A player receives priority; state-based actions are checked first."""
    applied("de-1999/408.1c")
    sba.check_state_based_actions(game)
    st = game.state
    st.priority = None if st.over else player
    st.passes = 0


def next_phase(game) -> None:
    """End the current phase: mana pools empty; after the end phase the next player's turn begins."""
    st = game.state
    for p in st.players:
        p.pool = [0] * 6
    i = PHASES.index(st.phase)
    if i + 1 < len(PHASES):
        st.phase = PHASES[i + 1]
        give_priority(game, st.active)
    else:
        begin_turn(game, (st.active + 1) % len(st.players))


def begin_turn(game, player: int) -> None:
    """A new turn: the active player untaps their permanents; per-turn restrictions start over."""
    st = game.state
    st.turn += 1
    st.active = player
    st.players[player].last_turn = st.turn
    st.phase = PHASES[0]
    for oid in st.battlefield:
        obj = st.objects[oid]
        if obj.controller == player:
            obj.tapped = False
        obj.damage = 0
    give_priority(game, player)


def advance_to(game, phase: str, next_turn: bool = False) -> None:
    """Skip ahead (scenario control): to ``phase`` of this turn or of the next turn; the stack must be empty."""
    st = game.state
    if st.stack:
        raise IllegalAction("de-1999/408.1c", "the stack is not empty; let it resolve first")
    if next_turn:
        for p in st.players:
            p.pool = [0] * 6
        begin_turn(game, (st.active + 1) % len(st.players))
    elif PHASES.index(phase) < PHASES.index(st.phase):
        raise IllegalAction("de-1999/408.1c", f"{phase} is already over in this turn")
    while st.phase != phase:
        for p in st.players:
            p.pool = [0] * 6
        st.phase = PHASES[PHASES.index(st.phase) + 1]
    give_priority(game, st.active)
