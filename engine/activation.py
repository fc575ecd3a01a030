"""Activating activated abilities (602).

The cost is everything before the colon (the ``cost`` of an ability in the
card file); activation instructions ("only once each turn", "only as a
sorcery") are its ``once_per_turn`` and ``timing``.  After the checks of 602.5
the ability is put on the stack and the steps of casting 601.2b–h are followed
(602.2b) — by the very same functions as for spells (:func:`engine.procedures.activate_ability`).
"""
from __future__ import annotations

from . import loyalty, statics, timing
from .errors import IllegalAction
from .filters import matches
from .registry import applied, enforces
from .state import BATTLEFIELD, STACK, Announcement


def ability_of(game, src, index: int | None):
    """The activated ability #index (1-based) of an object; without index, its only one."""
    ch = game.characteristics(src)
    if index is None:
        if len(ch.abilities) != 1:
            raise IllegalAction("602.1c", f"{ch.name} has {len(ch.abilities)} activated abilities; say which (#n)")
        return ch.abilities[0]
    if not 1 <= index <= len(ch.abilities):
        raise IllegalAction("602.1c", f"{ch.name} has no activated ability #{index}")
    return ch.abilities[index - 1]


@enforces("602.2")
def check_controller(game, player: int, src) -> None:
    """Only the controller of an object (its owner if it has none) can activate its abilities."""
    applied("602.2")
    if src.zone != BATTLEFIELD:
        raise IllegalAction("602.2", f"abilities of {src.card} in the {src.zone} cannot be activated")
    if src.controller != player:
        raise IllegalAction("602.2", f"only {game.state.players[src.controller].name}, who controls "
                                     f"{src.card}, can activate its abilities")


@enforces("602.5a")
def check_tap_symbol(game, player: int, src, ab) -> None:
    """{T}/{Q} of a creature: only if continuously controlled since the controller's most recent turn began."""
    if not (ab.cost.tap or ab.cost.untap):
        return
    ch = game.characteristics(src)
    if "creature" not in ch.types:
        return
    applied("602.5a")
    if "haste" in game.keywords(src):
        return
    if src.since_turn >= game.state.players[player].last_turn:
        raise IllegalAction("602.5a", f"{ch.name} has not been under {game.state.players[player].name}'s control "
                                      f"since the start of their most recent turn")


@enforces("602.1b", "602.5b", "602.5d", "602.5e")
def check_activation_instructions(game, player: int, src, ab) -> None:
    """Restrictions after the effect: once each turn (stays with the object), sorcery or instant timing."""
    st = game.state
    if ab.once_per_turn:
        applied("602.1b")
        applied("602.5b")
        if src.activations_turn == st.turn and src.activations.get(ab.index, 0) >= 1:
            raise IllegalAction("602.5b", f"ability #{ab.index} of {src.card} may be activated only once each turn")
    if ab.timing is not None:
        applied("602.1b")
        applied("602.5d" if ab.timing == "sorcery" else "602.5e")
    timing.check_timing(game, player, ab.timing == "sorcery", f"ability #{ab.index} of {src.card} can be activated",
                        ability=True)


@enforces("602.5", "605.3a")
def may_begin_activating(game, player: int, src, ab, mana_ability: bool = False, while_paying: bool = False) -> None:
    """A player cannot begin to activate an ability that is forbidden to be activated."""
    applied("602.5")
    for source, flt, mana_too in statics.activation_prohibitions(game, player):
        if (mana_too or not mana_ability) and (flt is None or matches(game, src, flt, source.controller)):
            raise IllegalAction("602.5", f"{source.card}: abilities of {src.card} can't be activated")
    check_controller(game, player, src)
    check_tap_symbol(game, player, src, ab)
    if loyalty.is_loyalty_ability(ab):
        loyalty.check_loyalty_timing(game, player, src)
    elif mana_ability:
        applied("605.3a")
        if not while_paying and not timing.has_priority(game.state, player):
            raise IllegalAction("605.3a", f"{game.state.players[player].name} neither has priority nor is paying")
        if ab.once_per_turn and src.activations_turn == game.state.turn and src.activations.get(ab.index, 0):
            raise IllegalAction("602.5b", f"ability #{ab.index} of {src.card} may be activated only once each turn")
    else:
        check_activation_instructions(game, player, src, ab)


def record_activation(state, src, ab) -> None:
    if src.activations_turn != state.turn:
        src.activations = {}
        src.activations_turn = state.turn
    src.activations[ab.index] = src.activations.get(ab.index, 0) + 1
    if ab.cost.loyalty is not None:
        src.loyalty_turn = state.turn


@enforces("602.2a")
def put_ability_on_stack(game, player: int, src, ab):
    """The ability is created on the stack as an object that is not a card; its activator controls it."""
    applied("602.2a")
    obj = game.state.new_object(None, player, STACK)
    obj.ability = (src.id, ab.index)
    obj.source_card = src.card
    obj.source_uid = src.uid
    obj.abdef = ab
    obj.ann = Announcement()
    return obj
