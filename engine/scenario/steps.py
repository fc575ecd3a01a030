"""Playing a step: its options become the player's :class:`~engine.choices.Choices`, its verb a game action.

Both are tables of handlers: :data:`OPTIONS` (``mode:``, ``target:``, ``mana:`` …) and :data:`VERBS`
(``casts``, ``activates``, ``passes``, ``resolve``, ``next phase`` …).  A step's action returns
the :class:`~engine.errors.IllegalAction` the game reported, or None.
"""
from __future__ import annotations

import re
from typing import Callable

from .. import command
from ..costs import CostSyntaxError, pool_from
from ..errors import IllegalAction
from ..game import Choices, ManaActivation
from ..morph import turn_face_up
from ..procedures import play_ability, play_card
from ..state import PHASE_OF, STEP_ALIASES, STEPS, ZONES
from ..turn import pass_priority
from .model import LIMITS, Option, Step, number, split_list
from .names import Names, parse_ref
from .reader import option

# -- options ------------------------------------------------------------------------------------------------------

OptionHandler = Callable[[Names, Choices, Option, Step], None]


def choices(names: Names, step: Step) -> Choices:
    """The choices a step's options announce, in the order they are written."""
    ch = Choices()
    for opt in step.options:
        try:
            OPTIONS[opt.key](names, ch, opt, step)
        except ValueError as e:
            if isinstance(e, CostSyntaxError):
                raise names.fail(opt.line, str(e)) from None
            raise names.fail(opt.line, f"{opt.key}: cannot read {opt.value!r} ({e})") from None
    return ch


def _from(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    if opt.value not in ZONES:
        raise names.fail(opt.line, f"from: one of {', '.join(ZONES)}")
    ch.from_zone = opt.value


def _face(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.face = opt.value


def _splice(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``splice: Gletscherstrahl``: cards revealed from the caster's hand to splice onto the spell (702.47)."""
    ch.splice = ch.splice + tuple(split_list(opt.value))


def _modes(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.modes = tuple(number(x, "mode", 1) - 1 for x in re.split(r"[;,\s]+", opt.value) if x)


def _x(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.x = number(opt.value, "x", -LIMITS["x"])


def _alternative(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.alternative = opt.value


def _optional(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.optional = ch.optional + tuple(split_list(opt.value))


def _additional(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.chosen = ch.chosen + tuple(split_list(opt.value))


def _target(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.targets[opt.arg or "*"] = tuple(names.target(opt.line, t) for t in split_list(opt.value))


def _divide(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    for part in split_list(opt.value):
        who, _, n = part.rpartition("=")
        if not who:
            raise names.fail(opt.line, "divide: write 'target=amount; target=amount'")
        ch.division[names.target(opt.line, who)] = number(n, "division", -LIMITS["division"])


def _sacrifice(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.sacrifice = ch.sacrifice + tuple(names.known(opt.line, t) for t in split_list(opt.value))


def _discard(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.discard = ch.discard + tuple(names.known(opt.line, t) for t in split_list(opt.value))


def _mana(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    for t in split_list(opt.value):
        ch.mana = ch.mana + (mana_activation(names, opt.line, t, step, {a.obj_id for a in ch.mana}),)


def _pay(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``pay: {1}{R}`` (the exact mana to spend) or ``pay: karte`` (a card revealed to pay a cost, 701.16a)."""
    if opt.value.lstrip().startswith("{"):
        ch.pay = pool_from(opt.value)
    else:
        ch.reveal = ch.reveal + tuple(names.ref(opt.line, t.strip()) for t in split_list(opt.value))


def _choose(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.resolve += split_list(opt.value)


def _trigger(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``trigger: Mantikor (target: Bob); Kelch #2 (mode: 1)``: the choices for a triggered ability (603.3c–d)."""
    for t in split_list(opt.value):
        m = parse_ref(t)
        names.known(opt.line, m["ref"].strip())
        sub = Step(opt.line, "", "activate", step.player, None, [])
        sub.options = [option(names.path, opt.line, part.strip()) for part in (m["sub"] or "").split(",")
                       if part.strip()]
        got = choices(names, sub)
        ch.triggers.append(((m["ref"].strip(), number(m["n"], "ability", 1) if m["n"] else None), got))


def _order(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``order: Kelch; Mantikor``: triggered abilities in the order they go on the stack (the first, first)."""
    for t in split_list(opt.value):
        m = parse_ref(t)
        names.known(opt.line, m["ref"].strip())
        ch.order.append((m["ref"].strip(), number(m["n"], "ability", 1) if m["n"] else None))


def _keep(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    ch.keep += [names.known(opt.line, t) for t in split_list(opt.value)]


def _replace(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``replace: CARD; CARD``: which replacement or prevention effect the affected player applies first (616.1),
    named by its source's card name (``protection:R`` for protection)."""
    ch.replace += split_list(opt.value)


def _hybrid(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``hybrid: G; W``: the colour announced for each hybrid symbol, in the order of the cost (601.2b)."""
    colors = [c.strip("{}") for c in split_list(opt.value.replace(",", ";"))]
    if any(c not in "WUBRG" or len(c) != 1 for c in colors):
        raise names.fail(opt.line, "hybrid: one colour (W U B R G) for each hybrid symbol")
    ch.hybrid += tuple(colors)


def _tokens(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    """``tokens: t1; t2``: labels for the tokens the step creates, in order (the runner gives them)."""


def _chooser(names: Names, ch: Choices, opt: Option, step: Step) -> None:
    if opt.value not in names.players:
        raise names.fail(opt.line, f"chooser: unknown player {opt.value!r}")
    ch.chooser = names.players[opt.value]


#: one handler per option key (the parser accepts exactly these keys: model.OPTIONS)
OPTIONS: dict[str, OptionHandler] = {
    "from": _from, "face": _face, "splice": _splice,
    "mode": _modes, "modes": _modes, "x": _x, "alternative": _alternative,
    "optional": _optional,
    "additional": _additional, "target": _target, "divide": _divide, "sacrifice": _sacrifice, "discard": _discard,
    "mana": _mana, "pay": _pay, "choose": _choose, "trigger": _trigger, "order": _order, "keep": _keep,
    "hybrid": _hybrid, "chooser": _chooser, "replace": _replace, "tokens": _tokens,
}


def mana_activation(names: Names, line: int, text: str, step: Step,
                    used: set[int] | frozenset[int] = frozenset()) -> ManaActivation:
    """``Wald``, ``dickicht #2 (choose: {G}{G})``; a name not yet used in this list is taken first."""
    m = parse_ref(text)
    player = names.players.get(step.player) if step.player is not None else None
    st = names.game.state
    name = m["ref"].strip()
    fresh = [oid for oid in st.battlefield if oid not in used]  # mana abilities of permanents
    if name not in names.labels and any(st.objects[oid].card == name for oid in fresh):
        oid = names.ref(line, name, candidates=fresh, player=player)
    else:
        oid = names.ref(line, name, player=player)
    sub = Choices()
    for part in (m["sub"] or "").split(","):
        if not part.strip():
            continue
        key, _, value = part.partition(":")
        fake = Step(line, "", "activate", step.player, None, [option(names.path, line, f"{key.strip()}: {value}")])
        got = choices(names, fake)
        sub.sacrifice += got.sacrifice
        sub.discard += got.discard
        sub.resolve += got.resolve
        sub.x = got.x if got.x is not None else sub.x
        sub.hybrid += got.hybrid
        sub.pay = got.pay if got.pay is not None else sub.pay
    return ManaActivation(oid, number(m["n"], "ability", 1) if m["n"] else None, sub)


def slotted(names: Names, ch: Choices, step: Step, ab) -> None:
    """'target: x' without a name means the only target word of the spell/ability."""
    if "*" in ch.targets:
        slots = [s.name for s in ab.all_slots()] if ab else []
        if len(slots) != 1:
            line = next(o.line for o in step.options if o.key == "target" and not o.arg)
            listed = ", ".join(slots) or "none"
            raise names.fail(line, f"this has {len(slots)} target words ({listed}); write 'target NAME: …'")
        ch.targets[slots[0]] = ch.targets.pop("*")


# -- verbs --------------------------------------------------------------------------------------------------------

VerbHandler = Callable[[Names, Step], IllegalAction | None]


def do(names: Names, step: Step) -> IllegalAction | None:
    """Take the step's action; the illegal action the game reported, if any."""
    return VERBS[step.verb](names, step)


def _player(names: Names, step: Step) -> int:
    """The acting player of a cast, activate or pass step (the parser does not read one without)."""
    assert step.player is not None
    return names.players[step.player]


def _ref(step: Step) -> str:
    """What a cast or activate step acts on (the parser does not read one without)."""
    assert step.ref is not None
    return step.ref


def _cast(names: Names, step: Step) -> IllegalAction | None:
    game, p = names.game, _player(names, step)
    ch = choices(names, step)
    oid = names.ref(step.line, _ref(step), zones=(ch.from_zone,), player=p)
    card = game.characteristics(game.state.objects[oid])
    spell = card.faces[ch.face].spell if ch.face in card.faces else card.spell
    slotted(names, ch, step, spell)
    return game.cast(p, oid, ch)


def _activate(names: Names, step: Step) -> IllegalAction | None:
    game, p = names.game, _player(names, step)
    m = parse_ref(_ref(step))
    oid = names.ref(step.line, m["ref"], player=p)
    ch = choices(names, step)
    index = number(m["n"], "ability", 1) if m["n"] else None
    abilities = game.characteristics(game.state.objects[oid]).abilities
    ab = abilities[index - 1] if index and 0 < index <= len(abilities) else (
        abilities[0] if len(abilities) == 1 else None)
    slotted(names, ch, step, ab)
    return game.activate(p, oid, index, ch)


def _pass(names: Names, step: Step) -> IllegalAction | None:
    return names.game.pass_priority(_player(names, step), choices(names, step))


def _resolve(names: Names, step: Step) -> IllegalAction | None:
    return names.game.act(_all_pass, choices(names, step), choices=choices(names, step))


def _all_pass(game, ch: Choices) -> None:
    """Every player passes in turn, starting with the one who has priority (one step, undone as a whole)."""
    n = len(game.state.in_turn_order(0))
    for i in range(n):
        who = game.state.priority
        if who is None:
            raise IllegalAction("en-2024-11-08/117.3d", "nobody has priority (the game is over)")
        pass_priority(game, who, ch if i == n - 1 else Choices())


def _play(names: Names, step: Step) -> IllegalAction | None:
    """``Alice plays Wald``: a land is played, anything else is cast (601.1a); ``Alice plays garruk #1``: an
    ability of a permanent is activated (602.1d)."""
    game, p = names.game, _player(names, step)
    ch = choices(names, step)
    m = parse_ref(_ref(step))
    if m["n"]:
        oid = names.ref(step.line, m["ref"], zones=("battlefield",), player=p)
        index = number(m["n"], "ability", 1)
        abilities = game.characteristics(game.state.objects[oid]).abilities
        slotted(names, ch, step, abilities[index - 1] if index <= len(abilities) else None)
        return game.act(play_ability, p, oid, index, ch, choices=ch, procedure="602.2")
    oid = names.ref(step.line, _ref(step), zones=(ch.from_zone,), player=p)
    if game.characteristics(game.state.objects[oid]).spell is not None:
        slotted(names, ch, step, game.characteristics(game.state.objects[oid]).spell)
    return game.act(play_card, p, oid, ch, choices=ch)


def _advance(names: Names, step: Step, target: str, next_turn: bool = False, ch: Choices | None = None):
    game = names.game
    ch = ch or choices(names, step)
    if target not in STEPS:
        raise names.fail(step.line, f"unknown step {target!r} ({', '.join(STEPS)})")
    return game.advance_to(target, next_turn, ch)


def _next_step(names: Names, step: Step) -> IllegalAction | None:
    st = names.game.state
    i = STEPS.index(st.step)
    return _advance(names, step, STEPS[(i + 1) % len(STEPS)], i + 1 == len(STEPS))


def _next_phase(names: Names, step: Step) -> IllegalAction | None:
    st = names.game.state
    phase = PHASE_OF[st.step]
    following = [s for s in STEPS[STEPS.index(st.step) + 1:] if PHASE_OF[s] != phase and s not in ("untap", "draw")]
    if not following:
        return _advance(names, step, "upkeep", True)
    return _advance(names, step, following[0])


def _next_turn(names: Names, step: Step) -> IllegalAction | None:
    return _advance(names, step, "main1", True)


def _goto(names: Names, step: Step) -> IllegalAction | None:
    target = STEP_ALIASES.get(_ref(step), _ref(step))
    if target not in STEPS:
        raise names.fail(step.line, f"unknown step {_ref(step)!r} ({', '.join(STEPS)})")
    return _advance(names, step, target)


def _attack(names: Names, step: Step) -> IllegalAction | None:
    """``Alice attacks with baer; elf`` (the only opponent) or ``Alice attacks Bob with baer``."""
    game, p = names.game, _player(names, step)
    who, _, attackers = _ref(step).rpartition("with ")
    who = who.strip()
    st = game.state
    if who:
        defender = names.target(step.line, who)
    else:
        opponents = st.opponents(p)
        if len(opponents) != 1:
            raise names.fail(step.line, "several opponents: write 'attacks PLAYER with …'")
        defender = ("P", opponents[0])
    ch = choices(names, step)
    ch.attack = [(names.ref(step.line, a, zones=("battlefield",), player=p), defender)
                 for a in split_list(attackers)]
    if st.active != p:
        raise names.fail(step.line, f"only the active player ({st.players[st.active].name}) attacks")
    return _advance(names, step, "declare_attackers", ch=ch)


def _block(names: Names, step: Step) -> IllegalAction | None:
    """``Bob blocks baer with mauer; elf with wand`` (or ``Bob blocks nothing``)."""
    p = _player(names, step)
    declaration = []
    if _ref(step).strip() != "nothing":
        for part in split_list(_ref(step)):
            attacker, sep, blocker = part.rpartition(" with ")
            if not sep:
                raise names.fail(step.line, "write 'PLAYER blocks ATTACKER with BLOCKER; …'")
            declaration.append((names.ref(step.line, blocker, zones=("battlefield",), player=p),
                                names.ref(step.line, attacker, zones=("battlefield",))))
    ch = choices(names, step)
    ch.block = [(p, declaration)]
    return _advance(names, step, "declare_blockers", ch=ch)


def _concede(names: Names, step: Step) -> IllegalAction | None:
    return names.game.concede(_player(names, step))


def _turn_face_up(names: Names, step: Step) -> IllegalAction | None:
    """``Alice turns karte face up``: the special action of 702.34d (morph cost paid with ``mana:``/``pay:``); a
    card in the command zone: a plane, phenomenon or scheme (planeswalking, setting it in motion) or a
    conspiracy with hidden agenda (:mod:`engine.command`)."""
    game, p = names.game, _player(names, step)
    ch = choices(names, step)
    oid = names.ref(step.line, _ref(step))
    if game.state.objects[oid].zone == "command":
        return game.act(command.turn_face_up, p, oid, choices=ch)
    return game.act(turn_face_up, p, oid, ch, choices=ch)


#: one handler per verb of a step line (see reader._STEP_RE)
VERBS: dict[str, VerbHandler] = {
    "cast": _cast, "activate": _activate, "pass": _pass, "all_pass": _resolve, "play": _play,
    "next_step": _next_step, "next_phase": _next_phase, "next_turn": _next_turn, "goto": _goto,
    "attack": _attack, "block": _block, "concede": _concede, "turn_face_up": _turn_face_up,
}
