"""The scenario language as data: a scenario and its steps, options and expectations; what playing it gave."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..registry import parse_citation
from ..state import ZONES

SUFFIX = ".scenario"
#: what a setup line sets for a player: ``Alice life: 12``, ``Alice hand: …``
SETUP_ATTRS = ("life", "pool") + ZONES
#: what ``expect PLAYER …:`` checks
PLAYER_EXPECT_ATTRS = ("life", "pool", "lost", "won") + ZONES
#: the options of a cast or an activation, in the order error messages list them
CAST_OPTIONS = ("from", "face", "splice", "mode", "modes", "x", "alternative", "optional", "additional", "hybrid",
                "target", "divide", "sacrifice", "discard", "mana", "pay", "chooser")
#: every option a step may have: the above, the choices made while resolving, and the decisions made as the
#: action goes on (triggered abilities, the legend rule)
OPTIONS = CAST_OPTIONS + ("choose", "trigger", "order", "keep", "replace", "tokens")


#: bounds on the numbers a scenario may contain: hostile input must not hang the runner or exhaust memory
LIMITS = {"copies": 200, "life": 1_000_000, "mana": 1000, "counters": 10_000, "damage": 1_000_000, "x": 1000,
          "turn": 100_000, "mode": 20, "division": 1000, "ability": 20, "objects": 5000}
#: a scenario file larger than this, or a line longer than this, or with parentheses nested deeper than this, is
#: refused (no line of the format nests them more than once: ``REF (choose: …)``)
MAX_FILE, MAX_LINE, MAX_NESTING = 1_000_000, 10_000, 3


def number(text: str, what: str, lo: int = 0) -> int:
    """``text`` as a whole number from ``lo`` to ``LIMITS[what]``; ValueError with the reason otherwise."""
    text = text.strip()
    hi = LIMITS[what]
    if not text.lstrip("-").isdigit() or len(text) > 12 or not lo <= int(text) <= hi:
        raise ValueError(f"{what}: {text!r} is not a whole number from {lo} to {hi}")
    return int(text)


class ScenarioError(Exception):
    def __init__(self, path: str, line: int | None, message: str, internal: bool = False):
        self.path, self.line, self.message = str(path), line, message
        #: True for an engine error (a bug), False for bad input (the scenario or card files)
        self.internal = internal
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass
class Option:
    line: int
    key: str
    arg: str  # "target ziel: x" -> key "target", arg "ziel"
    value: str


@dataclass
class Step:
    line: int
    text: str
    verb: str  # a key of engine.scenario.steps.VERBS, or "start" (the expectations before the first step)
    player: str | None = None
    ref: str | None = None
    options: list[Option] = field(default_factory=list)
    expects: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Scenario:
    path: str
    title: str = ""
    tags: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    turn: tuple[int, str | None, str] = (1, None, "main1")
    setup: list[tuple[int, str, str, str]] = field(default_factory=list)  # line, player, attr, value
    steps: list[Step] = field(default_factory=list)
    #: the rule sets the scenario is played under (``rulesets:`` header); two or more: a comparison scenario
    rulesets: list[str] = field(default_factory=list)

    def rule_tags(self) -> list[str]:
        """Citation keys of the rules this scenario is tagged with (examples count for their rule)."""
        out = []
        for tag in self.tags:
            kind, _, arg = tag.partition(" ")
            if kind in ("rule", "example"):
                number = arg.split("#")[0].strip()
            elif not arg:
                number = kind
            else:
                continue
            try:
                out.append(parse_citation(number).key)
            except ValueError:
                pass
        return out


def under(text: str) -> tuple[str | None, str]:
    """``"under de-1999: Alice life: 17"`` -> ("de-1999", "Alice life: 17"); other expectations: (None, text)."""
    if text.startswith("under "):
        head, sep, rest = text[len("under "):].partition(":")
        if sep:
            return head.strip(), rest.strip()
    return None, text


def split_list(value: str) -> list[str]:
    """``"a; b;; c"`` -> ``["a", "b", "c"]`` (lists in a line are separated by ``;``)."""
    return [v.strip() for v in value.split(";") if v.strip()]


# -- results ------------------------------------------------------------------------------------------------------

@dataclass
class StepResult:
    line: int
    text: str
    outcome: str  # "ok", "illegal: …", "error: …"
    rules: list[str]  # the rules applied, in first-applied order
    functions: list[str]  # the enforcing functions entered (whether or not they applied a rule)
    appliers: list[tuple[str, str]] = field(default_factory=list)  # (rule, function) for each rule applied
    entered: list[tuple[str, str]] = field(default_factory=list)  # (rule, function): entered, rule not applied
    details: list[str] = field(default_factory=list)
    checks: list[tuple[int, str, bool, str]] = field(default_factory=list)  # line, text, passed, message
    #: the game after the step, as :func:`engine.scenario.snapshot.snapshot` describes it
    state: dict[str, str] = field(default_factory=dict)


@dataclass
class Result:
    scenario: Scenario
    steps: list[StepResult] = field(default_factory=list)
    error: ScenarioError | None = None
    #: the name of the rule set the scenario was played under
    rules: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None and all(passed for s in self.steps for _, _, passed, _ in s.checks) and not any(
            s.outcome.startswith(("error", "unexpected")) for s in self.steps)

    def applied(self) -> list[str]:
        seen: list[str] = []
        for s in self.steps:
            for r in s.rules:
                if r not in seen:
                    seen.append(r)
        return seen

    def entered_only(self) -> list[str]:
        """Rules whose enforcing function was entered in some step but which no step applied."""
        done = set(self.applied())
        seen: list[str] = []
        for s in self.steps:
            for rule, _ in s.entered:
                if rule not in done and rule not in seen:
                    seen.append(rule)
        return seen

    def failures(self) -> list[str]:
        out = [] if self.error is None else [str(self.error)]
        for s in self.steps:
            if s.outcome.startswith(("error", "unexpected")):
                out.append(f"{self.scenario.path}:{s.line}: {s.outcome}")
            for line, text, passed, msg in s.checks:
                if not passed:
                    out.append(f"{self.scenario.path}:{line}: expect {text}: {msg}")
        return out
