"""Every module imports on its own; the engine is a library below kb and ingest, without import cycles.

A module that only imports after some other module was imported first (a cycle resolved by luck of
import order) breaks the first time someone imports it directly.  So each module is imported in a
fresh interpreter in which no module of the project was imported before it.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import imports_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ingest", "kb", "engine")

#: Runs in a fresh interpreter that has imported nothing of the project: one forked child per module
#: (so each child starts from that clean interpreter), a few at a time; prints the modules that failed.
_DRIVER = r"""
import os, sys, traceback

def child(name):
    try:
        __import__(name)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    os._exit(0)

names, running, failed = sys.argv[1:], {}, []
width = max(1, os.cpu_count() or 1)
while names or running:
    while names and len(running) < width:
        name = names.pop(0)
        pid = os.fork()
        if pid == 0:
            child(name)
        running[pid] = name
    pid, status = os.wait()
    if os.waitstatus_to_exitcode(status) != 0:
        failed.append(running[pid])
    del running[pid]
print("\n".join(sorted(failed)))
"""


def modules(package: str) -> list[str]:
    """The package and every module below it (``__main__`` modules run a program when imported: left out)."""
    pkg = importlib.import_module(package)
    names = [package] + [info.name for info in pkgutil.walk_packages(pkg.__path__, package + ".")]
    return [n for n in names if n.rsplit(".", 1)[-1] != "__main__"]


ALL = [name for package in PACKAGES for name in modules(package)]


def test_the_packages_have_modules():
    assert {"engine.casting", "engine.scenario", "kb.trace", "kb.trace.cli", "ingest.refs"} <= set(ALL)


def test_every_module_imports_alone():
    if hasattr(os, "fork"):
        proc = subprocess.run([sys.executable, "-c", _DRIVER, *ALL], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        failed, details = proc.stdout.split(), proc.stderr
    else:  # one interpreter per module
        runs = {name: subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True,
                                     cwd=ROOT) for name in ALL}
        failed = [name for name, proc in runs.items() if proc.returncode]
        details = "\n".join(runs[name].stderr for name in failed)
    assert failed == [], f"cannot be imported on their own: {failed}\n{details}"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the driver forks")
def test_the_driver_reports_a_module_that_fails(tmp_path):
    (tmp_path / "broken_module_for_the_test.py").write_text("import engine\nraise ImportError('circular')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-c", _DRIVER, "engine.costs", "broken_module_for_the_test"],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert proc.stdout.split() == ["broken_module_for_the_test"]
    assert "circular" in proc.stderr


# -- the engine's imports, read from the source ------------------------------------------------------------------

def test_the_engine_never_imports_kb_or_ingest():
    offenders = {name: sorted(m for m in found if m.split(".")[0] in ("kb", "ingest"))
                 for name, found in imports_of("engine").items()}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_no_import_cycles_among_engine_modules():
    imports = imports_of("engine")
    graph = {name: {m for m in found if m in imports and m != name and not name.startswith(m + ".")}
             for name, found in imports.items()}
    cycles = []

    def visit(name: str, path: list[str], done: set[str]) -> None:
        for dep in sorted(graph[name]):
            if dep in path:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep not in done:
                visit(dep, path + [dep], done)
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name], done)
    assert cycles == []
