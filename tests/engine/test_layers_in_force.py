"""Which continuous effects are in force, as the board changes (611.3b, 613.1, 613.8a), read again after each change."""
from engine.phasing import phase_in, phase_out
from tests.engine.helpers import ALICE
from tests.engine.test_layers_reach import game_with

#: "as long as you control a white creature, creatures you control have flying": a condition that reads the other
#: permanents' characteristics, judged in layer 6 while the existence of effects is decided (613.8a)
WHITE_BANNER = {"name": "Beispiel-Weißes Heerbanner", "synthetic": True, "cost": "{2}{W}", "types": ["enchantment"],
                "note": "Made up for 611.3a, 613.8a: a static ability whose condition reads other permanents' colour.",
                "text": "Solange du eine weiße Kreatur kontrollierst, haben Kreaturen, die du kontrollierst, "
                        "Flugfähigkeit.",
                "statics": [{"kind": "modify", "objects": {"types": ["creature"], "controller": "you"},
                             "condition": {"you_control": {"types": ["creature"], "colors": ["W"]}},
                             "keywords": ["flying"]}]}
#: "artifacts are blue": criteria that name a card type other than creature (layer 5)
BLUE_ARTIFACTS = {"name": "Beispiel-Blaue Artefakte", "synthetic": True, "cost": "{1}{U}", "types": ["enchantment"],
                  "note": "Made up for 613.1e: a colour-changing effect on artifacts.",
                  "text": "Artefakte sind blau.",
                  "statics": [{"kind": "modify", "objects": {"types": ["artifact"]}, "colors": ["U"]}]}


def test_a_permanent_that_phases_out_no_longer_gives_its_bonus_702_26b():
    # 702.26b: a phased-out permanent is treated as though it does not exist — one of two Glorious Anthems phases
    # out: its +1/+1 (611.3b: while its source is on the battlefield) stops, the other's stays; it applies again once
    # the Anthem phases in (702.26c)
    game = game_with()
    anthem = game.state.objects[game.put("Glorious Anthem", "battlefield", ALICE)]
    game.put("Glorious Anthem", "battlefield", ALICE)
    baer = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    assert game.power(baer) == 4
    phase_out(game, [anthem])
    assert game.power(baer) == 3
    phase_in(game, [anthem])
    assert game.power(baer) == 4


def test_cards_in_graveyards_lose_all_abilities_while_yixlid_jailer_is_there_614_12_example():
    # the second example of 614.12: Yixlid Jailer, "Cards in graveyards lose all abilities" — its only effect in
    # force applies to cards in a zone other than the battlefield; a card in hand keeps its abilities
    game = game_with()
    ritter = game.state.objects[game.put("Black Knight", "graveyard", ALICE)]
    hand = game.state.objects[game.put("Black Knight", "hand", ALICE)]
    assert "first_strike" in game.keywords(ritter)
    game.put("Yixlid-Kerkermeister", "battlefield", ALICE)
    assert game.keywords(ritter) == frozenset()
    assert "first_strike" in game.keywords(hand)


def test_effects_whose_criteria_name_different_card_types_each_reach_theirs_613_1():
    # "artifacts are blue" (layer 5) and Glorious Anthem ("creatures you control get +1/+1", 7c), in either order:
    # the artifact is blue, the creature 3/3 (each object goes through the layers if any effect's criteria name one
    # of its card types)
    for first, second in (("Beispiel-Blaue Artefakte", "Glorious Anthem"),
                          ("Glorious Anthem", "Beispiel-Blaue Artefakte")):
        game = game_with(BLUE_ARTIFACTS)
        game.put(first, "battlefield", ALICE)
        game.put(second, "battlefield", ALICE)
        ausruestung = game.state.objects[game.put("Beispiel-Rote Ausrüstung", "battlefield", ALICE)]
        baer = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
        assert game.characteristics(ausruestung).colors == {"U"}, first
        assert (game.power(baer), game.characteristics(baer).colors) == (3, {"G"}), first


def test_a_condition_that_reads_other_permanents_while_humility_takes_a_lords_ability_611_3a_613_8a():
    # Humility (layer 6: creatures lose all abilities; 7b: 1/1) and Creakwood Liege, whose +1/+1 would begin only
    # after layer 6 and so does not exist (613.8a, Humility's rulings; test_layers.py has it alone). The banner's
    # condition (611.3a) reads the creatures' colours while that is decided: with the white Isamaru every creature
    # of Alice's has flying (the banner's layer-6 effect is newer than Humility's), and none gets the Liege's +1/+1
    # — in whichever order the values are read (values read while the existence of effects is decided are not kept)
    for white in (True, False):
        for first in range(3):
            game = game_with(WHITE_BANNER)
            game.put("Humility", "battlefield", ALICE)
            game.put("Creakwood Liege", "battlefield", ALICE)
            game.put("Beispiel-Weißes Heerbanner", "battlefield", ALICE)
            ids = [game.put("Grizzlybären", "battlefield", ALICE)]
            if white:
                ids.append(game.put("Isamaru, Hound of Konda", "battlefield", ALICE))
            ids.append(next(o for o in game.state.battlefield if game.state.objects[o].card == "Creakwood Liege"))
            objs = [game.state.objects[o] for o in ids]
            objs = objs[first:] + objs[:first]
            assert [game.power(o) for o in objs] == [1] * len(objs), (white, first)
            assert all(("flying" in game.keywords(o)) == white for o in objs), (white, first)


#: "as long as you control a white creature, lands are artifacts": a layer-4 effect whose condition reads creatures
WHITE_FORGE = {"name": "Beispiel-Weiße Landschmiede", "synthetic": True, "cost": "{2}{W}", "types": ["enchantment"],
               "note": "Made up for 613.8a: a layer-4 effect with a condition that reads other permanents' colour.",
               "text": "Solange du eine weiße Kreatur kontrollierst, sind Länder Artefakte.",
               "statics": [{"kind": "modify", "objects": {"types": ["land"]}, "add_types": ["artifact"],
                            "condition": {"you_control": {"types": ["creature"], "colors": ["W"]}}}]}


def test_a_dependency_is_judged_over_every_permanent_even_when_first_asked_for_during_a_condition_613_8a():
    # layer 5: "white creatures are blue" (older) and the Herold's "creatures are white": the green Grizzly Bears make
    # the Herold's effect change what the other applies to (613.8a), so it applies first (613.8b) and every creature
    # ends up blue. The bears are read first; in their layer 4 the forge's condition reads the Herold's colour, whose
    # layers are then applied while the bears are still being computed — the order judged then, without the bears,
    # is not the one the board has (with every creature blue, the forge's condition does not hold)
    game = game_with(WHITE_FORGE)
    for name in ("Beispiel-Blaufärbung der Weißen", "Beispiel-Weißer Herold", "Beispiel-Weiße Landschmiede"):
        game.put(name, "battlefield", ALICE)
    baer = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    wald = game.state.objects[game.put("Wald", "battlefield", ALICE)]
    herold = next(game.state.objects[o] for o in game.state.battlefield
                  if game.state.objects[o].card == "Beispiel-Weißer Herold")
    assert game.characteristics(baer).colors == {"U"}
    assert game.characteristics(herold).colors == {"U"}
    assert "artifact" not in game.characteristics(wald).types  # no white creature: the forge's condition fails
