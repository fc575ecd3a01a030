"""May a player begin to cast a spell? (601.3) — a rule or effect must allow it, none may forbid it.

A rule allows casting a card from its owner's hand at the timing of its type (instants and cards
with flash any time with priority, others at sorcery speed); static abilities may allow more —
casting from the top of a library (Garruks Horde), casting spells with certain characteristics as
though they had flash (601.3b), a spell's own "flash if" (601.3c, 601.3d).  Which characteristics
count is decided by the way it is cast: face down, bestowed, as an Adventure — these alternative
characteristics replace the card's for the check (601.3e).  A prohibition that some choice made while
announcing could avoid does not stop the player from beginning (601.3a); one that applies once the
spell is announced makes the cast illegal (601.4, :func:`engine.casting.check_announced_spell`).
"""
from __future__ import annotations

from . import castpermission, conditions, flashback, statics, timing
from .errors import IllegalAction
from .facedown import may_cast_face_down
from .filters import matches
from .registry import applied, enforces
from .state import EXILE, HAND, LIBRARY, STACK, Announcement


def considered(game, obj, face: str | None):
    """The characteristics the check looks at: the card's, or the alternative ones it is cast with (601.3e)."""
    card = game.characteristics(obj)
    if face is None:
        return card
    if face not in card.faces:
        raise IllegalAction("601.3e", f"{card.name} cannot be cast {face!r} (ways: "
                                      f"{', '.join(card.faces) or 'none'})")
    alternative = card.faces[face]
    if alternative.way == "face_down":
        may_cast_face_down(card)
    return alternative


@enforces("601.3", "601.3e")
def may_begin_casting(game, player: int, obj, ab, choices) -> None:
    """A rule or effect must allow casting it from where it is, at this time, and no effect may forbid it."""
    st = game.state
    applied("601.3")
    ch = considered(game, obj, choices.face)
    if choices.face is not None:
        applied("601.3e")  # the alternative characteristics replace the card's for this check
    if obj.zone != choices.from_zone:
        raise IllegalAction("601.3", f"{obj.card} is not in the {choices.from_zone}")
    from_graveyard = flashback.may_flashback(game, player, obj, ch, choices)
    if not (obj.zone == HAND and obj.owner == player) and not from_graveyard \
            and not allowed_from_elsewhere(game, player, obj, ch):
        raise IllegalAction("601.3", f"no rule or effect allows {st.players[player].name} to cast "
                                     f"{ch.name or 'it'} from the {obj.zone}")
    flash = "instant" not in ch.types and "flash" not in ch.keywords and as_though_flash(game, player, obj, ch,
                                                                                         choices)
    if flash and from_graveyard:
        flashback.both_as_though(game, player, obj)
    instant_speed = "instant" in ch.types or "flash" in ch.keywords or flash
    timing.check_timing(game, player, not instant_speed, f"{ch.name or 'it'} can be cast")
    if any(s.kind == "cast_only" for s in ch.statics):
        check_own_restrictions(game, player, obj, ch)
    if any_prohibition(game, player):
        check_prohibitions(game, player, obj, ab, choices.face)


@enforces("601.3e", "en-2024-11-08/715.3d")
def allowed_from_elsewhere(game, player: int, obj, ch) -> bool:
    """A static ability lets the player cast spells with these characteristics from the top of their library or
    from their graveyard; a card exiled after resolving as an Adventure may be cast by its owner from exile (not as
    an Adventure)."""
    st = game.state
    if castpermission.permission(game, player, obj, ch) is not None:
        applied("601.3e")
        return True
    if obj.zone == EXILE and obj.memory.get("adventure") == player and not ch.way:
        applied("en-2024-11-08/715.3d")
        return True
    if obj.zone != LIBRARY or obj.owner != player or st.players[player].library[-1:] != [obj.id]:
        return False
    for source, static in statics.statics_of_kind(game, "cast_from"):
        if static.params.get("zone") == "library_top" and source.controller == player and matches(
                game, obj, static.params["spells"], player, ch=ch, any_zone=True):
            applied("601.3e")
            return True
    return False


@enforces("601.3b", "601.3c", "601.3d", "609.4")
def as_though_flash(game, player: int, obj, ch, choices) -> bool:
    """May it be cast as though it had flash — by an effect for spells like it (601.3b), by its own ability if
    a cost is paid (601.3c) or while a condition holds (601.3d)?"""
    for source, static in statics.statics_of_kind(game, "flash_for"):
        if source.controller == player and matches(game, obj, static.params["spells"], player, ch=ch,
                                                   any_zone=True):
            applied("601.3b")  # the choices made while announcing (how it is cast) give it those characteristics
            applied("609.4")  # "as though it had flash"
            return True
    for static in ch.statics:
        if static.kind != "flash":
            continue
        paid = set(choices.optional) | set(choices.chosen) | {choices.alternative}
        if "if_paid" in static.params and static.params["if_paid"] in paid:
            applied("601.3c")
            applied("609.4")
            return True
        if "condition" in static.params and conditions.holds(game, static.params["condition"], obj, player):
            applied("601.3d")
            applied("609.4")
            obj.memory["flash_condition"] = static.params["condition"]
            return True
    return False


@enforces("604.6")
def check_own_restrictions(game, player: int, obj, ch) -> None:
    """"Cast [this card] only …": a static ability that works in the zone it can be cast from."""
    for static in ch.statics:
        if static.kind == "cast_only":
            applied("604.6")
            phase = static.params["phase"]
            if game.state.phase != phase:
                raise IllegalAction("604.6", f"{ch.name} can be cast only during the {phase} phase")


@enforces("601.3", "601.3a")
def check_prohibitions(game, player: int, obj, ab, face: str | None = None) -> None:
    """No effect may forbid it — unless a choice made while announcing could avoid the prohibition (601.3a).  Cast
    with alternative characteristics (face down), those are what a prohibition looks at (601.3e, 702.34b)."""
    for source, flt in statics.prohibitions(game, player):
        outcomes = _prohibited_by_choice(game, player, obj, ab, flt, face)
        if not any(outcomes):
            continue  # the prohibition is not about this spell at all
        if all(outcomes):
            applied("601.3")
            raise IllegalAction("601.3", f"{game.characteristics(source).name} forbids casting {obj.card}")
        applied("601.3a")


def _as_spell(obj, player: int, x: int, face: str | None = None):
    probe = obj.copy()
    probe.zone, probe.controller, probe.ann = STACK, player, Announcement(x=x)
    if face is not None:
        probe.face = face
    return probe


def any_prohibition(game, player: int) -> bool:
    """Does any static ability forbid ``player`` to cast spells of some kind?"""
    return next(statics.prohibitions(game, player), None) is not None


def _prohibited_by_choice(game, player: int, obj, ab, flt, face: str | None = None) -> list[bool]:
    """For each value of X the player could announce: would the spell as announced be forbidden?"""
    xs = range(0, 21) if ab.cost.mana.x or any(a.cost.mana.x for a in ab.alternative) else (0,)
    return [matches(game, _as_spell(obj, player, x, face), flt, player) for x in xs]


@enforces("601.4a")
def flash_kept(game, obj) -> None:
    """Begun as though it had flash because a condition held: the cast goes on even if it no longer holds."""
    condition = obj.memory.get("flash_condition")
    if condition is not None and not conditions.holds(game, condition, obj, obj.controller):
        applied("601.4a")
