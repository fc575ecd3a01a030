"""Casting a spell (601): each step, in order, and the illegal-action rollback."""
import pytest

from engine.costs import ManaCost, find_payment, pool_from
from engine.registry import Tracer
from tests.engine.helpers import (
    ALICE,
    BOB,
    Choices,
    ManaActivation,
    names,
    new_game,
    object_target,
    player_target,
    pool,
    resolve,
)


def test_casting_follows_the_article_order():
    """Stack, modes, X, alternative/additional costs, targets, costs, mana abilities, payment (601.2a–i)."""
    game = new_game()
    card = game.put("Sitzenlassen", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    elf = game.put("Llanowarelfen", "battlefield", BOB)
    lands = [game.put(n, "battlefield", ALICE) for n in ("Insel", "Insel", "Gebirge", "Gebirge")]
    with Tracer() as t:
        err = game.cast(ALICE, card, Choices(optional=("bonus",), targets={
            "zurueck": (object_target(baer),), "schaden": (object_target(elf),)},
            mana=tuple(ManaActivation(land) for land in lands)))
    assert err is None
    order = [f.qualname.rsplit(".", 1)[1] for f in t.links()]
    steps = ["may_begin_casting", "move_to_stack", "announce_costs", "choose_targets", "determine_total_cost",
             "activate_mana_abilities", "pay_total_cost", "become_cast"]
    assert [s for s in order if s in steps] == steps


def test_spell_is_on_the_stack_while_costs_are_paid():
    game = new_game(alice="{R}")
    axe = game.put("Blitzaxt", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    err = game.cast(ALICE, axe, Choices(chosen=("abwerfen",), discard=(axe,),
                                        targets={"kreatur": (object_target(baer),)}))
    assert err is not None and err.rule == "601.2h"
    assert names(game, game.state.players[ALICE].hand) == ["Blitzaxt"]


def test_total_cost_increase_then_reduction_then_minimum():
    """601.2f: mana cost + increases − reductions (never below {0}); then effects on the total (Trinisphere)."""
    game = new_game(alice="{R}{R}{R}{R}")
    game.put("Abkühlung", "battlefield", BOB)
    game.put("Helm der Erweckung", "battlefield", BOB)
    game.put("Helm der Erweckung", "battlefield", BOB)
    game.put("Helm der Erweckung", "battlefield", BOB)
    shock = game.put("Schock", "hand", ALICE)
    assert game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)})) is None
    # {R} + {2} - {1} - {1} - {1} = {R}: reductions cannot take the coloured symbol
    assert str(game.last_cost.cost) == "{R}"
    game2 = new_game(alice="{C}{C}{C}")
    game2.put("Trinisphäre", "battlefield", BOB)
    for _ in range(3):
        game2.put("Helm der Erweckung", "battlefield", BOB)
    chalice = game2.put("Kelch der Leere", "hand", ALICE)
    assert game2.cast(ALICE, chalice, Choices(x=1)) is None
    # {2} - {3} = {0}, then at least three mana
    assert str(game2.last_cost.cost) == "{3}"


def test_locked_cost_does_not_change_when_a_reducer_leaves_while_paying():
    game = new_game()
    warchief = game.put("Goblin-Kriegshäuptling", "battlefield", ALICE)
    altar = game.put("Ashnods Altar", "battlefield", ALICE)
    for _ in range(3):
        game.put("Gebirge", "battlefield", ALICE)
    marshal = game.put("Goblinfeldmarschall", "hand", ALICE)
    mountains = [o for o in game.state.battlefield if game.state.objects[o].card == "Gebirge"]
    acts = tuple(ManaActivation(m) for m in mountains) + (ManaActivation(altar, None, Choices(sacrifice=(warchief,))),)
    assert game.cast(ALICE, marshal, Choices(mana=acts)) is None
    assert str(game.last_cost.cost) == "{3}{R}{R}"
    assert pool(game) == "empty"


def test_x_is_announced_and_substituted():
    game = new_game(alice="{R}{R}{R}{R}")
    blaze = game.put("Heiße Glut", "hand", ALICE)
    err = game.cast(ALICE, blaze, Choices(targets={"ziel": (player_target(BOB),)}))
    assert err.rule == "601.2b"
    assert game.cast(ALICE, blaze, Choices(x=3, targets={"ziel": (player_target(BOB),)})) is None
    spell = game.state.objects[game.state.stack[-1]]
    assert game.mana_value(spell) == 4
    resolve(game)
    assert game.state.players[BOB].life == 17


def test_two_alternative_costs_are_impossible():
    game = new_game(alice="{W}{U}{B}{R}{G}")
    bringer = game.put("Bringer des Blauen Morgens", "hand", ALICE)
    err = game.cast(ALICE, bringer, Choices(alternative=("wubrg", "wubrg")))
    assert err.rule == "601.2b"
    err = game.cast(ALICE, bringer, Choices(alternative="gratis"))
    assert err.rule == "601.2b" and "wubrg" in err.message
    assert game.cast(ALICE, bringer, Choices(alternative="wubrg")) is None


def test_targets_distinct_per_word_but_not_across_words():
    game = new_game(alice="{G}{W}{U}{U}")
    seeds = game.put("Samen der Stärke", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    t = (object_target(baer),)
    assert game.cast(ALICE, seeds, Choices(targets={"erste": t, "zweite": t, "dritte": t})) is None
    game = new_game(alice="{U}{U}")
    tap2 = game.put("Beispiel: Tappe zwei Kreaturen", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    err = game.cast(ALICE, tap2, Choices(targets={"kreaturen": (object_target(baer), object_target(baer))}))
    assert err.rule == "601.2c"


def test_variable_number_of_targets_and_division():
    game = new_game(alice="{R}{R}{R}{R}{R}")
    thunder = game.put("Rollender Donner", "hand", ALICE)
    baer = game.put("Grizzlybären", "battlefield", BOB)
    ts = (player_target(BOB), object_target(baer))
    assert game.cast(ALICE, thunder, Choices(x=3, targets={"ziele": ts})).rule == "601.2d"
    assert game.cast(ALICE, thunder, Choices(x=3, targets={"ziele": ts},
                                             division={ts[0]: 3, ts[1]: 0})).rule == "601.2d"
    assert game.cast(ALICE, thunder, Choices(x=3, targets={"ziele": ts}, division={ts[0]: 1, ts[1]: 2})) is None
    resolve(game)
    assert game.state.players[BOB].life == 19
    assert names(game, game.state.players[BOB].graveyard) == ["Grizzlybären"]


def test_permission_and_timing_601_3():
    game = new_game(alice="{R}{R}")
    shock = game.put("Schock", "graveyard", ALICE)
    err = game.cast(ALICE, shock, Choices(from_zone="graveyard", targets={"ziel": (player_target(BOB),)}))
    assert err.rule == "601.3"
    bears = game.put("Grizzlybären", "hand", BOB)
    err = game.cast(BOB, bears, Choices())
    assert err.rule == "en-2024-11-08/117.1"  # no priority
    land = game.put("Gebirge", "hand", ALICE)
    assert game.cast(ALICE, land, Choices()).rule == "601.3"


def test_sorcery_timing_needs_own_main_phase_and_empty_stack():
    game = new_game(alice="{R}{R}{R}{R}{R}{R}{G}{G}")
    shock = game.put("Schock", "hand", ALICE)
    bears = game.put("Grizzlybären", "hand", ALICE)
    assert game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)})) is None
    err = game.cast(ALICE, bears, Choices())
    assert err.rule == "en-2024-11-08/117.1a" and "stack" in err.message


def test_prohibition_considers_announcement_choices_601_3a_and_601_4():
    game = new_game(alice="{R}{R}{R}{R}")
    game.put("Ausdünner der Leere", "battlefield", BOB)
    shock = game.put("Schock", "hand", ALICE)  # mana value 1: odd, allowed
    assert game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)})) is None
    game = new_game(alice="{R}{R}{R}{R}")
    game.put("Ausdünner der Leere", "battlefield", BOB)
    hatchery = game.put("Orochi-Brutkammer", "hand", ALICE)  # {X}{X}: always even
    assert game.cast(ALICE, hatchery, Choices(x=1)).rule == "601.3"
    thunder = game.put("Rollender Donner", "hand", ALICE)
    assert game.cast(ALICE, thunder, Choices(x=2, targets={"ziele": (player_target(BOB),)})).rule == "601.4"


def test_no_partial_payment():
    game = new_game(alice="{R}{R}")
    trash = game.put("Schätze aus Gerümpel", "hand", ALICE)
    old = game.put("Jungbrunnen", "graveyard", ALICE)
    before = game.state.copy()
    err = game.cast(ALICE, trash, Choices(targets={"karte": (object_target(old),)}))
    assert err.rule == "601.2h" and "partial payments" in err.message
    assert game.state == before


def test_mana_payment_helpers():
    assert str(ManaCost.parse("{X}{2}{R/G}{B}")) == "{X}{2}{R/G}{B}"
    assert ManaCost.parse("{X}{X}{R}").mana_value(3) == 7
    assert find_payment(ManaCost.parse("{1}{B}"), pool_from("{B}{B}")) == [0, 0, 2, 0, 0, 0]
    assert find_payment(ManaCost.parse("{1}{B}"), pool_from("{R}{R}")) is None
    assert find_payment(ManaCost.parse("{R/G}"), pool_from("{G}")) == [0, 0, 0, 0, 1, 0]
    assert find_payment(ManaCost.parse("{2}"), pool_from("{C}{G}{G}")) == [0, 0, 0, 0, 1, 1]
    assert find_payment(ManaCost.parse("{2}"), pool_from("{C}{G}{G}"), pool_from("{G}{G}")) == [0, 0, 0, 0, 2, 0]
    assert find_payment(ManaCost.parse("{2}"), pool_from("{C}{G}{G}"), pool_from("{G}")) is None
    assert ManaCost.parse("{1}{B}").minus(ManaCost.parse("{3}")) == ManaCost.parse("{B}")
    assert ManaCost.parse("{B}").pad_to(3) == ManaCost.parse("{2}{B}")
    with pytest.raises(ValueError):
        ManaCost.parse("{Z}")


def test_caster_receives_priority_after_casting_601_2i():
    game = new_game(alice="{R}")
    shock = game.put("Schock", "hand", ALICE)
    game.pass_priority(ALICE)
    assert game.state.priority == BOB
    game.state.priority = ALICE  # (as if Bob had passed back in a new round)
    game.state.passes = 0
    assert game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)})) is None
    assert game.state.priority == ALICE and game.state.passes == 0


def test_alternative_cost_without_x_means_x_is_zero():
    """Article, line 151: with an alternative cost that has no {X}, the only choice for X is 0."""
    from engine.cards import CardDB, parse_card
    from engine.game import Game

    db = CardDB.load()
    db.add(parse_card({"name": "Test: X-Zauber", "cost": "{X}{R}", "types": ["sorcery"],
                       "alternative_costs": [{"name": "gratis", "mana": "{W}"}],
                       "targets": [{"name": "ziel", "player": "any"}],
                       "effects": [{"do": "damage", "amount": "X", "to": "ziel"}]}, "test"))
    game = Game.new(["Alice", "Bob"], db=db)
    game.state.players[ALICE].pool = pool_from("{W}")
    spell = game.put("Test: X-Zauber", "hand", ALICE)
    t = {"ziel": (player_target(BOB),)}
    err = game.cast(ALICE, spell, Choices(x=3, alternative="gratis", targets=t))
    assert err.rule == "601.2b" and "X can only be 0" in err.message
    assert game.cast(ALICE, spell, Choices(x=0, alternative="gratis", targets=t)) is None
    assert str(game.last_cost.cost) == "{W}"
