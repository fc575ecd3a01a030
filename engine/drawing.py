"""Drawing cards (121): one at a time; from an empty library, the attempt is remembered for 704.5b.

Cited from the English 2024 rules.  A static ability may reveal the first card a player draws each turn
(603.11's example); the reveal is an event its linked triggered abilities see (607.2h).
"""
from __future__ import annotations

from .events import Event
from .loops import spend
from .registry import EN, applied, enforces
from .replacement import exists, replace_event
from .state import HAND
from .triggers import emit
from .zones import move


@enforces(EN + "121.1", EN + "121.2")
def draw_card(game, player: int) -> tuple[list, bool]:
    """Draw one card: the top card of the library into the hand; from an empty library, what the rule set says
    (today: the attempt is remembered for 704.5b; 1999: the player loses at once, 102.2).  A replacement effect
    may make it several draws ("draw two cards instead": ``amount``), none of them offered to it again (614.5).
    Returns the cards drawn and whether the draw was replaced."""
    st = game.state
    p = st.players[player]
    amount = 1
    if exists(game, "draw"):
        ev = replace_event(game, "draw", {"player": player, "amount": 1}, player)
        if ev is None:
            return [], True  # replaced: the draw never happens (614.6), even from an empty library (614.11)
        amount = ev["amount"]
    drawn = []
    spend(game, EN + "121.2", amount)
    for _ in range(amount):
        applied(EN + "121.2")
        if not p.library:
            game.variants.empty_library(game, player)
            continue
        applied(EN + "121.1")
        card = move(game, p.library[-1], HAND)
        p.drawn_this_turn += 1
        emit(game, [Event("draw", obj=card.id, player=player, amount=p.drawn_this_turn)])
        reveal_draw(game, player, card)
        drawn.append(card)
    return drawn, amount != 1


@enforces(EN + "121.4")
def remember_empty_draw(game, player: int) -> None:
    """Today's rules: a player who attempts to draw from an empty library loses the next time a player would
    receive priority (a state-based action, 704.5b): the attempt is remembered until then."""
    applied(EN + "121.4")
    game.state.players[player].drew_from_empty = True


@enforces("603.11", "607.2h")
def reveal_draw(game, player: int, card) -> None:
    """"Reveal the first card you draw each turn": a static ability linked to the triggered abilities that refer to
    the cards it reveals (603.11)."""
    st = game.state
    for oid in list(st.battlefield):
        source = st.objects[oid]
        if source.controller != player:
            continue
        for static in game.characteristics(source).statics:
            if static.kind == "reveal_draws" and (not static.params.get("first_each_turn")
                                                  or st.players[player].drawn_this_turn == 1):
                applied("603.11")
                applied("607.2h")
                emit(game, [Event("revealed", obj=card.id, player=player,
                                  cause=(source.uid, static.params.get("link")))])
