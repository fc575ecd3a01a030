"""Delayed triggered abilities (603.7): created while a spell or ability resolves, they wait for their event.

``{ do = "delayed", about = "self", trigger = { when = "leaves", effects = [...] } }`` creates one.
``about`` names the one object it refers to ("this creature", "that card"); it is bound to that
object as it is now, so an object that has left its zone — even one that came back — is not it any
more (603.7c, 400.7).  Its source and controller come from the spell or ability that created it
(603.7d, 603.7e).  A delayed trigger with ``this_turn`` triggers each time until the turn ends;
any other triggers only once, the next time its event happens (603.7b).
"""
from __future__ import annotations

from .effects import Resolution, effect
from .registry import applied, enforces
from .triggers import Delayed


@effect("delayed", required=("trigger",), optional=("about", "this_turn"))
@enforces("610.1", "610.2", "603.7", "603.7a", "603.7d", "603.7e")
def create_delayed(ctx: Resolution, spec: dict) -> None:
    """Create a delayed triggered ability; it cannot trigger on anything that happened before now (603.7a)."""
    applied("610.1")
    applied("610.2")  # a one-shot effect that creates a delayed triggered ability
    applied("603.7")
    applied("603.7a")
    st = ctx.state
    bound = None
    if "about" in spec:
        found = ctx.targets(spec["about"])
        bound = found[0][1] if found and found[0][0] == "O" else -1  # gone already: it can never trigger
    if ctx.obj.ability is None:
        applied("603.7d")  # created by a spell: the spell is its source, its controller controls it
        source_id, source_uid, source_card = ctx.obj.id, ctx.obj.uid, ctx.obj.card or ""
    else:
        applied("603.7e")  # created by an ability: the same source as that ability
        source_id, source_uid, source_card = ctx.source_id, ctx.obj.source_uid, ctx.obj.source_card or ""
    st.delayed.append(Delayed(spec["trigger"], source_id, source_uid, source_card, ctx.controller, bound, st.turn,
                              bool(spec.get("this_turn"))))
