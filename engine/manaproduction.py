"""Replacement effects on producing mana (106.12b): "If you tap a permanent for mana, it produces twice as much of
that mana instead" (Mana Reflection, ``replace`` static with ``event = "mana"``, ``how = "double_mana"``).

The effect ``add_mana`` (:mod:`engine.oneshot`) asks :func:`produce` for the mana a resolving ability adds; while a
mana ability whose cost includes {T} resolves (106.12: "tapping a permanent for mana"), that production is an event
replacement effects may modify.
"""
from __future__ import annotations

from .registry import EN, applied, enforces
from .replacement import EVENTS, Replacement, applies_when, exists, handler, replace_event

EVENTS["mana"] = "player, pool (W U B R G C), source, tapped: mana an ability would produce (tapped: {T} in its cost)"


@enforces(EN + "106.12", EN + "106.12b")
def produce(game, player: int, pool: list[int], source_id: int | None, tapped: bool) -> list[int]:
    """The mana a resolving ability produces for ``player``, after the replacement effects that modify the mana
    production event (106.12b)."""
    if not any(pool) or not exists(game, "mana"):
        return pool
    if tapped:
        applied(EN + "106.12")
    ev = replace_event(game, "mana", {"player": player, "pool": pool, "source": source_id, "tapped": tapped}, player)
    return ev["pool"] if ev is not None else [0] * len(pool)


@handler("double_mana")
@enforces("614.1a", EN + "106.12b")
def double_mana(game, r: Replacement, ev: dict) -> dict:
    """"… it produces twice as much of that mana instead"."""
    applied("614.1a")
    applied(EN + "106.12b")
    return {**ev, "pool": [n * 2 for n in ev["pool"]]}


@applies_when("double_mana")
def _you_tap_for_mana(game, r: Replacement, ev: dict) -> bool:
    """"If you tap a permanent for mana": a mana ability with {T} in its cost, activated by the effect's controller."""
    return ev["tapped"] and ev["player"] == r.controller
