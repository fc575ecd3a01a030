"""Random short games, counted: the generator of tests/engine/test_termination.py, N games (default 400).

    .venv/bin/python scripts/random_games.py 400

Prints the legal and illegal actions taken and every other exception (there should be none).
"""
from __future__ import annotations

import collections
import sys
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))
from test_termination import random_game  # noqa: E402

COUNTS: collections.Counter = collections.Counter()


def main(n: int) -> None:
    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def play(data):
        try:
            legal, illegal = random_game(data.draw)
        except Exception as e:  # counted, not raised: the report lists them
            where = traceback.extract_tb(e.__traceback__)[-1]
            COUNTS[f"{type(e).__name__}: {str(e)[:100]} @ {Path(where.filename).name}:{where.lineno}"] += 1
            return
        COUNTS["games"] += 1
        COUNTS["legal actions"] += legal
        COUNTS["illegal actions"] += illegal

    play()
    for key, value in COUNTS.most_common():
        print(f"{value:7d}  {key}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
