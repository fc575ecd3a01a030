"""The benchmark runs (it is not a timed test: `kb bench` reports the figure)."""
from engine.bench import cycles, prepare


def test_benchmark_cycles_run_and_resolve():
    n, elapsed = cycles(0.05)
    assert n >= 100 and elapsed > 0


def test_benchmark_spell_is_legal():
    game, shock, choices = prepare()
    assert game.cast(0, shock, choices) is None
