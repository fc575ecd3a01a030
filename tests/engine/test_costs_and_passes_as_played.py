"""Two rules as a game shows them (issue 33: each could break while every test passed).

* 118.7b (601.2f): a cost reduced by coloured mana the cost does not require is reduced by that much generic
  mana instead.  The rule's own words are the case: a green spell paid with red for its hybrid symbol, under
  "green spells you cast cost {G} less".
* 117.3d/117.4: the top of the stack resolves only when all players pass in succession, without anything
  happening in between; a triggered ability put on the stack as a player would receive priority starts the
  count again (603.3), so every player gets to respond to it.

And, from the mutation run's survivors (docs/testing.md): {T} and {Q} in a cost written as text, and {C} in a
mana cost, which gives no colour.
"""
from engine.cards import CardDB, parse_card
from engine.costs import parse_cost_string
from engine.game import Choices, Game
from tests.engine.helpers import ALICE, BOB, pool, resolve

CAROL = 2

#: a green spell (its hybrid symbol is green and red) with generic mana in its cost (made up for 118.7b)
GIANT = {"name": "Beispiel-Hybridriese", "synthetic": True, "note": "Made up for 118.7b.", "cost": "{2}{R/G}",
         "types": ["creature"], "subtypes": ["Giant"], "power": 3, "toughness": 3,
         "text": "({R/G} kann mit {R} oder {G} bezahlt werden.)"}


def game_with(*cards: dict, players=("Alice", "Bob")) -> Game:
    db = CardDB(CardDB.load().cards)
    for card in cards:
        db.add(parse_card(card))
    return Game.new(list(players), db=db)


def test_a_green_reduction_of_a_cost_without_green_reduces_its_generic_mana():
    game = game_with(GIANT)
    game.put("Beispiel-Grüner Rabatt", "battlefield", ALICE)
    first, second = game.put("Beispiel-Hybridriese", "hand", ALICE), game.put("Beispiel-Hybridriese", "hand", ALICE)
    game.state.players[ALICE].pool = [0, 0, 0, 2, 0, 0]        # {R}{R}
    # {R/G} announced as {R}: the cost {2}{R} requires no green mana, so {G} less is {1} less (118.7b)
    assert game.cast(ALICE, first, Choices(hybrid=("R",))) is None
    assert str(game.last_cost.cost) == "{1}{R}" and pool(game) == "empty"
    assert resolve(game) is None
    # announced as {G}: the reduction takes the {G} itself and the generic mana stays
    game.state.players[ALICE].pool = [0, 0, 0, 2, 0, 0]
    assert game.cast(ALICE, second, Choices(hybrid=("G",))) is None
    assert str(game.last_cost.cost) == "{2}" and pool(game) == "empty"


def test_a_trigger_put_on_the_stack_between_passes_gives_every_player_priority_again():
    game = game_with(players=("Alice", "Bob", "Carol"))
    game.put("Beispiel-Abschiedsgruß", "battlefield", ALICE)   # whenever a player loses: Alice gains 2 life
    assert game.concede(CAROL) is None
    assert game.pass_priority(ALICE) is None
    # as Bob would receive priority, the ability goes on the stack: the passes in succession start again
    assert len(game.state.stack) == 1 and game.state.priority == BOB
    assert game.pass_priority(BOB) is None
    assert len(game.state.stack) == 1 and game.state.priority == ALICE and game.state.players[ALICE].life == 20
    assert game.pass_priority(ALICE) is None   # Bob, then Alice: all players passed in succession
    assert game.state.stack == [] and game.state.players[ALICE].life == 22


#: activated abilities whose costs are written as text, as card files may write them (engine/cardfile.py)
TAPPER = {"name": "Beispiel-Zapfer", "synthetic": True, "note": "Made up: {T} and {Q} in a cost written as text.",
          "types": ["artifact"],
          "text": "{1}, {T}: Du erhältst 2 Lebenspunkte dazu. {Q}: Du erhältst 1 Lebenspunkt dazu.",
          "abilities": [{"cost": "{1}, {T}", "effects": [{"do": "gain_life", "who": "you", "amount": 2}]},
                        {"cost": "{Q}", "effects": [{"do": "gain_life", "who": "you", "amount": 1}]}]}


def test_tap_and_untap_symbols_in_a_cost_written_as_text():
    game = game_with(TAPPER)
    tapper = game.put("Beispiel-Zapfer", "battlefield", ALICE)

    def tapped() -> bool:
        return game.state.objects[tapper].tapped

    assert game.activate(ALICE, tapper, 2) is not None           # {Q}: it must be tapped to untap it (602.5a)
    game.state.players[ALICE].pool = [0, 0, 0, 0, 0, 2]         # {C}{C}
    assert game.activate(ALICE, tapper, 1) is None and tapped() and pool(game) == "{C}"
    assert resolve(game) is None and game.state.players[ALICE].life == 22
    assert game.activate(ALICE, tapper, 1) is not None           # tapped: {T} cannot be paid
    assert game.activate(ALICE, tapper, 2) is None and not tapped()
    assert resolve(game) is None and game.state.players[ALICE].life == 23


def test_colourless_mana_in_a_cost_gives_no_colour():
    # 105.1/202.2: {C} is colourless mana, not a colour; hybrid symbols give both their colours
    eldrazi = {"name": "Beispiel-Farbloses Wesen", "synthetic": True, "note": "Made up for 202.2: {C} in a cost.",
               "cost": "{2}{C}", "types": ["creature"], "power": 2, "toughness": 2, "text": ""}
    game = game_with(eldrazi, GIANT)
    colourless = game.put("Beispiel-Farbloses Wesen", "battlefield", ALICE)
    giant = game.put("Beispiel-Hybridriese", "battlefield", ALICE)
    assert game.characteristics(game.state.objects[colourless]).colors == frozenset()
    assert game.characteristics(game.state.objects[giant]).colors == frozenset({"R", "G"})


def test_every_cost_of_the_card_files_prints_as_it_is():
    """A cost is named in the messages of illegal actions ("cannot pay {1}, {T}"): every activated ability's cost
    of data/cards prints its parts, and a cost of mana, {T} and {Q} alone reads back as the same cost."""
    from engine.costs import ZERO, Cost

    costs = [ab.cost for card in CardDB.load().cards.values() for ab in card.abilities]
    assert len(costs) > 50
    for cost in costs:
        text, parts = str(cost), str(cost).split(", ")
        assert ("{T}" in parts) == cost.tap and ("{Q}" in parts) == cost.untap, text
        assert (f"pay {cost.life} life" in parts) == bool(cost.life), text
        assert sum(p.startswith("sacrifice ") for p in parts) == len(cost.sacrifice), text
        assert sum(p.startswith("discard ") for p in parts) == len(cost.discard), text
        assert sum(p.startswith("put ") for p in parts) == len(cost.counters), text
        if cost.loyalty is not None:
            assert parts[0] == (f"[{cost.loyalty:+d}]" if cost.loyalty else "[0]"), text
        if not (cost.sacrifice or cost.discard or cost.life or cost.loyalty is not None or cost.counters):
            assert parse_cost_string(text) == cost, text
    assert str(Cost()) == "{0}" and str(Cost(mana=ZERO, tap=True)) == "{T}"
