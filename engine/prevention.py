"""Prevention effects (615) and protection's damage prevention (702.16e), through :mod:`engine.replacement`.

Prevention effects are replacement effects on damage events (``how = "prevent"``):

* a static ability (``prevent`` static of a card file): "If a source would deal damage to a Cleric you
  control, prevent 1 of that damage" — applied to each damage event on its own (615.10);
* a resolved spell or ability (effect ``prevent``): a shield that prevents the next N damage to
  something (615.7), to each creature that shared a colour with the target as it resolved (615.11),
  or all damage from a source the next time it would deal damage (615.8); or a rule for the rest of
  the turn — "prevent all damage creatures would deal this turn" — that is not locked to the
  objects there were when it began (611.2c);
* protection from a colour: damage from sources of that colour is prevented (702.16e).

Damage that can't be prevented still has prevention effects applied to it, once each, but none of it is
prevented (615.12, 615.12a).
"""
from __future__ import annotations

from .continuous import new_timestamp
from .effects import Resolution, effect
from .events import Event
from .filters import matches
from .registry import EN, applied, enforces
from .replacement import BUILT_IN, Replacement, applies_when, handler, use
from .state import object_target, player_target
from .triggers import emit


@handler("prevent")
@enforces("615.1", "615.1a", "615.6", "615.7", "615.10", "615.12", "615.12a", "609.7", "609.7b", "609.7c")
def prevent(game, r: Replacement, ev: dict) -> dict | None:
    """Prevent all of the damage, or as much as the effect's amount or the shield has left."""
    applied("615.1")
    applied("615.1a")
    applied("609.7")
    applied("609.7c" if r.duration == "static" else "609.7b")
    limit = r.left if r.left is not None else r.params.get("amount")
    n = ev["amount"] if limit is None else min(limit, ev["amount"])
    if "all_but" in r.params:  # "prevent all but 1 of that damage"
        n = max(0, ev["amount"] - r.params["all_but"])
    if ev.get("unpreventable"):
        applied("615.12")  # applied, but prevents nothing; once only (614.5 in replace_event)
        applied("615.12a")
        return ev
    if r.duration == "static" and r.params.get("amount") is not None:
        applied("615.10")  # applied to this event on its own
    if r.left is not None:
        applied("615.7")
        use(game, r, r.left - n)
    elif r.duration == "next_time":
        use(game, r)
    if n > 0:
        prevented(game, r, ev, n)
    ev = {**ev, "amount": ev["amount"] - n}
    if ev["amount"] <= 0:
        applied("615.6")  # all of it prevented: it never happens
        return None
    return ev


@enforces("615.5", "615.13")
def prevented(game, r: Replacement, ev: dict, n: int) -> None:
    """Damage was prevented: an additional effect that refers to the amount happens now, as part of the prevention
    (615.5), and abilities that trigger when damage is prevented see it (615.13)."""
    st = game.state
    for key, rider in RIDERS.items():
        if r.params.get(key):
            applied("615.5")
            rider(game, r, ev, n)
    kind, ref = ev["target"]
    player = ref if kind == "P" else st.objects[ref].controller
    applied("615.13")
    emit(game, [Event("prevented", obj=ref if kind == "O" else None, player=player, source=ev["source"].id,
                      amount=n)])


def _gain(game, r: Replacement, ev: dict, n: int) -> None:
    game.state.players[r.controller].life += n


def _source_controller_draws(game, r: Replacement, ev: dict, n: int) -> None:
    from .drawing import draw_card  # drawing asks the replacement effects: imported when used
    for _ in range(n):
        draw_card(game, ev["source"].controller)


@enforces("615.5")
def protected_permanent(game, ev: dict):
    """"That creature", "it" of a prevention rider: the permanent the prevented damage would have been dealt to —
    not the prevention effect's source, which for a resolved spell is gone (615.5)."""
    kind, ref = ev["target"]
    obj = game.state.objects.get(ref) if kind == "O" else None
    return obj if obj is not None and obj.zone == "battlefield" else None


def _counters_per_prevented(game, r: Replacement, ev: dict, n: int) -> None:
    from .zones import put_counters_on  # zones asks the replacement effects: imported when used
    obj = protected_permanent(game, ev)
    if obj is not None:  # an effect puts them: replacement effects for putting counters apply (614.16)
        put_counters_on(game, obj, r.params["counters_per_prevented"], n)


def _remove_counter(game, r: Replacement, ev: dict, n: int) -> None:
    obj = protected_permanent(game, ev)
    kind = r.params["remove_counter"]
    if obj is not None and obj.counters.get(kind):
        obj.counters[kind] -= 1


#: what happens as part of a prevention, referring to the damage prevented (615.5): parameter -> fn(game, effect,
#: damage event, amount prevented) — "you gain that much life", "its source's controller draws that many cards",
#: "put a counter on that creature for each 1 damage prevented", "remove a counter from it" (the permanent the
#: damage would have been dealt to)
RIDERS = {"gain_prevented": _gain, "source_controller_draws": _source_controller_draws,
          "counters_per_prevented": _counters_per_prevented, "remove_counter": _remove_counter}


@applies_when("prevent")
@enforces("615.8", "615.11", "609.7b")
def prevents_this(game, r: Replacement, ev: dict) -> bool:
    """Does the prevention effect apply to this damage (to what it protects, from the sources it names)?"""
    st = game.state
    target = ev["target"]
    if r.locked is not None and target not in r.locked:
        return False
    p = r.params
    source = ev["source"]
    if "source" in p and p["source"] != source.uid:
        return False
    if p.get("combat") and not ev["combat"]:  # "would deal combat damage"
        return False
    if r.duration == "next_time":
        applied("615.8")
    if r.params.get("shares_color"):
        applied("615.11")
    if "from" in p:
        if not matches(game, source, p["from"], r.controller, ch=ev["source_ch"], any_zone=True):
            return False  # the shield rechecks the source's properties now; it is not used up (609.7b)
        if r.duration != "static":
            applied("609.7b")
    if "to" in p:
        to = p["to"]
        if to == "you":
            return target == player_target(r.controller)
        if to == "self":
            return r.source_id is not None and target == object_target(r.source_id)
        obj = st.objects.get(target[1]) if target[0] == "O" else None
        if obj is None or not matches(game, obj, to, r.controller, r.source_id):
            return False
    return True


@enforces(EN + "702.16e")
def protection(game, kind: str, ev: dict) -> list[Replacement]:
    """Protection from a colour prevents all damage from sources of that colour (702.16e)."""
    if kind != "damage" or ev["target"][0] != "O":
        return []
    obj = game.state.objects.get(ev["target"][1])
    if obj is None:
        return []
    colors = ev["source_ch"].colors
    found = [c for c in colors if f"protection:{c}" in game.keywords(obj)]
    if not found:
        return []
    applied(EN + "702.16e")
    return [Replacement("damage", "prevent", obj.controller, f"protection:{found[0]}", obj.id,
                        locked=frozenset({ev["target"]}), key=("protection", obj.id))]


BUILT_IN.append(protection)


@effect("prevent", optional=("to", "amount", "from", "next_time", "shares_color", "source", "choose_source",
                              "gain_prevented", "source_controller_draws", "counters_per_prevented",
                              "remove_counter", "all_but", "combat"))
@enforces("615.2", "615.3", "615.4", "615.7", "615.8", "615.9", "615.11", "611.2c", "613.11", "609.7a")
def create_prevention(ctx: Resolution, spec: dict) -> None:
    """A prevention effect of a resolving spell or ability, for the rest of the turn: a shield for the targets
    (``amount``: the next N damage, 615.7; ``shares_color``: also each creature sharing a colour with the target
    now, 615.11), the next time a source would deal damage (``source``, 615.8), or all damage from sources
    matching ``from`` — not locked: a rule of the game (611.2c)."""
    st = ctx.state
    applied("615.2")
    applied("615.3")
    applied("615.4")  # it exists from now on: damage already dealt stays dealt
    protected: set = set()
    if "to" in spec:
        for t in ctx.targets(spec["to"]):
            protected.add(t)
            if spec.get("shares_color") and t[0] == "O" and t[1] in st.objects:
                applied("615.11")
                protected |= _sharing_a_colour(ctx, st.objects[t[1]])
    params = {k: spec[k] for k in ("from", "all_but", "combat", *RIDERS) if k in spec}
    if "source" in spec:
        found = ctx.objects(spec["source"])
        if not found:
            return
        params["source"] = found[0].uid
    if spec.get("choose_source"):
        applied("609.7a")  # chosen now, as the effect is created: a permanent or a spell on the stack
        candidates = [oid for oid in st.battlefield + st.stack if st.objects[oid].ability is None
                      and oid != ctx.obj.id]
        params["source"] = st.objects[ctx.choose(ctx.controller, candidates, 1, "choose a source of damage")[0]].uid
        if "from" in spec:
            applied("615.9")  # a source of the player's choice with certain properties
    amount = ctx.amount(spec["amount"]) if "amount" in spec else None
    if amount is not None:
        applied("615.7")
    if spec.get("next_time"):
        applied("615.8")
    if "from" in spec and "to" not in spec:
        applied("611.2c")  # modifies the rules, not objects: applies to creatures that were not there yet
        applied("613.11")
    stamp = new_timestamp(st)
    card = ctx.obj.source_card or ctx.obj.card or ""
    duration = "next_time" if spec.get("next_time") else "end_of_turn"
    # a shield for each protected object or player (615.11), or one rule for all
    groups = [frozenset({t}) for t in sorted(protected)] if "to" in spec and amount is not None else \
        [frozenset(protected) if "to" in spec else None]
    for i, locked in enumerate(groups):
        st.effects.append(Replacement("damage", "prevent", ctx.controller, card, stamp, params, ctx.source_id, locked,
                                      amount, duration=duration, key=("effect", stamp, i)))


def _sharing_a_colour(ctx: Resolution, target) -> set:
    st = ctx.state
    colors = ctx.game.characteristics(target).colors
    out = set()
    for oid in st.battlefield:
        other = st.objects[oid]
        ch = ctx.game.characteristics(other)
        if "creature" in ch.types and ch.colors & colors:
            out.add(object_target(oid))
    return out


def shield_left(game, target) -> int:
    """Damage the shields on ``target`` still prevent (for inspection)."""
    return sum(r.left or 0 for r in game.state.effects
               if isinstance(r, Replacement) and r.locked is not None and target in r.locked)
