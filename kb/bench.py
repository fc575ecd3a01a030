"""``kb bench``: wall time, CPU time and peak memory of the build, each run a fresh ``kb build`` process.

Scenarios (all in a temporary copy of ``data/``; the real data is never touched):

* ``cold``: the default data, empty cache;
* ``unchanged``: the same again, nothing changed (the build says "up to date");
* ``add one``: one more edition added to the built KB (with ``--archive``: its last file, the newest);
* ``archive``: with ``--archive DIR``, every file of DIR added, then a cold build of it all;
  ``--synthetic N`` adds N editions derived from DIR's files (each with its own date and about
  2 % of its rule lines changed) to reach the size of the whole archive of ~110 editions.

Peak memory is the largest sum of the proportional set sizes (PSS) of the build process and its workers,
sampled every 0.2 s (:data:`SAMPLE_EVERY`) from /proc; the CPU time is the user + system time of the build
process and its workers (less noisy than the wall time on a shared machine).  The *steal* is the share of the
machine's CPU time that its hypervisor gave to other machines during a run (from /proc/stat): a run with a
high steal ran on a busy host, and its figures are slower for it.  Figures are printed, never asserted: this is
a benchmark.
"""
from __future__ import annotations

import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import ingest
import ingest.metadata

from . import paths


@dataclass
class Run:
    seconds: float
    peak_mb: float
    output: str
    #: user + system CPU seconds of the process and all its workers (a figure less noisy than the wall time)
    cpu: float = 0.0
    #: share (0–1) of the machine's CPU time stolen by the hypervisor during the run (None: not known)
    steal: float | None = None

    def figures(self) -> str:
        """"12.34s (40.1 CPU s, steal 0.2 %), peak 700 MB"."""
        steal = f", steal {self.steal * 100:.1f} %" if self.steal is not None else ""
        return f"{self.seconds:.2f}s ({self.cpu:.1f} CPU s{steal}), peak {self.peak_mb:.0f} MB"


def _cpu_ticks() -> tuple[int, int] | None:
    """All and stolen CPU ticks of the machine so far (/proc/stat), or None where there is no such file."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(values), values[7]) if len(values) > 7 else None


def _tree_pss_kb(pid: int) -> int:
    """Memory of a process and all its descendants (kB): the proportional set size from /proc, so that
    pages forked workers share with their parent count once, not once per process."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            found = re.search(r"^Pss:\s+(\d+)", Path(f"/proc/{p}/smaps_rollup").read_text(), re.M)
            total += int(found.group(1)) if found else 0
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


#: seconds between two samples of a build's memory: reading /proc/PID/smaps_rollup walks the page tables of every
#: process of the build, work the kernel does on the same two cores (every 20 ms, it cost a cold build of the default
#: data some 0.5 s of wall time); a build's memory peaks last longer than this
SAMPLE_EVERY = 0.2


def run_kb(args: list[str], cwd: Path | None = None, check: bool = True) -> Run:
    """Run ``kb ARGS`` in a fresh interpreter; time it and sample its memory."""
    t = time.perf_counter()
    before, ticks = resource.getrusage(resource.RUSAGE_CHILDREN), _cpu_ticks()
    proc = subprocess.Popen([sys.executable, "-m", "kb", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=cwd)
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_pss_kb(proc.pid))
            time.sleep(SAMPLE_EVERY)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    seconds = time.perf_counter() - t
    sampler.join()
    after, ticks_after = resource.getrusage(resource.RUSAGE_CHILDREN), _cpu_ticks()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    steal = None
    if ticks and ticks_after and ticks_after[0] > ticks[0]:
        steal = (ticks_after[1] - ticks[1]) / (ticks_after[0] - ticks[0])
    if check and proc.returncode != 0:
        raise RuntimeError(f"kb {' '.join(args)} failed ({proc.returncode}):\n{out}")
    return Run(seconds, peak[0] / 1024, out, cpu, steal)


def copy_data(src: Path, dest: Path) -> Path:
    """A copy of the data folder (sources, manifest, cards, scenarios, gold ...)."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".manifest.lock"))
    return dest


def _complete(lines: list[str], path: str) -> bool:
    """Whether ``kb add`` would take these cr-text lines (a truncated edition would be refused)."""
    try:
        return ingest.incomplete(ingest.parse_lines(lines, path, "cr-text", "en"), lines, "cr-text") is None
    except ingest.SourceError:
        return False


def synthetic_editions(files: list[Path], n: int, out: Path, seed: int = 1) -> list[Path]:
    """``n`` edition files between the dated editions of ``files``, as the real archive has them.

    A stand-in for the ~110 editions of the archive when only a sample of it is at hand: the
    sample is sorted by the date each file states, and the gaps between two sample editions are
    filled with editions derived from the older one, each from the one before it with about 2 % of
    its rule lines changed and a date of its own between the two.  Consecutive editions repeat most
    rules word for word, as real ones do.  Files that state no date or would be refused (truncated) are skipped.
    """
    rnd = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    dated = []
    for f in files:
        lines = ingest.read_lines(f)
        found = ingest.metadata.effective_date(lines)
        if found and _complete(lines, str(f)):
            dated.append((found[0], f, lines))
    dated.sort()
    if len(dated) < 2 or n <= 0:
        return []
    number = re.compile(r"^\d{3}\.\d+[a-z]?\.? ")
    stamp = re.compile(r"(effective|current) as of [A-Z][a-z]+ \d{1,2}, \d{4}")
    made: list[Path] = []
    gaps = len(dated) - 1
    for g, ((d0, _, lines), (d1, _, _)) in enumerate(zip(dated, dated[1:])):
        per_gap = n // gaps + (1 if g < n % gaps else 0)
        start, end = date.fromisoformat(d0).toordinal(), date.fromisoformat(d1).toordinal()
        current = list(lines)
        for k in range(1, per_gap + 1):
            day = date.fromordinal(start + (end - start) * k // (per_gap + 1))
            current = [f"{line} (revised {len(made)})" if number.match(line) and rnd.random() < 0.02 else line
                       for line in current]
            text = stamp.sub(rf"\1 as of {day:%B} {day.day}, {day.year}", "\n".join(current), count=1)
            path = out / f"synthetic-{len(made):03d}.txt"
            path.write_text(text, encoding="utf-8")
            made.append(path)
    return made


def bench(data_dir: Path = paths.DATA, archive: Path | None = None, synthetic: int = 0, runs: int = 3,
          echo=print) -> dict[str, Run]:
    """Run the scenarios of the module doc; print and return the figures."""
    results: dict[str, Run] = {}
    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        root = Path(tmp)
        data = copy_data(data_dir, root / "data")
        db = root / "build" / "kb.db"
        base = ["--data-dir", str(data), "--db", str(db)]
        cold = []
        for i in range(runs):
            shutil.rmtree(root / "build", ignore_errors=True)
            cold.append(run_kb(["build", "-q", *base]))
            echo(f"cold build of the default data, run {i + 1}: {cold[-1].figures()}")
        results["cold"] = min(cold, key=lambda r: r.seconds)
        results["cold (median)"] = sorted(cold, key=lambda r: r.seconds)[len(cold) // 2]
        unchanged = [run_kb(["build", "-q", *base]) for _ in range(runs)]
        results["unchanged"] = sorted(unchanged, key=lambda r: r.seconds)[len(unchanged) // 2]
        echo(f"rebuild with nothing changed (median of {runs}): {results['unchanged'].seconds:.2f}s")
        files = sorted(p for p in archive.iterdir() if p.suffix == ".txt") if archive else []
        if files:
            run_kb(["add", str(files[-1]), "--data-dir", str(data)], check=False)
            results["add one"] = run_kb(["build", "-q", *base])
            echo(f"adding one edition ({files[-1].name}) to the built KB: {results['add one'].figures()}")
            extra = synthetic_editions(files, synthetic, root / "synthetic") if synthetic else []
            # a file of the archive may be refused (a truncated edition): the others are added
            added = run_kb(["add", *map(str, files[:-1]), *map(str, extra), "--data-dir", str(data)], check=False) \
                if len(files) > 1 or extra else None
            if added is not None:
                echo(added.output.strip().splitlines()[-1])
            shutil.rmtree(root / "build", ignore_errors=True)
            results["archive"] = run_kb(["build", *base])
            n_docs = len(list((data / "sources").iterdir()))
            echo(f"cold build of the default data + {n_docs - len(os.listdir(data_dir / 'sources'))} archive "
                 f"editions ({n_docs} documents): {results['archive'].figures()}")
            lines = results["archive"].output.strip().splitlines()
            for line in lines:   # the stages and their times
                if line.endswith("s)") and not (line.startswith("parsed ") and " with " in line):
                    echo("  " + line)
            echo("  " + lines[-1])
    echo(f"summary: cold {results['cold'].seconds:.2f}s (median {results['cold (median)'].seconds:.2f}s), "
         f"unchanged {results['unchanged'].seconds:.2f}s"
         + (f", add one {results['add one'].seconds:.2f}s" if "add one" in results else "")
         + (f", archive {results['archive'].seconds:.2f}s / {results['archive'].peak_mb:.0f} MB"
            if "archive" in results else ""))
    return results
