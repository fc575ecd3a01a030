"""Equipment and static abilities granted to an object, with the timestamps 613.7a gives their effects.

* Equip (en 702.6, as far as 613.7a's example needs it): an Equipment's activated ability
  ``{ do = "attach", what = "self", to = "kreatur" }`` attaches it to a creature its controller
  controls; ``timing = "sorcery"`` as the card says.  It receives a new timestamp each time it
  becomes attached (613.7e); a static ability ``objects = "attached"`` of it is about the equipped
  creature (604.4).
* A static ability that gives an object a static ability (``grants``: "die verzauberte Ausrüstung hat
  ‚Die ausgerüstete Kreatur hat Flugfähigkeit.‘", layer 6): the granted ability's effect has the
  timestamp of the object it is on or of the effect that granted it, whichever is later (613.7a).  If
  the granting effect's is later and the object receives a new timestamp, every effect of that object's
  static abilities receives a new one, their relative order unchanged: the effect's sort key is
  (timestamp, place) — (granting timestamp, 0) while that is later, else (object's timestamp, 1 + n)
  after the object's own abilities' (object's timestamp, 0).  Only an object the granting ability
  names as ``attached`` or ``self`` gets such an ability here.
"""
from __future__ import annotations

from .continuous import Continuous, parts_of, restamp, timestamp_of
from .effects import Resolution, effect
from .registry import EN, applied, enforces
from .state import BATTLEFIELD


@effect("attach", required=("what", "to"))
@enforces("613.7e", EN + "701.3a")
def attach(ctx: Resolution, spec: dict) -> None:
    """Attach an Equipment (``what``) to a creature (``to``): it receives a new timestamp (613.7e)."""
    targets = ctx.objects(spec["to"])
    for obj in ctx.objects(spec["what"]):
        if not targets or obj.zone != BATTLEFIELD or targets[0].id == obj.id:
            continue
        applied(EN + "701.3a")
        applied("613.7e")
        obj.attached_to = targets[0].id
        restamp(ctx.game, obj, "613.7e")


@enforces("613.7a")
def granted_effects(game, effects: list[Continuous]) -> list[Continuous]:
    """The effects of static abilities that other effects (in ``effects``) grant to objects: each generated from
    the object it is on, with the granting effect's timestamp remembered for :func:`sort_key` (613.7a)."""
    st = game.state
    out: list[Continuous] = []
    for g in effects:
        grants = g.parts.get("6", {}).get("grants")
        if grants is None:
            continue
        source = st.objects.get(g.source_id) if g.source_id is not None else None
        holders = _holders(st, g, source)
        for n, holder in enumerate(holders):
            applied("613.7a")
            out.append(Continuous(parts_of(grants.params), g.timestamp if g.duration != "static" else
                                  timestamp_of(source), holder.controller, holder.card or "", holder.id, holder.uid,
                                  None, grants.params.get("objects"), False, "static", granted=1 + n))
    return out


def _holders(st, g: Continuous, source) -> list:
    if g.locked is not None:
        return [st.objects[oid] for oid in g.locked if oid in st.objects]
    if g.objects == "attached" and source is not None and source.attached_to in st.objects:
        return [st.objects[source.attached_to]]
    if g.objects == "self" and source is not None:
        return [source]
    return []


@enforces("613.7a")
def sort_key(game, eff: Continuous, stamp: int) -> tuple:
    """Where an effect of a static ability comes in timestamp order: its object's timestamp ``stamp`` — for an
    ability another effect granted, that effect's timestamp while it is later (613.7a), else just after the
    object's own abilities, in the same order as before."""
    if not eff.granted:
        return (stamp, 0)
    if eff.timestamp > stamp:
        return (eff.timestamp, 0)
    applied("613.7a")  # the object received a newer timestamp: the granted ability's effect follows it
    return (stamp, eff.granted)
