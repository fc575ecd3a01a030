"""What the rule tracer shows of the layers (613.3, 613.8b): a trace names the rules the reads applied, every time."""
from engine.continuous import Continuous, new_timestamp
from engine.registry import Tracer
from tests.engine.helpers import ALICE, new_game


def _traced(read) -> set[str]:
    with Tracer() as t:
        read()
    return {c.key.split("/")[-1] for c in t.citations()}


def _put(game, name: str, zone: str = "battlefield"):
    return game.state.objects[game.put(name, zone, ALICE)]


def test_an_effect_of_a_resolved_spell_is_not_reordered_613_8a_613_8b():
    # 613.8a: only the existence of an ability's effect can depend on another effect; a resolved spell's "target
    # creature gains flying" (611.2c, layer 6) is older than Humility ("all creatures lose all abilities"): nothing
    # waits, the layer-6 effects apply in timestamp order (613.7) — flying, then its removal: the bear has no flying
    # and 613.8b is not applied
    game = new_game()
    baer = _put(game, "Grizzlybären")
    st = game.state
    st.effects.append(Continuous({"6": {"keywords": ["flying"]}}, new_timestamp(st), ALICE, "t", None,
                                 locked=frozenset({baer.id}), duration="indefinite"))
    assert "flying" in game.keywords(baer)
    _put(game, "Humility")
    rules = _traced(lambda: game.keywords(baer))
    assert "flying" not in game.keywords(baer)
    assert "613.8b" not in rules and "613.7" in rules


def test_an_effect_from_the_command_zone_is_not_reordered_613_8a_613_8b():
    # a face-up vanguard's "creatures are blue" (layer 5, from the command zone, 613.7i) and the Herold's "creatures
    # are white" (layer 5, newer): no permanent can take the vanguard's ability away (it is not on the battlefield),
    # so neither waits for the other (613.8a) and they apply in timestamp order: creatures are white. Humility is
    # there so that the existence of effects is judged at all (it removes abilities in layer 6)
    game = new_game()
    _put(game, "Beispiel-Blauer Avatar", "command")
    _put(game, "Humility")
    herold = _put(game, "Beispiel-Weißer Herold")
    baer = _put(game, "Grizzlybären")
    rules = _traced(lambda: game.characteristics(baer))
    assert game.characteristics(baer).colors == {"W"} and game.characteristics(herold).colors == {"W"}
    assert "613.8b" not in rules


def test_613_3_is_traced_for_an_object_with_a_characteristic_defining_ability_under_type_or_colour_effects():
    # 613.3: characteristic-defining abilities apply first within layers 2–6 — traced where it can matter: an object
    # with one (Beispiel-Leerenwesen: devoid, 702.114a) while a type- or colour-changing effect is in force (Blood
    # Moon, layer 4); not for one without (Grizzly Bears), nor when only power and toughness change (Glorious Anthem)
    game = new_game()
    wesen = _put(game, "Beispiel-Leerenwesen")
    baer = _put(game, "Grizzlybären")
    _put(game, "Glorious Anthem")
    assert "613.3" not in _traced(lambda: game.characteristics(wesen))
    _put(game, "Blood Moon")
    assert "613.3" in _traced(lambda: game.characteristics(wesen))
    assert "613.3" not in _traced(lambda: game.characteristics(baer))


def test_the_dependency_order_is_traced_on_every_read_613_8b():
    # the 613.8 board (data/scenarios/613.8-abhaengigkeit.scenario): "all artifacts are 2/2 creatures" waits for the
    # newer "all lands are artifacts" (613.8b). The order worked out on an untraced read is kept for the board, but
    # a traced read still shows the rules that order applies
    game = new_game()
    _put(game, "Beispiel-Artefaktbeseelung")
    _put(game, "Beispiel-Landschmiede")
    wald = _put(game, "Wald")
    assert game.characteristics(wald).types == {"land", "artifact", "creature"}
    rules = _traced(lambda: game.characteristics(wald))
    assert {"613.8", "613.8a", "613.8b", "613.8c"} <= rules


def test_two_effects_of_resolved_spells_in_one_layer_apply_in_timestamp_order_without_dependencies_613_7():
    # two "target creature gets +N/+N until end of turn" (611.2c: locked sets, layer 7c): neither's criteria can
    # change, so they apply in timestamp order (613.7) and no dependency is looked for (613.8c is not applied)
    game = new_game()
    baer = _put(game, "Grizzlybären")
    st = game.state
    for n in (1, 2):
        st.effects.append(Continuous({"7c": {"power": n, "toughness": n}}, new_timestamp(st), ALICE, "t", None,
                                     locked=frozenset({baer.id}), duration="end_of_turn"))
    rules = _traced(lambda: game.power(baer))
    assert game.power(baer) == 5
    assert "613.7" in rules and "613.8c" not in rules


def test_an_effect_that_began_does_not_wait_in_a_later_layer_613_6_613_8b():
    # Gideon Blackblade (on Alice's turn a 4/4 indestructible creature: layers 4, 6, 7b), then Humility: Gideon's
    # effect began in layer 4, so in layer 6 it does not wait for Humility, which would take its ability (613.6: it
    # keeps applying); both apply in timestamp order — Gideon's first, so Humility's removal and 1/1 win
    game = new_game()
    gideon = _put(game, "Gideon Blackblade")
    assert game.power(gideon) == 4
    _put(game, "Humility")
    rules = _traced(lambda: game.power(gideon))
    assert (game.power(gideon), game.toughness(gideon)) == (1, 1)
    assert "indestructible" not in game.keywords(gideon)
    assert "613.8b" not in rules


def test_the_trace_of_a_lord_whose_colour_word_changed_names_612_1_612_2():
    # reading Grizzly Bears' power while Creakwood Liege's "green" is made "blue" (612.1, 612.2): the text change
    # applies to the Liege only, and the Liege's effect now says "blue" — the bears are 2/2 and the trace names the
    # two rules (applied where the effects in force are made to say what the changed text says)
    game = new_game()
    liege = _put(game, "Creakwood Liege")
    baer = _put(game, "Grizzlybären")
    st = game.state
    st.effects.append(Continuous({"3": {"change_text": {"from": "G", "to": "U"}}}, new_timestamp(st), ALICE, "t",
                                 None, locked=frozenset({liege.id}), duration="indefinite"))
    rules = _traced(lambda: game.power(baer))
    assert game.power(baer) == 2
    assert {"612.1", "612.2"} <= rules


def test_without_a_land_lands_are_artifacts_changes_nothing_the_other_effect_applies_to_613_8a():
    # the 613.8 board without a land: "all lands are artifacts" applies to nothing, so it cannot change what "all
    # artifacts are 2/2 creatures" applies to (613.8a looks at what each effect does to the objects it applies to):
    # timestamp order, nothing waits (613.8b not applied); the artifact is a 2/2 creature, the bear unchanged
    game = new_game()
    _put(game, "Beispiel-Artefaktbeseelung")
    _put(game, "Beispiel-Landschmiede")
    baer = _put(game, "Grizzlybären")
    brunnen = _put(game, "Jungbrunnen")
    rules = _traced(lambda: game.characteristics(brunnen))
    assert game.characteristics(brunnen).types == {"artifact", "creature"} and game.power(brunnen) == 2
    assert game.characteristics(baer).types == {"creature"}
    assert "613.8b" not in rules
