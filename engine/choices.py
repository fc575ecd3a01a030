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
    resolve: list = field(default_factory=list)  # choices made while resolving (608.2d), in order


NO_CHOICES = Choices()
