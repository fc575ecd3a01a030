"""Resolving spells and abilities (608).

When all players pass in succession the top object resolves (608.1,
:func:`engine.turn.pass_priority`).  Instants, sorceries and abilities check an
intervening "if" clause and their targets, follow their instructions in order and
leave the stack (608.2); permanent spells become permanents (608.3).
"""
from __future__ import annotations

from . import conditions, statics
from .asitenters import keeps_gained
from .carddefs import AbilityDef, Mode, TriggerDef
from .castpermission import grant_on_battlefield
from .continuous import restamp
from .copies import becomes_copy_as_it_enters, enters_as_copy
from .effects import Resolution, run_effect
from .errors import IllegalAction, NotExecutable
from .events import Event
from .lastknown import object_of
from .registry import applied, enforces
from .ruleobjects import StackedByRule
from .state import BATTLEFIELD, EXILE, GRAVEYARD, HAND
from .targets import active_slots, recheck_targets
from .triggers import Delayed, emit
from .zones import move


def definition_of(game, obj):
    """The spell or ability definition of an object on the stack."""
    if obj.abdef is not None:
        return obj.abdef
    return game.characteristics(obj).spell


def resolve_top(game, choices) -> None:
    """Resolve the object on top of the stack."""
    st = game.state
    obj = st.objects[st.stack[-1]]
    if isinstance(obj.abdef, StackedByRule):
        obj.abdef.resolve(game, obj)  # put on the stack by a rule (1999: combat damage, the draw step's draw)
        return
    ab = definition_of(game, obj)
    queue = list(choices.resolve)
    if obj.ability is None and game.characteristics(obj).is_permanent:
        resolve_permanent_spell(game, obj, ab, queue)
    else:
        resolve_instant_sorcery_or_ability(game, obj, ab, queue)
    if queue:
        raise IllegalAction("608.2d", f"choice(s) not needed while resolving: {', '.join(map(str, queue))}")


@enforces("608.2", "608.2a", "603.4", "en-2024-11-08/104.1")
def resolve_instant_sorcery_or_ability(game, obj, ab, queue: list) -> None:
    """An intervening "if" is checked again, then the targets; then it resolves normally."""
    applied("608.2")
    trig = obj.trigger
    if trig is not None and trig.definition is not None and trig.definition.condition:
        applied("608.2a")
        applied("603.4")  # … and again as it resolves
        source = object_of(game, trig.source_id)  # the source now, or as it last existed (608.2h)
        if source is None:
            raise IllegalAction("608.2a", f"the source of the ability of {trig.source_card} is gone")
        if not conditions.holds(game, trig.definition.condition, source, trig.controller):
            remove_without_resolving(game, obj, "608.2a")
            return
    legal, all_illegal = recheck_targets(game, obj, ab) if active_slots(ab, obj.ann) else ({}, False)
    if all_illegal:
        remove_without_resolving(game, obj)
        return
    follow_instructions(game, obj, ab, legal, queue)
    if game.state.over:
        applied("en-2024-11-08/104.1")  # the game ended while it resolved: it ends immediately
        return
    finish_resolution(game, obj)


@enforces("608.2b", "608.2a")
def remove_without_resolving(game, obj, rule: str = "608.2b") -> None:
    """It is removed from the stack and does nothing; a spell goes to its owner's graveyard."""
    applied(rule)
    if obj.ability is not None:
        game.state.remove(obj.id)
    else:
        move(game, obj.id, GRAVEYARD)


@enforces("608.2c", "609.1", "en-2024-11-08/104.1")
def follow_instructions(game, obj, ab, legal: dict, queue: list) -> None:
    """Follow the instructions in order; illegal targets are untouched by the parts they are illegal for.  When
    the game ends on the way (a player loses at once, 1999 102.3), the game ends immediately (104.1)."""
    applied("608.2c")
    applied("609.1")
    ctx = Resolution(game, obj, ab, legal, queue)
    st = game.state
    for m in obj.ann.modes or (0,):
        for spec in ab.modes[m].effects:
            if st.over:
                applied("en-2024-11-08/104.1")
                queue.clear()  # the choices for the rest of the resolution are not needed any more
                return
            run_effect(ctx, spec)


@enforces("608.2n", "608.2m", "608.2p")
def finish_resolution(game, obj) -> None:
    """Last step: an instant or sorcery goes to its owner's graveyard; an ability ceases to exist."""
    st = game.state
    before, before_ch = obj.copy(), game.characteristics(obj)
    if obj.id not in st.objects:
        applied("608.2m")  # it left the stack while resolving; the resolution was completed all the same
    else:
        applied("608.2n")
        if obj.ability is not None:
            st.remove(obj.id)
        elif before_ch.way == "adventure":
            adventure_to_exile(game, obj)
        elif bought_back(obj, before_ch):
            move(game, obj.id, HAND)
        else:
            move(game, obj.id, GRAVEYARD)
    waiting = len(st.pending)
    emit(game, [Event("resolved", obj=None, player=obj.controller, before=before, before_ch=before_ch)])
    if len(st.pending) > waiting:
        applied("608.2p")


@enforces("608.3", "608.3a", "608.3b", "608.3c", "608.3e")
def resolve_permanent_spell(game, obj, ab, queue: list) -> None:
    """It becomes a permanent under its controller's control; an Aura attached to its target.
    With its only target illegal it does not resolve and goes to the graveyard."""
    for static in game.characteristics(obj).statics:
        if static.kind == "pending" and static.params.get("blocks_resolution"):
            raise NotExecutable(f"{obj.card} cannot become a permanent yet: it needs rule "
                                f"{static.params.get('rule')}: {static.params.get('text', '')}")
    applied("608.3")
    slots = active_slots(ab, obj.ann)
    attach_to = None
    if slots:
        applied("608.3b")
        legal, all_illegal = recheck_targets(game, obj, ab)
        if all_illegal and game.characteristics(obj).way == "bestow":
            bestow_fails(game, obj)
            resolve_permanent_spell(game, obj, game.characteristics(obj).spell, queue)
            return
        if all_illegal:
            remove_without_resolving(game, obj)
            return
        chosen = [t for s in slots for t in legal.get(s.name, ())]
        if chosen and chosen[0][0] == "O":
            attach_to = chosen[0][1]
    else:
        applied("608.3a")
    copy_of = enters_as_copy(game, obj, queue)
    if not can_enter(game, obj, copy_of):
        applied("608.3e")
        move(game, obj.id, GRAVEYARD)
        return
    ann = obj.ann
    aura = "Aura" in game.characteristics(obj).subtypes

    def setup(before, new) -> None:
        new.memory["paid"] = tuple(ann.optional) + ((ann.alternative,) if ann.alternative else ())
        new.memory["x"] = ann.x
        new.face = before.face
        keeps_gained(before, new)
        grant_on_battlefield(before, new)
        if copy_of is not None:
            becomes_copy_as_it_enters(game, new, copy_of)
        if attach_to is not None and aura:
            applied("608.3c")
            new.attached_to = attach_to
            restamp(game, new, "613.7e")  # an Aura gets a new timestamp as it becomes attached

    new = move(game, obj.id, BATTLEFIELD, controller=obj.controller, queue=queue, setup=setup)
    dashed = next((n for n in ab.alternative if n.name == ann.alternative and (n.haste or n.returns)), None)
    if dashed is not None:
        enters_dashed(game, new, dashed)


#: "return it from the battlefield to its owner's hand at the beginning of the next end step" (dash, 702.109a)
RETURN_AT_END = TriggerDef(index=0, when="beginning_of", step="end", what=None, ability=AbilityDef(
    kind="triggered", index=0, modes=(Mode(effects=({"do": "move", "what": "it", "zone": "hand"},)),)),
    text="Bringe sie zu Beginn des nächsten Endsegments auf die Hand ihres Besitzers zurück.")


@enforces("608.3g", "603.7g", "en-2024-11-08/702.109a")
def enters_dashed(game, new, named) -> None:
    """A static ability of the spell made a delayed triggered ability as the permanent entered; the permanent
    is its source (603.7g).  Cast for its dash cost, it also has haste."""
    applied("en-2024-11-08/702.109a")
    if named.haste:
        new.memory["gains"] = ("haste",)
    if named.returns:
        applied("608.3g")
        applied("603.7g")
        st = game.state
        st.delayed.append(Delayed(RETURN_AT_END, new.id, new.uid, new.card or "", new.controller, new.id, st.turn))


@enforces("608.3b", "en-2024-11-08/702.103e")
def bestow_fails(game, obj) -> None:
    """A bestowed Aura spell whose target is illegal ceases to be bestowed: it resolves as a creature spell."""
    applied("608.3b")
    applied("en-2024-11-08/702.103e")
    obj.face = None


@enforces("en-2024-11-08/702.27a", "614.1a")
def bought_back(obj, ch) -> bool:
    """Buyback (702.27a): "if the buyback cost was paid, put this spell into its owner's hand instead of into that
    player's graveyard as it resolves" — a replacement effect of the spell itself (614.1a).  A spell countered or
    leaving the stack otherwise goes where it would."""
    paid = set(obj.ann.optional) if obj.ann else set()
    if not any(s.kind == "buyback" and s.params["cost"] in paid for s in ch.statics):
        return False
    applied("en-2024-11-08/702.27a")
    applied("614.1a")
    return True


@enforces("en-2024-11-08/715.3d")
def adventure_to_exile(game, obj) -> None:
    """A spell cast as an Adventure is exiled instead of going to the graveyard; its owner may cast it from there
    (not as an Adventure)."""
    applied("en-2024-11-08/715.3d")
    owner = obj.owner
    move(game, obj.id, EXILE, setup=lambda before, new: new.memory.__setitem__("adventure", owner))


def can_enter(game, obj, copy_of=None) -> bool:
    """Does a static ability say that objects like this — as it would enter, a copy perhaps — cannot enter?"""
    return not statics.cant_enter(game, obj, copy_of)
