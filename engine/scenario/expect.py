"""Checking an expectation (``expect SUBJECT: VALUE``) after a step: ``(passed, what was found)``.

The subject decides the check, from three tables of handlers: game-wide subjects (:data:`SUBJECTS`:
``illegal``, ``applied``, ``cost``, ``stack`` …), a player's attributes (:data:`PLAYER`:
``Alice life``, ``Bob hand`` …) and, for any other subject — an object REF — the value
(:data:`OBJECT`: ``tapped``, ``in graveyard``, ``power 3``, ``attached to REF`` …).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..activation import ability_of
from ..costs import pool_from, pool_str
from ..errors import IllegalAction
from ..facedown import seen_by
from ..mana import is_mana_ability
from ..state import GameState, Obj, object_target
from .model import PLAYER_EXPECT_ATTRS, StepResult, split_list
from .names import Names, parse_ref

Outcome = tuple[bool, str]


@dataclass
class Expectation:
    """What a check may look at: the game (through the names), the step's result and its illegal action."""

    names: Names
    line: int
    result: StepResult
    illegal: IllegalAction | None

    @property
    def state(self) -> GameState:
        return self.names.game.state


def check(names: Names, line: int, text: str, result: StepResult, illegal: IllegalAction | None) -> Outcome:
    subject, _, value = text.partition(":")
    subject, value = subject.strip(), value.strip()
    ex = Expectation(names, line, result, illegal)
    if subject in SUBJECTS:
        return SUBJECTS[subject](ex, subject, value)
    words = subject.split()
    if len(words) == 2 and words[0] in names.players and words[1] in PLAYER_EXPECT_ATTRS:
        who, attr = words
        return PLAYER.get(attr, _player_zone)(ex, names.players[who], attr, value)
    return _object(ex, subject, value)


def _names_equal(ex: Expectation, ids: list[int], value: str, ordered: bool) -> Outcome:
    got = [ex.names.game.name_of(object_target(oid)) for oid in ids]
    want = [] if value == "empty" else split_list(value)
    ok = got == want if ordered else sorted(got) == sorted(want)
    return ok, "is " + ("; ".join(got) or "empty")


# -- game-wide subjects -------------------------------------------------------------------------------------------

def _illegal(ex: Expectation, subject: str, value: str) -> Outcome:
    """``illegal``, ``illegal: 601.2c``, ``illegal: 601.2h cannot be paid``."""
    illegal = ex.illegal
    if illegal is None:
        return False, "the step was legal"
    rule, _, words = value.partition(" ")
    if rule and illegal.rule != rule:
        return False, f"illegal by {illegal.rule}, not {rule}: {illegal.message}"
    if words.strip() and words.strip() not in illegal.message:
        return False, f"the reason does not say {words.strip()!r}: {illegal.message}"
    return True, str(illegal)


def _applied(ex: Expectation, subject: str, value: str) -> Outcome:
    missing = [r for r in split_list(value.replace(",", ";")) if r not in ex.result.rules]
    return (not missing, f"not applied: {', '.join(missing)}" if missing else "")


def _not_applied(ex: Expectation, subject: str, value: str) -> Outcome:
    found = [r for r in split_list(value.replace(",", ";")) if r in ex.result.rules]
    return (not found, f"applied: {', '.join(found)}" if found else "")


def _order(ex: Expectation, subject: str, value: str) -> Outcome:
    rules = ex.result.rules
    want = split_list(value.replace(",", ";"))
    pos = [rules.index(r) if r in rules else -1 for r in want]
    ok = -1 not in pos and pos == sorted(pos)
    return ok, "applied in this order: " + " ".join(r for r in rules if r in want)


def _cost(ex: Expectation, subject: str, value: str) -> Outcome:
    last = ex.names.game.last_cost
    got = str(last.cost) if last else "none"
    return got == value, f"locked total cost is {got}"


def _priority(ex: Expectation, subject: str, value: str) -> Outcome:
    st = ex.state
    got = st.players[st.priority].name if st.priority is not None else "nobody"
    return got == value, f"{got} has priority"


def _fact(read: Callable[[GameState], str]) -> Callable[[Expectation, str, str], Outcome]:
    """A check of one fact of the game state, shown as ``SUBJECT is …``."""
    def check_fact(ex: Expectation, subject: str, value: str) -> Outcome:
        got = read(ex.state)
        return got == value, f"{subject} is {got}"
    return check_fact


def _zone(ex: Expectation, subject: str, value: str) -> Outcome:
    """All players' permanents / exiled cards (any order); the stack from bottom to top."""
    return _names_equal(ex, getattr(ex.state, subject), value, ordered=subject == "stack")


SUBJECTS: dict[str, Callable[[Expectation, str, str], Outcome]] = {
    "illegal": _illegal, "applied": _applied, "not applied": _not_applied, "order": _order, "cost": _cost,
    "priority": _priority,
    "phase": _fact(lambda st: st.phase if st.phase not in ("main1", "main2") else st.step),
    "step": _fact(lambda st: st.step), "turn": _fact(lambda st: str(st.turn)),
    "over": _fact(lambda st: "yes" if st.over else "no"),
    "draw": _fact(lambda st: "yes" if st.over and not any(p.won for p in st.players) else "no"),
    "active": _fact(lambda st: st.players[st.active].name),
    "stack": _zone, "battlefield": _zone, "exile": _zone,
}


# -- a player's attributes ----------------------------------------------------------------------------------------

def _life(ex: Expectation, player: int, attr: str, value: str) -> Outcome:
    p = ex.state.players[player]
    return str(p.life) == value, f"life is {p.life}"


def _lost(ex: Expectation, player: int, attr: str, value: str) -> Outcome:
    p = ex.state.players[player]
    return (value == "yes") == p.lost, f"lost: {'yes' if p.lost else 'no'}"


def _pool(ex: Expectation, player: int, attr: str, value: str) -> Outcome:
    p = ex.state.players[player]
    want = pool_from("" if value == "empty" else value)
    return want == p.pool, f"pool is {pool_str(p.pool)}"


def _player_zone(ex: Expectation, player: int, attr: str, value: str) -> Outcome:
    """A player's zone, exactly (any order); on the shared zones, what the player controls."""
    st = ex.state
    ids = st.zone_list(attr, player)
    if attr in ("battlefield", "stack", "exile"):
        ids = [oid for oid in ids if st.objects[oid].controller == player]
    return _names_equal(ex, ids, value, ordered=False)


def _won(ex: Expectation, player: int, attr: str, value: str) -> Outcome:
    p = ex.state.players[player]
    return (value == "yes") == p.won, f"won: {'yes' if p.won else 'no'}"


#: player attributes other than zones (zones: _player_zone)
PLAYER: dict[str, Callable[[Expectation, int, str, str], Outcome]] = {"life": _life, "lost": _lost, "pool": _pool,
                                                                       "won": _won}


# -- objects ------------------------------------------------------------------------------------------------------

def _object(ex: Expectation, subject: str, value: str) -> Outcome:
    names, line = ex.names, ex.line
    m = parse_ref(subject)
    obj = ex.state.objects[names.ref(line, m["ref"])]
    if m["n"] or value in ("mana ability", "not mana ability"):
        return _mana_ability(ex, obj, int(m["n"]) if m["n"] else None, value)
    for rx, handler in OBJECT:
        mm = rx.fullmatch(value)
        if mm:
            return handler(ex, obj, mm)
    raise names.fail(line, f"cannot check {value!r}: expected tapped, untapped, in ZONE, damage N, loyalty N, "
                           f"counters KIND N, mana value N, power N, toughness N, controller NAME, "
                           f"attached to REF, attacking, blocking, blocked, has KEYWORD, not has KEYWORD, colors …, "
                           f"types …, subtypes …, name …, chosen LINK VALUE, "
                           f"mana ability, not mana ability")


def _mana_ability(ex: Expectation, obj: Obj, index: int | None, value: str) -> Outcome:
    """Rule 605.1a decides, not the card file."""
    try:
        ab = ability_of(ex.names.game, obj, index)
    except IllegalAction as e:
        raise ex.names.fail(ex.line, e.message) from None
    got = is_mana_ability(ab)
    return got == (value == "mana ability"), f"{'is' if got else 'is not'} a mana ability"


def _number(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    game = ex.names.game
    read: dict[str, Callable[[], int | None]] = {
        "damage": lambda: obj.damage, "loyalty": lambda: obj.counters.get("loyalty", 0),
        "mana value": lambda: game.mana_value(obj), "power": lambda: game.power(obj),
        "toughness": lambda: game.toughness(obj)}
    got = read[m[1]]()
    return got == int(m[2]), f"{m[1]} is {got}"


def _counters(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    got = obj.counters.get(m[1], 0)
    return got == int(m[2]), f"{got} {m[1]} counter(s)"


def _controller(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    got = ex.state.players[obj.controller].name
    return got == m[1], f"controlled by {got}"


def _attached(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    other = ex.names.ref(ex.line, m[1])
    shown = obj.attached_to and ex.names.game.name_of(object_target(obj.attached_to))
    return obj.attached_to == other, f"attached to {shown}"


def _seen(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    """``seen by Bob as Beispiel-X`` / ``seen by Bob as nothing``: what that player may know it to be (708.5)."""
    game = ex.names.game
    player = next((p.index for p in ex.state.players if p.name == m[1]), None)
    if player is None:
        raise ex.names.fail(ex.line, f"unknown player {m[1]!r}")
    got = seen_by(game, obj, player)
    return (got or "nothing") == m[2], f"{m[1]} sees {got or 'nothing'}"


def _words(ex: Expectation, obj: Obj, m: re.Match[str]) -> Outcome:
    """``colors W U`` / ``types artifact creature`` / ``subtypes Goblin`` / ``name X``: exactly these (``none``)."""
    ch = ex.names.game.characteristics(obj)
    if m[1] == "name":
        want = "" if m[2] == "none" else m[2]
        return ch.name == want, f"name is {ch.name!r}"
    got = {"colors": ch.colors, "types": ch.types, "subtypes": ch.subtypes}[m[1]]
    want = set() if m[2] == "none" else set(m[2].split())
    return set(got) == want, f"{m[1]}: {' '.join(sorted(got)) or 'none'}"


#: the values an object is checked for, in order (each regex must match the whole value)
OBJECT: list[tuple[re.Pattern[str], Callable[[Expectation, Obj, re.Match[str]], Outcome]]] = [
    (re.compile(r"tapped"), lambda ex, obj, m: (obj.tapped, "untapped")),
    (re.compile(r"untapped"), lambda ex, obj, m: (not obj.tapped, "tapped")),
    (re.compile(r"in (\w+)"), lambda ex, obj, m: (obj.zone == m[1], f"in {obj.zone}")),
    (re.compile(r"phased out"), lambda ex, obj, m: (obj.zone == "phased_out", f"in {obj.zone}")),
    (re.compile(r"(damage|loyalty|mana value|power|toughness) (-?\d+)"), _number),
    (re.compile(r"counters (\S+) (\d+)"), _counters),
    (re.compile(r"controller (\S+)"), _controller),
    (re.compile(r"attached to (.+)"), _attached),
    (re.compile(r"attacking"), lambda ex, obj, m: (obj.id in ex.state.attackers, "not attacking")),
    (re.compile(r"blocking"), lambda ex, obj, m: (obj.id in ex.state.blockers, "not blocking")),
    (re.compile(r"blocked"), lambda ex, obj, m: (obj.id in ex.state.blocked, "not blocked")),
    (re.compile(r"(colors|types|subtypes|name) (.+)"), _words),
    (re.compile(r"seen by (\S+) as (.+)"), _seen),
    (re.compile(r"not has (\S+)"), lambda ex, obj, m: (m[1] not in ex.names.game.keywords(obj),
                                                       "keywords: " + ", ".join(sorted(ex.names.game.keywords(obj))))),
    (re.compile(r"has (\S+)"), lambda ex, obj, m: (m[1] in ex.names.game.keywords(obj),
                                                   "keywords: " + ", ".join(sorted(ex.names.game.keywords(obj))))),
    (re.compile(r"chosen (\S+) (.+)"), lambda ex, obj, m: (str(obj.memory.get(m[1])) == m[2],
                                                             f"chosen {m[1]}: {obj.memory.get(m[1])}")),
]
