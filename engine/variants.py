"""Where two editions' rules differ: the engine function of each version, keyed by feature and variant.

:data:`FEATURES` is the table the rule sets of data/rulesets.toml choose from: feature -> variant ->
the functions that enforce it, by role (the name the game calls them by).  Each function cites the
rule of its own edition (``en-2024-11-08/704.5j``, ``de-1999/420.5e``).  :func:`select` builds,
once per rule set, the :class:`Variants` a game calls (``game.variants.legend_rule(...)``): no
per-action cost, and no code that asks which year it is.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from . import combat, damagestack, drawing, drawtrigger, emptylibrary, manaburn, sba, turn
from .registry import REGISTRY, Citation

#: feature -> variant -> role -> function
FEATURES: dict[str, dict[str, dict[str, Callable]]] = {
    "mana_pool_empties": {
        "empties": {"mana_pool_empties": turn.mana_empties},
        "mana_burn": {"mana_pool_empties": manaburn.mana_burn},
    },
    "combat_damage": {
        "dealt_at_once": {"combat_damage": combat.combat_damage},
        "on_the_stack": {"combat_damage": damagestack.combat_damage_on_stack},
    },
    "legend_rule": {
        "controller_chooses": {"legend_rule": sba.legend_rule, "legend_groups": sba.groups_by_controller},
        "oldest_stays": {"legend_rule": sba.oldest_legend_stays, "legend_groups": sba.all_controllers},
    },
    "no_attackers": {
        "skip_blockers_and_damage": {"no_attackers": turn.skip_blockers_and_damage},
        "skip_to_end_of_combat": {"no_attackers": turn.skip_to_end_of_combat},
    },
    "draw_step": {
        "turn_based_action": {"draw_step": turn.draw},
        "triggered_ability": {"draw_step": drawtrigger.draw_step_trigger},
    },
    "draw_from_empty_library": {
        "state_based_action": {"empty_library": drawing.remember_empty_draw},
        "loses_at_once": {"empty_library": emptylibrary.loses_at_once},
    },
}


class Variants:
    """The functions a game calls where rule sets differ, as attributes named by role."""

    mana_pool_empties: Callable
    combat_damage: Callable
    legend_rule: Callable
    legend_groups: Callable
    no_attackers: Callable
    draw_step: Callable
    empty_library: Callable

    def __init__(self, chosen: dict[str, str]):
        for feature, variant in chosen.items():
            for role, func in FEATURES[feature][variant].items():
                setattr(self, role, func)


def select(ruleset) -> Variants:
    """The variant functions of ``ruleset`` (an engine.rulesets.RuleSet), built once per rule set."""
    return _select(tuple(sorted(ruleset.variants.items())))


@lru_cache(maxsize=16)
def _select(chosen: tuple[tuple[str, str], ...]) -> Variants:
    return Variants(dict(chosen))


def citations_of(feature: str, variant: str) -> set[Citation]:
    """The rules the functions of one variant cite."""
    out: set[Citation] = set()
    for func in FEATURES[feature][variant].values():
        link = REGISTRY.by_code.get(func.__code__)
        if link is not None:
            out |= set(link.citations)
    return out


def cited_only_by_others(ruleset) -> dict[Citation, tuple[str, str]]:
    """Rules cited by a variant ``ruleset`` does not follow (and by none it follows): rule -> (feature, variant)."""
    return _only_by_others(tuple(sorted(ruleset.variants.items())))


@lru_cache(maxsize=16)
def _only_by_others(chosen: tuple[tuple[str, str], ...]) -> dict[Citation, tuple[str, str]]:
    mine: set[Citation] = set()
    for feature, variant in chosen:
        mine |= citations_of(feature, variant)
    out: dict[Citation, tuple[str, str]] = {}
    for feature, variants in FEATURES.items():
        for variant in variants:
            if (feature, variant) not in chosen:
                for c in citations_of(feature, variant) - mine:
                    out.setdefault(c, (feature, variant))
    return out


def variant_citations() -> dict[Citation, list[tuple[str, str]]]:
    """Every rule a variant function cites -> the (feature, variant) pairs citing it (for the knowledge base)."""
    out: dict[Citation, list[tuple[str, str]]] = {}
    for feature, variants in FEATURES.items():
        for variant in variants:
            for c in sorted(citations_of(feature, variant)):
                out.setdefault(c, []).append((feature, variant))
    return out
