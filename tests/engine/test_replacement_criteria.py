"""What decides whether a replacement effect applies to an event (614.1a: "if [this] would happen"), through the
engine's API where no card file can reach it.  Cases made for the mutation check of engine/replacement.py
(issue 33); the criteria of real cards are played by the scenarios (614.1a-*.scenario)."""
from __future__ import annotations

from engine import replacement
from engine.game import Game
from engine.replacement import Replacement, criteria_hold


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
