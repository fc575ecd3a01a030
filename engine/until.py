"""Objects that change zones "until" something happens (610.3): exiled until the source leaves the battlefield.

Effect ``exile_until`` exiles objects and remembers them with the object whose leaving ends it; the
moment that object leaves the battlefield, a second one-shot effect returns them to the battlefield,
under their owners' control (610.3c) — all of them at once if several such effects end with one
event (610.3d).  If the source left before the exile would happen, nothing moves (610.3a for a spell
or activated ability, 610.3b for a triggered ability).
"""
from __future__ import annotations

from dataclasses import dataclass

from .effects import Resolution, effect
from .registry import applied, enforces
from .state import BATTLEFIELD, EXILE
from .zones import AFTER_MOVE, move_all


@dataclass(frozen=True, slots=True, eq=False)
class Until:
    """Objects that return when the object ``source_uid`` leaves the battlefield: (uid, zone) for ``return``
    (610.3); (id, which phasing-out) for ``phase_in`` (610.4, :mod:`engine.phasing`)."""

    source_uid: int
    objects: tuple
    card: str
    duration: str = "until"
    action: str = "return"


def source_until(ctx: Resolution, spell_rule: str, trigger_rule: str):
    """The source whose leaving the battlefield ends an "until" effect — None if it already left before the
    effect would happen (then the rule for a spell or activated ability, or for a triggered ability, applies:
    nothing happens)."""
    source_id = ctx.source_object_id()
    source = ctx.state.objects.get(source_id) if source_id is not None else None
    if source is None or source.zone != BATTLEFIELD:
        applied(trigger_rule if ctx.trigger is not None else spell_rule)
        return None
    return source


def ended(st, events: list, action: str) -> list:
    """The :class:`Until` records of ``action`` whose source just left the battlefield with ``events``; they are
    taken out of the effects."""
    if not st.effects or not any(isinstance(e, Until) and e.action == action for e in st.effects):
        return []
    left = {e.before.uid for e in events if e.before is not None and e.from_zone == BATTLEFIELD}
    ending = [u for u in st.effects if isinstance(u, Until) and u.action == action and u.source_uid in left]
    if ending:
        st.effects = [e for e in st.effects if e not in ending]
    return ending


@effect("exile_until", required=("what",))
@enforces("610.3", "610.3a", "610.3b")
def exile_until(ctx: Resolution, spec: dict) -> None:
    """Exile the objects until the source of the spell or ability leaves the battlefield."""
    st = ctx.state
    source = source_until(ctx, "610.3a", "610.3b")
    if source is None:
        return
    objs = [o for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD]
    if not objs:
        return
    applied("610.3")
    moved = move_all(ctx.game, [o.id for o in objs], EXILE)
    st.effects.append(Until(source.uid, tuple((o.uid, o.zone) for o in moved), source.card or ""))


@enforces("610.3", "610.3c", "610.3d")
def returns(game, events: list) -> None:
    """Sources that just left the battlefield: what they exiled "until" then returns, all at once (610.3d), under its
    owner's control (610.3c)."""
    st = game.state
    ending = ended(st, events, "return")
    if not ending:
        return
    back = [o.id for o in st.objects.values() if o.ability is None
            and any((o.uid, o.zone) in u.objects for u in ending)]
    applied("610.3")
    if len(ending) > 1:
        applied("610.3d")
    if back:
        applied("610.3c")
        move_all(game, back, BATTLEFIELD)


AFTER_MOVE.append(returns)
