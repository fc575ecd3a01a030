"""The game: a state, the card database, and the actions players take.

    game = Game.new(["Alice", "Bob"])
    bolt = game.put("Schock", "hand", player=0)
    game.cast(0, bolt, Choices(targets={"ziel": (player_target(1),)}))
    game.pass_priority(0); game.pass_priority(1)   # both pass: Schock resolves

Every player action goes through :func:`engine.actions.take_action`, which
returns the game to the exact state before the action if it turns out to be
illegal.  The :class:`~engine.choices.Choices` of an action are also the
decisions made while it goes on (``game.decisions``): the order of triggered
abilities, their targets, which legendary permanent to keep, the combat declarations.
"""
from __future__ import annotations

from typing import Callable

from . import actions, command, loops, players, procedures, rulesets, sba, turn, variants
from .cards import CardDB, default_db
from .characteristics import characteristics, keywords, mana_value, power, toughness
from .choices import NO_CHOICES, Choices, ManaActivation
from .costs import TotalCost
from .errors import IllegalAction
from .state import STEPS, GameState, Player, Target

__all__ = ["Game", "Choices", "ManaActivation", "NO_CHOICES", "Namer"]

#: turns a name a player chose by (a card name, a scenario label) into one of the candidate object ids,
#: or None: ``namer("vertrauter", [12, 15]) -> 15``
Namer = Callable[[str, list[int]], int | None]


class Game:
    def __init__(self, state: GameState, db: CardDB | None = None, namer: Namer | None = None,
                 rules: rulesets.RuleSet | None = None):
        self.state = state
        self.db = db or default_db()
        #: the rule set the game follows (data/rulesets.toml; default: today's rules) and, chosen once from it,
        #: the engine functions that differ between rule sets (engine.variants)
        self.rules = rules or rulesets.get()
        self.variants = variants.select(self.rules)
        #: the locked total cost of the last spell or ability put on the stack (for inspection)
        self.last_cost: TotalCost | None = None
        #: how a choice given by name is looked up (sacrifice: …, choose: …); None: the first object of that
        #: card name.  Scenarios pass one that knows their labels.
        self.namer = namer
        #: the decisions of the action going on (None between actions)
        self.decisions: Choices | None = None
        #: the static abilities on the battlefield by kind, for one battlefield (engine.characteristics)
        self.statics_cache: tuple | None = None
        #: the permanents with triggered abilities, for one state (engine.triggers)
        self.holders_cache: tuple | None = None
        #: what the state-based actions watch on one battlefield (engine.sba)
        self.sba_cache: tuple | None = None
        #: mana abilities being activated right now, (object id, index) — none between actions (605.3c)
        self.activating: list = []
        #: what was computed from the board, by board version (engine.memo)
        self.memo: dict = {}
        #: the engine work this game may still do before an action is refused (engine.loops)
        self.budget = loops.BUDGET

    @staticmethod
    def new(names: list[str], life: int = 20, db: CardDB | None = None, namer: Namer | None = None,
            rules: rulesets.RuleSet | None = None) -> "Game":
        st = GameState(players=[Player(i, n, life) for i, n in enumerate(names)])
        st.players[0].last_turn = st.turn
        return Game(st, db, namer, rules)

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
        if zone == "command":
            command.put_into_command_zone(self, obj)
        return obj.id

    def begin(self) -> None:
        """The set-up game begins: what receives a timestamp at the beginning of the game receives it now."""
        command.begin_game(self)

    # -- characteristics (the seam for continuous effects) --------------------------------------------------
    def characteristics(self, obj):
        """Current characteristics (see :mod:`engine.characteristics`, the seam for layers)."""
        return characteristics(self, obj)

    def keywords(self, obj) -> frozenset:
        return keywords(self, obj)

    def mana_value(self, obj) -> int:
        return mana_value(self, obj)

    def power(self, obj):
        return power(self, obj)

    def toughness(self, obj):
        return toughness(self, obj)

    def name_of(self, target: Target) -> str:
        kind, ref = target
        if kind == "P":
            return self.state.players[ref].name
        obj = self.state.objects.get(ref)
        if obj is None:
            return f"object {ref} (gone)"
        if obj.card is None and obj.ability is None:
            return obj.source_card or "?"  # an object a rule put on the stack (engine.ruleobjects)
        return obj.card or f"ability of {obj.source_card}"

    # -- actions --------------------------------------------------------------------------------------------
    def act(self, action, *args, choices: Choices = NO_CHOICES, procedure: str | None = None):
        """Take ``action`` with ``choices`` as the decisions made while it goes on."""
        self.decisions = choices
        try:
            return actions.take_action(self, action, *args, procedure=procedure)
        finally:
            self.decisions = None

    def cast(self, player: int, obj_id: int, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        return self.act(procedures.cast_spell, player, obj_id, choices, choices=choices, procedure="601.2")

    def activate(self, player: int, obj_id: int, index: int | None = None,
                 choices: Choices = NO_CHOICES) -> IllegalAction | None:
        return self.act(procedures.activate_ability, player, obj_id, index, choices, choices=choices,
                        procedure="602.2")

    def play_land(self, player: int, obj_id: int, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        return self.act(procedures.play_land, player, obj_id, choices=choices)

    def pass_priority(self, player: int, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        st = self.state
        if st.passes + 1 < len(st.in_turn_order(0)) and not st.pending and sba.nothing_applies(self):
            # not the last pass, and no state-based action or trigger waits: priority only moves on, and nothing
            # changes before a refusal — no snapshot needed
            try:
                turn.pass_priority(self, player, choices)
            except IllegalAction as illegal:
                return illegal
            return None
        return self.act(turn.pass_priority, player, choices, choices=choices)

    def concede(self, player: int) -> IllegalAction | None:
        return self.act(players.concede, player)

    def advance_to(self, step: str, next_turn: bool = False, choices: Choices = NO_CHOICES) -> IllegalAction | None:
        """All players pass with an empty stack until ``step`` begins (combat declarations in ``choices``)."""
        if step not in STEPS:
            raise ValueError(f"unknown step {step!r}")
        return self.act(turn.advance_to, step, next_turn, choices=choices)
