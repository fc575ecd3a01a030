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


def test_the_busy_benchmark_game_has_fifty_permanents_with_abilities_and_its_cycle_runs():
    from engine.bench import prepare_busy

    game, shock, choices = prepare_busy()
    with_abilities = [oid for oid in game.state.battlefield
                      if game.characteristics(game.state.objects[oid]).triggers
                      or game.characteristics(game.state.objects[oid]).statics]
    assert len(with_abilities) == 50
    ticks = count()
    n, _ = cycles(0.01, clock=lambda: next(ticks) / 100, setup=prepare_busy)
    assert n == 100
