"""The turn (500–514) and passing priority (117.3d, 117.4): the game loop chapter 6 assumes.

A turn is a sequence of steps (:data:`engine.state.STEPS`).  As a step begins its turn-based actions
happen (untap, draw, combat damage, cleanup), abilities that trigger "at the beginning of" it
trigger (603.2b), and the active player receives priority — except in the untap step and, normally,
the cleanup step (502.4, 514.3).  When all players pass in succession the top of the stack resolves,
or, with an empty stack, the step ends: mana pools empty (500.4) and the next step begins.
Rules of chapter 1 and 5 are cited from the English 2024 rules.
"""
from __future__ import annotations

from typing import Callable

from . import combat, phasing, priority, resolution, sba
from .continuous import end_of_turn
from .drawing import draw_card
from .errors import IllegalAction
from .events import Event
from .loops import spend
from .registry import EN, applied, enforces
from .skip import first_thing, skipped
from .state import STEPS
from .timing import has_priority
from .triggers import emit
from .zones import move_all, tap_all

#: steps in which no player receives priority (unless something triggers in the cleanup step)
NO_PRIORITY = ("untap", "cleanup")
MAX_HAND = 7


@enforces(EN + "117.3d", EN + "117.4", "608.1", EN + "500.2", EN + "117.3b")
def pass_priority(game, player: int, choices) -> None:
    """Pass; when all players have passed in succession the top object resolves, or the step ends."""
    st = game.state
    if not has_priority(st, player):
        raise IllegalAction(EN + "117.3d", f"{st.players[player].name} does not have priority")
    applied(EN + "117.3d")
    st.passes += 1
    order = st.in_turn_order(player)
    if st.passes < len(order):
        priority.give_priority(game, order[1], passing=True)
        return
    applied(EN + "117.4")
    st.passes = 0
    if st.stack:
        applied("608.1")
        resolution.resolve_top(game, choices)
        applied(EN + "117.3b")
        priority.give_priority(game, st.active)
    else:
        applied(EN + "500.2")
        next_step(game)


@enforces(EN + "500.4", EN + "500.1")
def next_step(game) -> None:
    """The current step ends (mana pools empty) and the next one begins; after the cleanup step, the next turn."""
    st = game.state
    spend(game, EN + "500.1")
    end_step(game)
    i = STEPS.index(st.step)
    if i + 1 < len(STEPS):
        begin_step(game, STEPS[i + 1])
    else:
        begin_turn(game)


def end_step(game) -> None:
    st = game.state
    if any(any(p.pool) for p in st.players):
        game.variants.mana_pool_empties(game)  # today: 500.4; 1999: 300.4 (mana burn)
    if st.step == "end_of_combat":
        combat.end_combat(game)


@enforces(EN + "500.4")
def mana_empties(game) -> None:
    """Today's rules: unused mana empties from each mana pool as a step or phase ends (no loss of life)."""
    applied(EN + "500.4")
    for p in game.state.players:
        p.pool = [0] * 6


@enforces(EN + "500.1")
def begin_turn(game) -> None:
    """The next player in turn order who is still in the game takes a turn; it begins with the untap step."""
    st = game.state
    applied(EN + "500.1")
    st.turn += 1
    order = st.in_turn_order(st.active)
    order = order[1:] + order[:1]
    st.active = next((p for p in order if not skipped(game, "turn", p)), order[0])
    p = st.players[st.active]
    p.previous_turn, p.last_turn = p.last_turn, st.turn
    st.lands_played = 0
    st.attacked = []
    for p in st.players:
        p.drawn_this_turn = 0
    begin_step(game, "untap")


@enforces(EN + "117.3a", "603.2b", EN + "508.8")
def begin_step(game, step: str) -> None:
    """Turn-based actions, then "at the beginning of" triggers, then the active player receives priority."""
    st = game.state
    if skipped(game, step, st.active):
        st.step = step  # it never began: nothing scheduled for it happens (614.10a)
        next_step(game)
        return
    if step in ("declare_blockers", "combat_damage", "first_strike_damage") and not st.attackers:
        applied(EN + "508.8")  # no attackers: these steps are skipped
        st.step = step
        next_step(game)
        return
    if step == "first_strike_damage" and not combat.has_first_strike(game):
        st.step = step
        next_step(game)
        return
    st.step = step
    if st.effects:
        first_thing(game)  # "skip …, then …": the first thing in the next step that begins (614.10b)
    priority_in_cleanup = TURN_BASED.get(step, _nothing)(game)
    emit(game, [Event("step", step=step, active=st.active)])
    if step == "declare_attackers" and not st.attackers and game.variants.no_attackers(game):
        return  # the rule set moved the game on (1999: straight to the end of combat step)
    if step in NO_PRIORITY and not (step == "cleanup" and (priority_in_cleanup or st.pending)):
        next_step(game)
        return
    applied(EN + "117.3a")
    priority.give_priority(game, st.active)


def _nothing(game) -> None:
    return None


@enforces(EN + "502.3", EN + "502.4")
def untap(game) -> None:
    """Phasing first (502.1); the active player untaps their permanents; no player receives priority in the untap
    step."""
    st = game.state
    if st.phased_out or any("phasing" in game.characteristics(st.objects[o]).keywords for o in st.battlefield):
        phasing.untap_step_phasing(game)
    applied(EN + "502.3")
    tap_all(game, [st.objects[oid] for oid in st.battlefield if st.objects[oid].controller == st.active], False)
    applied(EN + "502.4")


@enforces(EN + "504.1")
def draw(game) -> None:
    """Today's rules: the active player draws a card as a turn-based action (it does not use the stack)."""
    applied(EN + "504.1")
    draw_card(game, game.state.active)


@enforces(EN + "514.1", EN + "514.2", EN + "514.3", EN + "514.3a")
def cleanup(game) -> bool:
    """Discard down to the maximum hand size; damage wears off; "until end of turn" effects end; then the game
    checks state-based actions: if any were performed or a triggered ability waits, players receive priority."""
    st = game.state
    p = st.players[st.active]
    if len(p.hand) > MAX_HAND:
        applied(EN + "514.1")
        discard = [oid for oid in p.hand[:len(p.hand) - MAX_HAND]]
        move_all(game, discard, "graveyard")
    applied(EN + "514.2")
    for oid in st.battlefield:
        st.objects[oid].damage = 0
    if st.effects:
        end_of_turn(game)  # "until end of turn" and "this turn": the effects end now (611.2a)
    applied(EN + "514.3")
    performed = sba.check_state_based_actions(game)
    if performed or st.pending:
        applied(EN + "514.3a")  # state-based actions or triggers: players receive priority in this cleanup step
    return performed


def declare_attackers_step(game) -> None:
    """The active player declares the attackers the action that began the step says (none by default)."""
    decisions = game.decisions
    combat.declare_attackers(game, list(decisions.attack) if decisions is not None else [])


def declare_blockers_step(game) -> None:
    """Each defending player declares the blockers the action that began the step says (none by default)."""
    decisions = game.decisions
    for player, declaration in (decisions.block if decisions is not None else []):
        combat.declare_blockers(game, player, declaration)


#: the turn-based actions of each step (steps without any are missing)
TURN_BASED: dict[str, Callable] = {
    "untap": untap, "draw": lambda game: game.variants.draw_step(game),
    "declare_attackers": declare_attackers_step, "declare_blockers": declare_blockers_step,
    "first_strike_damage": lambda game: game.variants.combat_damage(game, True),
    "combat_damage": lambda game: game.variants.combat_damage(game, False), "cleanup": cleanup,
}


@enforces(EN + "508.8")
def skip_blockers_and_damage(game) -> bool:
    """Today's rules: no creatures were declared as attackers, so the declare blockers and combat damage steps
    are skipped — the declare attackers step itself goes on (its players receive priority)."""
    applied(EN + "508.8")
    return False


@enforces(EN + "500.2")
def advance_to(game, step: str, next_turn: bool = False) -> str | None:
    """All players pass with an empty stack until ``step`` (of the next turn) begins; stops early when something
    goes on the stack or the game ends.  Returns why it stopped early, or None."""
    st = game.state
    if st.stack:
        raise IllegalAction(EN + "500.2", "the stack is not empty; let it resolve first")
    if not next_turn and STEPS.index(step) <= STEPS.index(st.step):
        raise IllegalAction(EN + "500.2", f"{step} is already over in this turn")
    turn, target = st.turn, STEPS.index(step)
    for _ in range(len(STEPS) * 2 + 1):
        applied(EN + "500.2")
        next_step(game)
        if st.over:
            return "the game is over"
        if st.stack:
            return f"stopped in {st.step}: the stack is not empty"
        if (st.turn > turn) == next_turn and STEPS.index(st.step) >= target:
            return None  # there, or past it when the step itself was skipped (508.8)
    return f"stopped in {st.step}"


@enforces("de-1999/308.4")
def skip_to_end_of_combat(game) -> bool:
    """The rules of 1999: no creatures were declared as attackers, so the game goes straight on to the end of
    combat step — the rest of the declare attackers step and the steps after it are skipped."""
    applied("de-1999/308.4")
    game.state.step = "combat_damage"  # the last step before the end of combat step
    next_step(game)
    return True
