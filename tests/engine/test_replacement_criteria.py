"""What decides whether a replacement effect applies to an event (614.1a: "if [this] would happen"), through the
engine's API where no card file can reach it.  Cases made for the mutation check of engine/replacement.py
(issue 33); the criteria of real cards are played by the scenarios (614.1a-*.scenario)."""
from __future__ import annotations

from engine import conditions, replacement
from engine.cards import CardDB
from engine.filters import Filter
from engine.game import Choices, Game
from engine.paths import CARDS_DIR
from engine.replacement import Replacement, criteria_hold

from .helpers import ALICE, BOB, player_target, resolve


def test_every_kind_of_replacement_has_its_test_of_whether_it_applies():
    """replace_event asks each candidate's own test (APPLIES) after the shared criteria: a handler without one would
    be a KeyError the first time its effect met an event."""
    assert set(replacement.HANDLERS) == set(replacement.APPLIES)


def test_object_criteria_for_an_event_about_no_object_never_hold_614_1a():
    """A card file may write object criteria ("a creature …") on an event kind that is about no object (a player
    gaining life, drawing): nothing the event is about can meet them, so the effect does not apply."""
    game = Game.new(["Alice", "Bob"])
    for kind, ev in (("gain_life", {"player": 0, "amount": 3}), ("draw", {"player": 1, "amount": 1})):
        r = Replacement(kind, "draw_instead_of_life", 0, "Testkarte", 0, params={"objects": {"types": ["creature"]}})
        assert criteria_hold(game, r, kind, ev) is False
        assert criteria_hold(game, Replacement(kind, "draw_instead_of_life", 0, "Testkarte", 0), kind, ev) is True


#: a replacement effect whose card file names no event (made up, after Beispiel-Verdoppler without its criteria): the
#: engine takes it as one about damage, as a prevention effect is — both where it looks for effects (candidates) and
#: in its quick look whether any may apply (exists), which must agree or the effect would silently do nothing
OVEN = """name = "Testofen"
cost = "{1}"
types = ["enchantment"]
text = "Falls eine Quelle Schaden zufügen würde, fügt sie stattdessen doppelt so viel Schaden zu."
statics = [{ kind = "replace", how = "double" }]
"""


def test_a_replacement_effect_that_names_no_event_replaces_damage(tmp_path):
    (tmp_path / "testofen.toml").write_text(OVEN, encoding="utf-8")
    game = Game.new(["Alice", "Bob"], db=CardDB.load(CARDS_DIR, tmp_path))
    game.put("Testofen", "battlefield", ALICE)
    shock = game.put("Schock", "hand", ALICE)
    game.state.players[ALICE].pool = [0, 0, 0, 1, 0, 0]
    assert game.cast(ALICE, shock, Choices(targets={"ziel": (player_target(BOB),)})) is None
    assert resolve(game) is None
    assert game.state.players[BOB].life == 16


def test_a_damage_source_is_judged_with_the_characteristics_it_dealt_the_damage_with_614_1a():
    """A damage event carries its source's characteristics as they were when it dealt the damage (engine.damage
    source_of: as it last existed, 608.2h); "if a green source would deal damage" is judged with those, not with what
    the object is now (Grizzlybären, green when it dealt the damage, is blue now: Beispiel-Blauer Avatar, a
    vanguard, makes creatures blue)."""
    game = Game.new(["Alice", "Bob"])
    bear = game.state.objects[game.put("Grizzlybären", "battlefield", ALICE)]
    dealt_with = game.characteristics(bear)
    game.put("Beispiel-Blauer Avatar", "command", BOB)
    assert game.characteristics(bear).colors != dealt_with.colors
    green, blue = (Replacement("damage", "double", BOB, "Testkarte", 0,
                               params={"objects": Filter.from_table({"colors": [c]}, "")}) for c in "GU")
    ev = {"source": bear, "source_ch": dealt_with, "target": player_target(BOB), "amount": 2, "combat": False}
    assert criteria_hold(game, green, "damage", ev) is True
    assert criteria_hold(game, blue, "damage", ev) is False


def test_a_static_abilitys_condition_is_read_from_its_source_611_3a():
    """A replacement effect's condition ("as long as this is untapped") is tested on the object with the ability
    (611.3a: it applies while the condition holds)."""
    game = Game.new(["Alice", "Bob"])
    oid = game.put("Grizzlybären", "battlefield", ALICE)
    r = Replacement("draw", "draw_instead_of_life", ALICE, "Testkarte", 0,
                    params={"condition": conditions.read({"source_untapped": True})}, source_id=oid)
    ev = {"player": ALICE, "amount": 1}
    assert criteria_hold(game, r, "draw", ev) is True
    game.state.objects[oid].tapped = True
    assert criteria_hold(game, r, "draw", ev) is False
