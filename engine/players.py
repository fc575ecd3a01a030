"""Winning, losing and leaving the game (104.2, 104.3, 800.4a) — cited from the English 2024 rules.

A player who loses leaves the game.  In a game of two, the other player wins and the game is over;
with more players the game goes on (800.4): everything the leaving player owns leaves the game,
abilities on the stack they control cease to exist, and what they still control is exiled (800.4a).
Abilities that trigger on a player losing see the game as it was just before (603.9, 603.10f).
"""
from __future__ import annotations

from .cant import forbidden
from .events import Event
from .registry import EN, applied, enforces
from .state import EXILE
from .triggers import emit
from .zones import move_all, remove_all


@enforces(EN + "104.3", EN + "104.4a", EN + "104.2a", "603.9")
def lose_game(game, players: list[int], rule: str) -> None:
    """``players`` lose the game at the same time (``rule`` says why); they leave it."""
    st = game.state
    if rule != EN + "104.3a":  # conceding can't be stopped; anything else can ("you can't lose the game", 614.17)
        players = [p for p in players if not forbidden(game, "lose_game", {"player": p})]
        if not players:
            return
    applied(EN + "104.3")
    for p in players:
        st.players[p].lost = True
    remaining = [p for p in st.players if not p.lost]
    waiting = len(st.pending)
    emit(game, [Event("lost", player=p) for p in players])
    if len(st.pending) > waiting:
        applied("603.9")  # abilities that trigger on a player losing
    for p in players:
        leave_game(game, p)
    if not remaining:
        applied(EN + "104.4a")  # all remaining players lost at once: a draw
        st.over = True
    elif len(remaining) == 1:
        applied(EN + "104.2a")
        remaining[0].won = True
        st.over = True


@enforces(EN + "104.2b")
def win_game(game, player: int) -> None:
    """An effect says a player wins the game: every other player loses it."""
    applied(EN + "104.2b")
    lose_game(game, game.state.opponents(player), EN + "104.2b")


@enforces(EN + "104.3a")
def concede(game, player: int) -> None:
    """A player may concede at any time: they leave the game and lose it."""
    applied(EN + "104.3a")
    lose_game(game, [player], EN + "104.3a")


@enforces(EN + "800.4a")
def leave_game(game, player: int) -> None:
    """Everything the player owns leaves the game; their abilities on the stack cease to exist; what they still
    control is exiled."""
    st = game.state
    if len(st.players) == 2:
        return  # the game is over anyway
    applied(EN + "800.4a")
    owned = [oid for oid, o in st.objects.items() if o.owner == player and o.ability is None]
    remove_all(game, owned, cause=("left", player))
    abilities = [oid for oid in st.stack
                 if st.objects[oid].ability is not None and st.objects[oid].controller == player]
    for oid in abilities:
        st.remove(oid)
    still = [oid for oid in st.battlefield + st.stack if st.objects[oid].controller == player]
    if still:
        move_all(game, still, EXILE)
    st.pending = [t for t in st.pending if t.controller != player]
    st.delayed = [d for d in st.delayed if d.controller != player]
    if st.priority == player and not st.over:
        st.priority = st.in_turn_order(player)[0]  # the next player in turn order has priority now (800.4j)
