"""Playing a land (305, 116.2a): a special action, once each turn, in a main phase of one's own turn.

Rules of chapter 1 and 3 are cited from the English 2024 rules.  "Playing a card" means playing it
as a land or casting it as a spell (601.1a).
"""
from __future__ import annotations

from .characteristics import statics_of_kind_on_battlefield
from .errors import IllegalAction
from .filters import matches
from .registry import EN, applied, enforces
from .state import BATTLEFIELD, HAND, LIBRARY, MAIN_PHASES
from .timing import has_priority
from .zones import move


@enforces(EN + "305.1", EN + "305.2", EN + "305.2a", EN + "305.3", EN + "116.2a", EN + "117.3c")
def play_land(game, player: int, obj_id: int, queue: list | None = None) -> None:
    """Put a land card from one's hand (or, if an effect allows it, from the top of one's library) onto the
    battlefield; the player keeps priority.  ``queue``: the choices made as it enters (614.12a)."""
    st = game.state
    obj = st.objects.get(obj_id)
    if obj is None or obj.owner != player or (obj.zone != HAND and not _from_library_top(game, player, obj)):
        raise IllegalAction(EN + "305.1", "a land is played from its owner's hand")
    ch = game.characteristics(obj)
    if "land" not in ch.types:
        raise IllegalAction(EN + "305.1", f"{ch.name} is not a land")
    applied(EN + "116.2a")
    if st.active != player:
        applied(EN + "305.3")
        raise IllegalAction(EN + "305.3", "a player can play a land only in their own turn")
    applied(EN + "305.1")
    if not has_priority(st, player) or st.step not in MAIN_PHASES or st.stack:
        raise IllegalAction(EN + "305.1", "a land is played with priority, in a main phase, while the stack is "
                                          "empty")
    applied(EN + "305.2")
    applied(EN + "305.2a")
    if st.lands_played >= 1:
        raise IllegalAction(EN + "305.2", f"{st.players[player].name} has already played a land this turn")
    st.lands_played += 1
    move(game, obj_id, BATTLEFIELD, controller=player, queue=queue)
    applied(EN + "117.3c")


def _from_library_top(game, player: int, obj) -> bool:
    """"You may play lands from the top of your library" (a ``cast_from`` static whose ``spells`` match it)."""
    if obj.zone != LIBRARY or game.state.players[player].library[-1:] != [obj.id]:
        return False
    return any(source.controller == player and matches(game, obj, static.params["spells"], player, any_zone=True)
               for source, static in statics_of_kind_on_battlefield(game, "cast_from"))
