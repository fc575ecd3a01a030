"""Face-down objects (708 of the 2024 rules; 702.34 of the Morph page ``de-morph-2007``): whether a card may be
cast face down, what players may see of a face-down object, and what happens when it leaves the battlefield.
Turning one face up is :mod:`engine.morph`."""
from __future__ import annotations

from .errors import IllegalAction
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, STACK

MORPH = "de-morph-2007/"


def is_face_down(game, obj) -> bool:
    return obj.face is not None and game.db.cards[obj.card].faces[obj.face].way == "face_down"


@enforces(MORPH + "702.34a", MORPH + "702.34b", MORPH + "702.34c", EN + "708.4")
def may_cast_face_down(card) -> None:
    """Only a card with morph may be cast face down (702.34c); cast so, it is a 2/2 creature spell without text, name,
    subtypes or mana cost, for {3} instead of its mana cost (702.34a, 702.34b) — what casting checks sees (708.4)."""
    if not any(s.kind == "morph" for s in card.statics):
        applied(MORPH + "702.34c")
        raise IllegalAction(MORPH + "702.34c", f"{card.name} has no morph: it can't be cast face down")
    applied(MORPH + "702.34a")
    applied(MORPH + "702.34b")
    applied(EN + "708.4")


@enforces(EN + "708.5")
def seen_by(game, obj, player: int) -> str | None:
    """What ``player`` may know the object to be: its name, or None for a face-down permanent or spell that player
    does not control (708.5)."""
    if not is_face_down(game, obj):
        return game.characteristics(obj).name
    applied(EN + "708.5")
    return obj.card if obj.controller == player else None


@enforces(EN + "708.9", MORPH + "702.34a")
def revealed(game, before, new) -> None:
    """A face-down permanent leaving the battlefield, or a face-down spell leaving the stack for anywhere but the
    battlefield, is revealed; in its new zone it is face up (and it returns face up if it comes back)."""
    if before.zone in (BATTLEFIELD, STACK) and new.zone != BATTLEFIELD and is_face_down(game, before):
        applied(EN + "708.9")
        applied(MORPH + "702.34a")  # the morph effect works only while the card is face down
