"""Playing a scenario: set up the game, take each step under a :class:`~engine.registry.Tracer`, check.

Nothing here raises on bad input: :meth:`Runner.run` turns every problem into the ``error`` of
the :class:`~engine.scenario.model.Result` (an engine bug too, as "internal engine error").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..cards import CardDB, CardError, default_db
from ..costs import CostSyntaxError, describe, pool_from
from ..errors import IllegalAction, NotExecutable
from ..game import Game
from ..loops import Unbounded
from ..paths import SCENARIOS_DIR
from ..registry import Tracer, parse_citation
from ..rulesets import RuleSet, RuleSetError
from ..rulesets import get as get_ruleset
from ..rulesets import load as load_rulesets
from .expect import check as check_expectation
from .model import LIMITS, SUFFIX, Result, Scenario, ScenarioError, Step, StepResult, number, split_list, under
from .names import Names
from .reader import load
from .snapshot import snapshot
from .steps import do

#: the expectations that name rules: a rule set must have each rule they name
_RULE_SUBJECTS = ("applied", "order", "illegal")


class Runner:
    def __init__(self, sc: Scenario, db: CardDB | None = None, rules: RuleSet | None = None):
        self.sc = sc
        self.db = db or default_db()
        self.rules = rules or get_ruleset()
        self.players = {name: i for i, name in enumerate(sc.players)}
        self.game = Game.new(sc.players, db=self.db, namer=self._namer, rules=self.rules)
        self.names = Names(sc.path, self.game, self.players)
        self.last_illegal: IllegalAction | None = None

    def _namer(self, text: str, candidates: list[int]) -> int | None:
        return self.names.namer(text, candidates)

    def fail(self, line: int | None, message: str) -> ScenarioError:
        return ScenarioError(self.sc.path, line, message)

    # -- setup --------------------------------------------------------------------------------------------------
    def setup(self) -> None:
        st = self.game.state
        number, active, phase = self.sc.turn
        st.turn = number
        st.active = self.players[active] if active else 0
        st.step = phase
        st.priority = st.active
        n = len(st.players)
        for p in st.players:
            behind = (p.index - st.active) % n  # how many turns ago this player's last turn was
            p.last_turn = number - (n - behind) % n if behind else number
            p.previous_turn = p.last_turn - n
        for line, player, attr, value in self.sc.setup:
            SETUP.get(attr, _set_zone)(self, line, self.players[player], attr, value)
        self.game.begin()

    _ITEM = re.compile(r"^(?:(?P<n>\d+)x\s+)?(?P<name>.+?)(?:\s+\((?P<attrs>[^()]*)\))?(?:\s+as\s+(?P<label>[\w-]+))?"
                       r"(?:\s+\((?P<attrs2>[^()]*)\))?$")

    def put(self, line: int, player: int, zone: str, item: str) -> None:
        """Put ``3x Card as label (tapped, new, loyalty 3, …)`` into a player's zone."""
        m = self._ITEM.match(item)
        if not m:
            raise self.fail(line, f"cannot read {item!r}: write 'Card name', 'Card name as label' or "
                                  f"'Card name (tapped, new, loyalty 3, +1/+1 2)'")
        name = m["name"].strip()
        try:
            copies = number(m["n"] or "1", "copies", 1)
        except ValueError as e:
            raise self.fail(line, str(e)) from None
        self.names.card(line, name)
        found = _Attributes()
        for a in (a.strip() for a in ((m["attrs"] or "") + "," + (m["attrs2"] or "")).split(",")):
            if a:
                found.read(self, line, a)
        if found.any() and zone != "battlefield":
            raise self.fail(line, f"{item}: tapped/new/counters/controller only for the battlefield")
        if len(self.game.state.objects) + copies > LIMITS["objects"]:
            raise self.fail(line, f"more than {LIMITS['objects']} objects in the setup")
        for _ in range(copies):
            oid = self.game.put(name, zone, player, tapped=found.tapped, new=found.new, counters=found.counters,
                                controller=found.controller)
            self.game.state.objects[oid].damage = found.damage
            if found.face_down:
                self.game.state.objects[oid].face = self._face_down(line, name)
            if found.attached:
                self.game.state.objects[oid].attached_to = self.names.ref(line, found.attached, zones=("battlefield",))
            if m["label"]:
                if copies > 1:
                    raise self.fail(line, "a label names one object; drop the count or the label")
                self.names.add_label(line, m["label"], self.game.state.objects[oid].uid)

    def _face_down(self, line: int, name: str) -> str:
        """The face-down face of a card (``face down`` in a setup item, 708.2a)."""
        face = next((f for f, d in self.db[name].faces.items() if d.way == "face_down"), None)
        if face is None:
            raise self.fail(line, f"{name}: its card file gives no face-down characteristics ([[faces]] way = "
                                  f"\"face_down\")")
        return face

    # -- steps --------------------------------------------------------------------------------------------------
    def run_step(self, step: Step) -> StepResult:
        game = self.game
        res = StepResult(step.line, step.text, "ok", [], [])
        if step.verb == "start":
            return res
        first_uid = game.state.next_uid
        with Tracer() as tracer:
            try:
                outcome = do(self.names, step)
            except NotExecutable as e:
                outcome = None
                res.outcome = f"error: {e}"
        self.label_tokens(step, first_uid)
        res.rules = [str(c) for c in tracer.citations()]
        res.functions = [f"{f.qualname}" for f in tracer.links()]
        res.appliers = [(str(c), f.qualname) for c, f in tracer.appliers()]
        res.entered = [(str(c), f.qualname) for c, f in tracer.entered_only()]
        if isinstance(outcome, Unbounded):  # not a player's mistake: the engine's bound (engine.loops)
            res.outcome = f"error: refused, it would not end: {outcome}"
            outcome = None
        elif outcome is not None:
            res.outcome = f"illegal: {outcome}"
        self.last_illegal = outcome
        if step.verb in ("cast", "activate") and outcome is None and game.last_cost is not None and game.state.stack:
            top = game.state.objects[game.state.stack[-1]]
            if top.ann is not None:
                res.details = [describe(s) for s in top.ann.cost_steps]  # how the locked total cost came about
        return res

    def label_tokens(self, step: Step, first_uid: int) -> None:
        """``tokens: t1; t2``: the tokens the step created get these labels, in the order they were made."""
        for opt in (o for o in step.options if o.key == "tokens"):
            made = sorted(o.uid for o in self.game.state.objects.values() if o.token and o.uid >= first_uid)
            labels = split_list(opt.value)
            if len(labels) > len(made):
                raise self.fail(opt.line, f"tokens: {len(labels)} labels, but the step created {len(made)} token(s)")
            for label, uid in zip(labels, made):
                self.names.add_label(opt.line, label, uid)

    def check(self, line: int, text: str, res: StepResult) -> tuple[bool, str]:
        return check_expectation(self.names, line, text, res, self.last_illegal)

    def expectations(self, step: Step) -> list[tuple[int, str]]:
        """The step's expectations that hold under this game's rule set (``expect under OTHER: …`` do not)."""
        out = []
        for line, text in step.expects:
            ruleset, rest = under(text)
            if ruleset is None or load_rulesets().get(ruleset).name == self.rules.name:
                out.append((line, rest))
        return out

    def check_rules(self) -> None:
        """A scenario that expects a rule the rule set does not have cannot be played under it."""
        for step in self.sc.steps:
            for line, text in self.expectations(step):
                subject, _, value = text.partition(":")
                if subject.strip() not in _RULE_SUBJECTS:
                    continue
                words = split_list(value.replace(",", ";"))
                rules = words[:1] if subject.strip() == "illegal" else words
                for rule in (r.split()[0] for r in rules if r.split()):
                    try:
                        reason = self.rules.lacks(parse_citation(rule))
                    except ValueError:
                        continue
                    if reason is not None:
                        raise self.fail(line, f"expects {rule}, which the rule set {self.rules.name} does not have "
                                              f"({reason}); write 'expect under RULESET: …' for a rule of one set")

    def run(self) -> Result:
        result = Result(self.sc, rules=self.rules.name)
        line = None
        try:
            self.check_rules()
            self.setup()
            for step in self.sc.steps:
                line = step.line
                before = self.game.state.copy() if step.verb != "start" else None
                sr = self.run_step(step)
                result.steps.append(sr)
                expects_illegal = any(t.startswith("illegal") for _, t in self.expectations(step))
                if self.last_illegal is not None and not expects_illegal:
                    sr.outcome = f"unexpected illegal action: {self.last_illegal}"
                if self.last_illegal is not None and self.game.state != before:
                    sr.outcome = "error: the illegal action did not return the game to the state before it"
                for line, text in self.expectations(step):
                    try:
                        passed, msg = self.check(line, text, sr)
                    except ScenarioError as e:  # a check that cannot be made fails; the later steps still run
                        passed, msg = False, e.message
                    sr.checks.append((line, text, passed, msg))
                sr.state = snapshot(self.game)
                line = None
        except ScenarioError as e:
            result.error = e
        except Exception as e:  # an engine bug must not end the run with a traceback
            result.error = ScenarioError(self.sc.path, line, f"internal engine error ({type(e).__name__}: {e}); "
                                                             f"please report it with this scenario", internal=True)
        return result


# -- setup lines: PLAYER life / pool / ZONE ------------------------------------------------------------------------

def _set_life(run: Runner, line: int, player: int, attr: str, value: str) -> None:
    try:
        run.game.state.players[player].life = number(value, "life", -LIMITS["life"])
    except ValueError as e:
        raise run.fail(line, str(e)) from None


def _set_pool(run: Runner, line: int, player: int, attr: str, value: str) -> None:
    if value.count("{") > 6 * LIMITS["mana"]:
        raise run.fail(line, f"pool: more than {LIMITS['mana']} mana of a type")
    try:
        pool = pool_from("" if value == "empty" else value)
    except CostSyntaxError as e:
        raise run.fail(line, str(e)) from None
    if max(pool) > LIMITS["mana"]:
        raise run.fail(line, f"pool: more than {LIMITS['mana']} mana of a type")
    run.game.state.players[player].pool = pool


def _set_zone(run: Runner, line: int, player: int, attr: str, value: str) -> None:
    items = split_list(value)
    if attr == "library":
        items = list(reversed(items))  # written top first; stored top last
    for item in items:
        run.put(line, player, attr, item)


#: setup attributes other than zones (zones: _set_zone)
SETUP: dict[str, Callable[[Runner, int, int, str, str], None]] = {"life": _set_life, "pool": _set_pool}


@dataclass
class _Attributes:
    """What the parentheses of a setup item say about the permanent."""

    tapped: bool = False
    new: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    controller: int | None = None
    damage: int = 0
    attached: str | None = None
    face_down: bool = False

    def any(self) -> bool:
        return bool(self.tapped or self.new or self.counters or self.controller is not None or self.damage
                    or self.attached or self.face_down)

    def read(self, run: Runner, line: int, a: str) -> None:
        for rx, handler in _ATTRIBUTES:
            if rx.fullmatch(a):
                handler(self, run, line, a)
                return
        raise run.fail(line, f"unknown attribute {a!r} (tapped, new, face down, controller NAME, damage N, "
                             f"attached to REF, KIND N for counters)")


def _tapped(found: _Attributes, run: Runner, line: int, a: str) -> None:
    found.tapped = True


def _new(found: _Attributes, run: Runner, line: int, a: str) -> None:
    found.new = True


def _face_down(found: _Attributes, run: Runner, line: int, a: str) -> None:
    found.face_down = True


def _controller(found: _Attributes, run: Runner, line: int, a: str) -> None:
    who = a.split(None, 1)[1]
    if who not in run.players:
        raise run.fail(line, f"unknown player {who!r}")
    found.controller = run.players[who]


def _attached(found: _Attributes, run: Runner, line: int, a: str) -> None:
    found.attached = a[len("attached to "):].strip()


def _damage(found: _Attributes, run: Runner, line: int, a: str) -> None:
    try:
        found.damage = number(a.split()[1], "damage")
    except ValueError as e:
        raise run.fail(line, str(e)) from None


def _counter(found: _Attributes, run: Runner, line: int, a: str) -> None:
    kind, n = a.split()
    try:
        found.counters[kind] = number(n, "counters")
    except ValueError as e:
        raise run.fail(line, str(e)) from None


#: the attributes of a setup item, in order (each regex must match the whole attribute)
_ATTRIBUTES: list[tuple[re.Pattern[str], Callable[[_Attributes, Runner, int, str], None]]] = [
    (re.compile(r"tapped"), _tapped),
    (re.compile(r"new"), _new),
    (re.compile(r"face down"), _face_down),
    (re.compile(r"controller .*"), _controller),
    (re.compile(r"attached to .*"), _attached),
    (re.compile(r"damage \d+"), _damage),
    (re.compile(r"\S+ \d+"), _counter),
]


# -- files --------------------------------------------------------------------------------------------------------

def run_file(path: Path | str, db: CardDB | None = None, rules: str | RuleSet | None = None) -> Result:
    """Play one scenario file with the card database ``db`` (default: the built-in cards) under the rule set
    ``rules`` (a name, default: today's rules); never raises."""
    try:
        ruleset = rules if isinstance(rules, RuleSet) else get_ruleset(rules)
    except RuleSetError as e:
        return Result(Scenario(str(path)), error=ScenarioError(str(path), None, str(e)), rules=str(rules or ""))
    try:
        sc = load(path)
    except ScenarioError as e:
        return Result(Scenario(str(path)), error=e, rules=ruleset.name)
    try:
        db = db or default_db()
    except CardError as e:
        return Result(sc, error=ScenarioError(sc.path, None, f"the card files cannot be used: {e}"))
    return Runner(sc, db, ruleset).run()


def rulesets_of(sc: Scenario) -> list[str]:
    """The rule sets a scenario is played under: its ``rulesets:`` header, else the default rule set."""
    return sc.rulesets or [load_rulesets().default]


def all_files(directory: Path = SCENARIOS_DIR) -> list[Path]:
    return sorted(Path(directory).glob(f"*{SUFFIX}"))
