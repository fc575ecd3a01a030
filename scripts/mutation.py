"""Mutation testing of the modules where a silent bug costs most (run by scripts/mutation.sh; see docs/testing.md).

For each group of ``[tool.mtg-rules-kb.mutation]`` in pyproject.toml (modules and the tests that exercise them),
in a copy of the project under ``build/mutation/<group>/`` (so the work tree stays free to edit while it runs):

1. the packages, tests and data are copied there (mutmut keeps its results in ``mutants/`` beside them and tests
   again only the functions that changed);
2. decorator syntax in the group's modules is written out (``@d def f`` as ``def f`` then ``f = d(f)``, the same
   program): mutmut leaves decorated functions alone, and most engine functions carry ``@enforces``; caches
   (``@lru_cache``, ``@cache``) are left out, so that every call reaches the function (``CACHES``);
3. ``[tool.mutmut]`` gets the group's ``only_mutate`` and test selection, and ``mutmut run`` tests every mutant
   against the tests that call the mutated function;
4. the share of mutants killed per module is reported, and the survivors are listed, less those that
   ``docs/mutation-equivalents.tsv`` explains (a survivor that cannot change behaviour, one line each).

A mutant that makes a test hang counts as killed (mutmut's "timeout": the tests noticed); one that no selected
test reaches ("no tests") counts as surviving; one a stopped run did not reach yet ("not checked") is left out of
the share and counted apart.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import libcst as cst
import tomli_w

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutation"
EQUIVALENTS = ROOT / "docs" / "mutation-equivalents.tsv"
COPIED = ("ingest", "kb", "engine", "data", "tests")
BIN = Path(sys.executable).parent
#: mutmut's statuses that mean the tests noticed the mutant
DETECTED = {"killed", "timeout", "segfault"}


def groups() -> dict[str, dict]:
    raw = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return raw["tool"]["mtg-rules-kb"]["mutation"]


class _Desugar(cst.CSTTransformer):
    """Module- and class-level ``@d1 @d2 def f`` written as ``def f`` followed by ``f = d1(d2(f))``."""

    def __init__(self) -> None:
        self.depth = 0

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return True

    def leave_FunctionDef(self, original: cst.FunctionDef, node: cst.FunctionDef):
        self.depth -= 1
        if self.depth:
            return node
        decorators = [d for d in node.decorators if _called(d.decorator) not in CACHES]
        node = node.with_changes(decorators=decorators)
        if not decorators:
            return node
        only = decorators[0].decorator if len(decorators) == 1 else None
        if isinstance(only, cst.Name) and only.value in ("staticmethod", "classmethod"):
            return node   # mutmut handles these itself
        name = node.name.value
        if any(name in cst.Module([]).code_for_node(d.decorator) for d in decorators):
            return node   # a property's setter (``@x.setter``) needs the name bound to the property
        call: cst.BaseExpression = cst.Name(name)
        for d in reversed(decorators):
            call = cst.Call(func=d.decorator, args=[cst.Arg(call)])
        assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
        return cst.FlattenSentinel([node.with_changes(decorators=[]), assign])


#: memoizing decorators, left out in the copy: mutmut knows which tests call a function by the calls that reach it,
#: and behind a cache only the first test to ask for a value does (the later ones are never run against its mutants)
CACHES = {"lru_cache", "functools.lru_cache", "cache", "functools.cache"}


def _called(decorator: cst.BaseExpression) -> str:
    """The decorator's name: ``lru_cache`` for ``@lru_cache(maxsize=...)`` and ``@functools.lru_cache``."""
    target = decorator.func if isinstance(decorator, cst.Call) else decorator
    return cst.Module([]).code_for_node(target)


def desugared(code: str) -> str:
    return cst.parse_module(code).visit(_Desugar()).code


#: changes to the copy, not to the code under test: the rule tracer (engine/registry.py) knows an enforcing
#: function by its code object and refuses a rule the function does not cite, but mutmut's trampolines share one
#: code object, so in the copy the tracer records the rule without that check
PATCHES = {
    "engine/registry.py": [(
        'raise RuntimeError(f"{link.qualname} applied {rule}, which it does not cite in @enforces")',
        'pass  # (mutation copy: mutmut\'s trampolines share one code object)')],
}


def patched(rel: str, data: bytes) -> bytes:
    text = data.decode("utf-8")
    for old, new in PATCHES.get(rel, []):
        if old not in text:
            raise SystemExit(f"mutation: {rel} changed; update PATCHES in scripts/mutation.py")
        text = text.replace(old, new)
    return text.encode("utf-8")


def sync(name: str, modules: list[str]) -> Path:
    """The group's copy of the project: files written only where they differ (mutmut keeps the results of files
    it finds unchanged), files gone from the project removed."""
    work = WORK / name
    wanted: dict[Path, bytes] = {}
    for d in COPIED:
        for path in (ROOT / d).rglob("*"):
            rel = path.relative_to(ROOT)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc" \
                    and path.name != ".manifest.lock":
                data = path.read_bytes()
                if rel.as_posix() in modules:
                    data = desugared(data.decode("utf-8")).encode("utf-8")
                if rel.as_posix() in PATCHES:
                    data = patched(rel.as_posix(), data)
                wanted[rel] = data
    for rel, data in wanted.items():
        dest = work / rel
        if not dest.exists() or dest.read_bytes() != data:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
    for d in COPIED:
        for path in sorted((work / d).rglob("*"), reverse=True) if (work / d).exists() else []:
            rel = path.relative_to(work)
            if path.is_file() and rel not in wanted and "__pycache__" not in rel.parts:
                path.unlink()
    return work


def prepare(name: str, group: dict) -> Path:
    work = sync(name, list(group["modules"]))
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mutmut = config["tool"]["mutmut"]
    mutmut["only_mutate"] = list(group["modules"])
    mutmut["pytest_add_cli_args_test_selection"] = list(group["tests"]) + list(group.get("deselect", []))
    text = tomli_w.dumps(config)
    if not (work / "pyproject.toml").exists() or (work / "pyproject.toml").read_text(encoding="utf-8") != text:
        (work / "pyproject.toml").write_text(text, encoding="utf-8")
    return work


def prebuilt_kb() -> Path:
    """One KB built with the unmutated code from the tests' data (the seeds and their originals, as the ``kb_db``
    fixture builds it), for the groups whose tests may share it."""
    path = WORK / "kb-test.db"
    data = WORK / "kb-test-data"
    if not data.exists():
        subprocess.run([BIN / "python", "-c", "import sys; from pathlib import Path; from tests.helpers import "
                        "seed_data; seed_data(Path(sys.argv[1]))", str(data)], cwd=ROOT, check=True)
    subprocess.run([BIN / "kb", "build", "-q", "--db", str(path), "--data-dir", str(data)], cwd=ROOT, check=True)
    return path


def run(name: str, group: dict, children: int, again: bool = False, minutes: float | None = None) -> None:
    """``again``: test again the mutants that survived the last run and have no reason in the equivalents file
    (after tests were added); ``minutes``: stop the run after that long (the mutants tested so far keep their
    results; the next run goes on from there)."""
    work = prepare(name, group)
    if again:   # (not those explained as equivalent: they would survive again, each after the whole selection)
        known = equivalents()
        forget(work, {m for m, s in results(name).items()
                      if s not in DETECTED and s != "not checked" and m not in known})
    env = dict(os.environ)
    if group.get("prebuilt_kb"):
        env["KB_TEST_DB"] = str(prebuilt_kb())
    print(f"mutation: {name}: mutmut run in {work.relative_to(ROOT)} (log: run.log)", flush=True)
    with open(work / "run.log", "w", encoding="utf-8") as log:
        proc = subprocess.Popen([BIN / "mutmut", "run", "--max-children", str(children)], cwd=work, env=env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=minutes * 60 if minutes else None)
        except subprocess.TimeoutExpired:
            print(f"mutation: {name}: stopped after {minutes:g} minutes", flush=True)
            os.killpg(proc.pid, signal.SIGTERM)   # mutmut and the worker testing a mutant
            proc.wait()


def forget(work: Path, mutants: set[str]) -> None:
    """Make mutmut test ``mutants`` again, with the tests as they are now: their results are dropped from its
    .meta files, and its record of which tests call which function (mutmut-stats.json) is made again."""
    for meta in (work / "mutants").rglob("*.meta"):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data.get("exit_code_by_key", {})
        for m in mutants & set(codes):
            codes[m] = None
        meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)


def results(name: str) -> dict[str, str]:
    """Mutant name -> status, as ``mutmut results --all true`` reports them."""
    work = WORK / name
    if not (work / "mutants").exists():
        return {}
    out = subprocess.run([BIN / "mutmut", "results", "--all", "true"], cwd=work, capture_output=True, text=True)
    return dict(re.findall(r"^\s*(\S+): (.+?)\s*$", out.stdout, re.M))


def equivalents() -> dict[str, str]:
    """Mutant name -> the reason it cannot change behaviour (docs/mutation-equivalents.tsv)."""
    out = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines() if EQUIVALENTS.exists() else []:
        if line.strip() and not line.startswith("#"):
            mutant, _, reason = line.partition("\t")
            out[mutant.strip()] = reason.strip()
    return out


def module_of(mutant: str, modules: list[str]) -> str | None:
    dotted = sorted(((m[:-3].replace("/", "."), m) for m in modules), key=lambda x: -len(x[0]))
    return next((path for dot, path in dotted if mutant.startswith(dot + ".")), None)


def report(names: list[str]) -> str:
    known = equivalents()
    rows = ["| module | mutants | not yet tested | killed | equivalent | survived | killed of the non-equivalent |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    survivors: list[str] = []
    for name in names:
        group = groups()[name]
        status = results(name)
        for module in group["modules"]:
            every = {m: s for m, s in status.items() if module_of(m, group["modules"]) == module}
            mine = {m: s for m, s in every.items() if s != "not checked"}   # (a run stopped early)
            if not mine:
                rows.append(f"| {module} | {len(every) or 'not run'} | {len(every)} | | | | |")
                continue
            counts = Counter("killed" if s in DETECTED else "equivalent" if m in known else "survived"
                             for m, s in mine.items())
            judged = len(mine) - counts["equivalent"]
            share = f"{100 * counts['killed'] / judged:.1f} %" if judged else "—"
            rows.append(f"| {module} | {len(every)} | {len(every) - len(mine)} | {counts['killed']} | "
                        f"{counts['equivalent']} | {counts['survived']} | {share} |")
            survivors += [f"{m} ({s}; group {name})" for m, s in sorted(mine.items())
                          if s not in DETECTED and m not in known]
    lines = rows + ["", f"survivors without a test or a reason ({len(survivors)}; "
                        "`cd build/mutation/GROUP && ../../../.venv/bin/mutmut show NAME` shows one):"]
    return "\n".join(lines + [f"  {s}" for s in survivors])


def time_mutant(name: str, mutant: str, pytest_args: list[str]) -> str:
    """Run one mutant's tests as mutmut does (those that call its function, fastest first, up to the first
    failure) in the group's copy, and say what it cost: to measure a change to the selection or the copy."""
    work = WORK / name / "mutants"
    stats = json.loads((work / "mutmut-stats.json").read_text(encoding="utf-8"))
    durations = stats["duration_by_test"]
    tests = sorted(stats["tests_by_mangled_function_name"][mutant.rpartition("__mutmut_")[0]],
                   key=lambda t: durations.get(t, 0))
    env = dict(os.environ, MUTANT_UNDER_TEST=mutant)
    if groups()[name].get("prebuilt_kb"):
        env["KB_TEST_DB"] = str(prebuilt_kb())
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([BIN / "python", "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           *pytest_args, *tests], cwd=work, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    last = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    return f"{mutant}: {'killed' if proc.returncode else 'survived'}, {len(tests)} tests, {cpu:.1f} s CPU ({last})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"groups to run (default: all of {', '.join(groups())})")
    parser.add_argument("--report", action="store_true", help="only report the results of earlier runs")
    parser.add_argument("--again", action="store_true",
                        help="test again only the mutants that survived the last run (after tests were added)")
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default: 1)")
    parser.add_argument("--minutes", type=float, help="stop each group's run after this long (run again to go on)")
    parser.add_argument("--time", metavar="MUTANT", nargs="+",
                        help="only run these mutants' tests in the (one) group's copy and print their CPU time")
    args, extra = parser.parse_known_args(argv)
    if extra and not args.time:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    names = args.groups or list(groups())
    unknown = [n for n in names if n not in groups()]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; groups: {', '.join(groups())}")
    if args.time:
        if len(args.groups) != 1:
            parser.error("--time needs one group")
        for mutant in args.time:
            print(time_mutant(args.groups[0], mutant, extra), flush=True)
        return 0
    if not args.report:
        for name in names:
            run(name, groups()[name], args.max_children, args.again, args.minutes)
    text = report(names)
    (WORK / "report.md").parent.mkdir(parents=True, exist_ok=True)
    (WORK / "report.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
