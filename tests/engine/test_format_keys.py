"""Keys the card format gained for the peer cases (issue 29, point 4): each with a scenario that shows what it
decides (both ways: where it holds and where it does not) and a bad card file refused with file:line."""
import pytest

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


@pytest.mark.parametrize("others, state", [(2, "untapped"), (3, "tapped")])
def test_you_control_n_or_fewer_lets_a_fast_land_enter_untapped(tmp_path, others, state):
    """Spirebluff Canal: with two other lands "two or fewer other lands" holds and it enters untapped; with three it
    enters tapped (614.1c; the peer case peer/fast-land-three-other-lands.scenario)."""
    assert play(tmp_path, f"""Alice battlefield: {"; ".join(["Insel"] * others)}
Alice hand: Spirebluff Canal as canal

Alice plays canal
  expect canal: {state}
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
    """Kumano's Pupils: the creature it dealt damage to this turn, destroyed in the same turn, is exiled; one it did
    not damage goes to the graveyard; after a zone change a creature is a new object and goes to the graveyard too
    (peer/kumano-new-instance-not-exiled.scenario)."""
    assert play(tmp_path, """turn: 2, Bob, main1

Alice battlefield: Kumano's Pupils as pupils; Sumpf as s1; Gebirge as m1; Gebirge as m2
Alice hand: Terminate; Schock
Bob battlefield: Pillarfield Ox as ox; Grizzlybären as bears

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
Bob passes
Alice casts Schock
    target: bears
    mana: m2
resolve
  expect bears: in graveyard
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


def test_a_spell_grants_a_triggered_ability_until_end_of_turn(tmp_path):
    """Supernatural Stamina: the Bears get +2/+0 and "when this creature dies, return it … tapped"; bolted, it
    returns tapped as a new object, without the +2/+0 (400.7, 611.2c); the ability was the old object's."""
    assert play(tmp_path, """Alice battlefield: Grizzlybären as bears; Sumpf as s1; Gebirge as m1
Alice hand: Supernatural Stamina; Lightning Bolt as bolt

Alice casts Supernatural Stamina
    target: bears
    mana: s1
resolve
  expect bears: power 4
Alice casts bolt
    target: bears
    mana: m1
resolve
  expect bears: in graveyard
resolve
  expect bears: in battlefield
  expect bears: tapped
  expect bears: power 2
""") == []


def test_damage_becomes_counters_and_prowess_triggers(tmp_path):
    """Soul-Scar Mage: Schock at Bob's Craw Wurm puts two -1/-1 counters on it instead of dealing damage (614.1a);
    the Mage's prowess triggers on the noncreature spell (702.108a); Bob's own damage is not replaced."""
    assert play(tmp_path, """Alice battlefield: Soul-Scar Mage as mage; Gebirge as m1
Alice hand: Schock
Bob battlefield: Craw Wurm as wurm; Gebirge as m2
Bob hand: Schock as bobs

Alice casts Schock
    target: wurm
    mana: m1
  expect stack: Schock; ability of Soul-Scar Mage
resolve
  expect mage: power 2
resolve
  expect wurm: counters -1/-1 2
  expect wurm: damage 0
  expect wurm: power 4
Alice passes
Bob casts bobs
    target: mage
    mana: m2
resolve
  expect mage: damage 2
  expect mage: counters -1/-1 0
""") == []


def test_the_exile_rider_is_locked_to_the_creature_it_names(tmp_path):
    """Magma Spray's "if that creature would die this turn, exile it instead": the 2/3 Ox survives the spray; killed
    later that turn it is exiled; the Bears, not named, go to the graveyard (611.2c)."""
    assert play(tmp_path, """Alice battlefield: Gebirge as m1; Gebirge as m2; Gebirge as m3
Alice hand: Magma Spray; Schock as s1; Schock as s2
Bob battlefield: Pillarfield Ox as ox; Grizzlybären as bears

Alice casts Magma Spray
    target: ox
    mana: m1
resolve
  expect ox: damage 2
Alice casts s1
    target: ox
    mana: m2
resolve
  expect ox: in exile
Alice casts s2
    target: bears
    mana: m3
resolve
  expect bears: in graveyard
""") == []


def test_harms_way_takes_damage_to_a_permanent_you_control(tmp_path):
    """Harm's Way chosen for Lightning Bolt at Bob's Craw Wurm: 2 of the 3 go to Alice, 1 stays on the Wurm (614.9);
    its damage to the other source's target is not redirected."""
    assert play(tmp_path, """Alice hand: Lightning Bolt as bolt; Schock
Alice battlefield: Gebirge as m1; Gebirge as m2
Bob hand: Harm's Way
Bob battlefield: Ebene as p1; Craw Wurm as wurm

Alice casts bolt
    target: wurm
    mana: m1
Alice passes
Bob casts Harm's Way
    target: Alice
    mana: p1
resolve
    choose: bolt
resolve
  expect Alice life: 18
  expect wurm: damage 1
Alice casts Schock
    target: Bob
    mana: m2
resolve
  expect Bob life: 18
""") == []


def test_palisade_giant_takes_damage_to_another_permanent(tmp_path):
    """Palisade Giant: Schock at Alice's Grizzly Bears is dealt to the Giant instead (614.9)."""
    assert play(tmp_path, """turn: 1, Bob, main1
Alice battlefield: Palisade Giant as giant; Grizzlybären as bears
Bob hand: Schock
Bob battlefield: Gebirge as m1

Bob casts Schock
    target: bears
    mana: m1
resolve
  expect bears: damage 0
  expect giant: damage 2
""") == []


@pytest.mark.parametrize("revealed, legal", [("knight", True), ("bears", False)])
def test_a_morph_cost_of_revealing_a_card(tmp_path, revealed, legal):
    """Ruthless Ripper's "Morph—Reveal a black card in your hand": Black Knight pays it and stays in the hand
    (701.16b); the green Grizzly Bears do not (118.1)."""
    failures = play(tmp_path, f"""Alice hand: Ruthless Ripper as ripper; Black Knight as knight; Grizzlybären as bears
Alice pool: {{C}}{{C}}{{C}}

Alice casts ripper
    face: morph
resolve
Alice turns ripper face up
    pay: {revealed}
    trigger: ripper (target: Bob)
{"" if legal else "  expect illegal: en-2024-11-08/118.1"}
resolve
  expect Bob life: {18 if legal else 20}
  expect knight: in hand
""")
    assert failures == []


def test_mana_reflection_doubles_only_what_is_tapped_for_mana(tmp_path):
    """Mana Reflection: the Swamp tapped to pay for Dark Ritual produces {B}{B} (one pays the Ritual); the Ritual, a
    spell and no permanent tapped for mana, adds {B}{B}{B}, not six (106.12, 106.12b); the Elves produce {G}{G}."""
    assert play(tmp_path, """Alice battlefield: Mana Reflection; Llanowarelfen as elf; Sumpf as s1
Alice hand: Schwarzer Ritus

Alice casts Schwarzer Ritus
    mana: s1
resolve
  expect Alice pool: {B}{B}{B}{B}
Alice activates elf
  expect Alice pool: {B}{B}{B}{B}{G}{G}
""") == []


def test_soul_scar_mage_leaves_combat_damage_alone(tmp_path):
    """Soul-Scar Mage's replacement is for noncombat damage only: blocked by the Bears, it deals 1 combat damage."""
    assert play(tmp_path, """Alice battlefield: Soul-Scar Mage as mage
Bob battlefield: Grizzlybären as bears

Alice attacks with mage
Bob blocks mage with bears
next step
  expect bears: damage 1
  expect bears: counters -1/-1 0
""") == []


def test_forcefield_chooses_among_unblocked_creatures(tmp_path):
    """Forcefield: "an unblocked creature of your choice" — chosen for the blocked Sagu Mauler (trample) it prevents
    nothing of the 4 trampling over; for the unblocked Craw Wurm all but 1 of its 6 (615.7, 509.1h)."""
    assert play(tmp_path, """Alice battlefield: Sagu Mauler as mauler; Craw Wurm as wurm
Bob battlefield: Forcefield as ff; Silvercoat Lion as lion; Insel as i1; Insel as i2

Alice attacks with mauler; wurm
Bob blocks mauler with lion
Alice passes
Bob activates ff
    mana: i1
resolve
    choose: mauler
Alice passes
Bob activates ff
    mana: i2
resolve
    choose: wurm
next step
  expect Bob life: 15
""") == []
