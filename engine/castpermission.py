"""Static abilities that let a player cast permanent spells from their graveyard, and what they grant (611.3d).

``{ kind = "cast_from", zone = "graveyard", spells = { types = ["creature"] }, keywords = ["haste"] }``
("Du kannst Kreaturenzauber aus deinem Friedhof wirken. Eine so gewirkte Kreatur hat Eile."): the
permission is a continuous effect of a static ability, and so is the ability it grants the permanent
the spell becomes, which functions only on the battlefield.  That ability does not end when the
static ability's source leaves: it lasts as long as the effect says — here no duration is stated,
so until the end of the game (611.3d, an exception to 611.3a–b); in this model, for as long as the
permanent stays on the battlefield (it is a new object afterwards, 400.7).
"""
from __future__ import annotations

from . import statics
from .filters import matches
from .registry import applied, enforces
from .state import GRAVEYARD


def permission(game, player: int, obj, ch):
    """The static ability that lets ``player`` cast ``obj`` from their graveyard (None: there is none)."""
    if obj.zone != GRAVEYARD or obj.owner != player:
        return None
    for source, static in statics.statics_of_kind(game, "cast_from"):
        if static.params.get("zone") == "graveyard" and source.controller == player and matches(
                game, obj, static.params["spells"], player, ch=ch, any_zone=True):
            return static
    return None


def remember_grants(game, player: int, card, spell) -> None:
    """As the card is cast from the graveyard by such a permission, the spell remembers what it grants."""
    static = permission(game, player, card, game.characteristics(card))
    if static is not None and static.params.get("keywords"):
        spell.memory["granted_by_permission"] = tuple(static.params["keywords"])


@enforces("611.3d")
def grant_on_battlefield(before, new) -> None:
    """The permanent a spell cast with such a permission becomes has the abilities the effect granted it, for as
    long as stated — with no duration, until the end of the game, even if the permission's source leaves (611.3d)."""
    granted = before.memory.get("granted_by_permission")
    if granted:
        applied("611.3d")
        new.memory["gains"] = tuple(new.memory.get("gains", ())) + granted
