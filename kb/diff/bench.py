"""Benchmark of the change report: median wall time of full ``kb diff --format all`` runs.

    python -m kb.diff.bench     # the widest aligned pair of one language (seeds: de-1999 -> de-2024), 5 runs
    python -m kb.diff.bench --from it-wiki --to de-2024 --runs 7 --db /tmp/kb.db

Each run is a fresh process (``python -m kb.cli diff ... --format all``), so interpreter start,
imports, loading the KB, classification, word diffs, terminology table and writing text, HTML
and JSON are all inside the time.  The in-process median (compare + render, warm) is printed
too; ``kb diff --bench N`` prints that one alone.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import click

from .. import paths
from ..query import connect
from . import BASE_URL
from .load import compare, widest_pair
from .report import write_all


def timed(runs: int, run: Callable[[], object], label: str | None = None) -> list[float]:
    """Wall times of ``runs`` calls of ``run``; with a ``label``, each time is printed as it comes."""
    times = []
    for i in range(runs):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
        if label is not None:
            click.echo(f"run {i + 1}: {times[-1]:.3f}s{label}")
    return times


@click.command()
@click.option("--from", "old", default=None, help="Older edition (default: the two aligned editions of one "
                                                    "language furthest apart)")
@click.option("--to", "new", default=None, help="Newer edition")
@click.option("--runs", default=5, show_default=True)
@click.option("--db", "db_path", type=click.Path(exists=True, path_type=Path), default=paths.DEFAULT_DB,
              show_default=True)
def main(old: str | None, new: str | None, runs: int, db_path: Path) -> None:
    if old is None or new is None:
        widest = widest_pair(connect(db_path))
        if widest is None:
            raise click.UsageError("the KB aligns no two editions of one language: give --from and --to")
        old, new = old or widest[0], new or widest[1]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "kb.cli", "diff", "--from", old, "--to", new, "--format", "all",
               "-o", tmp, "--db", str(db_path)]
        cold = timed(runs, lambda: subprocess.run(cmd, check=True, capture_output=True, cwd=paths.ROOT),
                     "  (kb diff --format all, new process)")
        conn = connect(db_path)
        warm = timed(runs, lambda: write_all(compare(conn, old, new), Path(tmp), BASE_URL))
    click.echo(f"median of {runs} runs, {old} -> {new}, all formats: {statistics.median(cold):.3f}s per process "
               f"(in-process, warm: {statistics.median(warm):.3f}s)")


if __name__ == "__main__":
    main()
