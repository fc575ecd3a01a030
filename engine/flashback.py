"""Flashback (en 702.34a) and casting from other players' graveyards "as though" they were yours (609.4, 609.4a).

* Flashback: an instant or sorcery card with an alternative cost named ``flashback`` may be cast
  from its caster's graveyard by paying that cost (``alternative: flashback``); if it was, it is
  exiled instead of going anywhere else as it leaves the stack.
* "Du kannst in diesem Zug aus den Friedhöfen anderer Spieler … Zaubersprüche wirken, als ob diese
  Karten in deinem Friedhof wären" (Schamanentrance; effect ``graveyards_as_yours``): for casting,
  a card in another player's graveyard is treated as though it were in the caster's — only for that
  purpose (609.4).  It satisfies flashback's "from your graveyard", and an effect that lets spells be
  cast as though they had flash may apply as well: both "as though" effects apply (609.4a).
"""
from __future__ import annotations

from dataclasses import dataclass

from .effects import Resolution, effect
from .errors import IllegalAction
from .registry import EN, applied, enforces
from .state import EXILE, GRAVEYARD, STACK


@dataclass(frozen=True)
class GraveyardsAsYours:
    """A rule-changing effect of a resolved spell: ``controller`` may cast spells from other players' graveyards
    this turn as though those cards were in their own graveyard."""

    controller: int
    card: str
    duration: str = "end_of_turn"


@effect("graveyards_as_yours")
def graveyards_as_yours(ctx: Resolution, spec: dict) -> None:
    """This turn, cast spells from other players' graveyards as though they were in your graveyard (609.4)."""
    ctx.state.effects.append(GraveyardsAsYours(ctx.controller, ctx.obj.card or ""))


@enforces("609.4")
def in_your_graveyard(game, player: int, obj) -> bool:
    """Is the card in ``player``'s graveyard — or to be treated, for casting it, as though it were (609.4)?"""
    if obj.zone != GRAVEYARD:
        return False
    if obj.owner == player:
        return True
    if any(isinstance(e, GraveyardsAsYours) and e.controller == player for e in game.state.effects):
        applied("609.4")
        return True
    return False


def flashback_cost(ch):
    return next((n for n in ch.spell.alternative if n.name == "flashback"), None) if ch.spell else None


@enforces(EN + "702.34a")
def may_flashback(game, player: int, obj, ch, choices) -> bool:
    """May ``player`` cast this card from a graveyard with flashback?  Only an instant or sorcery card from their
    graveyard, and only by paying the flashback cost rather than its mana cost."""
    if choices.alternative == "flashback" and obj.zone != GRAVEYARD:
        raise IllegalAction(EN + "702.34a", "the flashback cost is paid only to cast the card from a graveyard")
    if obj.zone != GRAVEYARD or flashback_cost(ch) is None or not ch.types & {"instant", "sorcery"}:
        return False
    if not in_your_graveyard(game, player, obj):
        return False
    if choices.alternative != "flashback":
        raise IllegalAction(EN + "702.34a", f"{ch.name} is cast from a graveyard with flashback: pay its flashback "
                                            f"cost (alternative: flashback)")
    applied(EN + "702.34a")
    return True


@enforces("609.4a")
def both_as_though(game, player: int, obj) -> None:
    """Cast from another player's graveyard as though it were in the caster's, and as though it had flash: one
    "as though" effect does not exclude the other — both apply (609.4a)."""
    if obj.owner != player:
        applied("609.4a")


@enforces(EN + "702.34a")
def leaving_the_stack(obj, zone: str) -> str:
    """A spell whose flashback cost was paid is exiled instead of going anywhere else as it leaves the stack."""
    if obj.zone == STACK and obj.ann is not None and obj.ann.alternative == "flashback" and zone != EXILE:
        applied(EN + "702.34a")
        return EXILE
    return zone
