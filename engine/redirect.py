"""Redirection effects of resolving spells (614.9): "The next 2 damage that a source of your choice would deal to you
and/or permanents you control this turn is dealt to any target instead" (Harm's Way).

The effect ``redirect`` (``choose_source``, ``amount``, ``to``: the new recipient, ``protects``: criteria of the
permanents whose damage it takes besides yours) leaves a shield for the rest of the turn, a replacement effect with
the handler ``redirect_next``: it takes up to what it has left of each damage event from that source and deals that
part to the new recipient instead, at the same time as the rest (:func:`engine.damage.deal_damage`).  A redirection
static ability ("… is dealt to [this creature] instead") is ``redirect_to_self`` (:mod:`engine.instead`).
"""
from __future__ import annotations

from .continuous import new_timestamp
from .effects import Resolution, effect
from .filters import matches
from .registry import applied, enforces
from .replacement import Replacement, applies_when, handler, use

#: what damage can be redirected to (614.9)
REDIRECTABLE = frozenset({"creature", "planeswalker", "battle"})


@effect("redirect", required=("to", "amount", "choose_source"), optional=("protects",))
@enforces("609.7a", "614.9", "611.2a")
def create_redirection(ctx: Resolution, spec: dict) -> None:
    """The source is chosen as the effect is created (609.7a: a permanent or a spell on the stack); the new recipient
    is the target as it resolves; the shield lasts the turn (611.2a)."""
    st = ctx.state
    new = ctx.targets(spec["to"])
    if not new:
        return
    applied("609.7a")
    applied("611.2a")
    candidates = [oid for oid in st.battlefield + st.stack if st.objects[oid].ability is None and oid != ctx.obj.id]
    chosen = ctx.choose(ctx.controller, candidates, 1, "choose a source of damage")
    if not chosen:
        return
    params = {"source": st.objects[chosen[0]].uid, "to": new[0], "protects": spec.get("protects")}
    stamp = new_timestamp(st)
    st.effects.append(Replacement("damage", "redirect_next", ctx.controller, ctx.obj.source_card or ctx.obj.card or "",
                                  stamp, params, ctx.source_id, None, ctx.amount(spec["amount"]),
                                  duration="end_of_turn", key=("redirect", stamp)))


@applies_when("redirect_next")
def _from_that_source_to_yours(game, r: Replacement, ev: dict) -> bool:
    if ev["source"].uid != r.params["source"] or not r.left:
        return False
    kind, ref = ev["target"]
    if kind == "P":
        return ref == r.controller
    obj = game.state.objects.get(ref)
    flt = r.params.get("protects")
    return obj is not None and flt is not None and matches(game, obj, flt, r.controller, r.source_id)


@handler("redirect_next")
@enforces("614.9", "614.1a")
def redirect_next(game, r: Replacement, ev: dict) -> dict:
    """Up to what the shield has left of the damage is dealt to the new recipient instead; if that recipient is no
    longer a creature, planeswalker or battle on the battlefield, or a player in the game, the effect does nothing
    (614.9)."""
    applied("614.9")
    applied("614.1a")
    if not _can_receive(game, r.params["to"]):
        return ev
    n = min(r.left or 0, ev["amount"])
    use(game, r, (r.left or 0) - n)
    if n == ev["amount"]:
        return {**ev, "target": r.params["to"]}
    return {**ev, "amount": ev["amount"] - n, "also": (*ev.get("also", ()), (r.params["to"], n))}


def _can_receive(game, target) -> bool:
    kind, ref = target
    st = game.state
    if kind == "P":
        return st.players[ref].in_game
    obj = st.objects.get(ref)
    return obj is not None and obj.zone == "battlefield" and bool(REDIRECTABLE & game.characteristics(obj).types)
