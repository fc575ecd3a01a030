"""Morph (702.34 as the Future Sight update of 2007 gives it, cited from the seed page ``de-morph-2007``).

* Casting face down (702.34a–c): a card with a ``morph`` static ability has a face-down face
  (``[[faces]] way = "face_down"``, ``pay = "{3}"``): cast that way it is a 2/2 creature spell with
  no text, name, subtypes or mana cost, and effects and prohibitions are checked against those
  values (:func:`engine.permissions`, 601.3e); a card without morph cannot be cast face down.
* Turning face up (702.34d): a special action any time its controller has priority — show the morph
  cost, pay it, turn it face up; it does not use the stack, and abilities about entering the
  battlefield do not trigger.  It gets a new timestamp (613.7f).
* What players may see: the controller of a face-down permanent may look at it, others may not
  (en 708.5; the FAQ: "Erhältst du die Kontrolle über eine verdeckte Kreatur, kannst du dir anschauen,
  was sie ist … Dein Gegner kann das nicht").
* Leaving the battlefield: it is revealed, and a card that comes back comes back face up (en 708.9;
  the FAQ: "Kommt die Kreatur ins Spiel zurück, kommt sie offen ins Spiel zurück").
"""
from __future__ import annotations

from .continuous import restamp
from .costs import ManaCost, find_payment
from .errors import IllegalAction
from .events import Event
from .facedown import is_face_down
from .filters import matches
from .priority import give_priority
from .procedures import activate_mana_ability
from .registry import EN, applied, enforces
from .state import BATTLEFIELD
from .timing import has_priority
from .triggers import emit

MORPH = "de-morph-2007/"


#: what the game keeps for one state of the battlefield (a read "as if face up" must not leave them behind)
_CACHES = ("statics_cache", "holders_cache", "sba_cache", "continuous_cache", "layer_order_cache")


@enforces(EN + "702.37e")
def morph_cost(game, obj) -> ManaCost | dict | None:
    """The morph cost the permanent would have face up (None: it has no morph ability face up, 702.37e): its
    face-up characteristics through the layers — an effect that removes abilities takes the morph ability too."""
    face, caches = obj.face, {k: getattr(game, k, None) for k in _CACHES}
    obj.face = None  # as it would be face up, for this one read: the caches made meanwhile are dropped
    try:
        statics = game.characteristics(obj).statics
    finally:
        obj.face = face
        for k, v in caches.items():
            setattr(game, k, v)
    for static in statics:
        if static.kind == "morph":
            return static.params["cost"]
    applied(EN + "702.37e")
    return None


def _pay_mana(game, player: int, cost: ManaCost, choices) -> None:
    pool = game.state.players[player].pool
    spend = find_payment(cost, pool, choices.pay)
    if spend is None:
        raise IllegalAction(MORPH + "702.34d", f"the morph cost {cost} cannot be paid")
    for i, n in enumerate(spend):
        pool[i] -= n


@enforces(EN + "118.1", EN + "701.16a", EN + "701.16b")
def _reveal(game, player: int, obj, flt, choices) -> None:
    """"Reveal a [criteria] card in your hand": the card named with ``pay:`` is shown and stays where it is
    (701.16a–b); without a matching card in hand the cost can't be paid (118.1)."""
    st = game.state
    chosen = [oid for oid in choices.reveal if oid in st.players[player].hand]
    if not chosen or not matches(game, st.objects[chosen[0]], flt, player, obj.id):
        raise IllegalAction(EN + "118.1", "the morph cost (reveal a card from your hand meeting its criteria) cannot "
                                          "be paid: name the card with 'pay: CARD'")
    applied(EN + "118.1")
    applied(EN + "701.16a")
    applied(EN + "701.16b")


#: morph costs that are not mana: key of the cost table -> fn(game, player, permanent, argument, choices)
MORPH_COSTS = {"reveal": _reveal}


@enforces("614.1e", EN + "708.11")
def as_turned_face_up(game, obj, queue: list) -> None:
    """"As this is turned face up, choose a colour": a replacement effect applied while it is turned face up, not
    afterwards (614.1e, 708.11) — the choice is made first (``choose:``), then it is face up."""
    for static in game.db.cards[obj.card].statics:
        if static.kind == "morph" and static.params.get("as_turned_face_up") == "color":
            if not queue or queue[0] not in ("W", "U", "B", "R", "G"):
                raise IllegalAction("614.1e", f"{obj.card} is turned face up: choose a colour (add 'choose: …')")
            applied("614.1e")
            applied(EN + "708.11")
            obj.memory[static.params.get("link", "chosen")] = queue.pop(0)


@enforces(MORPH + "702.34d", MORPH + "702.34b", EN + "116.2b", "613.7f", EN + "708.7", EN + "708.8", EN + "116.3")
def turn_face_up(game, player: int, obj_id: int, choices) -> None:
    """Turn a face-down permanent one controls face up: a special action with priority, paying its morph cost;
    the morph effect ends and it has its normal characteristics again (counters, damage, Auras stay)."""
    st = game.state
    obj = st.objects.get(obj_id)
    if not has_priority(st, player):
        raise IllegalAction(MORPH + "702.34d", f"{st.players[player].name} does not have priority")
    applied(EN + "116.2b")
    if obj is None or obj.zone != BATTLEFIELD or not is_face_down(game, obj):
        applied(EN + "708.7")  # spells normally can't be turned face up
        raise IllegalAction(MORPH + "702.34d", "only a face-down permanent can be turned face up")
    if obj.controller != player:
        raise IllegalAction(MORPH + "702.34d", "only its controller turns a face-down permanent face up")
    cost = morph_cost(game, obj)
    if cost is None:
        raise IllegalAction(MORPH + "702.34d", "it would have no morph cost face up: it can't be turned face up")
    applied(MORPH + "702.34d")
    for act in choices.mana:
        activate_mana_ability(game, player, act.obj_id, act.index, act.choices)
    if isinstance(cost, ManaCost):
        _pay_mana(game, player, cost, choices)
    else:
        for key, arg in cost.items():  # a cost that is not mana ("Morph—Reveal a black card in your hand", 118.1)
            MORPH_COSTS[key](game, player, obj, arg, choices)
    applied(MORPH + "702.34b")  # the morph effect ends when the permanent is turned face up
    applied(EN + "708.8")
    as_turned_face_up(game, obj, choices.resolve)
    obj.face = None
    restamp(game, obj, "613.7f")
    emit(game, [Event("turned_face_up", obj=obj.id, player=player)])  # "when … is turned face up" (708.8)
    applied(EN + "116.3")
    give_priority(game, player)  # after a special action its player receives priority again: triggers go on the stack
