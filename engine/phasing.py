"""Phasing (en 702.26, a minimal model) and phasing out "until" an event (610.4).

* A permanent that phases out stays the same object (no zone change, no new id, its counters
  stay; nothing triggers on it, 702.26d) but is treated as though it did not exist (702.26b): it
  leaves the battlefield's list for :attr:`GameState.phased_out` and its ``zone`` reads
  ``phased_out``, so nothing that looks at the battlefield sees it.  Phasing in puts it back
  (702.26c).  Auras and Equipment attached to it are not phased out with it here (702.26g).
* The untap step's turn-based action (502.1, 702.26a): the active player's phased-in permanents
  with phasing phase out and, at the same time, the permanents that phased out under their
  control phase in — except those phased out "until" something (610.4a).
* "… destabilisiert sich, bis [die Quelle] das Spiel verlässt" (effect ``phase_out_until``): the
  permanent phases out; the moment the source leaves the battlefield, a second one-shot effect phases
  it in (610.4) — all of them at once for one event (610.4d) — unless it phased in by another effect
  in between, even if it phased out again (610.4a).  If the source left before the permanent would
  phase out, it does not (610.4b for a spell or activated ability, 610.4c for a triggered ability).
"""
from __future__ import annotations

from .effects import Resolution, effect
from .registry import EN, applied, enforces
from .state import BATTLEFIELD
from .until import Until, ended, source_until
from .zones import AFTER_MOVE

PHASED_OUT = "phased_out"


@enforces(EN + "702.26b", EN + "702.26d")
def phase_out(game, objs: list, until: bool = False) -> None:
    """The permanents phase out: treated as though they did not exist, without changing zones (702.26b, 702.26d)."""
    st = game.state
    for obj in objs:
        applied(EN + "702.26b")
        applied(EN + "702.26d")
        st.battlefield.remove(obj.id)
        st.phased_out.append(obj.id)
        obj.zone = PHASED_OUT
        obj.memory["phased_out_under"] = obj.controller
        obj.memory["phasing"] = obj.memory.get("phasing", 0) + 1  # which phasing-out this is (610.4a)
        obj.memory["until"] = until
    game.statics_cache = None


@enforces(EN + "702.26c")
def phase_in(game, objs: list) -> None:
    """The permanents phase in: the game treats them as existing again (702.26c)."""
    st = game.state
    for obj in objs:
        applied(EN + "702.26c")
        st.phased_out.remove(obj.id)
        st.battlefield.append(obj.id)
        obj.zone = BATTLEFIELD
        obj.memory.pop("until", None)
    game.statics_cache = None


@enforces(EN + "502.1", EN + "702.26a", "610.4a")
def untap_step_phasing(game) -> None:
    """Before untapping: the active player's permanents with phasing phase out and those that phased out under
    their control phase in, simultaneously (502.1) — not one phased out "until" an event (610.4a)."""
    st = game.state
    going = [st.objects[o] for o in st.battlefield if st.objects[o].controller == st.active
             and "phasing" in game.keywords(st.objects[o])]
    back = []
    for oid in st.phased_out:
        obj = st.objects[oid]
        if obj.memory.get("phased_out_under") != st.active:
            continue
        if obj.memory.get("until"):
            applied("610.4a")  # phased out "until": the untap step does not phase it in
            continue
        back.append(obj)
    if going or back:
        applied(EN + "502.1")
        applied(EN + "702.26a")
    phase_out(game, going)
    phase_in(game, back)


@effect("phase_out_until", required=("what",))
@enforces("610.4", "610.4b", "610.4c")
def phase_out_until(ctx: Resolution, spec: dict) -> None:
    """The permanents phase out until the source of the spell or ability leaves the battlefield."""
    st = ctx.state
    source = source_until(ctx, "610.4b", "610.4c")  # None: the event already happened, it does not phase out
    if source is None:
        return
    objs = [o for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD]
    if not objs:
        return
    applied("610.4")
    phase_out(ctx.game, objs, until=True)
    st.effects.append(Until(source.uid, tuple((o.id, o.memory["phasing"]) for o in objs), source.card or "",
                            action="phase_in"))


@effect("phase_in_all")
def phase_in_all(ctx: Resolution, spec: dict) -> None:
    """All phased-out permanents phase in (another effect than the untap step's)."""
    st = ctx.state
    phase_in(ctx.game, [st.objects[o] for o in list(st.phased_out)])


@enforces("610.4", "610.4a", "610.4d")
def phase_back_in(game, events: list) -> None:
    """Sources that just left the battlefield: what phased out "until" then phases in — all at once for one event
    (610.4d) — unless it phased in by another effect meanwhile, even if it phased out again (610.4a)."""
    st = game.state
    ending = ended(st, events, "phase_in")
    if not ending:
        return
    back = []
    for oid, which in (item for u in ending for item in u.objects):
        obj = st.objects.get(oid)
        if obj is None or obj.zone != PHASED_OUT or obj.memory.get("phasing") != which:
            applied("610.4a")  # it phased in by another effect: this second effect does not happen
            continue
        back.append(obj)
    applied("610.4")
    if len(ending) > 1:
        applied("610.4d")
    phase_in(game, back)


AFTER_MOVE.append(phase_back_in)
