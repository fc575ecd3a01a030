"""The game state: players, zones and objects — small, plain and copyable.

Everything that can change during a game lives in one :class:`GameState`;
card definitions are shared, immutable data (:mod:`engine.cards`).  The state
copies itself in a few microseconds, which is what makes the illegal-action
rollback (:mod:`engine.actions`) a plain snapshot.  Values kept in the state that
are not copied (announcements, pending triggers, events) are never changed once made.

Objects are referred to by integer id.  An object that changes zones becomes
a new object with a new id; ``uid`` names the physical card through all its
zone changes (scenario labels follow ``uid``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import count

from .costs import Cost

LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, STACK, EXILE = "library", "hand", "battlefield", "graveyard", "stack", "exile"
COMMAND = "command"  # planes, phenomena, schemes, vanguards, conspiracies (engine.command)
ZONES = (LIBRARY, HAND, BATTLEFIELD, GRAVEYARD, STACK, EXILE, COMMAND)
#: the zones whose objects' abilities apply (engine.memo keeps what is computed from them)
BOARD = (BATTLEFIELD, COMMAND)
#: an object there is part of the board (a phased-out permanent may return to it)
WATCHED_ZONES = frozenset({BATTLEFIELD, COMMAND, "phased_out"})
PLAYER_ZONES = (LIBRARY, HAND, GRAVEYARD)
#: the steps of a turn in order (500.1); each main phase is a step of its own here
STEPS = ("untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers", "declare_blockers",
         "first_strike_damage", "combat_damage", "end_of_combat", "main2", "end", "cleanup")
#: the phase each step belongs to
PHASE_OF = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning", "main1": "main1",
            "beginning_of_combat": "combat", "declare_attackers": "combat", "declare_blockers": "combat",
            "first_strike_damage": "combat", "combat_damage": "combat", "end_of_combat": "combat",
            "main2": "main2", "end": "ending", "cleanup": "ending"}
MAIN_PHASES = ("main1", "main2")
#: other names a scenario may use for a step: a phase stands for its first step with priority
STEP_ALIASES = {"beginning": "upkeep", "combat": "beginning_of_combat", "ending": "end", "end_step": "end"}

_new = object.__new__
_set = object.__setattr__

#: board versions (engine.memo): one sequence for every state of every game, so that two states with the same
#: version have the same board — a state and its unchanged copies
new_version = count(1).__next__


class Version:
    """A state's board version, held apart from the state so that its objects can tell it of changes without
    referring back to the state (no reference cycles: a state dropped is freed at once)."""

    __slots__ = ("n", "snapshots")

    def __init__(self, n: int) -> None:
        self.n = n
        #: the snapshots (:meth:`GameState.snapshot`) that share this state's objects until one of them changes
        self.snapshots: list = []


def _preserve(board: Version, obj=None, values=None) -> None:
    """An object (``obj``, or the one whose counters, memory or activations are ``values``) is about to change:
    every snapshot that still shares it keeps a plain copy of it as it is now (copy on write)."""
    for snap in board.snapshots:
        objects = snap.objects
        if obj is not None:
            if objects.get(obj.id) is obj:
                objects[obj.id] = obj.copy()
            continue
        for oid, o in objects.items():
            if o.counters is values or o.memory is values or o.activations is values:
                objects[oid] = o.copy()
                break
#: what an object's characteristics and abilities may depend on (engine.memo): setting one of these on an object of
#: a state, or changing its counters or memory, gives the state a new version
WATCHED = frozenset({"card", "owner", "controller", "zone", "tapped", "attached_to", "token", "face", "counters",
                     "memory", "ability", "ann"})
_DICTS = ("counters", "memory", "activations")

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
    lost: bool = False  # lost the game (and so left it, 800.4a)
    last_turn: int = 0  # number of this player's most recent turn (602.5a)
    drew_from_empty: bool = False  # attempted to draw from an empty library since the last SBA check (704.5b)
    won: bool = False
    drawn_this_turn: int = 0  # cards drawn this turn (603.11: "the first card you draw each turn")
    previous_turn: int = -1  # the number of this player's turn before their most recent one

    def copy(self) -> "Player":
        return Player(self.index, self.name, self.life, self.pool[:], self.library[:], self.hand[:],
                      self.graveyard[:], self.lost, self.last_turn, self.drew_from_empty, self.won,
                      self.drawn_this_turn, self.previous_turn)

    @property
    def in_game(self) -> bool:
        return not self.lost


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
    hybrid: tuple[str, ...] = ()  # the colour announced for each hybrid symbol, in order (601.2b)
    targets: dict[str, tuple[Target, ...]] = field(default_factory=dict)  # slot -> targets
    division: dict[Target, int] = field(default_factory=dict)
    cost: Cost | None = None  # the locked total cost (601.2f)
    cost_steps: tuple[tuple, ...] = ()  # how the total cost came about: (template, values); see costs.describe
    sacrificed: tuple[str, ...] = ()  # card names sacrificed to pay the cost
    discarded: tuple[str, ...] = ()
    chooser: int | None = None  # the opponent who made the choices the spell gives them (601.6)
    spent: tuple[int, ...] = ()  # the mana spent to pay the total cost, W U B R G C (601.2h)


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
    abdef: object = None  # the AbilityDef of an ability on the stack (activated, triggered, delayed, reflexive)
    trigger: object = None  # a triggered ability on the stack: its engine.triggers.Triggered record
    memory: dict = field(default_factory=dict)  # what linked abilities remember (607): name -> immutable value
    deathtouched: bool = False  # dealt damage by a source with deathtouch since the last SBA check (704.5h)
    #: the sources that dealt it damage, as (turn, source id): like its damage, not part of its characteristics
    damaged_by: tuple = ()
    face: str | None = None  # the alternative characteristics it has (bestow, face down, adventure)
    source_uid: int = 0  # an ability on the stack: the uid of its source
    #: the state it is part of (a :class:`Live` object tells it of changes), None for a probe or a record
    _board: Version | None = field(default=None, compare=False, repr=False)

    def copy(self, board: Version | None = None) -> "Obj":
        """A copy: a :class:`Live` one for a state with the version ``board``, else a plain record."""
        # attribute by attribute: about twice as fast as calling the constructor (the state is copied per action)
        o = _new(Obj)
        o.id, o.uid, o.card, o.owner, o.controller, o.zone = self.id, self.uid, self.card, self.owner, \
            self.controller, self.zone
        o.tapped, o.damage, o.since_turn = self.tapped, self.damage, self.since_turn
        o.attached_to, o.token, o.ann, o.ability, o.source_card = self.attached_to, self.token, self.ann, \
            self.ability, self.source_card
        o.activations_turn, o.loyalty_turn = self.activations_turn, self.loyalty_turn
        o.abdef, o.trigger, o.deathtouched, o.damaged_by = self.abdef, self.trigger, self.deathtouched, self.damaged_by
        o.face, o.source_uid, o._board = self.face, self.source_uid, board
        if board is None:  # plain dicts (dict.copy)
            o.counters, o.memory, o.activations = self.counters.copy(), self.memory.copy(), self.activations.copy()
            return o
        o.counters = counters = Watched(self.counters)
        o.memory = memory = Watched(self.memory)
        o.activations = activations = Watched(self.activations)
        counters.board = memory.board = activations.board = board
        _set(o, "__class__", Live)
        return o


#: the attributes two objects are compared by (all but the version they report to)
_COMPARED = tuple(f.name for f in fields(Obj) if f.compare)


def _changed(obj, moved: bool = False) -> None:
    """``obj`` changed: if it is part of the board (or just left or entered it), its state has a new version."""
    board = getattr(obj, "_board", None)  # None also while an object is being unpickled
    if board is not None and (moved or obj.zone in WATCHED_ZONES):
        board.n = new_version()


class Live(Obj):
    """An object of a game state (every object of one is, so that the code reading objects sees one class):
    setting a :data:`WATCHED` attribute of one on the board gives the state a new board version."""

    __slots__ = ()

    def __setattr__(self, name: str, value) -> None:
        board = getattr(self, "_board", None)  # None while being made by the constructor or unpickled
        if board is not None and board.snapshots:
            _preserve(board, self)
        if name in _DICTS and value.__class__ is not Watched:
            value = _watched(value, board)
        if name == "zone":
            _changed(self, moved=True)  # leaving the board
        _set(self, name, value)
        if name in WATCHED:
            _changed(self)

    def __eq__(self, other) -> bool:  # equal to a plain copy with the same values (a snapshot)
        if not isinstance(other, Obj):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED)

    __hash__ = None  # type: ignore[assignment]


class Watched(dict):
    """The counters, memory or activations of a :class:`Live` object: a change gives its state a new board version
    (and, first, a snapshot that shares the object a copy of it)."""

    __slots__ = ("board",)
    board: Version | None

    def __setitem__(self, key, value) -> None:
        _touch(self)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        _touch(self)
        dict.__delitem__(self, key)

    def pop(self, *args):
        _touch(self)
        return dict.pop(self, *args)

    def popitem(self):
        _touch(self)
        return dict.popitem(self)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args, **kwargs) -> None:
        _touch(self)
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        _touch(self)
        dict.clear(self)

    def __ior__(self, other):  # type: ignore[misc]
        self.update(other)
        return self

    def __reduce__(self):
        return dict, (dict(self),)


def _watched(values: dict, board: Version | None) -> Watched:
    w = Watched(values)
    w.board = board
    return w


def _touch(values: Watched) -> None:
    """A Watched dict is about to change."""
    board = values.board
    if board is not None:
        if board.snapshots:
            _preserve(board, values=values)
        board.n = new_version()


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
    step: str = "main1"
    priority: int | None = 0
    passes: int = 0  # players who passed in succession
    next_id: int = 1
    next_uid: int = 1
    over: bool = False
    lands_played: int = 0  # lands the active player played this turn (305.2)
    #: combat: attacking creature id -> what it attacks; blocking creature id -> the attackers it blocks
    attackers: dict[int, Target] = field(default_factory=dict)
    blockers: dict[int, tuple[int, ...]] = field(default_factory=dict)
    blocked: list[int] = field(default_factory=list)  # attackers that became blocked (509.1h)
    attacked: list[tuple[int, int]] = field(default_factory=list)  # (uid, player) declared as attackers this turn
    #: triggered abilities waiting to be put on the stack (603.3), in the order they triggered
    pending: list = field(default_factory=list)
    #: delayed triggered abilities waiting for their event (603.7)
    delayed: list = field(default_factory=list)
    #: continuous effects from resolved spells and abilities that last "this turn" (611.2a): (StaticDef, source
    #: card name, controller) — only kinds that change no characteristics (cost changes)
    effects: list = field(default_factory=list)
    command: list[int] = field(default_factory=list)  # the command zone (shared, like the battlefield)
    phased_out: list[int] = field(default_factory=list)  # phased-out permanents (engine.phasing)
    #: objects that left their zones, as they last existed: old id -> engine.lastknown.Known (608.2h)
    last_known: dict = field(default_factory=dict)
    #: the board version (engine.memo): a new one whenever an object changes (:class:`Live`); a copy keeps it
    board: Version = field(default_factory=lambda: Version(new_version()), compare=False, repr=False)
    #: its objects of the board are watched (:class:`Live`); a plain copy (a snapshot) is not, until revived
    live: bool = field(default=True, compare=False, repr=False)

    def copy(self, live: bool = True) -> "GameState":
        """A copy: a live one (its objects of the board watched, the same version), or a plain snapshot that is
        only kept, compared or put back (:meth:`revive`) — cheaper to make."""
        new = _new(GameState)
        board = Version(self.board.n)
        objects = {k: o.copy(board) for k, o in self.objects.items()} if live else \
            {k: o.copy() for k, o in self.objects.items()}
        GameState.__init__(new, [p.copy() for p in self.players], objects,
                         self.battlefield[:], self.stack[:], self.exile[:], self.turn, self.active, self.step,
                         self.priority, self.passes, self.next_id, self.next_uid, self.over, self.lands_played,
                         dict(self.attackers), dict(self.blockers), self.blocked[:], self.attacked[:],
                         self.pending[:], self.delayed[:], self.effects[:], self.command[:],
                         self.phased_out[:], dict(self.last_known), board, live)
        return new

    def snapshot(self) -> "GameState":
        """A snapshot to put back if an action fails: a plain state that shares this state's objects, each until it
        is about to change (then the snapshot keeps a copy of it as it was: copy on write).  Let it go with
        :meth:`release` when the action is over."""
        if not self.live:
            return self.copy(live=False)
        new = _new(GameState)
        GameState.__init__(new, [p.copy() for p in self.players], dict(self.objects),
                           self.battlefield[:], self.stack[:], self.exile[:], self.turn, self.active, self.step,
                           self.priority, self.passes, self.next_id, self.next_uid, self.over, self.lands_played,
                           dict(self.attackers), dict(self.blockers), self.blocked[:], self.attacked[:],
                           self.pending[:], self.delayed[:], self.effects[:], self.command[:],
                           self.phased_out[:], dict(self.last_known), Version(self.board.n), False)
        self.board.snapshots.append(new)
        return new

    def release(self, snapshot: "GameState") -> None:
        """The snapshot no longer needs to be kept as this state was (:meth:`snapshot`)."""
        snaps = self.board.snapshots
        if snapshot in snaps:
            snaps.remove(snapshot)

    def revive(self) -> "GameState":
        """A plain snapshot becomes a game's state again (an action rolled back): its objects of the board are
        watched again, under a new version."""
        if not self.live:
            for oid, obj in self.objects.items():
                self.objects[oid] = obj.copy(self.board)
            self.board.n = new_version()
            self.live = True
        return self

    @property
    def version(self) -> int:
        """The board version (engine.memo)."""
        return self.board.n

    @version.setter
    def version(self, n: int) -> None:
        self.board.n = n

    @property
    def phase(self) -> str:
        return PHASE_OF[self.step]

    # -- zones ---------------------------------------------------------------------------------------------
    def zone_list(self, zone: str, player: int) -> list[int]:
        if zone in PLAYER_ZONES:
            return getattr(self.players[player], zone)
        return getattr(self, zone)

    def new_object(self, card: str | None, owner: int, zone: str, *, controller: int | None = None,
                   uid: int | None = None, token: bool = False, position: int | None = None) -> Obj:
        obj = Obj(self.next_id, uid if uid is not None else self.next_uid, card, owner,
                  owner if controller is None else controller, zone, token=token, since_turn=self.turn)
        obj._board = board = self.board
        obj.counters, obj.memory = _watched(obj.counters, board), _watched(obj.memory, board)
        obj.activations = _watched(obj.activations, board)
        _set(obj, "__class__", Live)
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
        """Move an object to ``zone``: it becomes a new object with a new id (the old id is gone, 400.7).

        Game code moves objects with :func:`engine.zones.move`, which also reports the event."""
        old = self.objects.pop(obj_id)
        self.zone_list(old.zone, old.owner if old.zone in PLAYER_ZONES else 0).remove(obj_id)
        for other in self.objects.values():
            if other.attached_to == obj_id:
                other.attached_to = None
        return self.new_object(old.card, old.owner, zone, controller=controller, uid=old.uid, token=old.token,
                               position=0 if bottom else None)

    def remove(self, obj_id: int) -> Obj:
        """Take an object out of the game entirely (an ability leaving the stack, a token ceasing to exist)."""
        old = self.objects.pop(obj_id)
        self.zone_list(old.zone, old.owner if old.zone in PLAYER_ZONES else 0).remove(obj_id)
        return old

    def find_uid(self, uid: int) -> Obj | None:
        for obj in self.objects.values():
            if obj.uid == uid and obj.ability is None:
                return obj
        return None

    def opponents(self, player: int) -> list[int]:
        """The opponents still in the game."""
        return [p.index for p in self.players if p.index != player and not p.lost]

    def in_turn_order(self, start: int) -> list[int]:
        """The players still in the game in turn order from ``start`` (APNAP order from the active player)."""
        n = len(self.players)
        return [i % n for i in range(start, start + n) if not self.players[i % n].lost]
