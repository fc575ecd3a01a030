"""The game state: players, zones and objects — small, plain and copyable.

Everything that can change during a game lives in one :class:`GameState`;
card definitions are shared, immutable data (:mod:`engine.cards`).  The state
copies itself in a few microseconds, which is what makes the illegal-action
rollback (:mod:`engine.actions`) a plain snapshot.

Objects are referred to by integer id.  An object that changes zones becomes
a new object with a new id; ``uid`` names the physical card through all its
zone changes (scenario labels follow ``uid``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .costs import Cost

LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, STACK, EXILE = "library", "hand", "battlefield", "graveyard", "stack", "exile"
ZONES = (LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, STACK, EXILE)
PLAYER_ZONES = (LIBRARY, HAND, GRAVEYARD)
#: a minimal turn: enough phases for timing (main phase vs. not, whose turn)
PHASES = ("beginning", "main1", "combat", "main2", "end")
MAIN_PHASES = ("main1", "main2")

#: a target or chosen thing: ("P", player index) or ("O", object id)
Target = tuple


def player_target(index: int) -> Target:
    return ("P", index)


def object_target(obj_id: int) -> Target:
    return ("O", obj_id)


@dataclass(slots=True)
class Player:
    index: int
    name: str
    life: int = 20
    #: W U B R G C
    pool: list[int] = field(default_factory=lambda: [0] * 6)
    #: the last element is the top card
    library: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    graveyard: list[int] = field(default_factory=list)
    lost: bool = False
    last_turn: int = 0  # number of this player's most recent turn (602.5a)
    drew_from_empty: bool = False  # attempted to draw from an empty library since the last SBA check (704.5b)

    def copy(self) -> "Player":
        return Player(self.index, self.name, self.life, self.pool[:], self.library[:], self.hand[:],
                      self.graveyard[:], self.lost, self.last_turn, self.drew_from_empty)


@dataclass(slots=True)
class Announcement:
    """What the player announced and paid while casting or activating (601.2b–h).

    Filled step by step during casting; never changed once the spell or ability
    has become cast (601.2i), so copies of the state may share it.
    """

    modes: tuple[int, ...] = ()
    x: int = 0
    alternative: str | None = None
    optional: tuple[str, ...] = ()  # optional additional costs announced (kicker, buyback, …)
    chosen: tuple[str, ...] = ()  # names of "choose one" additional costs
    targets: dict[str, tuple[Target, ...]] = field(default_factory=dict)  # slot -> targets
    division: dict[Target, int] = field(default_factory=dict)
    cost: Cost | None = None  # the locked total cost (601.2f)
    cost_steps: tuple[str, ...] = ()  # how the total cost came about
    sacrificed: tuple[str, ...] = ()  # card names sacrificed to pay the cost
    discarded: tuple[str, ...] = ()


@dataclass(slots=True)
class Obj:
    id: int
    uid: int
    card: str | None  # card name; None for an ability on the stack
    owner: int
    controller: int
    zone: str
    tapped: bool = False
    damage: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    since_turn: int = -1  # the turn it came under its controller's control (-1: before the game began)
    attached_to: int | None = None
    token: bool = False
    ann: Announcement | None = None
    ability: tuple[int, int] | None = None  # (source object id, ability index) of an ability object
    source_card: str | None = None  # last known card name of an ability's source
    activations: dict[int, int] = field(default_factory=dict)  # ability index -> count this turn
    activations_turn: int = 0
    loyalty_turn: int = -1  # turn a loyalty ability of this permanent was last activated

    def copy(self) -> "Obj":
        return Obj(self.id, self.uid, self.card, self.owner, self.controller, self.zone, self.tapped, self.damage,
                   dict(self.counters), self.since_turn, self.attached_to, self.token, self.ann, self.ability,
                   self.source_card, dict(self.activations), self.activations_turn, self.loyalty_turn)


@dataclass(slots=True)
class GameState:
    players: list[Player]
    objects: dict[int, Obj] = field(default_factory=dict)
    battlefield: list[int] = field(default_factory=list)
    #: the last element is the top of the stack
    stack: list[int] = field(default_factory=list)
    exile: list[int] = field(default_factory=list)
    turn: int = 1
    active: int = 0
    phase: str = "main1"
    priority: int | None = 0
    passes: int = 0  # players who passed in succession
    next_id: int = 1
    next_uid: int = 1
    over: bool = False

    def copy(self) -> "GameState":
        return GameState([p.copy() for p in self.players], {k: o.copy() for k, o in self.objects.items()},
                         self.battlefield[:], self.stack[:], self.exile[:], self.turn, self.active, self.phase,
                         self.priority, self.passes, self.next_id, self.next_uid, self.over)

    # -- zones ---------------------------------------------------------------------------------------------
    def zone_list(self, zone: str, player: int) -> list[int]:
        if zone in PLAYER_ZONES:
            return getattr(self.players[player], zone)
        return getattr(self, zone)

    def new_object(self, card: str | None, owner: int, zone: str, *, controller: int | None = None,
                   uid: int | None = None, token: bool = False, position: int | None = None) -> Obj:
        obj = Obj(self.next_id, uid if uid is not None else self.next_uid, card, owner,
                  owner if controller is None else controller, zone, token=token, since_turn=self.turn)
        self.next_id += 1
        if uid is None:
            self.next_uid += 1
        self.objects[obj.id] = obj
        where = self.zone_list(zone, owner)
        if position is None:
            where.append(obj.id)
        else:
            where.insert(position, obj.id)
        return obj

    def move(self, obj_id: int, zone: str, *, controller: int | None = None, bottom: bool = False) -> Obj:
        """Move an object to ``zone``: it becomes a new object with a new id (the old id is gone)."""
        old = self.objects.pop(obj_id)
        self.zone_list(old.zone, old.owner if old.zone in PLAYER_ZONES else 0).remove(obj_id)
        for other in self.objects.values():
            if other.attached_to == obj_id:
                other.attached_to = None
        return self.new_object(old.card, old.owner, zone, controller=controller, uid=old.uid, token=old.token,
                               position=0 if bottom else None)

    def remove(self, obj_id: int) -> None:
        """Take an object out of the game entirely (an ability leaving the stack, a token ceasing to exist)."""
        old = self.objects.pop(obj_id)
        self.zone_list(old.zone, old.owner if old.zone in PLAYER_ZONES else 0).remove(obj_id)

    def find_uid(self, uid: int) -> Obj | None:
        for obj in self.objects.values():
            if obj.uid == uid and obj.ability is None:
                return obj
        return None

    def opponents(self, player: int) -> list[int]:
        return [p.index for p in self.players if p.index != player]
