"""State-based actions through the engine's API, where no scenario can reach them.

* The legend rule (704.5j) for a program using the engine directly (no scenario and so no labels: the permanent to
  keep is named by its card in ``Choices.keep``), and without any decisions at all (the state-based actions checked
  between actions); scenarios cover the labelled ones (data/scenarios/704.5j-*.scenario).
* A token put into a graveyard ceases to exist at the next check (704.5d); a player at 1 life does not lose (704.5a).
* The check says whether it performed anything (the cleanup step gives players priority only then, 514.3a).
* A creature with toughness 0 and nothing else about it (no ability, counter, damage or effect: the engine's quick
  look before a full check must not pass it by) is put into the graveyard (704.5f).
* The world rule (704.5k) goes by timestamps, not by the order of entering: a world permanent turned face up
  (613.7f) has had the supertype for the shortest time although it entered first.

Cases made for the mutation check of engine/sba.py (issue 33): its survivors showed no test reached these paths."""
from __future__ import annotations

import pytest

from engine import continuous, sba
from engine.cards import CardDB
from engine.errors import IllegalAction
from engine.game import Choices, Game
from engine.paths import CARDS_DIR

ISAMARU, CRADLE = "Isamaru, Hound of Konda", "Gaeas Wiege"


def _board(*cards: tuple[str, bool]) -> tuple[Game, list[int]]:
    game = Game.new(["Alice", "Bob"])
    return game, [game.put(card, "battlefield", 0, tapped=tapped) for card, tapped in cards]


def test_two_legends_nothing_tells_apart_lose_one_without_any_decision():
    game, (first, second) = _board((ISAMARU, False), (ISAMARU, False))
    assert game.decisions is None
    sba.check_state_based_actions(game)
    on_battlefield = [o for o in (first, second) if o in game.state.battlefield]
    assert len(on_battlefield) == 1
    assert [game.state.objects[o].card for o in game.state.players[0].graveyard] == [ISAMARU]


def test_the_card_named_in_keep_is_kept_and_its_name_used_once():
    """Isamaru first on the battlefield, the two Wiegen told apart (one tapped): ``keep`` names the Wiege; the
    Isamaru group looks for it in vain and, its two alike, loses one; the Wiege group keeps the first Wiege."""
    game, (isamaru1, isamaru2, untapped, tapped) = _board((ISAMARU, False), (ISAMARU, False), (CRADLE, False),
                                                          (CRADLE, True))
    game.decisions = Choices(keep=[CRADLE])
    sba.check_state_based_actions(game)
    assert untapped in game.state.battlefield and tapped not in game.state.battlefield
    assert (isamaru1 in game.state.battlefield) != (isamaru2 in game.state.battlefield)
    assert game.decisions.keep == []      # the name is used up: a later group does not choose by it again


def test_legends_told_apart_and_no_choice_is_an_illegal_action_naming_the_player():
    game, _ = _board((CRADLE, False), (CRADLE, True))
    game.decisions = Choices(keep=[ISAMARU])      # a name that is not in the group chooses nothing
    with pytest.raises(IllegalAction) as refused:
        sba.check_state_based_actions(game)
    assert refused.value.rule.endswith("704.5j")
    assert refused.value.message == f"Alice controls 2 legendary {CRADLE} and chooses one to keep (add 'keep: LABEL' " \
                                    "to the step)"


def test_the_world_permanent_with_the_latest_timestamp_stays_not_the_last_to_enter_704_5k():
    """704.5k: all but the world permanent that "has had the world supertype for the shortest amount of time" go.
    The first Nether Void is turned face up after the second entered (613.7f: a new timestamp; face down it had
    no supertypes), so it is the one that stays."""
    game = Game.new(["Alice", "Bob"])
    first = game.put("Nether Void", "battlefield", 0)
    second = game.put("Nether Void", "battlefield", 1)
    continuous.restamp(game, game.state.objects[first], "613.7f")
    sba.check_state_based_actions(game)
    assert first in game.state.battlefield and second not in game.state.battlefield
    assert [game.state.objects[o].card for o in game.state.players[1].graveyard] == ["Nether Void"]


#: a creature card with toughness 0 and no abilities (made up: the 0/0 cards of data/cards all enter with counters)
NOTHING = """name = "Nichts"
cost = "{1}"
types = ["creature"]
power = 0
toughness = 0
text = ""
"""


@pytest.mark.parametrize("toughness", [0, -1])
def test_a_creature_with_toughness_0_or_less_and_nothing_else_goes_to_the_graveyard_704_5f(tmp_path, toughness):
    (tmp_path / "nichts.toml").write_text(NOTHING.replace("toughness = 0", f"toughness = {toughness}"),
                                          encoding="utf-8")
    game = Game.new(["Alice", "Bob"], db=CardDB.load(CARDS_DIR, tmp_path))
    nothing = game.put("Nichts", "battlefield", 0)
    bear = game.put("Grizzlybären", "battlefield", 0)
    assert game.pass_priority(0) is None
    assert nothing not in game.state.battlefield and bear in game.state.battlefield
    assert [game.state.objects[o].card for o in game.state.players[0].graveyard] == ["Nichts"]


def test_the_check_says_whether_it_performed_any_action_514_3a():
    game = Game.new(["Alice", "Bob"])
    bear = game.put("Grizzlybären", "battlefield", 0)
    assert sba.check_state_based_actions(game) is False      # nothing applies
    game.state.objects[bear].damage = 2
    assert sba.check_state_based_actions(game) is True       # 704.5g: the bear is destroyed
    assert bear not in game.state.battlefield
    assert sba.check_state_based_actions(game) is False


def test_a_token_that_died_ceases_to_exist_and_a_player_at_1_life_stays_704_5d_704_5a():
    """A token Grizzlybären with lethal damage is destroyed (704.5g) and, in the graveyard, ceases to exist (704.5d)
    when the check is repeated (704.3); Bob, at 1 life, has not lost (704.5a: 0 or less)."""
    game = Game.new(["Alice", "Bob"])
    token = game.put("Grizzlybären", "battlefield", 0)
    game.state.objects[token].token = True
    game.state.objects[token].damage = 2
    game.state.players[1].life = 1
    assert sba.check_state_based_actions(game) is True
    assert game.state.players[0].graveyard == [] and game.state.battlefield == []
    assert not any(o.card == "Grizzlybären" for o in game.state.objects.values())
    assert not game.state.players[1].lost and not game.state.over
