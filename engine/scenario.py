"""Scenarios: small line-based files that set up a game, take actions and state expectations.

The format is documented in the README, section "Scenario files".  Parsing and running
never raise on bad input: every problem becomes a :class:`ScenarioError`
naming the file and line.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .actions import take_action
from .activation import ability_of
from .cards import CardDB, default_db
from .costs import CostSyntaxError, pool_from, pool_str
from .errors import IllegalAction, NotExecutable
from .game import Choices, Game, ManaActivation
from .mana import is_mana_ability
from .paths import ROOT, SCENARIOS_DIR
from .registry import Tracer, parse_citation
from .state import PHASES, ZONES, object_target, player_target
from .turn import advance_to, pass_priority

SUFFIX = ".scenario"
SETUP_ATTRS = ("life", "pool") + ZONES
PLAYER_EXPECT_ATTRS = ("life", "pool", "lost") + ZONES
CAST_OPTIONS = ("from", "mode", "modes", "x", "alternative", "optional", "additional", "target", "divide",
                "sacrifice", "discard", "mana", "pay")


class ScenarioError(Exception):
    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
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
    verb: str  # cast, activate, pass, all_pass, next_phase, next_turn, goto, start
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


# -- parsing ------------------------------------------------------------------------------------------------------

_STEP_RE = [
    (re.compile(r"^(?P<player>\S+) casts (?P<ref>.+)$"), "cast"),
    (re.compile(r"^(?P<player>\S+) activates (?P<ref>.+)$"), "activate"),
    (re.compile(r"^(?P<player>\S+) passes$"), "pass"),
    (re.compile(r"^(?:all pass|resolve)$"), "all_pass"),
    (re.compile(r"^next phase$"), "next_phase"),
    (re.compile(r"^next turn$"), "next_turn"),
    (re.compile(r"^go to (?P<ref>\S+)$"), "goto"),
]


def parse(text: str, path: str = "<scenario>") -> Scenario:
    sc = Scenario(path)
    current: Step | None = None
    header_done = False
    for no, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        indented = raw[0] in " \t"
        line = raw.strip()
        if line.startswith("expect"):
            if not re.match(r"^expect(\s|$)", line):
                raise ScenarioError(path, no, f"cannot read {line!r}: did you mean 'expect …'?")
            what = line[len("expect"):].strip()
            if not what:
                raise ScenarioError(path, no, "expect what? e.g. 'expect Alice life: 18', 'expect illegal: 601.2c'")
            if current is None:
                current = Step(no, "(setup)", "start")
                sc.steps.append(current)
            current.expects.append((no, what))
            continue
        if indented:
            if current is None or current.verb == "start":
                raise ScenarioError(path, no, "an indented option must follow a step "
                                              "('Alice casts …', 'Alice activates …', 'resolve')")
            current.options.append(_option(path, no, line))
            continue
        head, sep, value = line.partition(":")
        key = head.strip()
        if sep and key in ("title", "tags", "players", "turn"):
            if header_done and key != "title":
                raise ScenarioError(path, no, f"'{key}:' belongs before the setup and the steps")
            _header(sc, path, no, key, value.strip())
            continue
        words = key.split()
        if sep and len(words) == 2 and words[1] in SETUP_ATTRS:
            if not sc.players:
                raise ScenarioError(path, no, "name the players first ('players: Alice, Bob')")
            if words[0] not in sc.players:
                raise ScenarioError(path, no, f"unknown player {words[0]!r} (players: {', '.join(sc.players)})")
            if sc.steps:
                raise ScenarioError(path, no, "setup lines must come before the first step; "
                                              f"to check a zone later write 'expect {key}: …'")
            header_done = True
            sc.setup.append((no, words[0], words[1], value.strip()))
            continue
        for rx, verb in _STEP_RE:
            m = rx.match(line)
            if m:
                gd = m.groupdict()
                player = gd.get("player")
                if player is not None and player not in sc.players:
                    raise ScenarioError(path, no, f"unknown player {player!r} (players: {', '.join(sc.players)})")
                current = Step(no, line, verb, player, gd.get("ref"))
                sc.steps.append(current)
                header_done = True
                break
        else:
            raise ScenarioError(path, no, f"cannot read {line!r}: expected a header ('title:', 'players:'), "
                                          f"a setup line ('Alice hand: …'), a step ('Alice casts …', "
                                          f"'Alice activates …', 'Alice passes', 'resolve', 'next turn') "
                                          f"or 'expect …'")
    if not sc.players:
        raise ScenarioError(path, None, "no 'players:' line")
    return sc


def _header(sc: Scenario, path: str, no: int, key: str, value: str) -> None:
    if key == "title":
        sc.title = value
    elif key == "tags":
        sc.tags = [t.strip() for t in value.split(",") if t.strip()]
        for t in sc.tags:
            kind, _, arg = t.partition(" ")
            if kind in ("rule", "example"):
                try:
                    parse_citation(arg.split("#")[0])
                except ValueError:
                    raise ScenarioError(path, no, f"tag {t!r}: {arg!r} is not a rule number") from None
            elif kind == "source":
                if not re.fullmatch(r"\d{3}:\d+", arg.strip()):
                    raise ScenarioError(path, no, f"tag {t!r}: write 'source 003:41' (document number:line)")
            elif not arg:
                try:
                    parse_citation(kind)
                except ValueError:
                    raise ScenarioError(path, no, f"tag {t!r}: expected a rule number, 'example 601.2c', "
                                                  f"'source 003:41'") from None
            else:
                raise ScenarioError(path, no, f"unknown tag kind {kind!r} (rule, example, source)")
    elif key == "players":
        names = [n.strip() for n in value.split(",") if n.strip()]
        if len(names) < 2 or len(set(names)) != len(names) or any(" " in n for n in names):
            raise ScenarioError(path, no, "players: two or more distinct one-word names, e.g. 'players: Alice, Bob'")
        sc.players = names
    elif key == "turn":
        number, active, phase = 1, None, "main1"
        for tok in value.replace(",", " ").split():
            if tok.isdigit():
                number = int(tok)
            elif tok in PHASES:
                phase = tok
            elif tok in sc.players:
                active = tok
            else:
                raise ScenarioError(path, no, f"turn: {tok!r} is neither a number, a phase "
                                              f"({', '.join(PHASES)}) nor a player")
        sc.turn = (number, active, phase)


def _option(path: str, no: int, line: str) -> Option:
    head, sep, value = line.partition(":")
    if not sep:
        raise ScenarioError(path, no, f"an option is 'key: value', got {line!r}")
    words = head.split(None, 1)
    key = words[0] if words else ""
    arg = words[1].strip() if len(words) > 1 else ""
    if key not in CAST_OPTIONS + ("choose",):
        close = difflib.get_close_matches(key, CAST_OPTIONS + ("choose",), 1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ScenarioError(path, no, f"unknown option {key!r}{hint}; options: {', '.join(CAST_OPTIONS)}, choose")
    return Option(no, key, arg, value.strip())


def split_list(value: str) -> list[str]:
    return [v.strip() for v in value.split(";") if v.strip()]


# -- running ------------------------------------------------------------------------------------------------------

@dataclass
class StepResult:
    line: int
    text: str
    outcome: str  # "ok", "illegal: …", "error: …"
    rules: list[str]
    functions: list[str]
    details: list[str] = field(default_factory=list)
    checks: list[tuple[int, str, bool, str]] = field(default_factory=list)  # line, text, passed, message


@dataclass
class Result:
    scenario: Scenario
    steps: list[StepResult] = field(default_factory=list)
    error: ScenarioError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(passed for s in self.steps for _, _, passed, _ in s.checks) and not any(
            s.outcome.startswith(("error", "unexpected")) for s in self.steps)

    def applied(self) -> list[str]:
        seen = []
        for s in self.steps:
            for r in s.rules:
                if r not in seen:
                    seen.append(r)
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


class Runner:
    def __init__(self, sc: Scenario, db: CardDB | None = None):
        self.sc = sc
        self.db = db or default_db()
        self.labels: dict[str, int] = {}  # label -> uid
        self.players = {name: i for i, name in enumerate(sc.players)}
        self.game = Game.new(sc.players, db=self.db, namer=self._namer)
        self.last_illegal: IllegalAction | None = None
        self.last_rules: list[str] = []

    def fail(self, line: int | None, message: str) -> ScenarioError:
        return ScenarioError(self.sc.path, line, message)

    # setup
    def setup(self) -> None:
        st = self.game.state
        number, active, phase = self.sc.turn
        st.turn = number
        st.active = self.players[active] if active else 0
        st.phase = phase
        st.priority = st.active
        for p in st.players:
            p.last_turn = number if p.index == st.active else max(number - 1, 0)
        for line, player, attr, value in self.sc.setup:
            p = self.players[player]
            if attr == "life":
                if not re.fullmatch(r"-?\d+", value):
                    raise self.fail(line, f"life must be a number, got {value!r}")
                st.players[p].life = int(value)
            elif attr == "pool":
                try:
                    st.players[p].pool = pool_from("" if value == "empty" else value)
                except CostSyntaxError as e:
                    raise self.fail(line, str(e)) from None
            else:
                items = split_list(value)
                if attr == "library":
                    items = list(reversed(items))  # written top first; stored top last
                for item in items:
                    self._put(line, p, attr, item)

    _ITEM = re.compile(r"^(?:(?P<n>\d+)x\s+)?(?P<name>.+?)(?:\s+\((?P<attrs>[^()]*)\))?(?:\s+as\s+(?P<label>[\w-]+))?"
                       r"(?:\s+\((?P<attrs2>[^()]*)\))?$")

    def _put(self, line: int, player: int, zone: str, item: str) -> None:
        m = self._ITEM.match(item)
        if not m:
            raise self.fail(line, f"cannot read {item!r}: write 'Card name', 'Card name as label' or "
                                  f"'Card name (tapped, new, loyalty 3, +1/+1 2)'")
        name = m["name"].strip()
        self._card(line, name)
        attrs = [a.strip() for a in ((m["attrs"] or "") + "," + (m["attrs2"] or "")).split(",") if a.strip()]
        tapped, new, counters, controller, damage, attached = False, False, {}, None, 0, None
        for a in attrs:
            if a == "tapped":
                tapped = True
            elif a == "new":
                new = True
            elif a.startswith("controller "):
                who = a.split(None, 1)[1]
                if who not in self.players:
                    raise self.fail(line, f"unknown player {who!r}")
                controller = self.players[who]
            elif a.startswith("attached to "):
                attached = a[len("attached to "):].strip()
            elif re.fullmatch(r"damage \d+", a):
                damage = int(a.split()[1])
            elif re.fullmatch(r"\S+ \d+", a):
                kind, n = a.split()
                counters[kind] = int(n)
            else:
                raise self.fail(line, f"unknown attribute {a!r} (tapped, new, controller NAME, damage N, "
                                      f"attached to REF, KIND N for counters)")
        if (tapped or new or counters or controller is not None or damage or attached) and zone != "battlefield":
            raise self.fail(line, f"{item}: tapped/new/counters/controller only for the battlefield")
        for _ in range(int(m["n"] or 1)):
            oid = self.game.put(name, zone, player, tapped=tapped, new=new, counters=counters,
                                controller=controller)
            self.game.state.objects[oid].damage = damage
            if attached:
                self.game.state.objects[oid].attached_to = self.ref(line, attached, zones=("battlefield",))
            if m["label"]:
                if int(m["n"] or 1) > 1:
                    raise self.fail(line, "a label names one object; drop the count or the label")
                if m["label"] in self.labels or m["label"] in self.players:
                    raise self.fail(line, f"label {m['label']!r} is already used")
                self.labels[m["label"]] = self.game.state.objects[oid].uid

    def _card(self, line: int, name: str) -> None:
        if name not in self.db:
            close = difflib.get_close_matches(name, self.db.names(), 3)
            hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
            raise self.fail(line, f"unknown card {name!r}{hint}")

    # references
    def _namer(self, text: str, candidates: list[int]):
        try:
            oid = self.ref(None, text, candidates=candidates)
        except ScenarioError:
            return None
        return oid

    def ref(self, line: int | None, text: str, *, candidates=None, zones=None, player=None) -> int:
        """An object id from a label or a card name; ambiguity is an error unless the objects are alike."""
        st = self.game.state
        text = text.strip()
        pool = list(candidates) if candidates is not None else list(st.objects)
        if candidates is None and not text.startswith("ability of "):
            pool = [oid for oid in pool if st.objects[oid].ability is None]
        if text in self.labels:
            uid = self.labels[text]
            hits = [oid for oid in pool if st.objects[oid].uid == uid and st.objects[oid].ability is None]
            if not hits:
                obj = st.find_uid(uid)
                where = f"it is in the {obj.zone}" if obj else "it no longer exists"
                raise self.fail(line, f"{text!r} cannot be used here: {where}")
            return hits[0]
        if text.startswith("ability of "):
            hits = [oid for oid in pool if st.objects[oid].source_card == text[len("ability of "):]]
        else:
            hits = [oid for oid in pool if st.objects[oid].card == text]
        if zones:
            hits = [oid for oid in hits if st.objects[oid].zone in zones]
        if player is not None:
            hits.sort(key=lambda oid: (st.objects[oid].controller != player, st.objects[oid].tapped))
        if not hits:
            if text not in self.db and not text.startswith("ability of "):
                close = difflib.get_close_matches(text, list(self.labels) + self.db.names(), 3)
                hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
                raise self.fail(line, f"unknown card or label {text!r}{hint}")
            where = " or ".join(zones) if zones else "the game"
            raise self.fail(line, f"no {text!r} in {where} that can be used here")
        first = st.objects[hits[0]]
        alike = [oid for oid in hits if self._alike(st.objects[oid], first)]
        if len(alike) < len(hits) and not (player is not None and len(alike) >= 1 and candidates is None
                                           and self._prefer_first(hits, player)):
            raise self.fail(line, f"{text!r} is ambiguous ({len(hits)} objects); label them with 'as NAME'")
        return hits[0]

    def _prefer_first(self, hits, player) -> bool:
        st = self.game.state
        a, b = st.objects[hits[0]], st.objects[hits[1]]
        return (a.controller == player, not a.tapped) > (b.controller == player, not b.tapped)

    @staticmethod
    def _alike(a, b) -> bool:
        return (a.card, a.zone, a.controller, a.tapped, a.counters, a.damage, a.attached_to) == \
            (b.card, b.zone, b.controller, b.tapped, b.counters, b.damage, b.attached_to)

    def known(self, line: int, text: str) -> str:
        """A label or card name, checked to exist; which object it means is decided when costs are paid."""
        if text not in self.labels and text not in self.db:
            close = difflib.get_close_matches(text, list(self.labels) + self.db.names(), 3)
            hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
            raise self.fail(line, f"unknown card or label {text!r}{hint}")
        return text

    def target(self, line: int, text: str):
        text = text.strip()
        if text in self.players and text not in self.labels:
            return player_target(self.players[text])
        return object_target(self.ref(line, text))

    # steps
    def choices(self, step: Step) -> Choices:
        ch = Choices()
        for opt in step.options:
            line, key, v = opt.line, opt.key, opt.value
            try:
                if key == "from":
                    if v not in ZONES:
                        raise self.fail(line, f"from: one of {', '.join(ZONES)}")
                    ch.from_zone = v
                elif key in ("mode", "modes"):
                    ch.modes = tuple(int(x) - 1 for x in re.split(r"[;,\s]+", v) if x)
                elif key == "x":
                    ch.x = int(v)
                elif key == "alternative":
                    ch.alternative = v
                elif key == "optional":
                    ch.optional = ch.optional + tuple(split_list(v))
                elif key == "additional":
                    ch.chosen = ch.chosen + tuple(split_list(v))
                elif key == "target":
                    ch.targets[opt.arg or "*"] = tuple(self.target(line, t) for t in split_list(v))
                elif key == "divide":
                    for part in split_list(v):
                        who, _, n = part.rpartition("=")
                        if not who:
                            raise self.fail(line, "divide: write 'target=amount; target=amount'")
                        ch.division[self.target(line, who)] = int(n)
                elif key == "sacrifice":
                    ch.sacrifice = ch.sacrifice + tuple(self.known(line, t) for t in split_list(v))
                elif key == "discard":
                    ch.discard = ch.discard + tuple(self.known(line, t) for t in split_list(v))
                elif key == "mana":
                    for t in split_list(v):
                        ch.mana = ch.mana + (self.mana_activation(line, t, step, {a.obj_id for a in ch.mana}),)
                elif key == "pay":
                    ch.pay = pool_from(v)
                elif key == "choose":
                    ch.resolve += split_list(v)
            except ValueError as e:
                if isinstance(e, CostSyntaxError):
                    raise self.fail(line, str(e)) from None
                raise self.fail(line, f"{key}: cannot read {v!r} ({e})") from None
        return ch

    _ACT = re.compile(r"^(?P<ref>.+?)(?:\s+#(?P<n>\d+))?(?:\s+\((?P<sub>[^()]*)\))?$")

    def mana_activation(self, line: int, text: str, step: Step, used: set = frozenset()) -> ManaActivation:
        """``Wald``, ``dickicht #2 (choose: {G}{G})``; a name not yet used in this list is taken first."""
        m = self._ACT.match(text)
        player = self.players.get(step.player)
        st = self.game.state
        name = m["ref"].strip()
        fresh = [oid for oid, o in st.objects.items() if oid not in used and o.ability is None]
        if name not in self.labels and any(st.objects[oid].card == name for oid in fresh):
            oid = self.ref(line, name, candidates=fresh, player=player)
        else:
            oid = self.ref(line, name, player=player)
        sub = Choices()
        for part in (m["sub"] or "").split(","):
            if not part.strip():
                continue
            key, _, value = part.partition(":")
            fake = Step(line, "", "activate", step.player, None, [_option(self.sc.path, line, f"{key.strip()}: {value}")])
            got = self.choices(fake)
            sub.sacrifice += got.sacrifice
            sub.discard += got.discard
            sub.resolve += got.resolve
            sub.x = got.x if got.x is not None else sub.x
            sub.pay = got.pay if got.pay is not None else sub.pay
        return ManaActivation(oid, int(m["n"]) if m["n"] else None, sub)

    def _slotted(self, ch: Choices, step: Step, ab) -> None:
        """'target: x' without a name means the only target word of the spell/ability."""
        if "*" in ch.targets:
            slots = [s.name for s in ab.all_slots()] if ab else []
            if len(slots) != 1:
                line = next(o.line for o in step.options if o.key == "target" and not o.arg)
                names = ", ".join(slots) or "none"
                raise self.fail(line, f"this has {len(slots)} target words ({names}); write 'target NAME: …'")
            ch.targets[slots[0]] = ch.targets.pop("*")

    def run_step(self, step: Step) -> StepResult:
        game = self.game
        st = game.state
        res = StepResult(step.line, step.text, "ok", [], [])
        if step.verb == "start":
            return res
        with Tracer() as tracer:
            try:
                outcome = self._do(step)
            except NotExecutable as e:
                outcome = None
                res.outcome = f"error: {e}"
        res.rules = [str(c) for c in tracer.citations()]
        res.functions = [f"{l.qualname}" for l in tracer.links()]
        if outcome is not None:
            res.outcome = f"illegal: {outcome}"
        self.last_illegal = outcome
        if step.verb in ("cast", "activate") and outcome is None and game.last_cost is not None \
                and game.state.stack and game.state.objects[game.state.stack[-1]].ann is not None:
            res.details = list(game.state.objects[game.state.stack[-1]].ann.cost_steps)
        del st
        return res

    def _do(self, step: Step):
        game = self.game
        p = self.players.get(step.player)
        if step.verb == "cast":
            ch = self.choices(step)
            oid = self.ref(step.line, step.ref, zones=(ch.from_zone,), player=p)
            self._slotted(ch, step, game.characteristics(game.state.objects[oid]).spell)
            return game.cast(p, oid, ch)
        if step.verb == "activate":
            m = self._ACT.match(step.ref)
            oid = self.ref(step.line, m["ref"], player=p)
            ch = self.choices(step)
            index = int(m["n"]) if m["n"] else None
            abilities = game.characteristics(game.state.objects[oid]).abilities
            ab = abilities[index - 1] if index and 0 < index <= len(abilities) else (
                abilities[0] if len(abilities) == 1 else None)
            self._slotted(ch, step, ab)
            return game.activate(p, oid, index, ch)
        if step.verb == "pass":
            return game.pass_priority(p, self.choices(step))
        if step.verb == "all_pass":
            return take_action(game, _all_pass, self.choices(step))
        if step.verb in ("next_phase", "next_turn", "goto"):
            st = game.state
            if step.verb == "goto":
                if step.ref not in PHASES:
                    raise self.fail(step.line, f"unknown phase {step.ref!r} ({', '.join(PHASES)})")
                return take_action(game, advance_to, step.ref)
            if step.verb == "next_turn":
                return take_action(game, advance_to, "main1", True)
            i = PHASES.index(st.phase)
            if i + 1 >= len(PHASES):
                return take_action(game, advance_to, PHASES[0], True)
            return take_action(game, advance_to, PHASES[i + 1])
        raise AssertionError(step.verb)

    # expectations
    def check(self, line: int, text: str, res: StepResult) -> tuple[bool, str]:
        subject, sep, value = text.partition(":")
        subject, value = subject.strip(), value.strip()
        game, st = self.game, self.game.state
        if subject == "illegal":
            if self.last_illegal is None:
                return False, "the step was legal"
            rule, _, words = value.partition(" ")
            if rule and self.last_illegal.rule != rule:
                return False, f"illegal by {self.last_illegal.rule}, not {rule}: {self.last_illegal.message}"
            if words.strip() and words.strip() not in self.last_illegal.message:
                return False, f"the reason does not say {words.strip()!r}: {self.last_illegal.message}"
            return True, str(self.last_illegal)
        if subject == "applied":
            missing = [r for r in split_list(value.replace(",", ";")) if r not in res.rules]
            return (not missing, f"not applied: {', '.join(missing)}" if missing else "")
        if subject == "order":
            want = split_list(value.replace(",", ";"))
            pos = [res.rules.index(r) if r in res.rules else -1 for r in want]
            ok = -1 not in pos and pos == sorted(pos)
            return ok, "applied in this order: " + " ".join(r for r in res.rules if r in want)
        if subject == "cost":
            got = str(game.last_cost.cost) if game.last_cost else "none"
            return got == value, f"locked total cost is {got}"
        if subject == "priority":
            got = st.players[st.priority].name if st.priority is not None else "nobody"
            return got == value, f"{got} has priority"
        if subject in ("phase", "turn", "active"):
            got = {"phase": st.phase, "turn": str(st.turn), "active": st.players[st.active].name}[subject]
            return got == value, f"{subject} is {got}"
        if subject in ("stack", "battlefield", "exile"):
            ids = getattr(st, subject)
            return self._names_equal(ids, value, ordered=subject == "stack")
        words = subject.split()
        if len(words) == 2 and words[0] in self.players and words[1] in PLAYER_EXPECT_ATTRS:
            p = st.players[self.players[words[0]]]
            attr = words[1]
            if attr == "life":
                return str(p.life) == value, f"life is {p.life}"
            if attr == "lost":
                return (value == "yes") == p.lost, f"lost: {'yes' if p.lost else 'no'}"
            if attr == "pool":
                want = pool_from("" if value == "empty" else value)
                return want == p.pool, f"pool is {pool_str(p.pool)}"
            ids = st.zone_list(attr, p.index)
            if attr in ("battlefield", "stack", "exile"):
                ids = [oid for oid in ids if st.objects[oid].controller == p.index]
            return self._names_equal(ids, value, ordered=False)
        return self._check_object(line, subject, value)

    def _names_equal(self, ids, value, ordered: bool) -> tuple[bool, str]:
        got = [self.game.name_of(object_target(oid)) for oid in ids]
        want = [] if value == "empty" else split_list(value)
        ok = got == want if ordered else sorted(got) == sorted(want)
        return ok, "is " + ("; ".join(got) or "empty")

    def _check_object(self, line: int, subject: str, value: str) -> tuple[bool, str]:
        game, st = self.game, self.game.state
        m = self._ACT.match(subject)
        oid = self.ref(line, m["ref"])
        obj = st.objects[oid]
        if m["n"] or value in ("mana ability", "not mana ability"):
            try:
                ab = ability_of(game, obj, int(m["n"]) if m["n"] else None)
            except IllegalAction as e:
                raise self.fail(line, e.message) from None
            got = is_mana_ability(ab)
            return got == (value == "mana ability"), f"{'is' if got else 'is not'} a mana ability"
        if value == "tapped":
            return obj.tapped, "untapped"
        if value == "untapped":
            return not obj.tapped, "tapped"
        mm = re.fullmatch(r"in (\w+)", value)
        if mm:
            return obj.zone == mm[1], f"in {obj.zone}"
        mm = re.fullmatch(r"(damage|loyalty|mana value|power|toughness) (-?\d+)", value)
        if mm:
            got = {"damage": obj.damage, "loyalty": obj.counters.get("loyalty", 0),
                   "mana value": game.mana_value(obj), "power": game.power(obj),
                   "toughness": game.toughness(obj)}[mm[1]]
            return got == int(mm[2]), f"{mm[1]} is {got}"
        mm = re.fullmatch(r"counters (\S+) (\d+)", value)
        if mm:
            got = obj.counters.get(mm[1], 0)
            return got == int(mm[2]), f"{got} {mm[1]} counter(s)"
        mm = re.fullmatch(r"controller (\S+)", value)
        if mm:
            got = st.players[obj.controller].name
            return got == mm[1], f"controlled by {got}"
        mm = re.fullmatch(r"attached to (.+)", value)
        if mm:
            other = self.ref(line, mm[1])
            return obj.attached_to == other, f"attached to {obj.attached_to and self.game.name_of(object_target(obj.attached_to))}"
        raise self.fail(line, f"cannot check {value!r}: expected tapped, untapped, in ZONE, damage N, loyalty N, "
                              f"counters KIND N, mana value N, power N, toughness N, controller NAME, "
                              f"attached to REF, mana ability, not mana ability")

    def run(self) -> Result:
        result = Result(self.sc)
        line = None
        try:
            self.setup()
            for step in self.sc.steps:
                line = step.line
                before = self.game.state.copy() if step.verb != "start" else None
                sr = self.run_step(step)
                result.steps.append(sr)
                expects_illegal = any(t.startswith("illegal") for _, t in step.expects)
                if self.last_illegal is not None and not expects_illegal:
                    sr.outcome = f"unexpected illegal action: {self.last_illegal}"
                if self.last_illegal is not None and self.game.state != before:
                    sr.outcome = "error: the illegal action did not return the game to the state before it"
                for line, text in step.expects:
                    passed, msg = self.check(line, text, sr)
                    sr.checks.append((line, text, passed, msg))
                line = None
        except ScenarioError as e:
            result.error = e
        except Exception as e:  # an engine bug must not end the run with a traceback
            result.error = ScenarioError(self.sc.path, line, f"internal engine error ({type(e).__name__}: {e}); "
                                                             f"please report it with this scenario")
        return result


def _all_pass(game, choices) -> None:
    """Every player passes in turn, starting with the one who has priority (one step, undone as a whole)."""
    n = len(game.state.players)
    for i in range(n):
        who = game.state.priority
        if who is None:
            raise IllegalAction("de-1999/408.1c", "nobody has priority (the game is over)")
        pass_priority(game, who, choices if i == n - 1 else Choices())


def load(path: Path | str) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(str(path), None, f"cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ScenarioError(str(path), None, f"not UTF-8 text ({e.reason})") from None
    return parse(text, _display(path))


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def run_file(path: Path | str, db: CardDB | None = None) -> Result:
    try:
        sc = load(path)
    except ScenarioError as e:
        return Result(Scenario(str(path)), error=e)
    return Runner(sc, db).run()


def all_files(directory: Path = SCENARIOS_DIR) -> list[Path]:
    return sorted(Path(directory).glob(f"*{SUFFIX}"))

