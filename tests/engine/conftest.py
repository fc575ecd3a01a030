"""The engine's tests run with every kept value of engine.memo computed again and compared (memo.CHECK): a change
to the board that does not give the state a new version fails the test that made it, as engine.memo.Stale."""
import pytest

from engine import layers, memo

memo.CHECK = True


@pytest.fixture(autouse=True)
def _cold_module_memos():
    """Each test starts with the engine's module-level memos empty (the counter kinds' +X/+Y of engine.layers, its
    filters that name only card types), as a fresh process has them: the mutation check (scripts/mutation.py) runs a
    mutant's tests in a process forked from one whose memos are warm, where a function behind one would otherwise
    never be reached by the tests that count for it."""
    layers._PT_OF.clear()
    layers._ONLY_TYPES.clear()
