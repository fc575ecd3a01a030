"""A build killed at any point leaves nothing that stops or slows the next one: its workers end with it, its lock
goes with its process, and the next build (even one with nothing to do) removes its temporary files.

Each case kills ``kb build`` with SIGKILL when its progress reaches a stage (parsing, the alignments, the diffs:
each has worker processes running), then runs the next build with a subprocess timeout as a hang guard."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import ROOT, seed_data

#: the next build must finish well within this (it would wait for ever for a lock nobody releases)
HANG_GUARD = 600


def kb_build(db: Path, data: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "kb", "build", "--db", str(db), "--data-dir", str(data), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc), recursively."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += sorted(kids - found)
            found |= kids
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_at(db: Path, data: Path, stage: str, *extra: str) -> set[int]:
    """Start a build, SIGKILL it when a progress line holds ``stage``; its descendants at that moment."""
    proc = kb_build(db, data, *extra)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if stage in line:
            break
    else:
        proc.wait()
        pytest.fail(f"the build ended before {stage!r}: {''.join(seen)[-2000:]}")
    workers = descendants(proc.pid)
    for _ in range(200):     # the stage's workers start a moment after its line (bounded: 10 s at most)
        if workers:
            break
        time.sleep(0.05)
        workers = descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    return workers


def wait_gone(pids: set[int]) -> set[int]:
    for _ in range(600):     # bounded: 30 s at most
        left = {p for p in pids if alive(p)}
        if not left:
            return left
        time.sleep(0.05)
    return left


@pytest.fixture
def data(tmp_path):
    """The seed documents and their originals (the whole archive would make each build a minute long)."""
    return seed_data(tmp_path / "data")


# the stages: writing the documents (right after parsing: the temporary database exists, the lemmatising workers
# and the side index run), the engine trace, the rule sets
@pytest.mark.parametrize("stage", [" document(s) (", "engine trace links", "rule set comparisons"])
def test_a_build_killed_at_a_stage_leaves_nothing_behind(data, tmp_path, stage):
    db = tmp_path / "build" / "kb.db"
    workers = kill_at(db, data, stage)
    assert workers, "the build had worker processes when it was killed"
    assert wait_gone(workers) == set(), "workers outlived the killed build"
    assert list(db.parent.glob(".kb.db.*.tmp")), "the killed build left its temporary database (the case to clean)"
    done = subprocess.run([sys.executable, "-m", "kb", "build", "--db", str(db), "--data-dir", str(data)],
                          capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "another build" not in done.stdout + done.stderr      # the dead build's lock was not in the way
    assert list(db.parent.glob(".kb.db.*.tmp")) == []
    assert db.exists()


def test_a_build_with_nothing_to_do_removes_the_leftovers_of_a_killed_one(data, tmp_path):
    db = tmp_path / "build" / "kb.db"
    first = subprocess.run([sys.executable, "-m", "kb", "build", "--db", str(db), "--data-dir", str(data)],
                           capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert first.returncode == 0, first.stdout + first.stderr
    wait_gone(kill_at(db, data, "wrote 4", "--force"))
    assert list(db.parent.glob(".kb.db.*.tmp"))
    again = subprocess.run([sys.executable, "-m", "kb", "build", "--db", str(db), "--data-dir", str(data)],
                           capture_output=True, text=True, timeout=HANG_GUARD, cwd=ROOT)
    assert again.returncode == 0 and "up to date" in again.stdout, again.stdout + again.stderr
    assert list(db.parent.glob(".kb.db.*.tmp")) == []
