"""Replacement effects that say "instead", "enters tapped" and regeneration (614.1a, 614.1c–d, 614.8, 614.12).

Each is a handler of :mod:`engine.replacement` (``how`` in a card file's ``replace`` static):

==========================  ====================================================================
``double``                  damage a source you control would deal is doubled (614.1a; 614.5)
``exile_instead``           a card that would be put into a graveyard is exiled instead
``library_instead``         this creature, dying, is shuffled into its owner's library instead
``enters_tapped``           permanents matching ``objects`` enter tapped (614.1d, 614.12)
``draw_instead_of_life``    gaining life: draw that many cards instead
``return_instead_of_draw``  drawing a card: return a card from your graveyard to your hand instead
``regenerate``              a regeneration shield (effect ``regenerate``, 614.8)
==========================  ====================================================================
"""
from __future__ import annotations

from contextlib import contextmanager

from . import conditions
from .continuous import new_timestamp
from .effects import Resolution, effect
from .filters import matches
from .redirect import REDIRECTABLE
from .registry import EN, applied, enforces
from .replacement import Replacement, applies_when, exists, handler, replace_event, use
from .state import BATTLEFIELD, EXILE, GRAVEYARD, HAND, LIBRARY


@handler("double")
@enforces("614.1a", "614.2")
def double(game, r: Replacement, ev: dict) -> dict:
    """"… deals double that damage instead" — to the same recipient."""
    applied("614.1a")
    applied("614.2")
    return {**ev, "amount": ev["amount"] * 2}


@applies_when("double")
def _doubles(game, r: Replacement, ev: dict) -> bool:
    return ev["source"].controller == r.controller  # "a source you control" (its criteria: criteria_hold)


@handler("redirect_to_self")
@enforces("614.9", "614.1a")
def redirect_to_self(game, r: Replacement, ev: dict) -> dict:
    """"If a source would deal damage to you, it deals that damage to [this creature] instead" (614.9)."""
    applied("614.9")
    applied("614.1a")
    return {**ev, "target": ("O", r.source_id)}


@applies_when("redirect_to_self")
@enforces("614.9")
def _dealt_to_you(game, r: Replacement, ev: dict) -> bool:
    """Damage to you — and, with ``to`` criteria, to a permanent matching them ("you or another permanent you
    control") — while this permanent is a creature, planeswalker or battle on the battlefield (614.9)."""
    st = game.state
    source = st.objects.get(r.source_id) if r.source_id is not None else None
    if source is None or source.zone != "battlefield" or not REDIRECTABLE & game.characteristics(source).types:
        return False
    kind, ref = ev["target"]
    if kind == "P":
        return ref == r.controller
    flt = r.params.get("to")
    obj = st.objects.get(ref)
    return flt is not None and obj is not None and matches(game, obj, flt, r.controller, r.source_id)


@handler("double_counters")
@enforces("614.16", "614.1a")
def double_counters(game, r: Replacement, ev: dict) -> dict:
    """"If an effect would put one or more counters on a permanent you control, it puts twice that many" (614.16)."""
    applied("614.16")
    applied("614.1a")
    return {**ev, "counters": {k: 2 * n for k, n in ev["counters"].items()}}


@applies_when("double_counters")
def _counters_on_yours(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.controller == r.controller and any(n > 0 for n in ev["counters"].values())


@handler("enters_under_your_control")
@enforces("614.1d", "614.12")
def enters_under_your_control(game, r: Replacement, ev: dict) -> dict:
    """"[Objects] enter under your control": it enters under the effect's controller's control (614.1d)."""
    applied("614.1d")
    obj = game.state.objects[ev["obj"]]
    obj.controller = r.controller
    obj.since_turn = game.state.turn
    return ev


@applies_when("enters_under_your_control")
def _opponents_enter(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.id != r.source_id and obj.controller != r.controller


@handler("exile_instead")
@enforces("614.1a")
def exile_instead(game, r: Replacement, ev: dict) -> dict:
    applied("614.1a")
    return {**ev, "zone": EXILE}


@applies_when("exile_instead")
def _to_graveyard(game, r: Replacement, ev: dict) -> bool:
    return ev["zone"] == GRAVEYARD and (r.locked is None or ev["obj"] in r.locked)


@contextmanager
@enforces("614.15")
def self_replacement(ctx: Resolution, event: str, how: str, ids: list[int]):
    """"… If it would die this way, exile it instead": the resolving spell's own replacement of part of its effect
    (614.15), in force only while that part happens."""
    applied("614.15")
    st = ctx.state
    stamp = new_timestamp(st)
    r = Replacement(event, how, ctx.controller, ctx.obj.card or ctx.obj.source_card or "", stamp, {}, ctx.source_id,
                    frozenset(ids), self_replacement=True, duration="end_of_turn", key=("self", stamp))
    st.effects.append(r)
    try:
        yield
    finally:
        if r in ctx.state.effects:
            ctx.state.effects.remove(r)


@effect("exile_if_dies", required=("what",), optional=("filter",))
@enforces("614.1a", "611.2a", "611.2c")
def exile_if_dies(ctx: Resolution, spec: dict) -> None:
    """"If that creature would die this turn, exile it instead" (Magma Spray; with ``filter``, only those matching
    it: "a creature dealt damage this way", Pillar of Flame): a replacement effect for the rest of the turn (611.2a),
    locked to those objects as it resolves (611.2c) — a new object after a zone change is not one of them (400.7)."""
    game = ctx.game
    ids = frozenset(o.id for o in ctx.objects(spec["what"]) if o.zone == BATTLEFIELD and (
        "filter" not in spec or matches(game, o, spec["filter"], ctx.controller, ctx.source_id)))
    if not ids:
        return
    applied("611.2a")
    applied("611.2c")
    st = ctx.state
    stamp = new_timestamp(st)
    st.effects.append(Replacement("to_graveyard", "exile_instead", ctx.controller, ctx.obj.card or ctx.obj.source_card
                                  or "", stamp, {"from_zone": BATTLEFIELD}, ctx.source_id, ids,
                                  duration="end_of_turn", key=("exile_if_dies", stamp)))


@handler("library_instead")
@enforces("614.1a")
def library_instead(game, r: Replacement, ev: dict) -> dict:
    applied("614.1a")
    return {**ev, "zone": LIBRARY, "shuffle": True}


@applies_when("library_instead")
def _this_dies(game, r: Replacement, ev: dict) -> bool:
    obj = game.state.objects.get(ev["obj"])
    return obj is not None and obj.id == r.source_id and ev["zone"] == GRAVEYARD and ev.get("from") == "battlefield"


@handler("enters_tapped")
@enforces("614.1d", "614.12")
def enters_tapped(game, r: Replacement, ev: dict) -> dict:
    """"Permanents enter tapped": the permanent is tapped as it enters — checked with the characteristics it will
    have on the battlefield (614.12)."""
    applied("614.1d")
    applied("614.12")
    game.state.objects[ev["obj"]].tapped = True
    return ev


@applies_when("enters_tapped")
@enforces("614.12")
def _enters_affected(game, r: Replacement, ev: dict) -> bool:
    """A permanent's own replacement effect for entering affects it only if it says so; one for "permanents"
    does not affect the permanent it is on as that one enters (614.12)."""
    obj = game.state.objects.get(ev["obj"])
    if obj is None or obj.id == r.source_id:
        if obj is not None:
            applied("614.12")
        return False
    unless = r.params.get("unless")
    return not unless or not conditions.holds(game, unless, obj, r.controller)  # "enters tapped unless …"


@handler("draw_instead_of_life")
@enforces("614.1a", "616.2")
def draw_instead_of_life(game, r: Replacement, ev: dict) -> None:
    """"If you would gain life, draw that many cards instead" — each draw an event of its own (616.2)."""
    from .drawing import draw_card
    applied("614.1a")
    for _ in range(ev["amount"]):
        draw_card(game, ev["player"])
    return None


@applies_when("draw_instead_of_life")
def _you_gain(game, r: Replacement, ev: dict) -> bool:
    return ev["player"] == r.controller and ev["amount"] > 0


@handler("return_instead_of_draw")
@enforces("614.1a", "614.11")
def return_instead_of_draw(game, r: Replacement, ev: dict) -> None:
    """"If you would draw a card, return a card from your graveyard to your hand instead" (even with an empty
    library, 614.11); the most recent card when nothing else is chosen."""
    from .zones import move
    applied("614.1a")
    applied("614.11")
    graveyard = game.state.players[ev["player"]].graveyard
    if graveyard:
        move(game, graveyard[-1], HAND)
    return None


@handler("draw_two_instead")
@enforces("614.1a")
def draw_two_instead(game, r: Replacement, ev: dict) -> dict:
    """"If you would draw a card, draw two cards instead": the modified event is two draws, which this effect
    does not modify again (614.5, :func:`engine.replacement.replace_event`)."""
    applied("614.1a")
    return {**ev, "amount": ev["amount"] * 2}


@applies_when("draw_two_instead")
def _you_draw_two(game, r: Replacement, ev: dict) -> bool:
    return ev["player"] == r.controller


@applies_when("return_instead_of_draw")
def _you_draw(game, r: Replacement, ev: dict) -> bool:
    return ev["player"] == r.controller


@handler("regenerate")
@enforces("614.8", EN + "701.15a", EN + "701.7c")
def regenerate(game, r: Replacement, ev: dict) -> None:
    """Instead of being destroyed: remove all damage from it, tap it, remove it from combat (the shield is used)."""
    applied("614.8")
    applied(EN + "701.15a")
    applied(EN + "701.7c")
    st = game.state
    obj = st.objects[ev["obj"]]
    obj.damage = 0
    obj.deathtouched = False
    obj.tapped = True
    st.attackers.pop(obj.id, None)
    st.blockers.pop(obj.id, None)
    use(game, r)
    return None


@applies_when("regenerate")
def _shielded(game, r: Replacement, ev: dict) -> bool:
    return r.locked is not None and ev["obj"] in r.locked


@effect("regenerate", required=("what",))
@enforces("614.8", "614.4", "614.3", EN + "701.15c")
def create_regeneration(ctx: Resolution, spec: dict) -> None:
    """"Regenerate [permanent]": a shield that replaces the next destruction of it this turn (614.8); it must
    exist before the destruction — once that happened it is too late (614.4)."""
    applied("614.8")
    applied("614.4")
    applied("614.3")  # no restriction on activating it; it lasts until used or the turn ends
    applied(EN + "701.15c")
    st = ctx.state
    ids = frozenset(o.id for o in ctx.objects(spec["what"]))
    if not ids:
        return
    stamp = new_timestamp(st)
    st.effects.append(Replacement("destroy", "regenerate", ctx.controller, ctx.obj.source_card or ctx.obj.card or "",
                                  stamp, {}, ctx.source_id, ids, 1, duration="end_of_turn", key=("effect", stamp)))


def destruction(game, ids: list[int]) -> list[int]:
    """The permanents that are destroyed after the replacement effects for destruction (regeneration, 614.8)."""
    if not ids or not exists(game, "destroy"):
        return ids
    st = game.state
    return [oid for oid in ids
            if replace_event(game, "destroy", {"obj": oid}, st.objects[oid].controller) is not None]


@handler("enter_as_copy")
def _enter_as_copy(game, r: Replacement, ev: dict) -> dict:
    return ev


@applies_when("enter_as_copy")
def _copy_is_chosen_first(game, r: Replacement, ev: dict) -> bool:
    """"… enter as a copy of [this]" was applied before the permanent entered (616.1c, engine.copies)."""
    return False
