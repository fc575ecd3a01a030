"""Benchmark: cast-and-resolve cycles per second (``kb engine-bench``).

One cycle: Alice casts Schock (``{R}`` from her mana pool) targeting Bob, both players pass,
Schock resolves and goes to the graveyard.  Each cycle starts from a fresh copy of the prepared
state, so the copy is part of the cost, as is the snapshot the illegal-action rollback takes, the
full priority loop (state-based actions and triggered abilities every time a player would receive
priority) and the check of every trigger condition for every event.

Two games: a small one (four permanents) and a busy one — fifty permanents on the battlefield,
each with a triggered or a static ability whose condition is checked during the cycle without
being met (creatures dying, cards drawn, permanents tapped, lands leaving, spells of mana value 0
cast, creatures getting +1/+1).
"""
from __future__ import annotations

import time
from typing import Callable

from .game import Choices, Game
from .state import player_target

#: the busy game's permanents: (card, how many) — each has a triggered or static ability
BUSY = (("Beispiel-Totenglocke", 10), ("Unterweltstraum", 10), ("Beispiel-Tappwächter", 10),
        ("Beispiel-Landfriedhof", 10), ("Kelch der Leere", 5), ("Beispiel-Ehrenbanner", 5))


def prepare() -> tuple[Game, int, Choices]:
    game = Game.new(["Alice", "Bob"])
    shock = game.put("Schock", "hand", 0)
    for name in ("Gebirge", "Gebirge", "Grizzlybären"):
        game.put(name, "battlefield", 0)
    game.put("Grizzlybären", "battlefield", 1)
    game.state.players[0].pool[3] = 1  # {R}
    return game, shock, Choices(targets={"ziel": (player_target(1),)})


#: the machinery game's sixteen permanents besides the small game's four — (card, controller): replacement effects
#: (one redirects Schock's damage every cycle; the others are asked and their criteria checked), static abilities
#: in layers 5 and 7c (one with criteria another layer changes, 613.9), triggered abilities checked on every event
MACHINERY = (("Beispiel-Leibwächter", 1), ("Beispiel-Verdoppler", 1), ("Zeit der Verdopplung", 1),
             ("Beispiel-Seelenbannerin", 1), ("Beispiel-Ehrenbanner", 0), ("Beispiel-Ehrenbanner", 0),
             ("Beispiel-Ehrenbanner", 1), ("Beispiel-Weißer Herold", 0), ("Beispiel-Weißes Banner", 0),
             ("Beispiel-Weißes Banner", 1), ("Beispiel-Tappwächter", 0), ("Beispiel-Tappwächter", 1),
             ("Beispiel-Totenglocke", 0), ("Beispiel-Totenglocke", 1), ("Beispiel-Schmerzwandler", 1),
             ("Beispiel-Landfriedhof", 0))


def prepare_machinery() -> tuple[Game, int, Choices]:
    """Twenty permanents with static, triggered and replacement abilities, all of them active in every cycle: the
    layers compute the creatures' characteristics, every event is offered to the triggered abilities, and Schock's
    damage to Bob is redirected to his Leibwächter by a replacement effect (614.9)."""
    game, shock, choices = prepare()
    for name, player in MACHINERY:
        game.put(name, "battlefield", player)
    return game, shock, choices


def prepare_busy() -> tuple[Game, int, Choices]:
    """The small game plus fifty permanents with triggered or static abilities (half of them Bob's)."""
    game, shock, choices = prepare()
    i = 0
    for name, n in BUSY:
        for _ in range(n):
            game.put(name, "battlefield", i % 2)
            i += 1
    return game, shock, choices


def cycles(seconds: float = 2.0, clock: Callable[[], float] = time.perf_counter,
           setup: Callable[[], tuple[Game, int, Choices]] = prepare) -> tuple[int, float]:
    """Cycles run in blocks of 100 until ``clock`` says ``seconds`` have passed: (cycles, elapsed seconds)."""
    game, shock, choices = setup()
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
    st = game.state
    redirected = any(st.objects[o].card == "Beispiel-Leibwächter" and st.objects[o].damage == 2 for o in st.battlefield)
    if st.players[1].life != (20 if redirected else 18) or st.stack:
        raise RuntimeError("benchmark spell did not resolve as expected")
    return n, now - start


def prepare_layers(effects: int, permanents: int = 100) -> Game:
    """``permanents`` creatures (half of them each player's) and ``effects`` continuous effects that apply to them:
    alternately a static ability's (criteria, evaluated when read) and a resolved spell's (a locked set), spread
    over layers 5, 6 and 7c."""
    from .continuous import Continuous
    from .filters import Filter
    game = Game.new(["Alice", "Bob"])
    ids = [game.put("Grizzlybären", "battlefield", i % 2) for i in range(permanents)]
    st = game.state
    changes = ({"5": {"colors": ["W"]}}, {"6": {"keywords": ["flying"]}}, {"7c": {"power": 1, "toughness": 1}})
    for i in range(effects):
        parts = changes[i % len(changes)]
        source = ids[i % permanents]
        if i % 2:
            st.effects.append(Continuous(parts, 10_000 + i, 0, "bench", source, locked=frozenset(ids),
                                         duration="indefinite"))
        else:
            st.effects.append(Continuous(parts, 10_000 + i, 0, "bench", source, objects=Filter(
                types=frozenset({"creature"})), duration="indefinite"))
    return game


def layer_reads(effects: int, seconds: float = 0.3, clock: Callable[[], float] = time.perf_counter,
                permanents: int = 100) -> tuple[float, float]:
    """(µs per read of one creature's power, ms per reading every creature's power once) with ``effects`` effects."""
    game = prepare_layers(effects, permanents)
    objs = [game.state.objects[oid] for oid in game.state.battlefield]
    n, start = 0, clock()
    while True:
        for obj in objs:
            game.power(obj)
        n += 1
        now = clock()
        if now - start >= seconds:
            break
    per_sweep = (now - start) / n
    return per_sweep / len(objs) * 1e6, per_sweep * 1e3


def main(seconds: float = 2.0) -> float:
    n, elapsed = cycles(seconds)
    rate = n / elapsed
    print(f"{rate:,.0f} cast-and-resolve cycles/s ({n} cycles of Schock in {elapsed:.2f} s)")
    n, elapsed = cycles(seconds, setup=prepare_machinery)
    print(f"{n / elapsed:,.0f} cast-and-resolve cycles/s with 20 permanents with static, triggered and replacement "
          f"abilities, all active ({n} cycles in {elapsed:.2f} s)")
    n, elapsed = cycles(seconds, setup=prepare_busy)
    print(f"{n / elapsed:,.0f} cast-and-resolve cycles/s with 50 permanents with triggered or static abilities "
          f"({n} cycles in {elapsed:.2f} s)")
    print("reading power through the layers (613), 100 creatures (CPU time of this process):")
    for k in (0, 1, 5, 9, 25, 50):
        per_read, sweep = layer_reads(k, min(seconds / 4, 0.5), clock=time.process_time)
        print(f"  {k:2d} continuous effects: {per_read:6.1f} µs per read, {sweep:6.2f} ms to read all 100")
    for size in (25, 50, 100, 200):
        per_read, sweep = layer_reads(9, min(seconds / 8, 0.25), clock=time.process_time, permanents=size)
        print(f"  9 effects, {size:3d} creatures: {per_read:6.1f} µs per read (constant per object: linear, "
              f"not quadratic, in the number of objects)")
    return rate
