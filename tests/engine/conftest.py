"""The engine's tests run with every kept value of engine.memo computed again and compared (memo.CHECK): a change
to the board that does not give the state a new version fails the test that made it, as engine.memo.Stale."""
from engine import memo

memo.CHECK = True
