"""The benchmark runs (it is not a timed test: `kb engine-bench` reports the figure; no clock is read here)."""
from itertools import count

from engine.bench import cycles, prepare


def test_benchmark_cycles_run_and_resolve():
    ticks = count()
    n, elapsed = cycles(0.05, clock=lambda: next(ticks) / 100)  # a fake clock: 0.01 s per block of cycles
    assert n >= 100 and elapsed > 0
    assert n == 500 and elapsed == 0.05


def test_benchmark_spell_is_legal():
    game, shock, choices = prepare()
    assert game.cast(0, shock, choices) is None
