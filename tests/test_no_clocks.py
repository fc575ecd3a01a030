"""No test reads a clock: speed and scaling figures belong in the benchmarks (`kb bench`, ...).

A test that compares a measured duration passes on an idle machine and fails under load, so it can
stop good work from landing at random.  This check fails on any clock read in the test sources.
"""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time",
          "process_time_ns", "thread_time", "thread_time_ns"}
TIMING_MODULES = {"timeit", "cProfile", "pytest_benchmark"}


def clock_reads(source: str) -> list[tuple[int, str]]:
    """(line, what) for every clock read or timing import in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in CLOCKS and isinstance(node.value, ast.Name) \
                and node.value.id == "time":
            found.append((node.lineno, f"time.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [(node.lineno, f"from time import {a.name}") for a in node.names if a.name in CLOCKS]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [(node.lineno, f"import {n}") for n in names if n.split(".")[0] in TIMING_MODULES]
    return found


def test_the_check_sees_clock_reads():
    sample = "import time\nfrom time import perf_counter\nimport timeit\nt = time.monotonic()\n"
    assert [line for line, _ in clock_reads(sample)] == [2, 3, 4]
    assert clock_reads("import time\ntime.sleep(0.01)\n") == []


def test_no_test_reads_a_clock():
    offenders = [f"{path.relative_to(TESTS.parent)}:{line}: {what}"
                 for path in sorted(TESTS.rglob("*.py"))
                 if path.name != Path(__file__).name
                 for line, what in clock_reads(path.read_text(encoding="utf-8"))]
    assert offenders == [], "tests must not time anything; move the figure to a benchmark:\n" + "\n".join(offenders)
