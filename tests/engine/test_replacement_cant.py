"""An event that can't happen (614.17) and the self-replacement effects that may still modify it (614.17c), and an
effect that becomes applicable through a modified event (616.2), through the engine's API: no card in the set has a
self-replacement effect on an event a "can't" effect forbids, nor two effects that apply one after the other to one
event.  Hand-made effects after the rules' own wording (614.17c, 616.2, en-2024-11-08); cases made for the mutation
check of engine/replacement.py (issue 33)."""
from __future__ import annotations

import pytest

from engine import replacement
from engine.game import Game
from engine.registry import Tracer
from engine.replacement import Replacement, replace_event

KIND = "test_event"


@pytest.fixture
def game(monkeypatch):
    """A game with two hand-made handlers: ``halve`` (applies while the amount is over 1, halves it) and ``mark``
    (applies only once the amount is 1: it becomes applicable through the modified event), and a "can't" effect
    for KIND that forbids the event while its amount is over the limit the game's first player's life sets."""
    monkeypatch.setitem(replacement.HANDLERS, "halve", lambda g, r, ev: {**ev, "amount": ev["amount"] // 2})
    monkeypatch.setitem(replacement.APPLIES, "halve", lambda g, r, ev: ev["amount"] > 1)
    monkeypatch.setitem(replacement.HANDLERS, "mark", lambda g, r, ev: {**ev, "marked": True})
    monkeypatch.setitem(replacement.APPLIES, "mark", lambda g, r, ev: ev["amount"] == 1)

    def forbidden(g, kind, ev):  # reads all three arguments, as the real ones (engine.cant) do
        return kind == KIND and ev["amount"] > g.state.players[0].life - 12

    monkeypatch.setitem(replacement.FORBIDS, KIND, forbidden)
    return Game.new(["Alice", "Bob"])  # life 20: amounts over 8 can't happen


def effect(how: str, n: int, self_replacement: bool = False) -> Replacement:
    return Replacement(KIND, how, 0, f"Testkarte {n}", n, self_replacement=self_replacement, key=("test", n))


def test_a_self_replacement_effect_can_make_a_forbidden_event_possible_614_17c(game):
    """614.17c: a self-replacement effect still modifies an event that can't happen; what it makes of it happens if
    that can happen (amount 16 can't; halved to 8, it can)."""
    game.state.effects.append(effect("halve", 1, self_replacement=True))
    assert replace_event(game, KIND, {"amount": 16}, 0) == {"amount": 8}


def test_what_a_self_replacement_effect_makes_of_it_still_cant_happen_614_17c(game):
    """Halved once (614.5: each effect once) 32 becomes 16, which still can't happen: nothing happens."""
    game.state.effects.append(effect("halve", 1, self_replacement=True))
    assert replace_event(game, KIND, {"amount": 32}, 0) is None


def test_other_replacement_effects_cant_modify_a_forbidden_event_614_17c(game):
    """An effect that is no self-replacement effect does not modify an event that can't happen: it doesn't happen."""
    game.state.effects.append(effect("halve", 1))
    assert replace_event(game, KIND, {"amount": 16}, 0) is None
    assert replace_event(game, KIND, {"amount": 8}, 0) == {"amount": 4}  # one that can happen: it modifies it


def test_an_effect_made_applicable_by_the_modified_event_applies_616_2(game):
    """616.2: after one effect applied, one that was not applicable before (``mark`` needs amount 1) applies to the
    modified event; the tracer records 616.2 and 616.1f, and no choice among several (616.1e)."""
    game.state.effects += [effect("halve", 1), effect("mark", 2)]
    with Tracer() as t:
        assert replace_event(game, KIND, {"amount": 2}, 0) == {"amount": 1, "marked": True}
    rules = {c.key for c in t.citations()}
    assert {"616.2", "616.1f"} <= {r.split("/")[-1] for r in rules}
    assert "616.1e" not in {r.split("/")[-1] for r in rules}


def test_an_effect_applicable_from_the_start_is_not_616_2(game):
    """Two ``halve`` effects both apply to the original event (amount 8); after the first, the second round finds
    only the other one, seen in the first round: 616.1f, but no 616.2."""
    game.state.effects += [effect("halve", 1), effect("halve", 2)]
    with Tracer() as t:
        assert replace_event(game, KIND, {"amount": 8}, 0) == {"amount": 2}
    assert "616.1f" in {c.key.split("/")[-1] for c in t.citations()}
    assert "616.2" not in {c.key.split("/")[-1] for c in t.citations()}
