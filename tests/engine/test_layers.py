"""The layer system (613) and continuous effects (611): values computed on read, in layer and dependency order."""
from engine.continuous import Continuous
from engine.filters import Filter
from tests.engine.helpers import ALICE, BOB, Choices, new_game, object_target, resolve


def _types(game, oid):
    return game.characteristics(game.state.objects[oid]).types


def test_dependency_wins_over_timestamps_in_both_orders_613_8():
    for first, second in (("Beispiel-Artefaktbeseelung", "Beispiel-Landschmiede"),
                          ("Beispiel-Landschmiede", "Beispiel-Artefaktbeseelung")):
        game = new_game()
        game.put(first, "battlefield", ALICE)
        game.put(second, "battlefield", ALICE)
        wald = game.put("Wald", "battlefield", ALICE)
        assert _types(game, wald) == {"land", "artifact", "creature"}, first
        assert game.power(game.state.objects[wald]) == 2


def test_nothing_is_stored_the_value_follows_the_source_613_5():
    game = new_game()
    banner = game.put("Ehre der Reinen", "battlefield", ALICE)
    knight = game.put("Beispiel-Weißer Wächter", "battlefield", ALICE)
    obj = game.state.objects[knight]
    assert game.power(obj) == 2
    game.state.move(banner, "graveyard")
    assert game.power(obj) == 1
    assert game.db["Beispiel-Weißer Wächter"].power == 1  # the card itself never changes


def test_without_effects_the_printed_characteristics_are_read_directly():
    game = new_game()
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    assert game.characteristics(game.state.objects[baer]) is game.db["Grizzlybären"]


def test_a_locked_set_and_a_static_ability_differ_611_2c_611_3a():
    game = new_game()
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    st = game.state
    locked = Continuous({"7c": {"power": 1, "toughness": 1}}, 10_000, ALICE, "t", None, locked=frozenset(),
                        duration="indefinite")
    by_colour = Continuous({"7c": {"power": 5}}, 10_001, ALICE, "t", baer,
                           objects=Filter(types=frozenset({"creature"}), colors=frozenset({"W"})),
                           duration="indefinite")
    st.effects += [locked, by_colour]
    assert game.power(st.objects[baer]) == 2  # not in the locked set, not white
    st.effects.append(Continuous({"5": {"colors": ["W"]}}, 10_002, ALICE, "t", None, locked=frozenset({baer}),
                                 duration="indefinite"))
    assert game.power(st.objects[baer]) == 7  # now white: the criteria are judged after layer 5 (613.9)


def test_until_end_of_turn_ends_in_the_cleanup_step_and_control_returns_611_2a():
    game = new_game(alice="{C}{C}{R}")
    tat = game.put("Verräterische Tat", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    game.put("Insel", "library", BOB)
    assert game.cast(ALICE, tat, Choices(targets={"kreatur": (object_target(baer),)})) is None
    resolve(game)
    assert game.state.objects[baer].controller == ALICE
    assert game.advance_to("upkeep", next_turn=True) is None
    assert game.state.objects[baer].controller == BOB
    assert "haste" not in game.keywords(game.state.objects[baer])


def test_each_replacement_applies_once_to_one_event_614_5():
    game = new_game()
    for _ in range(3):
        game.put("Beispiel-Verdoppler", "battlefield", ALICE)
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    from engine.damage import deal_damage
    obj = game.state.objects[baer]
    deal_damage(game, obj, game.characteristics(obj), [(("P", BOB), 2)])
    assert game.state.players[BOB].life == 20 - 16


def test_a_shield_is_used_up_and_prevents_only_its_amount_615_7():
    game = new_game()
    heiler = game.put("Beispiel-Heiler", "battlefield", ALICE)
    wesen = game.put("Beispiel-Mauerwesen", "battlefield", ALICE)
    assert game.activate(ALICE, heiler, None, Choices(targets={"kreatur": (object_target(wesen),)})) is None
    resolve(game)
    from engine.damage import deal_damage
    from engine.prevention import shield_left
    src = game.state.objects[heiler]
    deal_damage(game, src, game.characteristics(src), [(object_target(wesen), 2)])
    assert game.state.objects[wesen].damage == 0 and shield_left(game, object_target(wesen)) == 1
    deal_damage(game, src, game.characteristics(src), [(object_target(wesen), 2)])
    assert game.state.objects[wesen].damage == 1 and shield_left(game, object_target(wesen)) == 0


def _subtypes(game, oid):
    return game.characteristics(game.state.objects[oid]).subtypes


def test_an_effect_whose_ability_is_taken_in_its_own_layer_does_not_exist_in_either_order_613_8a():
    # 613.8a: Blood Moon changes the existence of Urborg's layer-4 effect (305.7), so that effect waits for it
    # (613.8b) whatever the timestamps, and then no longer exists
    for first, second in (("Blood Moon", "Urborg, Tomb of Yawgmoth"), ("Urborg, Tomb of Yawgmoth", "Blood Moon")):
        game = new_game()
        ids = {name: game.put(name, "battlefield", ALICE) for name in (first, second)}
        ebene = game.put("Ebene", "battlefield", ALICE)
        assert _subtypes(game, ids["Urborg, Tomb of Yawgmoth"]) == {"Mountain"}, first
        assert _subtypes(game, ebene) == {"Plains"}, first


def test_an_effect_that_began_before_its_ability_was_removed_keeps_applying_613_6():
    # Urborg, made a creature and then losing all abilities in layer 6: its layer-4 effect began before the removal
    game = new_game()
    urborg = game.put("Urborg, Tomb of Yawgmoth", "battlefield", ALICE)
    ebene = game.put("Ebene", "battlefield", ALICE)
    st = game.state
    st.effects.append(Continuous({"4": {"add_types": ["creature"]}, "7b": {"set_power": 3, "set_toughness": 3}},
                                 10_000, ALICE, "t", None, locked=frozenset({urborg}), duration="indefinite"))
    st.effects.append(Continuous({"6": {"lose_all_abilities": True}}, 10_001, ALICE, "t", None,
                                 locked=frozenset({urborg}), duration="indefinite"))
    assert _subtypes(game, ebene) == {"Plains", "Swamp"}
    assert game.characteristics(st.objects[urborg]).statics == ()


def test_an_effect_that_begins_later_joins_the_dependency_order_613_8():
    # the board of test_dependency_wins_over_timestamps_in_both_orders_613_8, read, then Urborg enters: a third
    # layer-4 effect ("each land is a Swamp in addition", 305.7) that the order worked out before must not leave out
    game = new_game()
    game.put("Beispiel-Artefaktbeseelung", "battlefield", ALICE)
    game.put("Beispiel-Landschmiede", "battlefield", ALICE)
    wald = game.put("Wald", "battlefield", ALICE)
    assert _types(game, wald) == {"land", "artifact", "creature"} and _subtypes(game, wald) == {"Forest"}
    game.put("Urborg, Tomb of Yawgmoth", "battlefield", ALICE)
    assert _types(game, wald) == {"land", "artifact", "creature"}
    assert _subtypes(game, wald) == {"Forest", "Swamp"}


def test_a_lord_under_humility_gives_nothing_in_either_order_613_6():
    # Humility takes Creakwood Liege's abilities in layer 6; its +1/+1 (layer 7c) would begin to apply only after
    # that, so it does not exist, whatever the timestamps (the case engine.layers.existing names: "Humility and a
    # lord's +1/+1"; Humility's Oracle rulings). Cards from peer scenarios (Forge's testStaticMultiPump, Humility).
    for first, second in (("Humility", "Creakwood Liege"), ("Creakwood Liege", "Humility")):
        game = new_game()
        ids = {name: game.put(name, "battlefield", ALICE) for name in (first, second)}
        baer = game.put("Grizzlybären", "battlefield", ALICE)
        for oid in (baer, ids["Creakwood Liege"]):
            obj = game.state.objects[oid]
            assert (game.power(obj), game.toughness(obj)) == (1, 1), first


def _liege_and_bear_then(layers):
    """Creakwood Liege and Grizzly Bears (3/3 by the Liege's +1/+1), then an effect on the Liege with ``layers``
    (or ``layers(card_db)``)."""
    game = new_game()
    liege = game.put("Creakwood Liege", "battlefield", ALICE)
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    assert game.power(game.state.objects[baer]) == 3
    spec = layers(game.db) if callable(layers) else layers
    game.state.effects.append(Continuous(spec, 10_000, ALICE, "t", None, locked=frozenset({liege}),
                                         duration="indefinite"))
    return game, liege, baer


def test_a_text_change_that_changes_no_word_leaves_the_lords_effect_in_existence_612_1_613_8a():
    # 612.1, 613.8a: a text change changes what an ability says, not whether it exists. "Red" made "blue" in
    # Creakwood Liege's text changes none of its words (its criteria say black and green): its +1/+1 still exists.
    game, liege, baer = _liege_and_bear_then({"3": {"change_text": {"from": "R", "to": "U"}}})
    st = game.state
    assert (game.power(st.objects[baer]), game.toughness(st.objects[baer])) == (3, 3)


def test_a_lord_that_becomes_a_copy_of_a_vanilla_creature_loses_its_effect_613_2_604_1():
    # 613.2 (layer 1 copy effects) and 604.1: Creakwood Liege becoming a copy of Grizzly Bears (707.2, a
    # Cytoshape-style effect) no longer has its ability, so its +1/+1 no longer exists
    game, liege, baer = _liege_and_bear_then(lambda db: {"1a": {"copy_of": db["Grizzlybären"]}})
    st = game.state
    assert game.power(st.objects[baer]) == 2
    assert game.characteristics(st.objects[liege]).name == "Grizzlybären"


def test_blood_moon_and_lands_are_artifacts_both_apply_to_a_nonbasic_land_613_8a():
    # layer 4: "nonbasic lands are Mountains" (Blood Moon, 305.7) and "lands are artifacts" (the 613.8 board's
    # Landschmiede); neither changes whether the other applies, both apply to Svogthos in either order
    for first, second in (("Blood Moon", "Beispiel-Landschmiede"), ("Beispiel-Landschmiede", "Blood Moon")):
        game = new_game()
        game.put(first, "battlefield", ALICE)
        game.put(second, "battlefield", ALICE)
        grab = game.put("Svogthos, das ruhelose Grab", "battlefield", ALICE)
        assert _types(game, grab) == {"land", "artifact"}, first
        assert _subtypes(game, grab) == {"Mountain"}, first


def test_a_colour_word_changed_in_a_lords_text_changes_what_its_effect_applies_to_612_2():
    # 612.1, 612.2: a colour word used as a colour word is changed (Sleight of Mind's reminder text: "you may change
    # 'target black spell' to 'target blue spell'"). "Other green creatures you control get +1/+1" on Creakwood
    # Liege made "other blue creatures ...": the green Grizzly Bears lose that +1/+1, the blue Sindbad gets it
    game, liege, baer = _liege_and_bear_then({"3": {"change_text": {"from": "G", "to": "U"}}})
    st = game.state
    sindbad = st.objects[game.put("Sindbad", "battlefield", ALICE)]
    assert (game.power(st.objects[baer]), game.toughness(st.objects[baer])) == (2, 2)
    assert (game.power(sindbad), game.toughness(sindbad)) == (2, 2)


def test_two_colour_word_changes_one_after_the_other_612_2_613_7():
    # 612.2 and 613.7 (layer 3 in timestamp order): "green" made "blue", then "blue" made "red" in Creakwood Liege's
    # text: its second ability ends up saying "other red creatures you control get +1/+1"
    game, liege, baer = _liege_and_bear_then({"3": {"change_text": {"from": "G", "to": "U"}}})
    st = game.state
    st.effects.append(Continuous({"3": {"change_text": {"from": "U", "to": "R"}}}, 10_001, ALICE, "t", None,
                                 locked=frozenset({liege}), duration="indefinite"))
    sindbad = st.objects[game.put("Sindbad", "battlefield", ALICE)]
    oger = st.objects[game.put("Grauer Oger", "battlefield", ALICE)]
    assert [game.power(o) for o in (st.objects[baer], sindbad, oger)] == [2, 1, 3]


def test_a_lord_that_becomes_a_copy_of_another_lord_has_only_the_copied_abilities_613_2_604_1():
    # 613.2, 707.2: Creakwood Liege becoming a copy of Verdeloth the Ancient (two static abilities as well: "Saproling
    # creatures and other Treefolk creatures get +1/+1") has Verdeloth's abilities, not its own: Grizzly Bears (green,
    # neither Saproling nor Treefolk) get nothing, Heartwood Treefolk gets +1/+1
    game, liege, baer = _liege_and_bear_then(lambda db: {"1a": {"copy_of": db["Verdeloth the Ancient"]}})
    st = game.state
    treefolk = st.objects[game.put("Heartwood Treefolk", "battlefield", ALICE)]
    assert game.power(st.objects[baer]) == 2
    assert (game.power(treefolk), game.toughness(treefolk)) == (4, 5)


def test_a_lord_with_the_full_text_of_a_vanilla_creature_card_loses_its_effect_612_6():
    # 612.6 (Volrath's Shapeshifter: "the full text of" the top creature card of its controller's graveyard):
    # Creakwood Liege with the full text of Grizzly Bears has no ability left, so its +1/+1 no longer exists
    game = new_game()
    game.put("Grizzlybären", "graveyard", ALICE)
    liege = game.put("Creakwood Liege", "battlefield", ALICE)
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    st = game.state
    assert game.power(st.objects[baer]) == 3
    st.effects.append(Continuous({"3": {"full_text_of": "top_of_graveyard"}}, 10_000, ALICE, "t", None,
                                 locked=frozenset({liege}), duration="indefinite"))
    assert game.characteristics(st.objects[liege]).name == "Grizzlybären"
    assert (game.power(st.objects[baer]), game.power(st.objects[liege])) == (2, 2)


def test_two_lords_that_exchange_text_boxes_each_apply_the_others_abilities_612_5():
    # 612.5 (Exchange of Words): Creakwood Liege (black and green Horror) and Verdeloth the Ancient (green Treefolk)
    # exchange text boxes. Before: Verdeloth 5/5 (green, +1/+1 from the Liege), the Liege 2/2. After: the Liege says
    # "Saproling creatures and other Treefolk creatures get +1/+1" (Verdeloth 5/5 by it) and Verdeloth says "other
    # black/green creatures you control get +1/+1" (the Liege 4/4, Grizzly Bears still 3/3)
    game = new_game()
    liege = game.put("Creakwood Liege", "battlefield", ALICE)
    verdeloth = game.put("Verdeloth the Ancient", "battlefield", ALICE)
    baer = game.put("Grizzlybären", "battlefield", ALICE)
    st = game.state
    before = [game.power(st.objects[o]) for o in (liege, verdeloth, baer)]
    assert before == [2, 5, 3]
    st.effects.append(Continuous({"3": {"exchange_text": True}}, 10_000, ALICE, "t", None,
                                 locked=frozenset({liege, verdeloth}), duration="indefinite"))
    assert [game.power(st.objects[o]) for o in (liege, verdeloth, baer)] == [4, 5, 3]
