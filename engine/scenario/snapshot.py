"""The game as a comparison sees it: a few readable facts per key (``Alice life`` -> ``"17"``).

Two games of the same scenario under different rule sets diverge at the first step after which
their snapshots differ (:mod:`engine.scenario.compare`).  Objects are shown by name, so that
the two games' object ids do not matter.
"""
from __future__ import annotations

from ..costs import pool_str
from ..state import object_target


def _names(game, ids: list[int]) -> str:
    return "; ".join(_shown(game, oid) for oid in ids) or "empty"


def _shown(game, oid: int) -> str:
    obj = game.state.objects[oid]
    name = game.name_of(object_target(oid))
    marks = [m for m, on in (("tapped", obj.tapped), (f"damage {obj.damage}", obj.damage)) if on]
    return f"{name} ({', '.join(marks)})" if marks else name


def snapshot(game) -> dict[str, str]:
    """Turn, step, priority, the shared zones and each player's life, mana pool and zones."""
    st = game.state
    out = {"turn": str(st.turn), "step": st.step,
           "priority": st.players[st.priority].name if st.priority is not None else "nobody",
           "stack": _names(game, st.stack),
           "battlefield": _names(game, sorted(st.battlefield, key=lambda oid: game.name_of(object_target(oid)))),
           "exile": _names(game, st.exile)}
    for p in st.players:
        out[f"{p.name} life"] = str(p.life)
        out[f"{p.name} pool"] = pool_str(p.pool) or "empty"
        out[f"{p.name} hand"] = _names(game, sorted(p.hand, key=lambda oid: st.objects[oid].card or ""))
        out[f"{p.name} graveyard"] = _names(game, p.graveyard)
        out[f"{p.name} library"] = f"{len(p.library)} card(s)"
        out[f"{p.name} lost"] = "yes" if p.lost else "no"
    return out
