"""Layer 7 (613.4): power and toughness set, modified by effects and counters, switched — as the cards' files say."""
from engine.continuous import Continuous, new_timestamp
from tests.engine.helpers import ALICE
from tests.engine.test_layers_reach import game_with

#: an Aura whose static ability switches power and toughness (layer 7d from a static ability, not a resolved spell)
TWISTED = {"name": "Beispiel-Verdrehte Aura", "synthetic": True, "cost": "{U}", "types": ["enchantment"],
           "subtypes": ["Aura"],
           "note": "Made up for 613.4d: a static ability that switches the enchanted creature's power and toughness.",
           "text": "Verzaubert eine Kreatur. Die Stärke und Widerstandskraft der verzauberten Kreatur werden "
                   "vertauscht.",
           "targets": [{"name": "kreatur", "types": ["creature"]}],
           "statics": [{"kind": "modify", "objects": "attached", "switch": True}]}


def test_an_auras_static_ability_switches_power_and_toughness_613_4d():
    # 613.4d (layer 7d) from a static ability of an Aura (604.4: it applies to the enchanted creature): Pillarfield
    # Ox 2/4 is 4/2; with a +1/+1 counter (7c, before the switch) 5/3
    game = game_with(TWISTED)
    ox = game.state.objects[game.put("Pillarfield Ox", "battlefield", ALICE)]
    aura = game.state.objects[game.put("Beispiel-Verdrehte Aura", "battlefield", ALICE)]
    aura.attached_to = ox.id
    assert (game.power(ox), game.toughness(ox)) == (4, 2)
    ox.counters["+1/+1"] = 1
    assert (game.power(ox), game.toughness(ox)) == (5, 3)


def test_a_counter_on_a_creature_with_toughness_0_adds_to_0_613_4c_122_1a():
    # 613.4b then 613.4c: Grizzly Bears set to base 3/0 (layer 7b) with a +1/+1 counter (122.1a, layer 7c) are 4/1
    game = game_with()
    baer = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    st = game.state
    st.effects.append(Continuous({"7b": {"set_power": 3, "set_toughness": 0}}, new_timestamp(st), ALICE, "t", None,
                                 locked=frozenset({baer.id}), duration="indefinite"))
    baer.counters["+1/+1"] = 1
    assert (game.power(baer), game.toughness(baer)) == (4, 1)


#: "each noncreature artifact is a 2/2 artifact creature" (layers 4 and 7b, criteria its own layer-4 part changes)
MARCH = {"name": "Beispiel-Maschinenmarsch", "synthetic": True, "cost": "{3}{U}", "types": ["enchantment"],
         "note": "Made up after March of the Machines, with 2/2 for the mana value: the third example of 613.6 as a "
                 "static ability.",
         "text": "Jedes Nichtkreaturenartefakt ist eine 2/2-Artefaktkreatur.",
         "statics": [{"kind": "modify", "objects": {"types": ["artifact"], "not_types": ["creature"]},
                      "add_types": ["creature"], "set_power": 2, "set_toughness": 2}]}


def test_a_static_effect_applies_in_its_later_layers_to_the_set_it_began_with_613_6():
    # 613.6 (its third example, "all noncreature artifacts become 2/2 artifact creatures", here a static ability):
    # the type changes in layer 4 and power and toughness are set in 7b for those same permanents, although they are
    # no longer noncreature artifacts by then; an artifact creature (Kompositgolem, 4/4) is not among them
    game = game_with(MARCH)
    game.put("Beispiel-Maschinenmarsch", "battlefield", ALICE)
    brunnen = game.state.objects[game.put("Jungbrunnen", "battlefield", ALICE)]
    golem = game.state.objects[game.put("Kompositgolem", "battlefield", ALICE)]
    assert game.characteristics(brunnen).types == {"artifact", "creature"}
    assert (game.power(brunnen), game.toughness(brunnen)) == (2, 2)
    assert (game.power(golem), game.toughness(golem)) == (4, 4)
