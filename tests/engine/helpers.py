"""Helpers shared by the engine tests: games in a line, targets by id, resolving."""
from engine.costs import pool_from, pool_str
from engine.game import Choices, Game, ManaActivation
from engine.state import object_target, player_target

ALICE, BOB = 0, 1


def new_game(**pools) -> Game:
    game = Game.new(["Alice", "Bob"])
    for name, mana in pools.items():
        game.state.players[ALICE if name == "alice" else BOB].pool = pool_from(mana)
    return game


def pool(game, player=ALICE) -> str:
    return pool_str(game.state.players[player].pool)


def names(game, ids) -> list[str]:
    return sorted(game.state.objects[i].card for i in ids)


def resolve(game):
    """Both players pass in succession; returns the error of the resolving pass, if any."""
    first = game.state.priority
    assert game.pass_priority(first) is None
    return game.pass_priority(game.state.priority)


__all__ = ["Choices", "ManaActivation", "ALICE", "BOB", "new_game", "pool", "names", "resolve", "object_target",
           "player_target"]
