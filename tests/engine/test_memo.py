"""engine.memo: characteristics kept per board version are served again only while the board is the same.

Each test reads a value (so that it is kept), changes the game in one way, and reads again: without the new
version that change gives the state, the second read would serve the kept value.  These tests switch off
memo.CHECK (which the other engine tests run with) so that kept values are really served."""
import pytest

from engine import memo
from engine.continuous import Continuous, end_of_turn
from engine.state import Watched
from tests.engine.helpers import ALICE, BOB, new_game


@pytest.fixture(autouse=True)
def served(monkeypatch):
    monkeypatch.setattr(memo, "CHECK", False)


def _bears_with_banner():
    game = new_game()
    banner = game.put("Beispiel-Ehrenbanner", "battlefield", ALICE)  # creatures you control get +1/+1
    bear = game.put("Grizzlybären", "battlefield", ALICE)
    obj = game.state.objects[bear]
    assert game.power(obj) == 3
    return game, banner, obj


def test_a_kept_value_is_served_while_the_board_is_the_same():
    game, _, obj = _bears_with_banner()
    version = game.state.version
    obj.damage = 1  # not part of the board's characteristics: no new version
    game.state.players[BOB].life = 3
    assert game.state.version == version
    assert game.characteristics(obj) is game.characteristics(obj)
    assert game.memo[version].values[obj.id][1] == 3


def test_a_counter_put_after_the_read_is_seen_122_1a():
    game, _, obj = _bears_with_banner()
    obj.counters["+1/+1"] = 2
    assert game.power(obj) == 5
    obj.counters.pop("+1/+1")
    assert game.power(obj) == 3


def test_a_control_change_is_seen_613_1b():
    game, _, obj = _bears_with_banner()
    obj.controller = BOB  # the banner gives +1/+1 to its controller's creatures only
    assert game.power(obj) == 2


def test_the_source_leaving_the_battlefield_is_seen_611_3b():
    game, banner, obj = _bears_with_banner()
    game.state.move(banner, "graveyard")
    assert game.power(obj) == 2


def test_an_effect_beginning_and_ending_is_seen_611_2a():
    game = new_game()
    bear = game.put("Grizzlybären", "battlefield", ALICE)
    obj = game.state.objects[bear]
    assert game.toughness(obj) == 2
    game.state.effects.append(Continuous({"7c": {"power": 3, "toughness": 3}}, 1000, ALICE, "test", bear,
                                         locked=frozenset({bear}), duration="end_of_turn"))  # a list changed in place
    assert game.toughness(obj) == 5
    end_of_turn(game)
    assert game.toughness(obj) == 2


def test_an_ability_removed_by_an_aura_attached_later_is_seen_613_1f():
    game = new_game()
    bird = game.put("Beispiel-Flugaura", "battlefield", ALICE)  # enchanted creature has flying
    bear = game.put("Grizzlybären", "battlefield", ALICE)
    obj = game.state.objects[bear]
    assert "flying" not in game.keywords(obj)
    game.state.objects[bird].attached_to = bear
    assert "flying" in game.keywords(obj)


def test_a_rolled_back_state_finds_its_own_values_and_a_copy_does_not_share_changes():
    game, _, obj = _bears_with_banner()
    before = game.state
    game.state = before.copy()
    copied = game.state.objects[obj.id]
    assert game.state.version == before.version  # same board: the kept values serve the copy
    copied.counters["+1/+1"] = 1
    assert game.power(copied) == 4
    game.state = before  # rolled back
    assert game.power(obj) == 3


def test_a_number_counted_outside_the_board_is_never_kept_604_3():
    game = new_game()
    being = game.put("Beispiel-Handwesen", "battlefield", ALICE)  # power: cards in its owner's hand
    obj = game.state.objects[being]
    assert game.power(obj) == 0
    version = game.state.version
    game.state.new_object("Grizzlybären", ALICE, "hand")  # a card drawn, say: no change to the board
    assert game.state.version == version
    assert game.power(obj) == 1


def test_counters_and_memory_of_a_permanent_tell_its_state():
    game, _, obj = _bears_with_banner()
    assert isinstance(obj.counters, Watched) and isinstance(obj.memory, Watched)
    version = game.state.version
    obj.memory["chosen"] = "W"
    assert game.state.version != version
    version = game.state.version
    obj.memory = {"other": 1}  # a new dict is watched too
    obj.memory["x"] = 2
    assert game.state.version != version


def test_the_check_finds_a_change_made_behind_the_versions_back(monkeypatch):
    game, _, obj = _bears_with_banner()
    monkeypatch.setattr(memo, "CHECK", True)
    object.__setattr__(obj, "controller", BOB)  # bypasses the watch: the kept value is now wrong
    with pytest.raises(memo.Stale):
        game.power(obj)


def test_a_snapshot_keeps_each_object_as_it_was_before_it_changed():
    """take_action's snapshot shares the objects until one is about to change (copy on write)."""
    game, banner, obj = _bears_with_banner()
    st = game.state
    snap = st.snapshot()
    assert snap.objects[obj.id] is obj  # shared until it changes
    obj.tapped = True
    obj.counters["+1/+1"] = 1
    game.state.objects[banner].memory["x"] = 1
    obj.activations[1] = 1
    assert snap.objects[obj.id] is not obj
    assert not snap.objects[obj.id].tapped and not snap.objects[obj.id].counters
    assert snap.objects[obj.id].activations == {} and "x" not in snap.objects[banner].memory
    st.release(snap)
    game.state = snap.revive()  # put back: the values of the moment of the snapshot, read anew
    assert game.power(game.state.objects[obj.id]) == 3
    assert game.state.version != st.version
