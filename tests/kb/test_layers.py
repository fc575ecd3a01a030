"""The layout explains itself: ingest <- kb <- CLI/site, and no import circle inside kb or ingest (imports inside
functions and for type checking count: a late import is still a circle)."""
from __future__ import annotations

import ast

import pytest

from tests.helpers import ROOT


def imports_of(package: str) -> dict[str, set[str]]:
    """Module -> every module it imports (absolute names), read from the source."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        here = name.split(".") if is_package else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1]) if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                found.add(module)
                found |= {f"{module}.{a.name}" for a in node.names}
        out[name] = found
    return out


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
