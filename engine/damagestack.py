"""Combat damage on the stack (the rules of 1999, 310.2–310.4).

As the combat damage step begins, the damage is assigned as today (:func:`engine.combat.assign_combat_damage`,
an unchanged rule enforced once) — but instead of being dealt it goes on the stack as one object and the
active player receives priority.  When it resolves it is dealt as announced, even if the creature that deals
it has left play or its power changed; damage to a creature that has left play is not dealt.  Today's rule
(510.2, :func:`engine.combat.combat_damage`) deals it at once; the rule set chooses (feature ``combat_damage``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .combat import assign_combat_damage
from .damage import deal_damage
from .registry import applied, enforces
from .ruleobjects import StackedByRule, put_on_stack

D = "de-1999/"


@dataclass(frozen=True)
class CombatDamage(StackedByRule):
    """The combat damage as announced: (the creature as it was, its characteristics then, [(recipient, n)])."""

    assignments: tuple = ()

    def resolve(self, game, obj) -> None:
        deal_announced_damage(game, obj, self)


@enforces(D + "310.2", D + "408.1g")
def combat_damage_on_stack(game, first_strike_step: bool) -> None:
    """All the combat damage announced goes on the stack as one object; the active player receives priority."""
    assignments = assign_combat_damage(game, first_strike_step)
    if not assignments:
        return
    applied(D + "310.2")
    applied(D + "408.1g")
    frozen = tuple((obj.copy(), ch, tuple(targets)) for obj, ch, targets in assignments)
    put_on_stack(game, CombatDamage("Kampfschaden", frozen), game.state.active)


@enforces(D + "310.4", D + "310.3")
def deal_announced_damage(game, obj, damage: CombatDamage) -> None:
    """The combat damage is dealt as announced — even by a creature no longer in play; not to one no longer in
    play."""
    st = game.state
    applied(D + "310.4")
    st.remove(obj.id)
    applied(D + "310.3")  # it is neither a spell nor an ability: it resolved, nothing could counter it
    for source, ch, targets in damage.assignments:
        there = [(t, n) for t, n in targets if t[0] == "P" or t[1] in st.objects]
        deal_damage(game, source, ch, there, combat=True)
