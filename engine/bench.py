"""Benchmark: cast-and-resolve cycles per second for a simple spell.

One cycle: Alice casts Schock (``{R}`` from her mana pool) targeting Bob, both
players pass, Schock resolves and goes to the graveyard.  Each cycle starts
from a fresh copy of the prepared state, so the copy is part of the cost, as
is the snapshot the illegal-action rollback takes.  Run ``kb engine-bench``.
"""
from __future__ import annotations

import time
from typing import Callable

from .game import Choices, Game
from .state import player_target


def prepare() -> tuple[Game, int, Choices]:
    game = Game.new(["Alice", "Bob"])
    shock = game.put("Schock", "hand", 0)
    for name in ("Gebirge", "Gebirge", "Grizzlybären"):
        game.put(name, "battlefield", 0)
    game.put("Grizzlybären", "battlefield", 1)
    game.state.players[0].pool[3] = 1  # {R}
    return game, shock, Choices(targets={"ziel": (player_target(1),)})


def cycles(seconds: float = 2.0, clock: Callable[[], float] = time.perf_counter) -> tuple[int, float]:
    """Cycles run in blocks of 100 until ``clock`` says ``seconds`` have passed: (cycles, elapsed seconds)."""
    game, shock, choices = prepare()
    base = game.state
    n, start = 0, clock()
    deadline = start + seconds
    while True:
        for _ in range(100):
            game.state = base.copy()
            if game.cast(0, shock, choices) is not None:
                raise RuntimeError("benchmark spell could not be cast")
            game.pass_priority(0)
            game.pass_priority(1)
        n += 100
        now = clock()
        if now >= deadline:
            break
    if game.state.players[1].life != 18 or game.state.stack:
        raise RuntimeError("benchmark spell did not resolve as expected")
    return n, now - start


def main(seconds: float = 2.0) -> float:
    n, elapsed = cycles(seconds)
    rate = n / elapsed
    print(f"{rate:,.0f} cast-and-resolve cycles/s ({n} cycles of Schock in {elapsed:.2f} s)")
    return rate
