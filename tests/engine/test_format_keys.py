"""Keys the card format gained for the peer cases (issue 29, point 4): each with a scenario that shows what it
decides (both ways: where it holds and where it does not) and a bad card file refused with file:line."""
import pytest

from engine.cards import CardError, load_file
from engine.scenario import run_file

HEADER = "players: Alice, Bob\n"


def play(tmp_path, text: str) -> list[str]:
    path = tmp_path / "case.scenario"
    path.write_text("title: t\ntags: 601.2\n" + HEADER + text, encoding="utf-8")
    result = run_file(path)
    return result.failures()


def test_mana_value_n_or_greater_allows_a_face_up_spell(tmp_path):
    """Disdainful Stroke ("mana value 4 or greater") counters Craw Wurm (mana value 6) but cannot target Grizzly Bears
    (2); Sagu Mauler cast face down (0) is refused in peer/disdainful-stroke-face-down-spell.scenario."""
    assert play(tmp_path, """Alice hand: Craw Wurm as wurm; Grizzlybären as bears
Alice pool: {G}{G}{G}{C}{C}{C}{C}{C}
Bob hand: Disdainful Stroke as stroke
Bob battlefield: Insel as i1; Insel as i2

Alice casts bears
Alice passes
Bob casts stroke
    target: bears
    mana: i1; i2
  expect illegal: 601.2c
Bob passes
Alice casts wurm
Alice passes
Bob casts stroke
    target: wurm
    mana: i1; i2
resolve
  expect stroke: in graveyard
  expect wurm: in graveyard
""") == []


def test_you_control_n_or_fewer_lets_a_fast_land_enter_untapped(tmp_path):
    """Spirebluff Canal with two other lands: "two or fewer other lands" holds, so it enters untapped (614.1c); with
    three it enters tapped (peer/fast-land-three-other-lands.scenario)."""
    assert play(tmp_path, """Alice battlefield: Insel; Insel
Alice hand: Spirebluff Canal as canal

Alice plays canal
  expect canal: untapped
""") == []


def test_same_name_as_reaches_the_other_creatures_of_that_name(tmp_path):
    """Echoing Decay on one of two face-up Grizzly Bears: the other has the same name and gets -2/-2 too; a
    creature with another name does not (the face-down case: peer/echoing-decay-face-down-same-name.scenario)."""
    assert play(tmp_path, """turn: 1, Bob, main1
Alice battlefield: Grizzlybären as b1; Grizzlybären as b2; Sagu Mauler as other
Bob hand: Echoing Decay
Bob battlefield: Sumpf as s1; Sumpf as s2

Bob casts Echoing Decay
    target: b1
    mana: s1; s2
resolve
  expect b1: in graveyard
  expect b2: in graveyard
  expect other: in battlefield
""") == []


def test_dealt_damage_by_this_creature_exiles_the_same_object(tmp_path):
    """Kumano's Pupils: the creature it dealt damage to this turn, destroyed in the same turn, is exiled; after a
    zone change it is a new object and goes to the graveyard (peer/kumano-new-instance-not-exiled.scenario)."""
    assert play(tmp_path, """turn: 2, Bob, main1

Alice battlefield: Kumano's Pupils as pupils; Sumpf as s1; Gebirge as m1
Alice hand: Terminate
Bob battlefield: Pillarfield Ox as ox

Bob attacks with ox
Alice blocks ox with pupils
next step
  expect ox: damage 3
Bob passes
Alice casts Terminate
    target: ox
    mana: s1; m1
resolve
  expect ox: in exile
""") == []


def test_a_condition_on_a_static_ability_follows_the_turn(tmp_path):
    """Gideon Blackblade's "as long as it's your turn": a creature on Alice's turn, not on Bob's (611.3a)."""
    assert play(tmp_path, """Alice battlefield: Gideon Blackblade as gideon
Alice library: Gebirge
Bob library: Insel

  expect gideon: types creature planeswalker
  expect gideon: toughness 4
next turn
  expect gideon: types planeswalker
next turn
  expect gideon: types creature planeswalker
""") == []


CARD = 'name = "K"\ntypes = ["instant"]\n'
BAD = {
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
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_new_key_names_file_line_and_field(tmp_path, name):
    text, line, message = BAD[name]
    path = tmp_path / "karte.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardError) as e:
        load_file(path)
    assert f"karte.toml:{line}: " in str(e.value), str(e.value)
    assert message in str(e.value), str(e.value)
