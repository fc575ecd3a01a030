"""Skipping steps and turns (614.1b, 614.10): "skip [something]" is "instead of doing [something], do nothing".

A skip effect is a :class:`~engine.replacement.Replacement` of the event "a step begins" (``step``: the
step's name) or "a turn begins" (``turn``) for one player.  The effect ``skip`` of a card file makes one
that is used up when it has skipped one occurrence (``"Target player skips their next draw step"``);
:mod:`engine.turn` offers every step and turn to :func:`skipped` before it begins.  Modelled: steps of the
turn (a phase is skipped by skipping its steps) and whole turns; not modelled: skipping an event other
than these.

* A step, phase or turn that has begun can no longer be skipped: the test is made only as it would begin,
  so an effect created during it waits for the next occurrence (614.10).
* Nothing scheduled for a skipped step happens — it never begins, so "at the beginning of" abilities do not
  trigger and the next occurrence is the first one that is not skipped; two effects that each skip the
  "next" occurrence skip the next two, one each (614.5, 614.10a).
* "Skip … , then [action]": the action is the first thing that happens in the next step or turn that
  actually begins (``then``, 614.10b).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .continuous import new_timestamp
from .effects import Resolution, effect, run_effect
from .registry import applied, enforces
from .replacement import Replacement, applies_when, exists, handler, replace_event, use
from .state import Obj


@dataclass(frozen=True, slots=True, eq=False)
class ThenAction:
    """What a skip effect has its player do after skipping (614.10b), waiting for the next step that begins."""

    controller: int
    card: str
    source_id: int | None
    effects: tuple
    legal: dict = field(default_factory=dict)
    duration: str = "used_up"


@effect("skip", required=("who", "step"), optional=("then",))
@enforces("614.1b", "614.10")
def create_skip(ctx: Resolution, spec: dict) -> None:
    """"[Player] skips their next [step / turn]": a skip effect for each such player, used up by the first
    occurrence it skips (614.1b: an effect with the word "skip" is a replacement effect)."""
    applied("614.1b")
    st = ctx.state
    for p in ctx.players(spec["who"]):
        applied("614.10")  # "skip" = "instead of doing it, do nothing": a replacement of the step's beginning
        stamp = new_timestamp(st)
        params = {"step": spec["step"], "then": tuple(spec.get("then", ())), "legal": dict(ctx.legal)}
        st.effects.append(Replacement("step", "skip", ctx.controller, ctx.obj.source_card or ctx.obj.card or "",
                                      stamp, params, ctx.source_id, frozenset({p}), 1, duration="used_up",
                                      key=("effect", stamp)))


@applies_when("skip")
def _this_occurrence(game, r: Replacement, ev: dict) -> bool:
    return ev["step"] == r.params["step"] and (r.locked is None or ev["player"] in r.locked)


@handler("skip")
@enforces("614.10", "614.10a", "614.10b", "614.6")
def skip(game, r: Replacement, ev: dict) -> None:
    """The step or turn does not happen (614.6); a "next occurrence" effect is satisfied by this one and ends,
    any other one waits for a later occurrence (614.10a); "then …" waits for the next one that begins."""
    applied("614.10")
    applied("614.6")
    use(game, r)
    applied("614.10a")  # this occurrence satisfied it; another skip effect remains for the next one
    if r.params.get("then"):
        applied("614.10b")
        game.state.effects.append(ThenAction(r.controller, r.card, r.source_id, r.params["then"],
                                             r.params.get("legal", {})))
    return None


def skipped(game, step: str, player: int) -> bool:
    """Whether the beginning of ``step`` (or ``"turn"``) for ``player`` is replaced by nothing."""
    return exists(game, "step") and replace_event(game, "step", {"step": step, "player": player}, player) is None


@enforces("614.10b")
def first_thing(game) -> None:
    """The actions skip effects scheduled "then" happen first in the step that begins (614.10b)."""
    st = game.state
    waiting = [e for e in st.effects if isinstance(e, ThenAction)]
    if not waiting:
        return
    st.effects = [e for e in st.effects if not isinstance(e, ThenAction)]
    for action in waiting:
        applied("614.10b")
        holder = st.objects.get(action.source_id) if action.source_id is not None else None
        if holder is None or holder.ability is not None:
            holder = Obj(action.source_id or 0, 0, action.card, action.controller, action.controller, "")
        ctx = Resolution(game, holder, None, action.legal, [])
        ctx.controller = action.controller
        for spec in action.effects:
            run_effect(ctx, spec)
