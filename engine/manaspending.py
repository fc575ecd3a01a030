"""Spending mana "as though it were mana of any color" (609.4b): it changes only how a cost may be paid.

A static ability ``{ kind = "mana_as_any_color" }`` ("Du kannst Mana ausgeben, als wäre es Mana jeder
Farbe.") lets its controller pay a coloured or hybrid mana symbol with any mana.  The cost is not
changed — the locked total cost is what it was — and neither is the mana actually spent, which the
spell remembers (``Announcement.spent``; converge counts its colours).
"""
from __future__ import annotations

from . import statics
from .costs import ManaCost, find_payment
from .registry import applied, enforces


def as_any_color(game, player: int) -> bool:
    return any(source.controller == player for source, _ in statics.statics_of_kind(game, "mana_as_any_color"))


@enforces("609.4b")
def payment(game, player: int, cost: ManaCost, pool: list[int], spend: list[int] | None) -> list[int] | None:
    """The mana to take from ``pool`` for ``cost``; with mana spendable as though of any colour, any mana pays a
    coloured symbol — only how the cost may be paid changes, not the cost or the mana spent (609.4b)."""
    found = find_payment(cost, pool, spend)
    if found is not None or not as_any_color(game, player):
        return found
    colorless = cost.colored[5]
    flat = ManaCost(generic=cost.generic + sum(cost.colored) - colorless + len(cost.hybrid),
                    colored=(0, 0, 0, 0, 0, colorless))
    found = find_payment(flat, pool, spend)
    if found is not None:
        applied("609.4b")
    return found
