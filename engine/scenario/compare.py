"""Playing one scenario under two rule sets and finding where the games diverge.

The two games take the same steps; after each step the runner keeps a :func:`snapshot` of the game.
The games diverge at the first step after which the snapshots differ (or one game's step was
legal and the other's was not): :class:`Divergence` holds that step, the facts that differ, and
the rules each game applied in it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..cards import CardDB
from ..rulesets import RuleSet
from ..rulesets import get as get_ruleset
from ..rulesets import load as load_rulesets
from .model import Result, ScenarioError, StepResult
from .reader import load
from .run import run_file


@dataclass
class Divergence:
    index: int  # the step's position in the scenario
    line: int
    text: str
    #: fact -> (value under the first rule set, value under the second)
    differences: dict[str, tuple[str, str]]
    left: StepResult
    right: StepResult


@dataclass
class Comparison:
    path: str
    title: str
    rulesets: tuple[str, str]
    results: tuple[Result, Result]
    divergence: Divergence | None = None
    #: every step that differs (the first is ``divergence``)
    steps: list[Divergence] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)


def _differences(a: StepResult, b: StepResult) -> dict[str, tuple[str, str]]:
    out = {key: (a.state.get(key, "—"), b.state.get(key, "—")) for key in dict.fromkeys([*a.state, *b.state])
           if a.state.get(key) != b.state.get(key)}
    legal_a, legal_b = a.outcome.startswith("illegal"), b.outcome.startswith("illegal")
    if legal_a != legal_b:
        out["outcome"] = (a.outcome, b.outcome)
    return out


def compare_results(left: Result, right: Result) -> Comparison:
    sc = left.scenario
    cmp = Comparison(sc.path, sc.title, (left.rules, right.rules), (left, right))
    for i, (a, b) in enumerate(zip(left.steps, right.steps)):
        if a.text == "(setup)":
            continue
        diff = _differences(a, b)
        if diff:
            cmp.steps.append(Divergence(i, a.line, a.text, diff, a, b))
    cmp.divergence = cmp.steps[0] if cmp.steps else None
    return cmp


def compare(path: Path | str, first: str | RuleSet | None = None, second: str | RuleSet | None = None,
            db: CardDB | None = None) -> Comparison:
    """Play ``path`` under two rule sets (default: the scenario's ``rulesets:``, else the first other rule set of
    data/rulesets.toml against the default one).  RuleSetError for an unknown rule set."""
    if first is None or second is None:
        try:
            named = load(path).rulesets
        except ScenarioError:  # the error shows in the results below
            named = []
        sets = load_rulesets()
        names = named if len(named) >= 2 else [next(n for n in sets.names() if n != sets.default), sets.default]
        first = first if first is not None else names[0]
        second = second if second is not None else names[1]
    left = run_file(path, db, first if isinstance(first, RuleSet) else get_ruleset(first))
    right = run_file(path, db, second if isinstance(second, RuleSet) else get_ruleset(second))
    return compare_results(left, right)
