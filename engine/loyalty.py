"""Loyalty abilities (606): timing, once per permanent per turn, and their loyalty cost."""
from __future__ import annotations

from . import statics
from .errors import IllegalAction
from .registry import applied, enforces
from .state import MAIN_PHASES


@enforces("606.1", "606.2")
def is_loyalty_ability(ab) -> bool:
    """An activated ability with a loyalty symbol in its cost: it follows special rules."""
    if ab.kind == "activated" and ab.cost.loyalty is not None:
        applied("606.1")
        applied("606.2")
        return True
    return False


@enforces("606.3")
def check_loyalty_timing(game, player: int, source) -> None:
    """Main phase of your turn, priority, empty stack, and no loyalty ability of it activated this turn."""
    st = game.state
    name = game.characteristics(source).name
    applied("606.3")
    if st.active != player or st.step not in MAIN_PHASES or st.stack or st.priority != player:
        raise IllegalAction("606.3", f"loyalty abilities of {name} only in a main phase of your turn, "
                                     f"with priority and an empty stack")
    if source.loyalty_turn == st.turn:
        raise IllegalAction("606.3", f"a loyalty ability of {name} was already activated this turn")


@enforces("606.4", "606.5")
def loyalty_total(game, obj, printed: int, steps: list[tuple]) -> int:
    """The loyalty cost with all modifications, combined into a single cost."""
    st = game.state
    src = st.objects.get(obj.ability[0]) if obj.ability else None
    total = printed
    applied("606.4")
    if src is not None:
        for name, change in statics.loyalty_changes(game, src):
            total += change
            steps.append(("loyalty {:+d} ({})", change, name))
            applied("606.5")
    return total


@enforces("606.6")
def check_loyalty_payable(source, loyalty: int, problems: list[str]) -> None:
    """A negative loyalty cost needs at least that many loyalty counters."""
    have = source.counters.get("loyalty", 0) if source is not None else 0
    applied("606.6")
    if have < -loyalty:
        problems.append(f"{source.card if source else 'it'} has {have} loyalty counter(s), the cost removes {-loyalty}")
