""""Can't" effects (614.17): something can't happen.  They are not replacement effects but follow similar rules.

A static ability ``{ kind = "cant", event = "life_change", who = "you" }`` says that an event can't happen
("Your life total can't change").  Modelled events (:data:`EVENTS`): a player's life total changing — gaining
life, losing life through an effect, paying life (a cost, or a payment as a permanent enters); not modelled:
life lost through damage.

* Only a "can't" effect that exists as the event would happen stops it: one that comes later does not go
  back in time (614.17a) — the test reads the static abilities on the battlefield at that moment.
* A cost that includes an event that can't happen can't be paid (614.17b, :func:`check_payment`).
* An event that can't happen may be replaced only by a self-replacement effect; no other replacement or
  prevention effect modifies it (614.17c) — :func:`engine.replacement.replace_event` asks :func:`forbidden`
  before it looks at the effects.
"""
from __future__ import annotations

from .characteristics import statics_on_battlefield
from .errors import IllegalAction
from .registry import applied, enforces
from .replacement import FORBIDS

#: the word of a "can't" static ability -> the events (engine.replacement.EVENTS) it says can't happen
EVENTS = {"life_change": ("gain_life", "lose_life", "pay_life"), "gain_life": ("gain_life",),
          "lose_game": ("lose_game",)}


def _affects(source, who: str, player: int) -> bool:
    return {"you": player == source.controller, "opponents": player != source.controller}.get(who, True)


@enforces("614.17", "614.17a")
def forbidden(game, kind: str, ev: dict) -> bool:
    """Whether a "can't" effect that exists now says the event can't happen (614.17a: only one that exists before
    the event does — nothing goes back in time)."""
    st = game.state
    for oid, static in statics_on_battlefield(game).get("cant", ()):
        p = static.params
        if kind in EVENTS[p["event"]] and _affects(st.objects[oid], p.get("who", "all"), ev["player"]):
            applied("614.17")
            applied("614.17a")
            return True
    return False


FORBIDS.update({kind: forbidden for kinds in EVENTS.values() for kind in kinds})


@enforces("614.17b")
def check_payment(game, player: int, life: int) -> None:
    """A player can't choose to pay a cost that includes an event that can't happen (614.17b): paying life while
    their life total can't change (paying 0 life is no event)."""
    if life and forbidden(game, "pay_life", {"player": player, "amount": life}):
        applied("614.17b")
        name = game.state.players[player].name
        raise IllegalAction("614.17b", f"{name} can't pay {life} life: their life total can't change")
