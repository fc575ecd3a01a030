"""Timestamps objects receive besides entering a zone (613.7d): transforming, objects that receive theirs at once.

* A transforming double-faced permanent receives a new timestamp each time it transforms (613.7g).
  A card with a face ``way = "back"`` (its back face, :mod:`engine.transform`) transforms with the effect ``transform``:
  it has the characteristics of the other face, and the static abilities of that face apply with the
  new timestamp (613.7a).
* Objects that would receive a timestamp at the same moment — entering the battlefield with one
  event, the vanguards and conspiracies at the beginning of the game — receive them in APNAP order
  (613.7m): the active player's first, in the order that player chose (here: the order the effect
  names them in), then each other player's in turn order.
"""
from __future__ import annotations

from .continuous import new_timestamp, restamp
from .effects import Resolution, effect
from .registry import applied, enforces
from .state import BATTLEFIELD
from .transform import back_face


def in_apnap_order(game, objs: list) -> list:
    """``objs`` in APNAP order of their controllers (owners off the battlefield), each player's in the given
    order (101.4)."""
    st = game.state
    n = len(st.players)
    return sorted(objs, key=lambda o: ((o.controller if o.zone == BATTLEFIELD else o.owner) - st.active) % n)


@enforces("613.7m")
def simultaneous(game, objs: list) -> None:
    """Objects that entered a zone with one event receive their timestamps in APNAP order (613.7m) — only when
    more than one player's objects are among them does it change anything."""
    if len({o.controller for o in objs}) < 2:
        return
    applied("613.7m")
    st = game.state
    for obj in in_apnap_order(game, objs):
        obj.memory["timestamp"] = new_timestamp(st)
        obj.memory["stamped"] = "613.7m"


@effect("transform", required=("what",))
@enforces("613.7g")
def transform(ctx: Resolution, spec: dict) -> None:
    """A transforming double-faced permanent turns over to its other face and receives a new timestamp
    (613.7g)."""
    for obj in ctx.objects(spec["what"]):
        back = back_face(ctx.game, obj)
        if obj.zone != BATTLEFIELD or back is None:
            continue  # only a transforming double-faced permanent transforms
        applied("613.7g")
        obj.face = None if obj.face == back else back
        restamp(ctx.game, obj, "613.7g")
        ctx.game.statics_cache = None  # the abilities of the other face
