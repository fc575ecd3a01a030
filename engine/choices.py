"""What a player announces and decides for one cast or activation — the input of the casting steps."""
from __future__ import annotations

from dataclasses import dataclass, field

from .state import Target


@dataclass
class ManaActivation:
    """A mana ability activated while paying (601.2g): source object, ability index, its own choices."""

    obj_id: int
    index: int | None = None  # None: the object's only mana ability
    choices: Choices | None = None


@dataclass
class Choices:
    """Everything a player announces and decides for one cast or activation."""

    from_zone: str = "hand"
    face: str | None = None  # cast with alternative characteristics: face down, bestowed, as an Adventure
    splice: tuple[str, ...] = ()  # cards revealed from the hand to splice onto the spell (702.47)
    modes: tuple[int, ...] = ()  # 0-based mode indices
    x: int | None = None
    alternative: str | None = None
    optional: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()  # for "choose one of these additional costs"
    targets: dict[str, tuple[Target, ...]] = field(default_factory=dict)
    division: dict[Target, int] = field(default_factory=dict)
    sacrifice: tuple[int | str, ...] = ()  # object ids, or names looked up when the cost is paid
    discard: tuple[int | str, ...] = ()
    mana: tuple[ManaActivation, ...] = ()
    pay: list[int] | None = None  # exact mana to spend, W U B R G C
    reveal: tuple[int, ...] = ()  # cards revealed to pay a cost (a morph cost "reveal a … card", 701.16a)
    hybrid: tuple[str, ...] = ()  # the colour announced for each hybrid mana symbol, in order (601.2b)
    chooser: int | None = None  # the opponent who makes the choices the spell leaves to an opponent (601.6)
    resolve: list = field(default_factory=list)  # choices made while resolving (608.2d), in order
    #: decisions made while the action goes on: the order of one's triggered abilities ((REF, #n) first on the
    #: stack first), the choices for each ((REF, #n), Choices), which legendary permanent to keep (704.5j)
    order: list = field(default_factory=list)
    triggers: list = field(default_factory=list)
    keep: list = field(default_factory=list)
    #: the replacement or prevention effects (by source card name) the affected player applies first (616.1)
    replace: list = field(default_factory=list)
    #: combat declarations: attackers (object id, what it attacks); blockers per defending player (player,
    #: [(blocker id, attacker id)])
    attack: list = field(default_factory=list)
    block: list = field(default_factory=list)


NO_CHOICES = Choices()
