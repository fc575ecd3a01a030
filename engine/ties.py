"""Effects that pick the player with the most or the fewest of something, and what they say about a tie (609.5).

``{ do = "for_most", of = "most_life", tie = "each", effects = [{ do = "lose_life", who = "each", amount = 3 }] }``
("Der Spieler mit den meisten Lebenspunkten verliert 3 Lebenspunkte. Bei Gleichstand verliert jeder dieser
Spieler 3 Lebenspunkte."): the effects are followed for the player picked, ``each`` naming them.  The
game has no default for a tie: the card must say what happens (``tie`` is required by the card schema) —
``each``: for each of the tied players in turn order; ``none``: for none of them.
"""
from __future__ import annotations

from .effects import Resolution, effect, run_effect
from .registry import applied, enforces
from .state import player_target

#: what a "most"/"fewest" effect compares
MEASURES = {"most_life": lambda st, p: st.players[p].life, "fewest_life": lambda st, p: -st.players[p].life}


@effect("for_most", required=("of", "tie", "effects"))
@enforces("609.5", "610.1")
def for_most(ctx: Resolution, spec: dict) -> None:
    """Follow the effects for the player with the most (or fewest) of something; a tie is resolved as the text of
    the spell or ability says — the game has no default (609.5)."""
    applied("610.1")
    st = ctx.state
    players = st.in_turn_order(st.active)
    measure = MEASURES[spec["of"]]
    best = max(measure(st, p) for p in players)
    picked = [p for p in players if measure(st, p) == best]
    if len(picked) > 1:
        applied("609.5")  # a tie: what the text says
        picked = picked if spec["tie"] == "each" else []
    for p in picked:
        ctx.legal["each"] = [player_target(p)]
        for sub in spec["effects"]:
            run_effect(ctx, sub)
    ctx.legal.pop("each", None)
