"""Activated abilities (602), mana abilities (605) and loyalty abilities (606)."""
from engine.mana import is_mana_ability
from tests.engine.helpers import ALICE, BOB, Choices, ManaActivation, new_game, object_target, pool, resolve


def test_cost_before_the_colon_is_paid_by_the_activator_602_1a():
    game = new_game(alice="{G}{G}")
    fountain = game.put("Jungbrunnen", "battlefield", ALICE)
    assert game.activate(ALICE, fountain, None, Choices()) is None
    assert game.state.objects[fountain].tapped and pool(game) == "empty"
    assert str(game.last_cost.cost) == "{2}, {T}"
    resolve(game)
    assert game.state.players[ALICE].life == 21


def test_only_the_controller_activates_602_2():
    game = new_game(bob="{G}{G}")
    fountain = game.put("Jungbrunnen", "battlefield", ALICE)
    game.state.priority = BOB
    err = game.activate(BOB, fountain, None, Choices())
    assert err.rule == "602.2"
    stolen = game.put("Jungbrunnen", "battlefield", ALICE, controller=BOB)
    assert game.activate(BOB, stolen, None, Choices()) is None


def test_ability_on_the_stack_is_not_a_card_602_2a():
    game = new_game(alice="{G}{G}")
    fountain = game.put("Jungbrunnen", "battlefield", ALICE)
    game.activate(ALICE, fountain, None, Choices())
    ab = game.state.objects[game.state.stack[-1]]
    assert ab.card is None and ab.source_card == "Jungbrunnen" and ab.controller == ALICE
    assert game.characteristics(ab).types == frozenset()
    resolve(game)
    assert game.state.stack == [] and ab.id not in game.state.objects


def test_tap_symbol_on_a_creature_that_just_came_under_control_602_5a():
    game = new_game()
    elf = game.put("Llanowarelfen", "battlefield", ALICE, new=True)
    err = game.activate(ALICE, elf, None, Choices())
    assert err.rule == "602.5a"
    old_elf = game.put("Llanowarelfen", "battlefield", ALICE)
    assert game.activate(ALICE, old_elf, None, Choices()) is None
    assert pool(game) == "{G}"
    game2 = new_game()
    land = game2.put("Wald", "battlefield", ALICE, new=True)  # not a creature: 602.5a does not apply
    assert game2.activate(ALICE, land, None, Choices()) is None


def test_tap_symbol_allowed_after_a_new_turn_602_5a():
    game = new_game()
    elf = game.put("Llanowarelfen", "battlefield", ALICE, new=True)
    for player in (ALICE, BOB):
        game.put("Wald", "library", player)  # something to draw in the draw step
    assert game.advance_to("main1", next_turn=True) is None   # Bob's turn
    assert game.advance_to("main1", next_turn=True) is None   # Alice's next turn
    assert game.state.active == ALICE
    assert game.activate(ALICE, elf, None, Choices()) is None


def test_once_each_turn_602_5b_and_sorcery_timing_602_5d():
    game = new_game(alice="{G}{G}{G}{G}{G}{G}{G}{G}")
    garruk = game.put("Garruk Wildsprecher", "battlefield", ALICE)
    forests = [game.put("Wald", "battlefield", ALICE, tapped=True) for _ in range(2)]
    ts = tuple(object_target(f) for f in forests)
    assert game.activate(ALICE, garruk, 1, Choices(targets={"laender": ts})) is None
    assert game.state.objects[garruk].counters["loyalty"] == 4
    resolve(game)
    err = game.activate(ALICE, garruk, 2, Choices())
    assert err.rule == "606.3" and "already" in err.message


def test_once_each_turn_stays_with_the_object_602_5b():
    from engine.cards import CardDB, parse_card

    db = CardDB.load()
    db.add(parse_card({"name": "Einmal-Artefakt", "types": ["artifact"], "abilities": [
        {"cost": "{1}", "once_per_turn": True, "effects": [{"do": "gain_life", "who": "you", "amount": 1}]},
        {"cost": "{1}", "timing": "sorcery", "effects": [{"do": "gain_life", "who": "you", "amount": 2}]}]},
        "test"))
    from engine.game import Game

    game = Game.new(["Alice", "Bob"], db=db)
    game.state.players[ALICE].pool = [0, 0, 0, 0, 0, 5]
    art = game.put("Einmal-Artefakt", "battlefield", ALICE)
    assert game.activate(ALICE, art, 1, Choices()) is None
    assert game.activate(ALICE, art, 1, Choices()).rule == "602.5b"
    assert game.activate(ALICE, art, 2, Choices()).rule == "en-2024-11-08/117.1a"  # sorcery timing, stack not empty
    resolve(game)
    game.state.objects[art].controller = BOB  # control changes: the restriction stays with the object
    game.state.priority = BOB
    game.state.players[BOB].pool = [0, 0, 0, 0, 0, 5]
    assert game.activate(BOB, art, 1, Choices()).rule == "602.5b"
    assert game.activate(ALICE, art, 2, Choices()).rule == "602.2"


def test_loyalty_timing_needs_empty_stack_606_3():
    game = new_game(alice="{R}")
    garruk = game.put("Garruk Wildsprecher", "battlefield", ALICE)
    shock = game.put("Schock", "hand", ALICE)
    from engine.state import player_target

    game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)}))
    assert game.activate(ALICE, garruk, 2, Choices()).rule == "606.3"


def test_negative_loyalty_needs_counters_606_6():
    game = new_game()
    garruk = game.put("Garruk Wildsprecher", "battlefield", ALICE)
    err = game.activate(ALICE, garruk, 3, Choices())
    assert err.rule == "601.2h" and "loyalty" in err.message
    assert game.activate(ALICE, garruk, 2, Choices()) is None
    resolve(game)
    assert [game.state.objects[o].card for o in game.state.battlefield] == ["Garruk Wildsprecher", "Bestie"]


def test_mana_abilities_are_recognised_by_their_criteria_605_1a():
    from engine.cards import default_db

    db = default_db()
    assert is_mana_ability(db["Wald"].abilities[0])
    assert is_mana_ability(db["Ashnods Altar"].abilities[0])
    assert is_mana_ability(db["Gaeas Wiege"].abilities[0])
    assert not is_mana_ability(db["Jungbrunnen"].abilities[0])
    assert not is_mana_ability(db["Garruk Wildsprecher"].abilities[0])
    assert not is_mana_ability(db["Schwarzer Ritus"].spell)  # 605.5b


def test_mana_ability_does_not_use_the_stack_605_3b():
    game = new_game()
    forest = game.put("Wald", "battlefield", ALICE)
    assert game.activate(ALICE, forest, None, Choices()) is None
    assert game.state.stack == [] and pool(game) == "{G}" and game.state.priority == ALICE


def test_mana_abilities_only_while_paying_if_mana_is_needed_601_2g():
    game = new_game()
    forest = game.put("Wald", "battlefield", ALICE)
    chalice = game.put("Kelch der Leere", "hand", ALICE)
    err = game.cast(ALICE, chalice, Choices(x=0, mana=(ManaActivation(forest),)))
    assert err.rule == "601.2g"


def test_dark_ritual_cannot_be_activated_while_paying_605_5b():
    game = new_game()
    ritual = game.put("Schwarzer Ritus", "hand", ALICE)
    game.put("Sumpf", "battlefield", ALICE)
    dreams = game.put("Unterweltstraum", "hand", ALICE)
    err = game.cast(ALICE, dreams, Choices(mana=(ManaActivation(ritual),)))
    assert err.rule == "605.5b"
