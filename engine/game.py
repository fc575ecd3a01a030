"""The game: a state, the card database, and the actions players take.

    game = Game.new(["Alice", "Bob"])
    bolt = game.put("Schock", "hand", player=0)
    game.cast(0, bolt, Choices(targets={"ziel": (player_target(1),)}))
    game.pass_priority(0); game.pass_priority(1)   # both pass: Schock resolves

Every player action goes through :func:`engine.actions.take_action`, which
returns the game to the exact state before the action if it turns out to be
illegal.
"""
from __future__ import annotations

from typing import Callable

from . import actions, procedures, turn
from .cards import CardDB, default_db
from .characteristics import characteristics, mana_value, power, toughness
from .choices import NO_CHOICES, Choices, ManaActivation
from .costs import TotalCost
from .errors import IllegalAction
from .state import GameState, Player, Target

__all__ = ["Game", "Choices", "ManaActivation", "NO_CHOICES", "Namer"]

#: turns a name a player chose by (a card name, a scenario label) into one of the candidate object ids,
#: or None: ``namer("vertrauter", [12, 15]) -> 15``
Namer = Callable[[str, list[int]], int | None]


class Game:
    def __init__(self, state: GameState, db: CardDB | None = None, namer: Namer | None = None):
        self.state = state
        self.db = db or default_db()
        #: the locked total cost of the last spell or ability put on the stack (for inspection)
        self.last_cost: TotalCost | None = None
        #: how a choice given by name is looked up (sacrifice: …, choose: …); None: the first object of that
        #: card name.  Scenarios pass one that knows their labels.
        self.namer = namer

    @staticmethod
    def new(names: list[str], life: int = 20, db: CardDB | None = None, namer: Namer | None = None) -> "Game":
        st = GameState(players=[Player(i, n, life) for i, n in enumerate(names)])
        st.players[0].last_turn = st.turn
        return Game(st, db, namer)

    # -- setup (not game actions) ---------------------------------------------------------------------------
    def put(self, card: str, zone: str, player: int, *, tapped: bool = False, new: bool = False,
            counters: dict | None = None, controller: int | None = None) -> int:
        if card not in self.db:
            raise KeyError(card)
        obj = self.state.new_object(card, player, zone, controller=controller)
        obj.since_turn = self.state.turn if new else -1
        obj.tapped = tapped
        ch = self.db[card]
        if zone == "battlefield" and ch.loyalty is not None and "loyalty" not in (counters or {}):
            obj.counters["loyalty"] = ch.loyalty
        obj.counters.update(counters or {})
        return obj.id

    # -- characteristics (the seam for continuous effects) --------------------------------------------------
    def characteristics(self, obj):
        """Current characteristics (see :mod:`engine.characteristics`, the seam for layers)."""
        return characteristics(self.db, obj)

    def mana_value(self, obj) -> int:
        return mana_value(self.db, obj)

    def power(self, obj):
        return power(self.db, obj)

    def toughness(self, obj):
        return toughness(self.db, obj)

    def name_of(self, target: Target) -> str:
        kind, ref = target
        if kind == "P":
            return self.state.players[ref].name
        obj = self.state.objects.get(ref)
        if obj is None:
            return f"object {ref} (gone)"
        return obj.card or f"ability of {obj.source_card}"

    # -- actions --------------------------------------------------------------------------------------------
    def cast(self, player: int, obj_id: int, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        return actions.take_action(self, procedures.cast_spell, player, obj_id, choices, procedure="601.2")

    def activate(self, player: int, obj_id: int, index: int | None = None,
                 choices: Choices = NO_CHOICES) -> IllegalAction | None:
        return actions.take_action(self, procedures.activate_ability, player, obj_id, index, choices,
                                   procedure="602.2")

    def pass_priority(self, player: int, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        st = self.state
        if st.stack and st.passes + 1 >= len(st.players):
            # this pass makes the top object resolve: choices made while resolving may be illegal
            return actions.take_action(self, turn.pass_priority, player, choices)
        try:
            turn.pass_priority(self, player, choices)
        except IllegalAction as illegal:  # raised before anything changed (no priority)
            return illegal
        return None
