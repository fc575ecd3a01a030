"""Cards in the command zone whose static abilities apply to the game, and when they receive their timestamps.

A minimal model of the casual variants, enough for the timestamp rules (613.7h–j):

* A plane, phenomenon or scheme card (Planechase, Archenemy) waits face down in the command zone
  (its planar or scheme deck); planeswalking to it or setting it in motion is modelled by its result,
  the card turned face up (scenario verb ``PLAYER turns REF face up``). It receives a timestamp
  then (613.7h); the face-up plane it replaces is turned face down.
* A vanguard card is face up in the command zone from the beginning of the game and receives its
  timestamp then (613.7i).
* A conspiracy card receives a timestamp at the beginning of the game (613.7j); one with hidden
  agenda (a ``hidden_agenda`` static ability) begins face down, is turned face up by its owner any
  time they have priority, and receives a new timestamp then.

The scenario's setup is the beginning of the game: :func:`begin_game` gives what receives a
timestamp then one earlier than every object's (several at once: APNAP order, 613.7m).  Static
abilities of face-up cards here apply like those of permanents (:func:`engine.characteristics.statics_on_battlefield`).
"""
from __future__ import annotations

from .continuous import restamp
from .errors import IllegalAction
from .registry import applied, enforces
from .state import COMMAND
from .timestamps import in_apnap_order
from .timing import has_priority

#: card types of the command zone that wait face down until turned face up (613.7h)
DECKS = frozenset({"plane", "phenomenon", "scheme"})
#: the first timestamp of the beginning of the game: earlier than every object's (object ids count from 1)
GAME_BEGINS = -1_000_000


def _types(game, obj) -> frozenset:
    return game.db.cards[obj.card].types


def hidden(game, obj) -> bool:
    return any(s.kind == "hidden_agenda" for s in game.db.cards[obj.card].statics)


def put_into_command_zone(game, obj) -> None:
    """Setup: a plane, phenomenon or scheme and a conspiracy with hidden agenda begin face down."""
    if _types(game, obj) & DECKS or hidden(game, obj):
        obj.memory["face_down"] = True


@enforces("613.7i", "613.7j", "613.7m")
def begin_game(game) -> None:
    """The beginning of the game: each face-up vanguard and each conspiracy in the command zone receives a
    timestamp (613.7i, 613.7j) — earlier than any object's, several in APNAP order (613.7m)."""
    st = game.state
    beginning = [st.objects[oid] for oid in st.command
                 if _types(game, st.objects[oid]) & {"vanguard", "conspiracy"}]
    for n, obj in enumerate(in_apnap_order(game, beginning)):
        rule = "613.7i" if "vanguard" in _types(game, obj) else "613.7j"
        applied(rule)
        obj.memory["timestamp"] = GAME_BEGINS + n
        obj.memory["stamped"] = rule
    if len({o.owner for o in beginning}) > 1:
        applied("613.7m")
    game.statics_cache = None


@enforces("613.7h", "613.7j")
def turn_face_up(game, player: int, obj_id: int) -> None:
    """A face-down card in the command zone is turned face up and receives a timestamp: a plane, phenomenon or
    scheme (planeswalking, setting a scheme in motion; the face-up plane or phenomenon it replaces is turned face
    down, 613.7h), or its owner's conspiracy with hidden agenda, with priority (613.7j)."""
    st = game.state
    obj = st.objects.get(obj_id)
    if obj is None or obj.zone != COMMAND or not obj.memory.get("face_down"):
        raise IllegalAction("613.7h", "only a face-down card in the command zone can be turned face up")
    types = _types(game, obj)
    if types & DECKS:
        for other in (st.objects[o] for o in st.command):
            if _types(game, other) & {"plane", "phenomenon"} and types & {"plane", "phenomenon"} \
                    and not other.memory.get("face_down"):
                other.memory["face_down"] = True  # planeswalked away from
        rule = "613.7h"
    else:
        if obj.owner != player or not has_priority(st, player):
            raise IllegalAction("613.7j", "its owner turns a conspiracy face up, any time they have priority")
        rule = "613.7j"
    applied(rule)
    del obj.memory["face_down"]
    restamp(game, obj, rule)
    game.statics_cache = None
