"""Reading scenario text: header, setup, steps with their options, and expectations.

Every line is one statement (format: README, "Scenario files"); a line that cannot be read is a
:class:`~engine.scenario.model.ScenarioError` naming file and line.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from ..paths import ROOT
from ..registry import parse_citation
from ..rulesets import RuleSetError
from ..rulesets import load as load_rulesets
from ..state import STEP_ALIASES, STEPS
from .model import (
    CAST_OPTIONS,
    MAX_FILE,
    MAX_LINE,
    MAX_NESTING,
    OPTIONS,
    SETUP_ATTRS,
    Option,
    Scenario,
    ScenarioError,
    Step,
    under,
)
from .model import number as bounded
from .names import did_you_mean

#: step lines and their verbs (the runner has a handler for each verb)
_STEP_RE = [
    (re.compile(r"^(?P<player>\S+) casts (?P<ref>.+)$"), "cast"),
    (re.compile(r"^(?P<player>\S+) activates (?P<ref>.+)$"), "activate"),
    (re.compile(r"^(?P<player>\S+) passes$"), "pass"),
    (re.compile(r"^(?:all pass|resolve)$"), "all_pass"),
    (re.compile(r"^(?P<player>\S+) plays (?P<ref>.+)$"), "play"),
    (re.compile(r"^(?P<player>\S+) attacks (?P<ref>(?:\S+ )?with .+)$"), "attack"),
    (re.compile(r"^(?P<player>\S+) blocks (?P<ref>.+)$"), "block"),
    (re.compile(r"^(?P<player>\S+) concedes$"), "concede"),
    (re.compile(r"^(?P<player>\S+) turns (?P<ref>.+) face up$"), "turn_face_up"),
    (re.compile(r"^next step$"), "next_step"),
    (re.compile(r"^next phase$"), "next_phase"),
    (re.compile(r"^next turn$"), "next_turn"),
    (re.compile(r"^go to (?P<ref>\S+)$"), "goto"),
]


def parse(text: str, path: str = "<scenario>") -> Scenario:
    parser = _Parser(path)
    for no, raw in enumerate(text.splitlines(), 1):
        if len(raw) > MAX_LINE:
            raise ScenarioError(path, no, f"line longer than {MAX_LINE} characters")
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if _nesting(raw) > MAX_NESTING:
            raise ScenarioError(path, no, f"parentheses nested more than {MAX_NESTING} deep")
        parser.line(no, raw)
    if not parser.sc.players:
        raise ScenarioError(path, None, "no 'players:' line")
    return parser.sc


def _nesting(line: str) -> int:
    """How deeply the parentheses of a line nest."""
    depth = deepest = 0
    for c in line:
        if c == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif c == ")":
            depth = max(depth - 1, 0)
    return deepest


class _Parser:
    """One pass over the lines; ``current`` is the step that options and expectations attach to."""

    def __init__(self, path: str):
        self.path = path
        self.sc = Scenario(path)
        self.current: Step | None = None
        self.header_done = False

    def fail(self, no: int, message: str) -> ScenarioError:
        return ScenarioError(self.path, no, message)

    def line(self, no: int, raw: str) -> None:
        line = raw.strip()
        if line.startswith("expect"):
            self.expect(no, line)
            return
        if raw[0] in " \t":
            self.option(no, line)
            return
        head, sep, value = line.partition(":")
        key = head.strip()
        words = key.split()
        if sep and key in HEADERS:
            self.header(no, key, value.strip())
        elif sep and len(words) == 2 and words[1] in SETUP_ATTRS:
            self.setup(no, key, words, value.strip())
        else:
            self.step(no, line)

    def expect(self, no: int, line: str) -> None:
        if not re.match(r"^expect(\s|$)", line):
            raise self.fail(no, f"cannot read {line!r}: did you mean 'expect …'?")
        what = line[len("expect"):].strip()
        if not what:
            raise self.fail(no, "expect what? e.g. 'expect Alice life: 18', 'expect illegal: 601.2c'")
        ruleset, rest = under(what)
        if what.startswith("under") and ruleset is None:
            raise self.fail(no, "write 'expect under RULESET: …', e.g. 'expect under de-1999: Alice life: 17'")
        if ruleset is not None:
            _ruleset(self.path, no, ruleset)
            if not rest:
                raise self.fail(no, f"expect under {ruleset}: what? e.g. 'expect under {ruleset}: Alice life: 17'")
        if self.current is None:
            self.current = Step(no, "(setup)", "start")
            self.sc.steps.append(self.current)
        self.current.expects.append((no, what))

    def option(self, no: int, line: str) -> None:
        if self.current is None or self.current.verb == "start":
            raise self.fail(no, "an indented option must follow a step "
                                "('Alice casts …', 'Alice activates …', 'resolve')")
        self.current.options.append(option(self.path, no, line))

    def header(self, no: int, key: str, value: str) -> None:
        if self.header_done and key != "title":
            raise self.fail(no, f"'{key}:' belongs before the setup and the steps")
        HEADERS[key](self.sc, self.path, no, value)

    def setup(self, no: int, key: str, words: list[str], value: str) -> None:
        sc = self.sc
        if not sc.players:
            raise self.fail(no, "name the players first ('players: Alice, Bob')")
        if words[0] not in sc.players:
            raise self.fail(no, f"unknown player {words[0]!r} (players: {', '.join(sc.players)})")
        if sc.steps:
            raise self.fail(no, "setup lines must come before the first step; "
                                f"to check a zone later write 'expect {key}: …'")
        self.header_done = True
        sc.setup.append((no, words[0], words[1], value))

    def step(self, no: int, line: str) -> None:
        for rx, verb in _STEP_RE:
            m = rx.match(line)
            if m:
                gd = m.groupdict()
                player = gd.get("player")
                if player is not None and player not in self.sc.players:
                    raise self.fail(no, f"unknown player {player!r} (players: {', '.join(self.sc.players)})")
                self.current = Step(no, line, verb, player, gd.get("ref"))
                self.sc.steps.append(self.current)
                self.header_done = True
                return
        raise self.fail(no, f"cannot read {line!r}: expected a header ('title:', 'players:'), "
                            f"a setup line ('Alice hand: …'), a step ('Alice casts …', "
                            f"'Alice activates …', 'Alice plays …', 'Alice attacks with …', 'Bob blocks … "
                            f"with …', 'Alice passes', 'resolve', 'next step', 'go to end', 'next turn') "
                            f"or 'expect …'")


# -- header lines -------------------------------------------------------------------------------------------------

def _title(sc: Scenario, path: str, no: int, value: str) -> None:
    sc.title = value


def _tags(sc: Scenario, path: str, no: int, value: str) -> None:
    sc.tags = [t.strip() for t in value.split(",") if t.strip()]
    for t in sc.tags:
        _check_tag(path, no, t)


def _check_tag(path: str, no: int, tag: str) -> None:
    """A rule (``601.2f``), an example (``example 601.2c``, ``example 608.2b#2``), a source line (``source 003:41``)."""
    kind, _, arg = tag.partition(" ")
    if kind in ("rule", "example"):
        try:
            parse_citation(arg.split("#")[0])
        except ValueError:
            raise ScenarioError(path, no, f"tag {tag!r}: {arg!r} is not a rule number") from None
    elif kind == "source":
        if not re.fullmatch(r"\d{3}:\d+", arg.strip()):
            raise ScenarioError(path, no, f"tag {tag!r}: write 'source 003:41' (document number:line)")
    elif not arg:
        try:
            parse_citation(kind)
        except ValueError:
            raise ScenarioError(path, no, f"tag {tag!r}: expected a rule number, 'example 601.2c', "
                                          f"'source 003:41'") from None
    else:
        raise ScenarioError(path, no, f"unknown tag kind {kind!r} (rule, example, source)")


def _players(sc: Scenario, path: str, no: int, value: str) -> None:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if len(names) < 2 or len(set(names)) != len(names) or any(" " in n for n in names):
        raise ScenarioError(path, no, "players: two or more distinct one-word names, e.g. 'players: Alice, Bob'")
    sc.players = names


def _turn(sc: Scenario, path: str, no: int, value: str) -> None:
    number, active, phase = 1, None, "main1"
    for tok in value.replace(",", " ").split():
        if tok.isdigit():
            try:
                number = bounded(tok, "turn", 1)
            except ValueError as e:
                raise ScenarioError(path, no, str(e)) from None
        elif tok in STEPS or tok in STEP_ALIASES:
            phase = STEP_ALIASES.get(tok, tok)
        elif tok in sc.players:
            active = tok
        else:
            raise ScenarioError(path, no, f"turn: {tok!r} is neither a number, a step "
                                          f"({', '.join(STEPS)}) nor a player")
    sc.turn = (number, active, phase)


def _ruleset(path: str, no: int, name: str) -> str:
    """The name of the rule set ``name`` (or an alias of it) stands for; an unknown one names the line."""
    try:
        return load_rulesets().get(name).name
    except RuleSetError as e:
        raise ScenarioError(path, no, str(e)) from None


def _rulesets(sc: Scenario, path: str, no: int, value: str) -> None:
    """``rulesets: de-1999, de-2024``: the scenario is played under each (a comparison scenario)."""
    names = [_ruleset(path, no, n.strip()) for n in value.split(",") if n.strip()]
    if not names or len(set(names)) != len(names):
        raise ScenarioError(path, no, "rulesets: one or more distinct rule sets, e.g. 'rulesets: de-1999, de-2024'")
    sc.rulesets = names


#: header keys and what they set
HEADERS: dict[str, Callable[[Scenario, str, int, str], None]] = {
    "title": _title, "tags": _tags, "players": _players, "turn": _turn, "rulesets": _rulesets}


# -- options ------------------------------------------------------------------------------------------------------

def option(path: str, no: int, line: str) -> Option:
    """``target ziel: Bob`` -> Option(no, "target", "ziel", "Bob"); an unknown key is an error with a hint."""
    head, sep, value = line.partition(":")
    if not sep:
        raise ScenarioError(path, no, f"an option is 'key: value', got {line!r}")
    words = head.split(None, 1)
    key = words[0] if words else ""
    arg = words[1].strip() if len(words) > 1 else ""
    if key not in OPTIONS:
        raise ScenarioError(path, no, f"unknown option {key!r}{did_you_mean(key, OPTIONS, 1)}; "
                                      f"options: {', '.join(CAST_OPTIONS)}, choose")
    return Option(no, key, arg, value.strip())


# -- files --------------------------------------------------------------------------------------------------------

def load(path: Path | str) -> Scenario:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE:
            raise ScenarioError(_display(path), None, f"larger than {MAX_FILE} bytes; not a scenario")
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(str(path), None, f"cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ScenarioError(str(path), None, f"not UTF-8 text ({e.reason})") from None
    return parse(text, _display(path))


def _display(path: Path) -> str:
    """The path as shown in messages: relative to the repository when it is inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)
