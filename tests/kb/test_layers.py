"""The layout explains itself: ingest <- kb <- CLI/site, and no import circle inside kb or ingest (imports inside
functions and for type checking count: a late import is still a circle)."""
from __future__ import annotations

import pytest

from tests.helpers import imports_of


def cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports between modules (a package importing its own modules is no circle)."""
    graph = {name: {m for m in found if m in imports and m != name and not name.startswith(m + ".")}
             for name, found in imports.items()}
    out: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        for dep in sorted(graph[name]):
            if dep in path:
                out.append(path[path.index(dep):] + [dep])
            elif dep not in done:
                visit(dep, path + [dep])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    return out


def test_the_check_finds_a_late_import_circle():
    found = cycles({"kb.build": {"kb.trace"}, "kb.trace": {"kb.build.BuildError", "kb.build"}})
    assert found == [["kb.build", "kb.trace", "kb.build"]]


@pytest.mark.parametrize("package", ["kb", "ingest"])
def test_no_import_circles(package):
    assert cycles(imports_of(package)) == []


def test_ingest_never_imports_kb():
    offenders = {name: sorted(m for m in found if m.split(".")[0] == "kb")
                 for name, found in imports_of("ingest").items()}
    assert {name: found for name, found in offenders.items() if found} == {}
