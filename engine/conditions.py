"""Conditions card files state: an intervening "if" (603.4), a state trigger (603.8), a static ability's condition.

A condition is a table in a card file, ``{ life_at_least = 40 }``; every key is one test, all must hold.
Each test is a function in :data:`CONDITIONS` — ``(game, source, controller, argument) -> bool`` — where
``source`` is the object with the ability (possibly as it last existed) and ``controller`` the player
the ability's "you" means.
"""
from __future__ import annotations

from typing import Callable

from . import memo
from .filters import Filter, matches
from .registry import applied, enforces

#: no upper bound on a count ("you control N or more")
UNBOUNDED = 10**9


def _count(game, player: int, flt: Filter, source_id) -> int:
    st = game.state
    return sum(1 for oid in st.battlefield
               if st.objects[oid].controller == player and matches(game, st.objects[oid], flt, player, source_id))


def _source_untapped(game, source, controller: int, arg) -> bool:
    return (not source.tapped) == arg


def _opponent_controls(game, source, controller: int, arg) -> bool:
    flt, at_least, at_most = arg
    return any(at_least <= _count(game, opp, flt, source.id) <= at_most for opp in game.state.opponents(controller))


def _you_control(game, source, controller: int, arg) -> bool:
    """"You control N or more [criteria]" (``at_least``, default 1) and/or "N or fewer" (``at_most``)."""
    flt, at_least, at_most = arg
    return at_least <= _count(game, controller, flt, source.id) <= at_most


def _you_control_none(game, source, controller: int, arg) -> bool:
    return _count(game, controller, arg, source.id) == 0


def _life_at_least(game, source, controller: int, arg) -> bool:
    memo.outside()  # life is not part of the board: what depends on it is not kept (engine.memo)
    return game.state.players[controller].life >= arg


def _cards_in_hand(game, source, controller: int, arg) -> bool:
    memo.outside()
    return len(game.state.players[controller].hand) == arg


@enforces("607.2f")
def _chosen(game, source, controller: int, arg) -> bool:
    """The word chosen for the linked "choose …" ability is this one (607.2f)."""
    applied("607.2f")
    link, value = arg
    return source.memory.get(link) == value


@enforces("607.2i")
def _paid(game, source, controller: int, arg) -> bool:
    """The spell this permanent was announced the named optional or alternative cost (607.2i): the ability that
    asks is linked to the one that let the cost be paid."""
    applied("607.2i")
    return arg in source.memory.get("paid", ())


def _your_turn(game, source, controller: int, arg) -> bool:
    memo.outside()  # whose turn it is is not part of the board (Gideon Blackblade is a creature on its turn only)
    return (game.state.active == controller) == arg


def _since_last_upkeep(game, source, controller: int, arg) -> bool:
    """It came under its controller's control since the beginning of their last upkeep (echo, 702.30)."""
    memo.outside()
    return (source.since_turn >= game.state.players[controller].previous_turn) == arg


#: condition key -> test (the argument's type is checked by the card file schema)
CONDITIONS: dict[str, Callable[..., bool]] = {
    "source_untapped": _source_untapped, "opponent_controls": _opponent_controls, "you_control": _you_control,
    "you_control_none": _you_control_none, "life_at_least": _life_at_least, "cards_in_hand": _cards_in_hand,
    "paid": _paid, "your_turn": _your_turn, "controlled_since_last_upkeep": _since_last_upkeep, "chosen": _chosen,
}

def holds(game, condition: tuple, source, controller: int) -> bool:
    """Do all tests of ``condition`` (a tuple of (key, argument)) hold?"""
    return all(CONDITIONS[key](game, source, controller, arg) for key, arg in condition)


def read(table: dict) -> tuple:
    """A condition table of a card file (checked by the schema) as the engine keeps it."""
    out = []
    for key, arg in table.items():
        if key in ("opponent_controls", "you_control"):
            criteria = {k: v for k, v in arg.items() if k not in ("at_least", "at_most")}
            at_most = arg.get("at_most", UNBOUNDED)
            arg = (Filter.from_table(criteria, ""), arg.get("at_least", 1 if "at_most" not in arg else 0), at_most)
        elif key == "you_control_none":
            arg = Filter.from_table(arg, "")
        elif key == "chosen":
            arg = (arg["link"], arg["value"])
        out.append((key, arg))
    return tuple(out)
