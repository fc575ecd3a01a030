"""What a card is to the engine: immutable definitions read from card files (:mod:`engine.cards`)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .costs import NO_COST, Cost, ManaCost
from .filters import Filter

PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker"})


@dataclass(frozen=True, slots=True)
class TargetSlot:
    """One instance of the word "target" ("… deiner Wahl") and what it may target."""

    name: str
    count: int | str | tuple = 1  # int, "X", or (min, max)
    player: str | None = None  # None: no players; "any", "you", "opponent"
    objects: Filter | None = None  # None: no objects
    distinct_from: tuple[str, ...] = ()
    if_paid: str | None = None  # only a target if this optional/alternative cost was announced
    divide: int | str | None = None  # amount divided among this slot's targets (601.2d)


@dataclass(frozen=True, slots=True)
class Mode:
    targets: tuple[TargetSlot, ...] = ()
    effects: tuple[dict, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class NamedCost:
    name: str
    cost: Cost
    #: dash (702.109a): cast this way, the permanent has haste and returns to its owner's hand at the beginning
    #: of the next end step
    haste: bool = False
    returns: bool = False


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """The castable or activatable part of a card: a spell, or one activated ability."""

    kind: str  # "spell" or "activated"
    index: int  # 0 for the spell, 1.. for activated abilities
    cost: Cost = NO_COST  # mana cost of the spell / activation cost of the ability (602.1a)
    additional: tuple[Cost, ...] = ()
    choose_cost: tuple[NamedCost, ...] = ()
    optional: tuple[NamedCost, ...] = ()
    alternative: tuple[NamedCost, ...] = ()
    modes: tuple[Mode, ...] = (Mode(),)
    modal: bool = False
    choose: tuple[int, int] = (1, 1)
    choose_if_paid: tuple = ()  # (cost name, (min, max))
    once_per_turn: bool = False
    chooser: str | None = None  # "opponent": an opponent makes the choices the controller would (601.6, 602.3)
    timing: str | None = None  # None: any time with priority; "instant" or "sorcery" as stated (602.5d/e)
    text: str = ""

    @property
    def is_loyalty(self) -> bool:
        return self.cost.loyalty is not None

    def slots(self, modes: tuple[int, ...] = (0,)) -> list[TargetSlot]:
        return [s for m in modes for s in self.modes[m].targets]

    def all_slots(self) -> list[TargetSlot]:
        return [s for m in self.modes for s in m.targets]


@dataclass(frozen=True, slots=True)
class StaticDef:
    kind: str  # a key of engine.cardfile.STATIC_KINDS
    params: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CardDef:
    name: str
    types: frozenset
    subtypes: frozenset = frozenset()
    supertypes: frozenset = frozenset()
    colors: frozenset = frozenset()
    mana_cost: ManaCost = ManaCost()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    keywords: frozenset = frozenset()
    spell: AbilityDef | None = None
    abilities: tuple[AbilityDef, ...] = ()
    statics: tuple[StaticDef, ...] = ()
    triggers: tuple = ()
    pending: tuple[str, ...] = ()  # parts of the card the engine does not execute yet
    text: str = ""
    name_en: str = ""
    token: bool = False
    file: str = ""
    cda: bool = False  # it has a characteristic-defining ability for colour or creature types (604.3)
    way: str = ""  # alternative characteristics: how they are had — "face_down", "bestow", "adventure", "back"
    faces: dict = field(default_factory=dict)  # name -> alternative characteristics (a CardDef)
    anchored: bool = False  # some of its triggered abilities are marked with an anchor word (614.12b)
    also_names: frozenset = frozenset()  # names it has in addition to its name (612.7)

    @property
    def is_permanent(self) -> bool:
        return bool(self.types & PERMANENT_TYPES)


@dataclass(frozen=True, slots=True)
class TriggerDef:
    """A triggered ability (603.1): "[When/Whenever/At] [trigger event], [if condition,] [effect]."

    ``when`` names the trigger event (a key of :data:`engine.triggers.TRIGGERS`); ``what``/``who``
    say which object or player it is about; ``condition`` is an intervening "if" clause (603.4),
    ``state`` the condition of a state trigger (603.8).
    """

    index: int  # 1-based among the card's triggered abilities
    when: str
    ability: AbilityDef  # targets, modes and effects of the ability once it is on the stack
    what: object = "self"  # "self", a Filter, or None (any object)
    who: str = "any"  # "you", "opponent", "any": the player the event is about, relative to the controller
    from_zone: str | None = None
    to_zone: str | None = None
    step: str | None = None
    condition: tuple = ()  # ((name, argument), ...) — all must hold (603.4)
    state: tuple = ()  # a state trigger's condition (603.8)
    once_each_turn: bool = False  # "Do this only once each turn." (603.2i)
    link: str | None = None  # the static ability it is linked to (603.11, 607.2h)
    cant_be_countered: bool = False  # "This ability can't be countered." (603.1a)
    text: str = ""
    anchor: tuple | None = None  # (link, word): it has this ability only if that word was chosen (614.12b)
