"""An object asked about while its own characteristics are computed: its values so far (613.1, 613.4, 613.5)."""
from engine.continuous import Continuous
from tests.engine.helpers import ALICE
from tests.engine.test_layers_reach import animated_svogthos, game_with

#: "creatures you control with power 2 or less get +1/+1": criteria that read power (layer 7c)
SMALL_ONES = {"name": "Beispiel-Kleinenhelfer", "synthetic": True, "cost": "{1}{W}", "types": ["enchantment"],
              "note": "Made up for 613.4c, 613.5: an effect whose criteria read power, judged as layer 7c begins.",
              "text": "Kreaturen mit Stärke 2 oder weniger, die du kontrollierst, erhalten +1/+1.",
              "statics": [{"kind": "modify", "objects": {"types": ["creature"], "controller": "you", "power_max": 2},
                           "power": 1, "toughness": 1}]}
#: power and toughness each the number of non-Wall creatures its controller controls, itself included
WARLORD = {"name": "Keldon Warlord", "synthetic": True, "cost": "{2}{R}{R}", "types": ["creature"],
           "note": "After Keldon Warlord: a characteristic-defining ability (604.3, 613.4a) that counts the creature "
                   "itself — read while its own power is computed.",
           "subtypes": ["Human", "Barbarian"], "colors": ["R"],
           "text": "Keldon Warlord's power and toughness are each equal to the number of non-Wall creatures you "
                   "control.",
           "statics": [{"kind": "cda",
                        "power": {"count": {"types": ["creature"], "controller": "you", "not_subtypes": ["Wall"]}},
                        "toughness": {"count": {"types": ["creature"], "controller": "you",
                                                "not_subtypes": ["Wall"]}}}]}


def _set(game, oid, parts: dict, ts: int = 10_000) -> None:
    game.state.effects.append(Continuous(parts, ts, ALICE, "t", None, locked=frozenset({oid}), duration="indefinite"))


def test_criteria_that_read_power_see_the_power_set_in_an_earlier_layer_613_5():
    # 613.4b before 613.4c, and what an effect applies to is judged with the values the earlier layers gave (the
    # 613.5 example: a colour from layer 5 decides "white creatures get +1/+1" in 7c): Grizzly Bears set to 5/5 in
    # layer 7b are no longer a creature "with power 2 or less" when the +1/+1 would apply in 7c
    game = game_with(SMALL_ONES)
    game.put("Beispiel-Kleinenhelfer", "battlefield", ALICE)
    baer = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    assert (game.power(baer), game.toughness(baer)) == (3, 3)
    _set(game, baer.id, {"7b": {"set_power": 5, "set_toughness": 5}})
    assert (game.power(baer), game.toughness(baer)) == (5, 5)
    _set(game, baer.id, {"7b": {"set_power": 1, "set_toughness": 4}}, 10_001)
    assert (game.power(baer), game.toughness(baer)) == (2, 5)


def test_a_count_that_includes_the_creature_itself_as_the_layers_made_it_613_4a():
    # Keldon Warlord counts the non-Wall creatures its controller controls, itself included — as it is when its
    # power is defined (layer 7a), after layer 4: made a Wall in layer 4 it no longer counts itself
    for shapes in (False, True):
        game = game_with(WARLORD)
        game.put("Glorious Anthem", "battlefield", ALICE)  # an effect in force: the layers are applied
        warlord = game.state.objects[game.put("Keldon Warlord", "battlefield", ALICE)]
        game.put("Grizzlybären", "battlefield", ALICE)
        game.put("Wall of Roots", "battlefield", ALICE)
        if shapes:
            _set(game, warlord.id, {"5": {"colors": ["B"]}})
        assert (game.power(warlord), game.toughness(warlord)) == (3, 3), shapes
    _set(game, warlord.id, {"4": {"add_subtypes": ["Wall"]}}, 10_001)
    assert (game.power(warlord), game.toughness(warlord)) == (2, 2)


#: "creatures with power 5 or greater have base power and toughness 1/1": criteria that read power, in layer 7b
TAMER = {"name": "Beispiel-Riesenbändiger", "synthetic": True, "cost": "{2}{W}", "types": ["enchantment"],
         "note": "Made up for 613.8a in layer 7b: an effect whose criteria read what another 7b effect sets.",
         "text": "Kreaturen mit Stärke 5 oder mehr haben Basis-Stärke und -Widerstandskraft 1/1.",
         "statics": [{"kind": "modify", "objects": {"types": ["creature"], "power_min": 5}, "set_power": 1,
                      "set_toughness": 1}]}


def test_an_effect_whose_criteria_read_power_waits_for_the_effect_that_sets_it_613_8a_layer_7b():
    # 613.8a in layer 7b: Svogthos, the Restless Tomb animated (613.6 example 4: power and toughness each the number
    # of creature cards in its owner's graveyard, six here) — "creatures with power 5 or greater have base power and
    # toughness 1/1" depends on that effect (applying it changes what the other applies to), so it applies after it
    # whatever the timestamps (613.8b): Svogthos is 1/1 in both orders
    for tamer_first in (True, False):
        game = game_with(TAMER)
        if tamer_first:
            game.put("Beispiel-Riesenbändiger", "battlefield", ALICE)
        svogthos = animated_svogthos(game, 6)
        if not tamer_first:
            game.put("Beispiel-Riesenbändiger", "battlefield", ALICE)
        obj = game.state.objects[svogthos]
        assert (game.power(obj), game.toughness(obj)) == (1, 1), tamer_first
