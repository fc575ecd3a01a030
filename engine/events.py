"""Game events: what happened, as triggered abilities see it (603.2).

An :class:`Event` is an immutable record made at the moment something happens — an object
changing zones, a permanent becoming tapped, damage being dealt, a spell being cast, a step
beginning — and handed to :func:`engine.triggers.emit`, which checks it against every trigger
condition.  Events that look back in time (603.10) carry the object as it last existed
(``before``) and its characteristics then (``before_ch``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: kind -> what the event means (the ``when`` of a trigger in a card file names one)
KINDS = {
    "zone": "an object moved from one zone to another (enters, leaves, dies, put into a graveyard)",
    "tapped": "a permanent became tapped", "untapped": "a permanent became untapped",
    "tapped_for_mana": "a permanent became tapped for mana while a mana ability was activated",
    "damage": "a source dealt damage to a creature, planeswalker or player",
    "cast": "a spell became cast", "activated": "an ability was activated",
    "step": "a step or phase began", "draw": "a player drew a card", "life_gained": "a player gained life",
    "lost": "a player lost the game", "attacks": "a creature was declared as an attacker",
    "blocks": "a creature was declared as a blocker", "countered": "a spell was countered",
    "resolved": "a spell or ability resolved", "revealed": "a card was revealed", "target": "an object became a target",
    "sacrificed": "a permanent was sacrificed", "mana_added": "mana was added to a player's mana pool",
    "prevented": "damage that would have been dealt to a player or to a permanent a player controls was prevented",
    "turned_face_up": "a face-down permanent was turned face up (708.8)",
}


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    obj: int | None = None  # the object now (a zone change: the new object in the zone it moved to)
    player: int | None = None  # the player the event is about (who cast, drew, was dealt damage, lost …)
    before: Any = None  # the object as it last existed before the event (an engine.state.Obj copy)
    before_ch: Any = None  # its characteristics then (a CardDef)
    from_zone: str = ""
    to_zone: str = ""
    source: int | None = None  # the source of damage; the blocked creature of "blocks"; the spell countered
    amount: int = 0
    step: str = ""
    active: int | None = None  # the active player of a "step" event
    cause: object = None  # what caused it: a link name (603.11, 607.2h), a resolving ability (603.12) …
    combat: bool = False
    attached: tuple = ()  # a zone change: the objects that were attached to it (an Aura's "enchanted" trigger)
