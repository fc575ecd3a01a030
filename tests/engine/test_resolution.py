"""Resolving (608) and the one-shot effect vocabulary (609, 610)."""
import pytest

from engine.effects import EFFECTS
from engine.errors import NotExecutable
from tests.engine.helpers import ALICE, BOB, Choices, names, new_game, object_target, player_target, resolve


def test_all_targets_illegal_means_it_does_not_resolve_608_2b():
    game = new_game(alice="{B}{B}", bob="{U}")
    thirst = game.put("Sorins Durst", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    assert game.cast(ALICE, thirst, Choices(targets={"kreatur": (object_target(baer),)})) is None
    game.state.move(baer, "hand")  # leaves the battlefield before resolution
    resolve(game)
    assert game.state.players[ALICE].life == 20  # no life gained either
    assert names(game, game.state.players[ALICE].graveyard) == ["Sorins Durst"]


def test_partially_illegal_targets_608_2b():
    game = new_game(alice="{R}{R}{R}{R}{R}")
    cone = game.put("Flammenkegel", "hand", ALICE)
    b1 = game.put("Grizzlybären", "battlefield", BOB)
    b2 = game.put("Llanowarelfen", "battlefield", BOB)
    ch = Choices(targets={"eins": (object_target(b1),), "zwei": (player_target(BOB),), "drei": (object_target(b2),)})
    assert game.cast(ALICE, cone, ch) is None
    game.state.move(b2, "hand")
    resolve(game)
    assert game.state.players[BOB].life == 18
    assert game.state.objects[b1].damage == 1
    assert names(game, game.state.players[BOB].hand) == ["Llanowarelfen"]


def test_same_object_legal_for_one_word_only_608_2b():
    """The Seuchensporen idea with a tapped-creature requirement: untapping makes one part illegal."""
    from engine.cards import CardDB, parse_card
    from engine.game import Game

    db = CardDB.load()
    db.add(parse_card({"name": "Test: getappte Kreatur und Land", "cost": "{B}", "types": ["sorcery"],
                       "targets": [{"name": "kreatur", "types": ["creature"], "tapped": True},
                                   {"name": "land", "types": ["land"]}],
                       "effects": [{"do": "put_counters", "on": "kreatur", "kind": "-1/-1", "amount": 1},
                                   {"do": "destroy", "what": "land"}]}, "test"))
    db.add(parse_card({"name": "Test: Landkreatur", "types": ["land", "creature"], "power": 1, "toughness": 3},
                      "test"))
    game = Game.new(["Alice", "Bob"], db=db)
    game.state.players[ALICE].pool = [0, 0, 1, 0, 0, 0]
    spell = game.put("Test: getappte Kreatur und Land", "hand", ALICE)
    both = game.put("Test: Landkreatur", "battlefield", BOB, tapped=True)
    t = (object_target(both),)
    assert game.cast(ALICE, spell, Choices(targets={"kreatur": t, "land": t})) is None
    game.state.objects[both].tapped = False
    resolve(game)
    assert names(game, game.state.players[BOB].graveyard) == ["Test: Landkreatur"]


def test_instructions_in_order_and_to_the_graveyard_608_2c_608_2n():
    game = new_game(alice="{R}{R}{R}")
    smash = game.put("Schmetterschlag", "hand", ALICE)
    art = game.put("Jungbrunnen", "battlefield", BOB)
    game.put("Insel", "library", ALICE)
    game.cast(ALICE, smash, Choices(targets={"artefakt": (object_target(art),)}))
    resolve(game)
    assert names(game, game.state.players[ALICE].hand) == ["Insel"]
    assert names(game, game.state.players[ALICE].graveyard) == ["Schmetterschlag"]
    assert names(game, game.state.players[BOB].graveyard) == ["Jungbrunnen"]


def test_permanent_spell_enters_under_its_controller_608_3a():
    game = new_game(alice="{G}{G}")
    bears = game.put("Grizzlybären", "hand", ALICE)
    game.cast(ALICE, bears, Choices())
    resolve(game)
    [obj] = [game.state.objects[o] for o in game.state.battlefield]
    assert obj.card == "Grizzlybären" and obj.controller == ALICE and obj.since_turn == game.state.turn


def test_aura_with_illegal_target_goes_to_the_graveyard_608_3b():
    game = new_game(alice="{U}{U}{U}{U}")
    aura = game.put("Wassermangel", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    game.cast(ALICE, aura, Choices(targets={"kreatur": (object_target(baer),)}))
    game.state.move(baer, "graveyard")
    resolve(game)
    assert names(game, game.state.players[ALICE].graveyard) == ["Wassermangel"]


def test_aura_leaves_when_its_creature_dies():
    game = new_game(alice="{U}{U}{U}{U}{R}")
    aura = game.put("Wassermangel", "hand", ALICE)
    shock = game.put("Schock", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    game.cast(ALICE, aura, Choices(targets={"kreatur": (object_target(baer),)}))
    resolve(game)
    game.cast(ALICE, shock, Choices(targets={"ziel": (object_target(baer),)}))
    resolve(game)
    assert names(game, game.state.players[ALICE].graveyard) == ["Schock", "Wassermangel"]


def test_information_is_determined_on_resolution_608_2h():
    game = new_game(alice="{B}{B}{B}{B}")
    murmurs = game.put("Gemurmel der Diener", "hand", ALICE)
    for _ in range(3):
        game.put("Insel", "library", ALICE)
    game.put("Grizzlybären", "battlefield", ALICE)
    game.cast(ALICE, murmurs, Choices())
    game.put("Grizzlybären", "battlefield", ALICE)
    resolve(game)
    assert len(game.state.players[ALICE].hand) == 2 and game.state.players[ALICE].life == 18


def test_do_as_much_as_possible_609_3():
    game = new_game(alice="{B}{B}")
    council = game.put("Rat der Todesweisen", "hand", ALICE)
    game.put("Insel", "hand", BOB)
    game.cast(ALICE, council, Choices(modes=(0,), targets={"abwerfer": (player_target(BOB),)}))
    resolve(game)
    assert names(game, game.state.players[BOB].graveyard) == ["Insel"]


def test_choices_while_resolving_608_2d():
    game = new_game(alice="{B}{B}")
    edict = game.put("Grausames Edikt", "hand", ALICE)
    b1 = game.put("Grizzlybären", "battlefield", BOB)
    b2 = game.put("Llanowarelfen", "battlefield", BOB)
    game.cast(ALICE, edict, Choices(targets={"gegner": (player_target(BOB),)}))
    game.pass_priority(ALICE)
    err = game.pass_priority(BOB, Choices())
    assert err.rule == "608.2d"
    assert game.pass_priority(BOB, Choices(resolve=[b2])) is None
    assert names(game, game.state.players[BOB].graveyard) == ["Llanowarelfen"]
    assert b1 in game.state.objects


def test_counter_a_spell():
    game = new_game(alice="{R}", bob="{U}{U}{U}{U}{U}")
    blaze = game.put("Heiße Glut", "hand", ALICE)
    blast = game.put("Zauberspruchexplosion", "hand", BOB)
    game.cast(ALICE, blaze, Choices(x=0, targets={"ziel": (player_target(BOB),)}))
    spell = game.state.stack[-1]
    game.pass_priority(ALICE)
    assert game.cast(BOB, blast, Choices(x=1, targets={"spruch": (object_target(spell),)})) is None
    resolve(game)
    assert game.state.stack == [] and names(game, game.state.players[ALICE].graveyard) == ["Heiße Glut"]


def test_effect_vocabulary_is_complete():
    for kind in ["damage", "destroy", "draw", "gain_life", "lose_life", "add_mana", "counter", "tap", "untap",
                 "put_counters", "move", "sacrifice", "discard"]:
        assert kind in EFFECTS


def test_pending_effects_stop_with_a_clear_message():
    game = new_game(alice="{W}")
    befreien = game.put("Befreien", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    game.cast(ALICE, befreien, Choices(targets={"kreatur": (object_target(baer),)}))
    before = game.state.copy()
    game.pass_priority(ALICE)
    with pytest.raises(NotExecutable, match="610.3"):
        game.pass_priority(BOB)
    before.passes, before.priority = 1, BOB
    assert game.state == before


def test_state_based_actions_after_resolution():
    game = new_game(alice="{R}{R}")
    game.state.players[BOB].life = 2
    shock = game.put("Schock", "hand", ALICE)
    game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)}))
    resolve(game)
    assert game.state.players[BOB].lost and game.state.over
