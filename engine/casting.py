"""Casting a spell, step by step as rule 601.2 and the 2009 article order them.

    move to stack (601.2a) → modes, X, alternative/additional costs (601.2b)
    → targets (601.2c) → division (601.2d) → legality check (601.2e, 601.4)
    → total cost determined and locked (601.2f) → mana abilities (601.2g)
    → payment (601.2h) → cast (601.2i)

Steps 601.2b–h are shared with activated abilities (602.2b): they work on
"the object on the stack" and "its definition" (:class:`~engine.cards.AbilityDef`),
whether that is a spell or an ability.  A step that cannot be completed raises
:class:`IllegalAction`; :func:`engine.actions.take_action` then restores the
state from before the cast.  :mod:`engine.procedures` calls the steps in order.
"""
from __future__ import annotations

from dataclasses import replace

from . import loyalty, manaspending, statics
from .cant import check_payment
from .costs import Cost, Requirement, TotalCost, pool_str
from .errors import IllegalAction
from .events import Event
from .filters import matches
from .paylife import pay_life
from .registry import applied, enforces
from .state import BATTLEFIELD, GRAVEYARD, HAND, STACK, Announcement
from .triggers import emit
from .zones import move, move_all, put_counters_on, tap_all


def spell_of(game, obj, face: str | None = None):
    """What is cast: the card's spell, or the spell of the alternative characteristics it is cast with."""
    card = game.characteristics(obj)
    if face is not None and face in card.faces:
        card = card.faces[face]
    if card.spell is None:
        raise IllegalAction("601.3", f"{obj.card} is a land: it is played, not cast")
    return card.spell


# -- 601.2a–e: announcing -----------------------------------------------------------------------------------------

@enforces("601.2a")
def move_to_stack(game, player: int, obj_id: int, face: str | None = None):
    """The card moves to the stack; the caster becomes its controller.  A card cast face down, bestowed or as an
    Adventure has those characteristics as it is put on the stack (708.4, 702.103b, 715.3b)."""

    def setup(before, new) -> None:
        _announcement(before, new)
        new.face = face

    obj = move(game, obj_id, STACK, controller=player, setup=setup)
    applied("601.2a")
    return obj


@enforces("601.6", "601.6a", "602.3", "602.3a")
def choices_by_opponent(game, player: int, obj, ab, choices) -> None:
    """An opponent makes the choices the spell or ability leaves to an opponent, when its controller would; with
    several opponents, the controller decides which one (601.6a, 602.3a)."""
    spell = obj.ability is None
    if not ab.chooser:
        raise IllegalAction("601.6" if spell else "602.3", "no opponent makes choices for this")
    applied("601.6" if spell else "602.3")
    opponents = game.state.opponents(player)
    chooser = choices.chooser
    if chooser is None:
        if len(opponents) != 1:
            raise IllegalAction("601.6a" if spell else "602.3a", "say which opponent makes the choices "
                                                                 "('chooser: NAME')")
        chooser = opponents[0]
    elif len(opponents) > 1:
        applied("601.6a" if spell else "602.3a")
    if chooser not in opponents:
        raise IllegalAction("601.6" if spell else "602.3", f"{game.state.players[chooser].name} is not an opponent")
    obj.ann.chooser = chooser


@enforces("601.2b", "601.5")
def announce_modes(game, obj, ab, choices) -> None:
    """Announce the mode(s); how many may be chosen can depend on costs announced in the same step (601.5)."""
    ann = obj.ann
    if not ab.modal:
        if choices.modes:
            raise IllegalAction("601.2b", "this spell or ability is not modal")
        ann.modes = (0,)
        return
    applied("601.2b")
    lo, hi = ab.choose
    if ab.choose_if_paid and ab.choose_if_paid[0] in (set(choices.optional) | {choices.alternative}):
        lo, hi = ab.choose_if_paid[1]
        applied("601.5")
    modes = tuple(choices.modes)
    if not lo <= len(modes) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise IllegalAction("601.2b", f"choose {want} mode(s), {len(modes)} chosen")
    if len(set(modes)) != len(modes) or any(not 0 <= m < len(ab.modes) for m in modes):
        raise IllegalAction("601.2b", f"modes must be distinct numbers from 1 to {len(ab.modes)}")
    ann.modes = tuple(sorted(modes))


def uses_x(ab, modes, alternative, optional, chosen) -> bool:
    """Does anything of the spell or ability as announced so far depend on the value of X?"""
    base = _base_cost(ab, alternative)
    costs = [base, *ab.additional, *(n.cost for n in ab.optional if n.name in optional),
             *(n.cost for n in ab.choose_cost if n.name in chosen)]
    slots = ab.slots(modes or (0,))
    return (any(c.mana.x or c.life == "X" or any(r.count == "X" for r in c.sacrifice + c.discard) for c in costs)
            or any(s.count == "X" or s.divide == "X" for s in slots)
            or any(_mentions_x(e) for m in modes or (0,) for e in ab.modes[m].effects))


def _mentions_x(effect: dict) -> bool:
    return any(v == "X" for v in effect.values())


@enforces("601.2b")
def announce_x(game, obj, ab, choices) -> None:
    """Announce the value of X of a variable cost now."""
    ann = obj.ann
    uses = uses_x(ab, ann.modes, choices.alternative, choices.optional, choices.chosen)
    if choices.x is None:
        if uses:
            raise IllegalAction("601.2b", "announce the value of X")
        return
    if not uses:
        raise IllegalAction("601.2b", "there is no X to announce")
    if choices.x < 0:
        raise IllegalAction("601.2b", "X cannot be negative")
    if choices.x and ab.cost.mana.x and not _base_cost(ab, choices.alternative).mana.x:
        raise IllegalAction("601.2b", "the alternative cost has no {X}: X can only be 0")
    ann.x = choices.x
    applied("601.2b")


@enforces("601.2b")
def announce_costs(game, obj, ab, choices) -> None:
    """Announce alternative and additional costs to be paid; at most one alternative cost."""
    ann = obj.ann
    alt_names = {n.name for n in ab.alternative}
    opt_names = {n.name for n in ab.optional}
    one_of = {n.name for n in ab.choose_cost}
    if choices.alternative is not None:
        if isinstance(choices.alternative, (tuple, list)):
            raise IllegalAction("601.2b", "a spell cannot use two alternative costs")
        if choices.alternative not in alt_names:
            raise IllegalAction("601.2b", f"no alternative cost named {choices.alternative!r}"
                                          f" (has: {', '.join(sorted(alt_names)) or 'none'})")
    for name in choices.optional:
        if name not in opt_names:
            raise IllegalAction("601.2b", f"no optional additional cost named {name!r}"
                                          f" (has: {', '.join(sorted(opt_names)) or 'none'})")
    if len(set(choices.optional)) != len(choices.optional):
        raise IllegalAction("601.2b", "an optional cost was announced twice")
    if one_of:
        if len(choices.chosen) != 1 or choices.chosen[0] not in one_of:
            raise IllegalAction("601.2b", f"choose one of the additional costs: {', '.join(sorted(one_of))}")
    elif choices.chosen:
        raise IllegalAction("601.2b", "there is no additional cost to choose")
    ann.alternative = choices.alternative
    ann.optional = tuple(choices.optional)
    ann.chosen = tuple(choices.chosen)
    if ann.alternative or ann.optional or ann.chosen:
        applied("601.2b")


@enforces("601.2b")
def announce_hybrid(game, obj, ab, choices) -> None:
    """Hybrid mana symbols in the cost to be paid: the player announces the non-hybrid cost they intend to pay."""
    ann = obj.ann
    hybrid = _base_cost(ab, ann.alternative).mana.hybrid
    if not hybrid:
        if choices.hybrid:
            raise IllegalAction("601.2b", "the cost has no hybrid mana symbol to announce")
        return
    applied("601.2b")
    if len(choices.hybrid) != len(hybrid):
        raise IllegalAction("601.2b", f"announce a colour for each hybrid symbol of "
                                      f"{_base_cost(ab, ann.alternative).mana} ('hybrid: …')")
    for symbol, color in zip(hybrid, choices.hybrid):
        if color not in symbol:
            raise IllegalAction("601.2b", f"{color} is not one of the colours of {{{'/'.join(symbol)}}}")
    ann.hybrid = tuple(choices.hybrid)


@enforces("601.2e", "601.4")
def check_announced_spell(game, player: int, obj, ab) -> None:
    """Once announced, is the spell legal?  A prohibition that now applies makes the cast illegal (601.4)."""
    if obj.ability is not None:
        return
    applied("601.2e")
    for source, flt in statics.prohibitions(game, player):
        if matches(game, obj, flt, player):
            applied("601.4")
            raise IllegalAction("601.4", f"{game.characteristics(source).name} forbids casting "
                                         f"{obj.card} as announced (mana value {game.mana_value(obj)})")


# -- 601.2f–h: costs ----------------------------------------------------------------------------------------------

def _base_cost(ab, alternative: str | None) -> Cost:
    if alternative:
        for n in ab.alternative:
            if n.name == alternative:
                return n.cost
    return ab.cost


@enforces("601.2f")
def determine_total_cost(game, obj, ab) -> TotalCost:
    """Mana cost (or alternative cost) + additional costs + increases − reductions, at least {0};
    then effects on the total cost (minimums); the result is locked."""
    ann = obj.ann
    base = _base_cost(ab, ann.alternative)
    head = "alternative cost {0}: {1}" if ann.alternative else "cost: {1}"
    steps: list[tuple] = [(head + (" with X={2}" if base.mana.x else ""), ann.alternative, base, ann.x)]
    total = replace(base, mana=base.mana.with_x(ann.x).announced(ann.hybrid))
    for extra in [*ab.additional, *(n.cost for n in ab.optional if n.name in ann.optional),
                  *(n.cost for n in ab.choose_cost if n.name in ann.chosen)]:
        extra = replace(extra, mana=extra.mana.with_x(ann.x))
        total = total.plus(extra)
        steps.append(("+ additional {}", extra))
    changes = statics.cost_changes(game, obj)
    mana = total.mana
    for ch in changes:
        if ch.increase.amount:
            mana = mana.plus(ch.increase)
            steps.append(("+ {} ({})", ch.increase, ch.source))
    for ch in changes:
        if ch.reduce.amount:
            mana = mana.minus(ch.reduce)
            steps.append(("- {} ({})", ch.reduce, ch.source))
    for ch in changes:
        if ch.minimum is not None and mana.amount < ch.minimum:
            mana = mana.pad_to(ch.minimum)
            steps.append(("at least {} mana ({})", ch.minimum, ch.source))
    loyal = total.loyalty
    if loyal is not None:
        loyal = loyalty.loyalty_total(game, obj, loyal, steps)
    total = replace(total, mana=mana, sacrifice=_with_x(total.sacrifice, ann.x),
                    discard=_with_x(total.discard, ann.x), life=ann.x if total.life == "X" else total.life,
                    loyalty=loyal)
    steps.append(("= {} (locked)", total))
    applied("601.2f")
    ann.cost = total
    ann.cost_steps = tuple(steps)
    return TotalCost(total, ann.cost_steps)


def _with_x(reqs, x: int):
    return tuple(Requirement(r.filter, x, r.itself) if r.count == "X" else r for r in reqs)


@enforces("601.2h", "602.1a")
def pay_total_cost(game, player: int, obj, ab, choices, source=None) -> None:
    """The player who casts or activates pays the whole locked total cost; partial payments are not allowed."""
    st = game.state
    cost = obj.ann.cost
    p = st.players[player]
    problems = []
    spend = manaspending.payment(game, player, cost.mana, p.pool, choices.pay)
    if spend is None:
        problems.append(f"{cost.mana} cannot be paid from {pool_str(p.pool)}"
                        + (f" with {pool_str(choices.pay)}" if choices.pay is not None else ""))
    if (cost.tap or cost.untap) and (source is None or source.zone != BATTLEFIELD):
        problems.append("the tap/untap symbol needs a permanent")
    elif cost.tap and source.tapped:
        problems.append(f"{source.card} is already tapped")
    elif cost.untap and not source.tapped:
        problems.append(f"{source.card} is untapped")
    sacrifice = _check_objects(game, player, obj, cost.sacrifice, choices.sacrifice, BATTLEFIELD, source, problems,
                               "sacrifice")
    discard = _check_objects(game, player, obj, cost.discard, choices.discard, HAND, source, problems, "discard")
    if cost.life and p.life < cost.life:
        problems.append(f"{p.name} has {p.life} life and cannot pay {cost.life}")
    if cost.life:
        check_payment(game, player, cost.life)  # a payment that can't happen can't be chosen (614.17b)
    if cost.loyalty is not None and cost.loyalty < 0:
        loyalty.check_loyalty_payable(source, cost.loyalty, problems)
    if cost.counters and (source is None or source.zone != BATTLEFIELD):
        problems.append("putting counters on it needs a permanent")
    if problems or spend is None:
        raise IllegalAction("601.2h", "; ".join(problems) + " (partial payments are not allowed)")
    applied("601.2h")
    if obj.ability is not None:
        applied("602.1a")
    _pay_everything(game, p, obj, cost, spend, sacrifice, discard, source)


def _pay_everything(game, p, obj, cost, spend, sacrifice, discard, source) -> None:
    st = game.state
    for i, n in enumerate(spend):
        p.pool[i] -= n
    obj.ann.spent = tuple(spend)  # the mana actually spent (609.4b)
    if cost.tap or cost.untap:
        tap_all(game, [source], cost.tap)
    if cost.loyalty and cost.loyalty > 0:  # put as a cost (606.4): replacements for counters being put apply
        put_counters_on(game, source, "loyalty", cost.loyalty, by_effect=False)
    elif cost.loyalty:
        source.counters["loyalty"] = source.counters.get("loyalty", 0) + cost.loyalty
    if cost.life:
        pay_life(game, p.index, cost.life)
    for kind, n in cost.counters:  # counters put as a cost are put: their replacement effects apply (122.6)
        put_counters_on(game, source, kind, n, by_effect=False)
    obj.ann.sacrificed = tuple(st.objects[oid].card for oid in sacrifice)
    obj.ann.discarded = tuple(st.objects[oid].card for oid in discard)
    if sacrifice:
        move_all(game, list(sacrifice), GRAVEYARD)
    if discard:
        move_all(game, list(discard), GRAVEYARD)


def _check_objects(game, player, obj, reqs, picked, zone, source, problems, verb) -> tuple[int, ...]:
    """Do the chosen objects meet the cost's requirements exactly?  Returns the objects to use.

    A choice may be an object id or a name, looked up now — when the cost is paid, not when
    the cast began (the card being cast is on the stack by then, 601.2a).
    """
    st = game.state
    remaining = []
    for item in picked:
        if isinstance(item, int):
            remaining.append(item)
            continue
        here = [oid for oid in st.zone_list(zone, player) if oid not in remaining]
        found = game.namer(item, here) if game.namer else next(
            (oid for oid in here if st.objects[oid].card == item), None)
        if found is None:
            problems.append(f"there is no {item} in the {zone} to {verb}")
        else:
            remaining.append(found)
    if len(set(remaining)) != len(remaining):
        problems.append(f"the same object was chosen twice to {verb}")
        return ()
    used: list[int] = []
    for r in reqs:
        if r.itself:
            if source is None or source.zone != zone:
                problems.append(f"{verb}: the source itself is needed")
                continue
            if source.id in remaining:
                remaining.remove(source.id)
            used.append(source.id)
            continue
        matching = [oid for oid in remaining if oid in st.objects and _meets(game, player, st.objects[oid], r, zone)]
        if r.count != "any":
            count = obj.ann.x if r.count == "X" else r.count
            if len(matching) < count:
                problems.append(f"{verb}: {count} needed, {len(matching)} suitable chosen")
                continue
            matching = matching[:count]
        for oid in matching:
            remaining.remove(oid)
        used += matching
    if remaining:
        names = ", ".join(game.name_of(("O", oid)) for oid in remaining)
        problems.append(f"cannot {verb} {names} for this cost")
    return tuple(used)


def _meets(game, player, obj, req, zone) -> bool:
    if obj.zone != zone:
        return False
    if zone == BATTLEFIELD and obj.controller != player:
        return False
    if zone == HAND and obj.owner != player:
        return False
    if req.filter is None:
        return True
    flt = req.filter
    if flt.zone != zone:
        flt = replace(flt, zone=zone)
    return matches(game, obj, flt, player)


@enforces("601.2i", "601.7", "602.4")
def become_cast(game, player: int, obj) -> None:
    """The spell (or ability) has become cast (activated); its controller receives priority.

    Costs of the spells and abilities already on the stack were locked when they were cast: a cost-changing
    spell does not touch them (601.7)."""
    game.last_cost = TotalCost(obj.ann.cost, obj.ann.cost_steps)
    applied("601.2i")
    if len(game.state.stack) > 1 and obj.card is not None and any(
            s.kind == "cost" and s.params.get("applies") != "self" for s in game.characteristics(obj).statics):
        applied("601.7")
    if len(game.state.stack) > 1 and obj.ability is not None and obj.abdef is not None and any(
            e.get("do") == "cost_change" for m in obj.abdef.modes for e in m.effects):
        applied("602.4")  # an ability that will change costs: the ones on the stack were locked already
    kind = "cast" if obj.ability is None else "activated"
    emit(game, [Event(kind, obj=obj.id, player=player)])


def _announcement(before, new) -> None:
    new.ann = Announcement()
    if "flash_condition" in before.memory:  # begun as though it had flash (601.3d, 601.4a)
        new.memory["flash_condition"] = before.memory["flash_condition"]


