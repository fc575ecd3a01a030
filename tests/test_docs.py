"""The examples of the README and docs/ that are marked ``<!-- checked -->`` are run and compared with their text,
so they cannot go stale.

A checked example is the fenced block right after the marker: each ``$ kb …`` line is run (on the session's KB,
``--db`` added) and the lines up to the next ``$`` must be its output, with two shorthands: a line ``[...]``
stands for any number of lines, and a line ending in ``…`` for any line that begins with the text before it.
"""
from __future__ import annotations

import functools
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from tests.helpers import ROOT

MARK = "<!-- checked -->"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(path: Path) -> list[tuple[str, int, str, list[str]]]:
    """(file, line, command, expected output lines) of every checked example of ``path``."""
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() != MARK:
            continue
        j = i + 2                                  # the fence is the next line
        assert lines[i + 1].startswith("```"), f"{path.name}:{i + 1}: {MARK} must precede a fenced block"
        command, expected, start = None, [], j
        while not lines[j].startswith("```"):
            if lines[j].startswith("$ "):
                if command is not None:
                    out.append((path.name, start + 1, command, expected))
                command, expected, start = lines[j][2:], [], j
            else:
                expected.append(lines[j])
            j += 1
        if command is not None:
            out.append((path.name, start + 1, command, expected))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected`` with its ``[...]`` and ``…`` shorthands."""
    @functools.lru_cache(maxsize=None)
    def fit(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(actual)
        want = expected[i].rstrip()
        if want.strip() == "[...]":
            return any(fit(i + 1, k) for k in range(j, len(actual) + 1))
        if j == len(actual):
            return False
        got = actual[j].rstrip()
        same = got.startswith(want[:-1].rstrip()) if want.endswith("…") else got == want
        return same and fit(i + 1, j + 1)

    return fit(0, 0)


ALL = [e for path in DOCS for e in examples(path)]


def test_the_docs_have_checked_examples():
    files = {e[0] for e in ALL}
    assert "README.md" in files and len(ALL) >= 8


def test_the_shorthands():
    assert matches(["a", "[...]", "d"], ["a", "b", "c", "d"]) and matches(["a", "[...]"], ["a"])
    assert matches(["abc…"], ["abcdef"]) and not matches(["abc…"], ["abd"])
    assert not matches(["a", "d"], ["a", "b", "d"])


@pytest.mark.parametrize("name, line, command, expected", ALL, ids=[f"{e[0]}:{e[1]}" for e in ALL])
def test_example(name, line, command, expected, kb_db):
    args = shlex.split(command)
    assert args[0] == "kb", f"{name}:{line}: only kb commands are checked"
    result = CliRunner().invoke(main, [*args[1:], "--db", str(kb_db)])
    actual = result.output.rstrip("\n").splitlines()
    assert result.exit_code == 0, f"{name}:{line}: {command}\n{result.output}"
    assert matches(expected, actual), (f"{name}:{line}: `{command}` printed\n" + "\n".join(actual)
                                       + "\n--- the doc says ---\n" + "\n".join(expected))
