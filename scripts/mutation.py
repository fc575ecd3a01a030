"""Mutation testing of the modules where a silent bug costs most (run by scripts/mutation.sh; see docs/testing.md).

For each group of ``[tool.mtg-rules-kb.mutation]`` in pyproject.toml (modules and the tests that exercise them),
in a copy of the project under ``build/mutation/<group>/`` (so the work tree stays free to edit while it runs):

1. the packages, tests and data are copied there (mutmut keeps its results in ``mutants/`` beside them and tests
   again only the functions that changed);
2. decorator syntax in the group's modules is written out (``@d def f`` as ``def f`` then ``f = d(f)``, the same
   program): mutmut leaves decorated functions alone, and most engine functions carry ``@enforces``;
3. ``[tool.mutmut]`` gets the group's ``only_mutate`` and test selection, and ``mutmut run`` tests every mutant
   against the tests that call the mutated function;
4. the share of mutants killed per module is reported, and the survivors are listed, less those that
   ``docs/mutation-equivalents.tsv`` explains (a survivor that cannot change behaviour, one line each).

A mutant that makes a test hang counts as killed (mutmut's "timeout": the tests noticed); one that no selected
test reaches ("no tests") counts as surviving.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
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
        decorators = node.decorators
        if self.depth or not decorators:
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


def desugar(path: Path) -> None:
    path.write_text(cst.parse_module(path.read_text(encoding="utf-8")).visit(_Desugar()).code, encoding="utf-8")


def prepare(name: str, group: dict) -> Path:
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    for d in COPIED:
        shutil.rmtree(work / d, ignore_errors=True)
        shutil.copytree(ROOT / d, work / d, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".manifest.lock"))
    for module in group["modules"]:
        desugar(work / module)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mutmut = config["tool"]["mutmut"]
    mutmut["only_mutate"] = list(group["modules"])
    mutmut["pytest_add_cli_args_test_selection"] = list(group["tests"]) + list(group.get("deselect", []))
    (work / "pyproject.toml").write_text(tomli_w.dumps(config), encoding="utf-8")
    return work


def prebuilt_kb() -> Path:
    """One KB built with the unmutated code, for the groups whose tests may share it."""
    path = WORK / "kb-test.db"
    subprocess.run([BIN / "kb", "build", "-q", "--db", str(path)], cwd=ROOT, check=True)
    return path


def run(name: str, group: dict, children: int) -> None:
    work = prepare(name, group)
    env = dict(os.environ)
    if group.get("prebuilt_kb"):
        env["KB_TEST_DB"] = str(prebuilt_kb())
    print(f"mutation: {name}: mutmut run in {work.relative_to(ROOT)} (log: run.log)", flush=True)
    with open(work / "run.log", "w", encoding="utf-8") as log:
        subprocess.run([BIN / "mutmut", "run", "--max-children", str(children)], cwd=work, env=env, stdout=log,
                       stderr=subprocess.STDOUT, check=False)


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
    rows = ["| module | mutants | killed | equivalent | survived | killed of the non-equivalent |",
            "|---|---:|---:|---:|---:|---:|"]
    survivors: list[str] = []
    for name in names:
        group = groups()[name]
        status = results(name)
        for module in group["modules"]:
            mine = {m: s for m, s in status.items() if module_of(m, group["modules"]) == module}
            if not mine:
                rows.append(f"| {module} | not run | | | | |")
                continue
            counts = Counter("killed" if s in DETECTED else "equivalent" if m in known else "survived"
                             for m, s in mine.items())
            judged = len(mine) - counts["equivalent"]
            share = f"{100 * counts['killed'] / judged:.1f} %" if judged else "—"
            rows.append(f"| {module} | {len(mine)} | {counts['killed']} | {counts['equivalent']} | "
                        f"{counts['survived']} | {share} |")
            survivors += [f"{m} ({s}; group {name})" for m, s in sorted(mine.items())
                          if s not in DETECTED and m not in known]
    lines = rows + ["", f"survivors without a test or a reason ({len(survivors)}; "
                        "`cd build/mutation/GROUP && ../../../.venv/bin/mutmut show NAME` shows one):"]
    return "\n".join(lines + [f"  {s}" for s in survivors])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"groups to run (default: all of {', '.join(groups())})")
    parser.add_argument("--report", action="store_true", help="only report the results of earlier runs")
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default: 1)")
    args = parser.parse_args(argv)
    names = args.groups or list(groups())
    unknown = [n for n in names if n not in groups()]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; groups: {', '.join(groups())}")
    if not args.report:
        for name in names:
            run(name, groups()[name], args.max_children)
    text = report(names)
    (WORK / "report.md").parent.mkdir(parents=True, exist_ok=True)
    (WORK / "report.md").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
