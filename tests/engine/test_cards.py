"""Card files: the schema (known keys, known keywords, typed values), file:line errors, extra card directories."""
import re

import pytest
from click.testing import CliRunner

from engine import cardfile, effects
from engine.cards import CardDB, CardError, default_db, load_file
from engine.filters import FILTER_KEYS
from engine.paths import CARDS_DIR
from engine.scenario import run_file
from kb.trace.cli import scenario as scenario_group

GOOD = '''name = "Testfunke"
cost = "{R}"
types = ["instant"]
keywords = ["flash"]
targets = [{ name = "ziel", player = "any", types = ["creature"] }]
effects = [{ do = "damage", amount = 1, to = "ziel" }]
'''

CARD = 'name = "K"\ntypes = ["instant"]\n'
BAD = {
    # name: (file text, line, message)
    "unknown keyword": (GOOD.replace('["flash"]', '["flsh"]'), 4, "keywords[0]: unknown keyword 'flsh' (did you "
                                                                     "mean 'flash'?)"),
    "loyalty -X": ('name = "W"\ntypes = ["planeswalker"]\nloyalty = 3\n[[abilities]]\ncost = { loyalty = 1 }\n'
                   'effects = [{ do = "draw", who = "you" }]\n[[abilities]]\ncost = { loyalty = "-X" }\n'
                   'effects = [{ do = "draw", who = "you" }]\n', 8,
                   "abilities[1].cost.loyalty: expected a whole number from -99 to 99, got '-X'"),
    "toml syntax": ('name = "T"\ntypes = ["instant"\neffects = []\n', 3, "TOML syntax"),
    "toml at the end": ('name = "T"\ntypes = ["instant"\n', 2, "TOML syntax: Unclosed array"),
    "unknown key": (GOOD + 'colour = ["R"]\n', 7, "unknown key 'colour' (did you mean 'colors'?)"),
    "unknown effect": (GOOD.replace('do = "damage"', 'do = "dmg"'), 6, "effects[0].do: unknown effect 'dmg'"),
    "wrong amount": (GOOD.replace("amount = 1", 'amount = "zwei"'), 6, "effects[0].amount: unknown amount 'zwei'"),
    "huge amount": (GOOD.replace("amount = 1", "amount = 99999999999"), 6, "effects[0].amount: expected a whole"),
    "reference": (GOOD.replace('to = "ziel"', 'to = "zeil"'), 6, "effects[0].to: 'zeil' names no target"),
    "card type": (GOOD.replace('["instant"]', '["instnat"]'), 3, "unknown card type 'instnat' (did you mean "),
    "missing name": ('types = ["instant"]\n', 1, "missing 'name'"),
    "boolean as number": (GOOD.replace("amount = 1", "amount = true"), 6, "effects[0].amount: expected"),
    "filter key": (GOOD.replace('types = ["creature"]', 'typ = ["creature"]'), 5, "targets[0].typ: unknown key"),
    "effect key": (GOOD.replace("amount = 1,", "amount = 1, wieviel = 2,"), 6, "effects[0].wieviel: unknown key"),
    "static kind": (GOOD + 'statics = [{ kind = "kosten" }]\n', 7, "statics[0].kind: unknown static ability kind"),
    "mana cost": (GOOD.replace('cost = "{R}"', 'cost = "{R}{Q}"'), 2, "cost: unknown mana symbol {Q}"),
    "no tie rule (609.5)": ('name = "T"\ntypes = ["sorcery"]\neffects = [{ do = "for_most", of = "most_life", '
                            'effects = [{ do = "lose_life", who = "each", amount = 3 }] }]\n', 3,
                            "effects[0]: missing 'tie'"),
    "second ability": ('name = "A"\ntypes = ["artifact"]\n\n[[abilities]]\ncost = "{T}"\n'
                       'effects = [{ do = "add_mana", mana = "{G}" }]\n\n[[abilities]]\ncost = "{1}"\n'
                       'effects = [\n  { do = "gain_life", who = "you", amount = 1 },\n'
                       '  { do = "gain_life", who = "du", amount = 1 },\n]\n', 12,
                       "abilities[1].effects[1].who: 'du' names no target"),
    # the keys added for the peer cases (issue 29, point 4)
    # name: (file text, line, message)
    "mana value N or greater": (CARD + 'targets = [{ name = "s", zone = "stack", mana_value_min = -4 }]\n'
                                'effects = [{ do = "counter", what = "s" }]\n', 3,
                                "targets[0].mana_value_min: expected a whole number from 0 to 1000, got -4"),
    "same name as a word that names nothing": (
        CARD + 'targets = [{ name = "kreatur", types = ["creature"] }]\neffects = [\n'
        '  { do = "continuous", what = "kreatur", power = -2 },\n'
        '  { do = "continuous", all = { types = ["creature"], same_name_as = "kraetur" }, power = -2 },\n]\n', 6,
        "effects[1].all.same_name_as: 'kraetur' names no target of this spell or ability (targets: kreatur, self)"),
    "not subtypes": (CARD + 'effects = [{ do = "destroy", all = { not_subtypes = [3] } }]\n', 3,
                     "effects[0].all.not_subtypes[0]: expected a name"),
    "N or fewer": ('name = "L"\ntypes = ["land"]\nstatics = [\n  { kind = "enters", tapped = true, unless = '
                   '{ you_control = { types = ["land"], at_most = "two" } } },\n]\n', 4,
                   "statics[0].unless.you_control.at_most: expected a whole number from 0 to 100, got 'two'"),
    "condition of a static": ('name = "G"\ntypes = ["planeswalker"]\nloyalty = 4\nstatics = [\n'
                              '  { kind = "modify", objects = "self", condition = { your_trun = true }, '
                              'add_types = ["creature"] },\n]\n', 5,
                              "statics[0].condition.your_trun: unknown key 'your_trun' (did you mean 'your_turn'?)"),
    "dealt damage by": ('name = "P"\ntypes = ["creature"]\npower = 1\ntoughness = 1\nstatics = [{ kind = "replace", '
                        'event = "to_graveyard", how = "exile_instead", objects = { dealt_damage_by = "it" } }]\n', 5,
                        "statics[0].objects.dealt_damage_by: expected 'self', got 'it'"),
    "own mana value": ('name = "O"\ntypes = ["enchantment"]\n\n[[statics]]\nkind = "modify"\nobjects = '
                       '{ types = ["enchantment"] }\nset_power = { mana_value_of = "it" }\n', 7,
                       "statics[0].set_power.mana_value_of: expected 'each', got 'it'"),
    "extra trigger criteria": ('name = "H"\ntypes = ["artifact"]\nstatics = [{ kind = "extra_trigger", '
                               'when = "enters", what = { typs = ["creature"] } }]\n', 3,
                               "statics[0].what.typs: unknown key 'typs' (did you mean 'types'?)"),
    "granted trigger of a spell": (CARD + 'targets = [{ name = "k", types = ["creature"] }]\n\n[[effects]]\n'
                                   'do = "continuous"\nwhat = "k"\ngrants_triggers = [{ when = "dies" }]\n', 8,
                                   "effects[0].grants_triggers[0].when: unknown trigger event 'dies'"),
    "exile rider criteria": (CARD + 'targets = [{ name = "k", types = ["creature"] }]\neffects = [{ do = '
                             '"exile_if_dies", what = "k", filter = { dealt_damage_by = true } }]\n', 4,
                             "effects[0].filter.dealt_damage_by: expected 'self', got True"),
    "damage as counters": ('name = "S"\ntypes = ["creature"]\npower = 1\ntoughness = 2\nstatics = [{ kind = '
                           '"replace", event = "damage", how = "counters_instead", counter = "-1/-1", to = '
                           '{ controler = "opponent" } }]\n', 5,
                           "statics[0].to.controler: unknown key 'controler' (did you mean 'controller'?)"),
    "return tapped": (CARD + 'effects = [{ do = "move", what = "self", zone = "battlefield", tapped = "yes" }]\n', 3,
                      "effects[0].tapped: expected true or false, got 'yes'"),
    "morph cost not mana": ('name = "R"\ntypes = ["creature"]\nstatics = [{ kind = "morph", cost = { reveal = '
                            '{ colours = ["B"] } } }]\n', 3,
                            "statics[0].cost.reveal.colours: unknown key 'colours' (did you mean 'colors'?)"),
    "prowess misspelt": ('name = "M"\ntypes = ["creature"]\nkeywords = ["prowes"]\n', 3,
                         "keywords[0]: unknown keyword 'prowes' (did you mean 'prowess'?)"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_card_file_names_file_line_and_field(tmp_path, name):
    text, line, message = BAD[name]
    path = tmp_path / "karte.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardError) as e:
        load_file(path)
    assert f"karte.toml:{line}: " in str(e.value), str(e.value)
    assert message in str(e.value), str(e.value)
    assert "Traceback" not in str(e.value)


def test_a_good_card_file_loads(tmp_path):
    path = tmp_path / "karte.toml"
    path.write_text(GOOD, encoding="utf-8")
    [card] = load_file(path)
    assert card.name == "Testfunke" and card.keywords == {"flash"}


def test_every_built_in_card_loads():
    db = default_db()
    assert len(db.names()) >= 70
    assert all(c.file.startswith("data/cards/") for c in db.cards.values())


def test_the_schema_agrees_with_the_engine():
    """Every filter key the engine matches is in the schema, every effect key has a type, every keyword is known."""
    assert set(cardfile.FILTER_FIELDS) == set(FILTER_KEYS)
    for kind in effects.EFFECTS.values():
        for key in (*kind.required, *kind.optional):
            assert key in cardfile.EFFECT_KEYS, (kind.name, key)
    used = {k for c in default_db().cards.values() for k in c.keywords}
    assert used <= set(cardfile.KEYWORD_WORDS)


def test_extra_card_directories_and_name_clashes(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "testfunke.toml").write_text(GOOD, encoding="utf-8")
    db = CardDB.load(CARDS_DIR, mine)
    assert "Testfunke" in db and "Schock" in db
    (mine / "schock.toml").write_text(GOOD.replace("Testfunke", "Schock"), encoding="utf-8")
    with pytest.raises(CardError, match=r"card 'Schock' is also defined in data/cards/schock.toml"):
        CardDB.load(CARDS_DIR, mine)
    with pytest.raises(CardError, match="not a directory"):
        CardDB.load(tmp_path / "nothing")


def test_kb_scenario_run_with_extra_cards(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "testfunke.toml").write_text(GOOD, encoding="utf-8")
    scenario = tmp_path / "funke.scenario"
    scenario.write_text("title: eigene Karte\ntags: 601.2\nplayers: Alice, Bob\nAlice hand: Testfunke\n"
                        "Alice pool: {R}\nAlice casts Testfunke\n    target: Bob\nresolve\n  expect Bob life: 19\n",
                        encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(scenario_group, ["run", "--cards", str(mine), str(scenario)])
    assert out.exit_code == 0, out.output
    out = runner.invoke(scenario_group, ["run", str(scenario)])
    assert out.exit_code == 1 and "unknown card 'Testfunke'" in out.output
    (mine / "kaputt.toml").write_text(GOOD.replace("Testfunke", "Kaputt").replace('"flash"', '"flsh"'),
                                      encoding="utf-8")
    out = runner.invoke(scenario_group, ["run", "--cards", str(mine), str(scenario)])
    assert out.exit_code == 1 and "kaputt.toml:4: Kaputt: keywords[0]: unknown keyword 'flsh'" in out.output
    assert "Traceback" not in out.output


HOSTILE = {
    "copies": ("Alice hand: 10000000x Ernte des Altars\n", "copies: '10000000' is not a whole number from 1 to 200"),
    "endless digits": ("Alice hand: 99999999999999999999x Ernte des Altars\n", "copies: '99999999999999999999'"),
    "life": ("Alice life: 99999999999999999999\n", "life: '99999999999999999999' is not a whole number"),
    "pool": ("Alice pool: " + "{G}" * 1500 + "\n", "more than 1000 mana of a type"),
    "counters": ("Alice battlefield: Grizzlybären (+1/+1 99999999)\n", "counters: '99999999'"),
    "x": ("Alice hand: Heiße Glut\nAlice casts Heiße Glut\n    x: 10000000000000\n", "x: '10000000000000'"),
    "turn": ("turn: 99999999999, Alice\n", "turn: '99999999999'"),
    "long line": ("Alice hand: " + "Schock; " * 2000 + "\n", "line longer than"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_numbers_are_refused_with_file_and_line(tmp_path, name):
    text, message = HOSTILE[name]
    header = "players: Alice, Bob\n"
    if text.startswith("turn:"):
        header, text = "players: Alice, Bob\n" + text, ""
    path = tmp_path / "hostile.scenario"
    path.write_text(header + text, encoding="utf-8")
    result = run_file(path)
    failures = "\n".join(result.failures())
    assert not result.ok and message in failures, failures
    assert re.search(r"hostile\.scenario:[234]: ", failures), failures


def test_a_broken_card_file_stops_the_build_with_its_message(monkeypatch):
    import sqlite_utils

    import kb.trace as tr
    from kb.build import BuildError

    def broken():
        raise CardError("data/cards/x.toml:4: X: keywords[0]: unknown keyword 'flsh'")

    monkeypatch.setattr(tr, "default_db", broken)
    with pytest.raises(BuildError, match=r"card files: data/cards/x.toml:4: X: keywords\[0\]"):
        tr.store(sqlite_utils.Database(memory=True))
