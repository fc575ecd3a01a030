"""A hang fails, it does not stall: the suite's own configuration (pyproject.toml, pytest-timeout) turns a test
that never ends into a failure naming that test, and the tests after it still run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HANGING = '''
def test_loops_for_ever():
    n = 0
    while n >= 0:   # a planted hang: a trigger that fires again and again
        n += 1


def test_after_the_hang():
    # leaves a mark the outer test reads: the suite went on after the hang
    import os, pathlib
    pathlib.Path(os.environ["AFTER_THE_HANG"]).write_text("ran", encoding="utf-8")
'''


def test_a_hanging_test_fails_with_its_name_and_the_suite_goes_on(tmp_path, pytestconfig):
    assert float(pytestconfig.getini("timeout")) > 0   # every test of this suite has a limit
    (tmp_path / "test_hang.py").write_text(HANGING, encoding="utf-8")
    # the project's [tool.pytest.ini_options] (timeout method, plugins), with a limit of 2 s instead of 300 s
    run = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir",
                          str(tmp_path), "-o", "timeout=2", "-p", "no:randomly", "-p", "no:cacheprovider", "-q",
                          str(tmp_path / "test_hang.py")], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "AFTER_THE_HANG": str(tmp_path / "after-the-hang")})
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "FAILED test_hang.py::test_loops_for_ever" in out and "Timeout" in out, out
    assert "1 failed, 1 passed" in out, out
    assert (tmp_path / "after-the-hang").read_text(encoding="utf-8") == "ran"
