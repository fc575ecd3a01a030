"""Continuous effects that affect players rather than objects (613.10): a player's hexproof.

A static ability ``{ kind = "player", players = "you", keywords = ["hexproof"] }`` gives players an
ability ("Du hast Fluchsicherheit"); ``lose_keywords`` takes it away; ``condition`` makes it apply only
while the condition holds ("solange du eine weiße Kreatur kontrollierst").  Such effects are applied
after the objects' characteristics are determined — a condition reads them through the layers — and
among themselves in timestamp order (613.10): a later "loses hexproof" wins over an earlier
"has hexproof", and the other way round.  A player with hexproof can't be the target of spells or
abilities their opponents control (702.11c).
"""
from __future__ import annotations

from . import conditions
from .characteristics import statics_on_battlefield
from .continuous import timestamp_of
from .registry import EN, applied, enforces


def _about(which: str, controller: int, player: int) -> bool:
    return which == "all" or (player == controller) == (which == "you")


@enforces("613.10")
def player_keywords(game, player: int) -> frozenset:
    """The abilities continuous effects give ``player`` now: applied after objects' characteristics, in timestamp
    order (613.10)."""
    statics = statics_on_battlefield(game).get("player")
    if not statics:
        return frozenset()
    st = game.state
    have: frozenset = frozenset()
    for source_id, static in sorted(statics, key=lambda s: timestamp_of(st.objects[s[0]])):
        source = st.objects[source_id]
        p = static.params
        if not _about(p.get("players", "you"), source.controller, player):
            continue
        if "condition" in p and not conditions.holds(game, p["condition"], source, source.controller):
            continue  # judged from the objects' characteristics, determined first
        applied("613.10")
        have = (have | frozenset(p.get("keywords", ()))) - frozenset(p.get("lose_keywords", ()))
    return have


@enforces(EN + "702.11c")
def player_hexproof(game, player: int, controller: int) -> bool:
    """A player with hexproof can't be the target of spells or abilities their opponents control (702.11c)."""
    if player == controller or "hexproof" not in player_keywords(game, player):
        return False
    applied(EN + "702.11c")
    return True
