"""Whether an effect exists and in which order a layer's effects apply (613.8), on boards with text changes (612),
characteristic-defining abilities (604.3) and Auras in earlier layers."""
from engine.continuous import Continuous, new_timestamp
from tests.engine.helpers import ALICE
from tests.engine.test_layers_reach import game_with

#: a white creature with devoid (702.114a): colourless by a characteristic-defining ability (604.3)
WHITE_DEVOID = {"name": "Beispiel-Weißes Leerenwesen", "synthetic": True, "cost": "{1}{W}", "types": ["creature"],
                "note": "Made up after Eldrazi Displacer (a white card with devoid): colourless by a CDA (604.3).",
                "subtypes": ["Eldrazi"], "colors": ["W"], "keywords": ["devoid"], "power": 2, "toughness": 2,
                "text": "Farblosigkeit"}
#: the same with "other creatures you control get +1/+1"
WHITE_DEVOID_LORD = {**WHITE_DEVOID, "name": "Beispiel-Farbloser Fürst",
                     "text": "Farblosigkeit. Andere Kreaturen, die du kontrollierst, erhalten +1/+1.",
                     "statics": [{"kind": "modify", "objects": {"types": ["creature"], "controller": "you",
                                                                "other": True}, "power": 1, "toughness": 1}]}
#: "white creatures lose all abilities" (layer 6, criteria on colour)
WHITE_SILENCE = {"name": "Beispiel-Weiße Stille", "synthetic": True, "cost": "{2}{B}", "types": ["enchantment"],
                 "note": "Made up for 613.8a: an ability-removing effect whose criteria name a colour.",
                 "text": "Weiße Kreaturen verlieren alle Fähigkeiten.",
                 "statics": [{"kind": "modify", "objects": {"types": ["creature"], "colors": ["W"]},
                              "lose_all_abilities": True}]}


def _put(game, name: str, zone: str = "battlefield"):
    return game.state.objects[game.put(name, zone, ALICE)]


def test_exchanging_volraths_shapeshifters_text_box_ends_its_full_text_effect_612_5_612_6_613_8a():
    # 612.6: Volrath's Shapeshifter has the full text of the top creature card of its graveyard (Craw Wurm, 6/4);
    # 612.5: Exchange of Words gives it Grizzly Bears' (empty) text box — its ability is gone before its effect
    # would apply (the exchange is in the same layer 3 and changes its existence: 613.8a), so it is itself again
    game = game_with()
    _put(game, "Craw Wurm", "graveyard")
    shifter = _put(game, "Volraths Gestaltwandler")
    baer = _put(game, "Grizzlybären")
    assert (game.characteristics(shifter).name, game.power(shifter)) == ("Craw Wurm", 6)
    st = game.state
    st.effects.append(Continuous({"3": {"exchange_text": True}}, new_timestamp(st), ALICE, "t", None,
                                 locked=frozenset({shifter.id, baer.id}), duration="indefinite"))
    ch = game.characteristics(shifter)
    assert (ch.name, game.power(shifter), game.toughness(shifter)) == ("Volraths Gestaltwandler", 0, 1)


def test_a_second_full_text_effect_on_the_shapeshifter_612_6_613_8a():
    # a made-up second "has the full text of the top creature card of its controller's graveyard" on Volrath's
    # Shapeshifter (612.6; a resolved spell's, locked): applying it takes away the Shapeshifter's own ability
    # (613.8a), whatever — both would give it Craw Wurm's full text
    game = game_with()
    _put(game, "Craw Wurm", "graveyard")
    shifter = _put(game, "Volraths Gestaltwandler")
    st = game.state
    st.effects.append(Continuous({"3": {"full_text_of": "top_of_graveyard"}}, new_timestamp(st), ALICE, "t", None,
                                 locked=frozenset({shifter.id}), duration="indefinite"))
    assert (game.characteristics(shifter).name, game.power(shifter), game.toughness(shifter)) == ("Craw Wurm", 6, 4)


def test_the_dependency_order_with_an_aura_changing_a_name_in_an_earlier_layer_613_8():
    # the 613.8 board (layer 4: "all artifacts are 2/2 creatures" waits for "all lands are artifacts") while an
    # Aura's text-changing effect (612.8, layer 3) applies to a creature: the Forest is a 2/2 artifact creature land,
    # the enchanted bear is named "Legitimer Geschäftsmann"
    game = game_with()
    _put(game, "Beispiel-Artefaktbeseelung")
    _put(game, "Beispiel-Landschmiede")
    wald = _put(game, "Wald")
    baer = _put(game, "Grizzlybären")
    _put(game, "Beispiel-Zeugenschutz").attached_to = baer.id
    assert game.characteristics(wald).types == {"land", "artifact", "creature"} and game.power(wald) == 2
    assert game.characteristics(baer).name == "Legitimer Geschäftsmann"


def test_a_colourless_creature_made_white_makes_a_white_only_effect_wait_613_8a_604_3():
    # layer 5: "white creatures are blue" (Beispiel-Blaufärbung der Weißen, older) and "creatures are white" (the
    # Herold). The white-printed creature with devoid is colourless (604.3, applied before the layers), so the
    # Herold's effect changes what the other applies to (613.8a): it waits (613.8b) — every creature ends up blue
    game = game_with(WHITE_DEVOID)
    _put(game, "Beispiel-Blaufärbung der Weißen")
    herold = _put(game, "Beispiel-Weißer Herold")
    wesen = _put(game, "Beispiel-Weißes Leerenwesen")
    assert game.characteristics(herold).colors == {"U"}  # read first: the order is judged over every creature
    assert game.characteristics(wesen).colors == {"U"}


def test_a_devoid_lord_keeps_its_ability_under_white_creatures_lose_all_abilities_604_3_613_8a():
    # "white creatures lose all abilities" (layer 6) does not reach the white-printed lord with devoid, colourless by
    # its characteristic-defining ability (604.3): its +1/+1 (7c) exists, Grizzly Bears are 3/3
    game = game_with(WHITE_DEVOID_LORD, WHITE_SILENCE)
    _put(game, "Beispiel-Weiße Stille")
    lord = _put(game, "Beispiel-Farbloser Fürst")
    baer = _put(game, "Grizzlybären")
    assert game.characteristics(lord).colors == frozenset()
    assert (game.power(baer), game.toughness(baer)) == (3, 3)


def test_a_land_animated_in_layer_4_counts_for_a_layer_5_dependency_613_8a():
    # layer 5: "white creatures are blue" (older) and the Herold's "creatures are white". The Forest is a creature
    # only through "lands are 1/1 creatures" (layer 4), and colourless: as layer 5 begins the Herold's effect changes
    # what the other applies to (613.8a), so it applies first (613.8b) and every creature ends up blue
    game = game_with()
    _put(game, "Beispiel-Blaufärbung der Weißen")
    herold = _put(game, "Beispiel-Weißer Herold")
    _put(game, "Beispiel-Landbeseelung")
    wald = _put(game, "Wald")
    assert game.characteristics(herold).colors == {"U"}  # read first: the order is judged over every permanent
    assert game.characteristics(wald).colors == {"U"} and "creature" in game.characteristics(wald).types


def test_a_colour_word_changed_stays_changed_when_the_lord_gains_an_ability_612_2_613_1f():
    # Creakwood Liege's "green" made "blue" (612.2), then the Liege gains flying (layer 6, a resolved spell's): its
    # changed ability still exists and still says "blue" — Sindbad (blue) gets +1/+1, Grizzly Bears (green) do not
    game = game_with()
    liege = _put(game, "Creakwood Liege")
    baer = _put(game, "Grizzlybären")
    sindbad = _put(game, "Sindbad")
    st = game.state
    for parts in ({"3": {"change_text": {"from": "G", "to": "U"}}}, {"6": {"keywords": ["flying"]}}):
        st.effects.append(Continuous(parts, new_timestamp(st), ALICE, "t", None, locked=frozenset({liege.id}),
                                     duration="indefinite"))
    assert "flying" in game.keywords(liege)
    assert (game.power(sindbad), game.power(baer)) == (2, 2)


#: a nonbasic land with "creatures are black" (layer 5): Blood Moon takes that ability in layer 4 (305.7)
BLACK_LAND = {"name": "Beispiel-Schwarzes Land", "synthetic": True, "types": ["land"],
              "note": "Made up for 613.8a: a nonbasic land whose colour-changing ability Blood Moon takes (305.7).",
              "text": "Kreaturen sind schwarz.",
              "statics": [{"kind": "modify", "objects": {"types": ["creature"]}, "colors": ["B"]}]}


def test_an_effect_after_one_that_does_not_exist_still_begins_in_its_layer_613_6_613_8a():
    # layer 5, in timestamp order: the land's "creatures are black" — whose ability Blood Moon took in layer 4, so it
    # does not exist (613.8a, 305.7) — then the Herold's "creatures are white", which begins there; Humility takes the
    # Herold's ability only in layer 6, after it began, so it keeps applying (613.6): Grizzly Bears are white
    game = game_with(BLACK_LAND)
    _put(game, "Blood Moon")
    _put(game, "Beispiel-Schwarzes Land")
    _put(game, "Beispiel-Weißer Herold")
    _put(game, "Humility")
    baer = _put(game, "Grizzlybären")
    assert game.characteristics(baer).colors == {"W"}



#: "nonwhite artifacts are white creatures" (layers 4 and 5, criteria on type and colour)
WHITE_ARTIFACTS = {"name": "Beispiel-Weiße Artefakte", "synthetic": True, "cost": "{1}{W}", "types": ["enchantment"],
                   "note": "Made up for 613.6 and 613.8a: an effect in layers 4 and 5 whose criteria name a colour.",
                   "text": "Nichtweiße Artefakte sind weiße Kreaturen.",
                   "statics": [{"kind": "modify", "objects": {"types": ["artifact"], "not_colors": ["W"]},
                                "add_types": ["creature"], "colors": ["W"]}]}
#: "lands are blue artifacts" (layers 4 and 5)
BLUE_LANDS = {"name": "Beispiel-Blaue Länder", "synthetic": True, "cost": "{1}{U}", "types": ["enchantment"],
              "note": "Made up for 613.6 and 613.8a: an effect in layers 4 and 5.",
              "text": "Länder sind blaue Artefakte.",
              "statics": [{"kind": "modify", "objects": {"types": ["land"]}, "add_types": ["artifact"],
                           "colors": ["U"]}]}


def test_two_effects_in_layers_4_and_5_depend_in_the_first_only_613_6_613_8a():
    # layer 4: "lands are blue artifacts" (newer) makes the Forest an artifact, changing what "nonwhite artifacts are
    # white creatures" (older) applies to: that one waits (613.8a, 613.8b) and the Forest becomes an artifact
    # creature. In layer 5 both apply to the sets they began with (613.6), so neither changes what the other applies
    # to: timestamp order (613.7), the newer blue last — the Forest is a blue artifact creature land
    game = game_with(WHITE_ARTIFACTS, BLUE_LANDS)
    _put(game, "Beispiel-Weiße Artefakte")
    _put(game, "Beispiel-Blaue Länder")
    wald = _put(game, "Wald")
    assert game.characteristics(wald).types == {"land", "artifact", "creature"}
    assert game.characteristics(wald).colors == {"U"}


#: "nonwhite artifacts are blue creatures" (layers 4 and 5, criteria on colour)
BLUE_ARTIFACT_CREATURES = {**WHITE_ARTIFACTS, "name": "Beispiel-Blaue Artefaktkreaturen",
                           "text": "Nichtweiße Artefakte sind blaue Kreaturen.",
                           "statics": [{"kind": "modify", "objects": {"types": ["artifact"], "not_colors": ["W"]},
                                        "add_types": ["creature"], "colors": ["U"]}]}


def test_an_effect_that_began_in_layer_4_does_not_wait_in_layer_5_613_6_613_8a():
    # "nonwhite artifacts are blue creatures" (older) makes Jungbrunnen a creature in layer 4 and so began to apply to
    # it; in layer 5 it applies to that same set (613.6), so the Herold's "creatures are white" (newer), which would
    # make the artifact white, changes nothing it applies to: no dependency, timestamp order (613.7) — white last
    game = game_with(BLUE_ARTIFACT_CREATURES)
    _put(game, "Beispiel-Blaue Artefaktkreaturen")
    _put(game, "Beispiel-Weißer Herold")
    brunnen = _put(game, "Jungbrunnen")
    assert game.characteristics(brunnen).colors == {"W"}  # read first: the order is judged with its own values
    assert game.characteristics(brunnen).types == {"artifact", "creature"}
