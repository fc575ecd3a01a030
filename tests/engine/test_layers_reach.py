"""Layer 7 details and the shortcut that skips the layers for objects no effect can reach (613.1, 613.4)."""
from engine.cards import CardDB, parse_card
from engine.costs import pool_from
from engine.game import Game
from tests.engine.helpers import ALICE, BOB, resolve

#: power defined by a characteristic-defining ability, toughness printed (after Adeline, Resplendent Cathar: */4)
POWER_ONLY = {"name": "Beispiel-Stärkewesen", "synthetic": True, "cost": "{1}{W}", "types": ["creature"],
              "note": "Made up after Adeline, Resplendent Cathar (*/4): only power defined by a CDA (604.3, 613.4a).",
              "subtypes": ["Human"], "toughness": 4,
              "text": "Die Stärke dieser Kreatur ist gleich der Anzahl an Karten in deiner Hand.",
              "statics": [{"kind": "cda", "power": {"count": {"owner": "you", "zone": "hand"}}}]}
#: toughness defined by a characteristic-defining ability, power printed (1/*)
TOUGHNESS_ONLY = {"name": "Beispiel-Widerstandswesen", "synthetic": True, "cost": "{1}{G}", "types": ["creature"],
                  "note": "Made up: only toughness defined by a CDA (604.3, 613.4a).", "subtypes": ["Wall"],
                  "power": 1,
                  "text": "Die Widerstandskraft dieser Kreatur ist gleich der Anzahl an Karten in deiner Hand.",
                  "statics": [{"kind": "cda", "toughness": {"count": {"owner": "you", "zone": "hand"}}}]}
#: a creature whose only continuous effect applies to itself (objects = "self")
SELF_PUMP = {"name": "Beispiel-Selbststärker", "synthetic": True, "cost": "{1}{R}", "types": ["creature"],
             "note": "Made up: a static ability that gives only its own object +1/+1 (604.1, 613.4c).",
             "subtypes": ["Goblin"], "power": 1, "toughness": 1, "text": "Diese Kreatur erhält +1/+1.",
             "statics": [{"kind": "modify", "objects": "self", "power": 1, "toughness": 1}]}

#: creatures get +1/+1 only during its controller's turn: criteria naming a card type, with a condition
HOME_TURN = {"name": "Beispiel-Heimvorteil", "synthetic": True, "cost": "{1}{W}", "types": ["enchantment"],
             "note": "Made up: a static ability with a condition (604.1, 611.3a) whose criteria name only a type.",
             "text": "Solange du am Zug bist, erhalten Kreaturen +1/+1.",
             "statics": [{"kind": "modify", "objects": {"types": ["creature"]}, "condition": {"your_turn": True},
                          "power": 1, "toughness": 1}]}


def game_with(*cards: dict) -> Game:
    db = CardDB(CardDB.load().cards)
    for card in cards:
        db.add(parse_card(card))
    return Game.new(["Alice", "Bob"], db=db)


def animated_svogthos(game: Game, creature_cards: int) -> int:
    """Svogthos, the Restless Tomb on Alice's battlefield with ``creature_cards`` Grizzly Bears in her graveyard,
    animated by its ability ({3}{B}{G}: a Plant Zombie whose power and toughness count them, 613.6 example 4).  Its
    object id."""
    svogthos = game.put("Svogthos, das ruhelose Grab", "battlefield", ALICE)
    for _ in range(creature_cards):
        game.put("Grizzlybären", "graveyard", ALICE)
    game.state.players[ALICE].pool = pool_from("{C}{C}{C}{B}{G}")
    assert game.activate(ALICE, svogthos, 2) is None
    assert resolve(game) is None
    return svogthos


def test_a_cda_may_define_power_alone_or_toughness_alone_613_4a():
    # with an effect in force (Blood Moon changes types: every object goes through the layers) and without
    for moon in (True, False):
        game = game_with(POWER_ONLY, TOUGHNESS_ONLY)
        if moon:
            game.put("Blood Moon", "battlefield", ALICE)
        _power_alone_or_toughness_alone(game)


def _power_alone_or_toughness_alone(game) -> None:
    for _ in range(3):
        game.put("Wald", "hand", ALICE)
    strong = game.state.objects[game.put("Beispiel-Stärkewesen", "battlefield", ALICE)]
    wall = game.state.objects[game.put("Beispiel-Widerstandswesen", "battlefield", ALICE)]
    assert (game.power(strong), game.toughness(strong)) == (3, 4)
    assert (game.power(wall), game.toughness(wall)) == (1, 3)


def test_an_effect_of_an_object_on_itself_applies_with_no_other_effect_in_force_604_1():
    game = game_with(SELF_PUMP)
    goblin = game.state.objects[game.put("Beispiel-Selbststärker", "battlefield", ALICE)]
    bear = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    assert (game.power(goblin), game.toughness(goblin)) == (2, 2)
    assert (game.power(bear), game.toughness(bear)) == (2, 2)


def test_counters_give_a_noncreature_no_power_208_3_613_4c():
    # a land with a +1/+1 counter has no power or toughness (the counter waits for it to become a creature)
    for moon in (True, False):
        game = game_with()
        if moon:  # an effect in force whose reach cannot be told in advance: the land goes through the layers
            game.put("Blood Moon", "battlefield", ALICE)
        wald = game.state.objects[game.put("Wald", "battlefield", ALICE)]
        wald.counters["+1/+1"] = 1
        assert game.power(wald) is None and game.toughness(wald) is None, moon


def test_a_conditional_effect_applies_only_while_its_condition_holds_611_3a():
    game = game_with(HOME_TURN)
    game.put("Beispiel-Heimvorteil", "battlefield", BOB)
    bear = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    assert game.state.active == ALICE
    assert game.power(bear) == 2          # Bob's enchantment, Alice's turn
    game.put("Beispiel-Heimvorteil", "battlefield", ALICE)
    assert game.power(bear) == 3          # now Alice's own applies as well


def test_a_number_counted_whenever_it_is_read_for_the_affected_object_613_6_example_4():
    # 613.6 example 4 (Svogthos, the Restless Tomb, data/scenarios/613.6-svogthos.scenario), read outside the tracer:
    # its power and toughness are the creature cards in its owner's graveyard, counted each time they are read
    game = game_with()
    bear = game.put("Grizzlybären", "battlefield", ALICE)
    svogthos = animated_svogthos(game, 2)
    obj = game.state.objects[svogthos]
    assert (game.power(obj), game.toughness(obj)) == (2, 2)
    game.state.move(bear, "graveyard")
    assert (game.power(obj), game.toughness(obj)) == (3, 3)


#: "other creatures lose all abilities", on a flyer: two of them take each other's ability (made up for 613.8b)
THIEF = {"name": "Beispiel-Fähigkeitsdieb", "synthetic": True, "cost": "{2}{U}", "types": ["creature"],
         "note": "Made up for 613.8b: two of them are a dependency loop over the existence of their effects.",
         "subtypes": ["Faerie"], "power": 1, "toughness": 1, "keywords": ["flying"],
         "text": "Fliegend. Andere Kreaturen verlieren alle Fähigkeiten.",
         "statics": [{"kind": "modify", "objects": {"types": ["creature"], "other": True}, "lose_all_abilities": True}]}


def test_two_effects_that_take_each_others_ability_apply_in_timestamp_order_613_8b():
    # 613.8a/613.8b: each effect would take the other's ability (a dependency loop), so they apply in timestamp
    # order: the older one applies first and the younger one's ability is gone before its effect begins (604.1)
    game = game_with(THIEF)
    older = game.state.objects[game.put("Beispiel-Fähigkeitsdieb", "battlefield", ALICE)]
    younger = game.state.objects[game.put("Beispiel-Fähigkeitsdieb", "battlefield", BOB)]
    assert "flying" in game.keywords(older)
    assert "flying" not in game.keywords(younger)
