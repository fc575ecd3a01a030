"""The engine never gets stuck (104.4b, engine.loops): every loop ends, every game has a budget, and hostile card
and scenario files are refused with file:line instead of a RecursionError."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import loops
from engine.cards import CardDB, CardError, default_db
from engine.errors import IllegalAction, NotExecutable
from engine.game import Choices, Game
from engine.scenario import run_file
from engine.state import STEPS, object_target, player_target

DB = default_db()
CARDS = DB.names()
LANDS = [n for n in CARDS if "land" in DB[n].types]


# -- the state-based-action loop (704.3, 704.5g, 702.12b) --------------------------------------------------------

def test_an_indestructible_creature_with_lethal_damage_does_not_stop_the_game():
    game = Game.new(["Alice", "Bob"])
    golem = game.put("Beispiel-Unzerstörbarer", "battlefield", 0)
    game.state.objects[golem].damage = 5
    assert game.pass_priority(0) is None  # Bob receives priority: the check ended
    assert game.state.priority == 1 and golem in game.state.battlefield


def test_a_mandatory_loop_of_state_based_actions_is_a_draw(monkeypatch):
    """A check that changes the game every round without end is a loop of mandatory actions: a draw (104.4b).
    Made with a bound of 3 rounds and a creature that keeps its lethal damage and is "destroyed" into a new
    object on the battlefield each round."""
    from engine import sba
    monkeypatch.setattr(loops, "MAX_ROUNDS", 3)
    game = Game.new(["Alice", "Bob"])
    game.budget = 1_000   # (ample for 4 rounds; a loop that missed its bound fails at once instead of running on)
    bear = game.put("Grizzlybären", "battlefield", 0)
    game.state.objects[bear].damage = 2

    rounds = []

    def back_again(game, ids, graveyard):  # "destroyed" — and back on the battlefield with its damage
        rounds.append(ids)
        for oid in ids:
            obj = game.state.move(oid, "battlefield")
            obj.damage = 2

    monkeypatch.setattr(sba, "ACTIONS", [("lethal", back_again)] + [a for a in sba.ACTIONS if a[0] != "lethal"])
    sba.check_state_based_actions(game)
    assert game.state.over and not any(p.won or p.lost for p in game.state.players)
    assert len(rounds) == 4   # the draw comes once the loop has gone round MAX_ROUNDS times, not sooner


def test_a_loop_of_state_based_actions_that_uses_up_the_budget_is_refused_under_704_3(monkeypatch):
    """With a bound beyond the game's budget, each round of the check is paid for as work under 704.3, and the
    refusal names that rule."""
    from engine import sba
    monkeypatch.setattr(loops, "MAX_ROUNDS", 10_000)
    game = Game.new(["Alice", "Bob"])
    game.budget = 50
    bear = game.put("Grizzlybären", "battlefield", 0)
    game.state.objects[bear].damage = 2

    def back_again(game, ids, graveyard):
        for oid in ids:
            game.state.move(oid, "battlefield").damage = 2

    monkeypatch.setattr(sba, "ACTIONS", [("lethal", back_again)] + [a for a in sba.ACTIONS if a[0] != "lethal"])
    with pytest.raises(loops.Unbounded) as refused:
        sba.check_state_based_actions(game)
    assert refused.value.rule.endswith("704.3") and "budget" in refused.value.message


def _endless_triggers(monkeypatch) -> list:
    """Every check of state triggers finds one waiting, and putting it on the stack leaves the game as it was:
    triggered abilities that keep being put on the stack with no player deciding anything (117.5, 104.4b).
    Returns the list of the rounds put on the stack."""
    from engine import stacking, triggers
    rounds: list = []

    def waiting(game):
        game.state.pending = ["again"]

    def put_on_stack(game):
        rounds.append(game.state.pending)
        game.state.pending = []

    monkeypatch.setattr(triggers, "check_state_triggers", waiting)
    monkeypatch.setattr(stacking, "put_triggered_abilities_on_stack", put_on_stack)
    return rounds


def test_a_mandatory_loop_of_triggered_abilities_is_a_draw_after_the_bound(monkeypatch):
    """117.5: before a player receives priority, state-based actions and triggered abilities repeat until neither
    happens; triggers that keep triggering are a loop of mandatory actions, a draw (104.4b) once it has gone round
    MAX_ROUNDS times — not one round sooner or later, and nobody receives priority."""
    from engine import priority
    monkeypatch.setattr(loops, "MAX_ROUNDS", 3)
    rounds = _endless_triggers(monkeypatch)
    game = Game.new(["Alice", "Bob"])
    game.budget = 1_000   # (ample for 4 rounds; a loop that missed its bound fails at once instead of running on)
    priority.give_priority(game, 0)
    assert len(rounds) == 4
    assert game.state.over and game.state.priority is None
    assert not any(p.won or p.lost for p in game.state.players)


def test_triggered_abilities_that_use_up_the_budget_are_refused_under_117_5(monkeypatch):
    """The same loop with a bound beyond the game's budget: each round is paid for as work under 117.5, and the
    refusal names that rule."""
    from engine import priority
    monkeypatch.setattr(loops, "MAX_ROUNDS", 10_000)
    rounds = _endless_triggers(monkeypatch)
    game = Game.new(["Alice", "Bob"])
    game.budget = 50
    with pytest.raises(loops.Unbounded) as refused:
        priority.give_priority(game, 0)
    assert refused.value.rule.endswith("117.5") and "budget" in refused.value.message
    assert len(rounds) == 51 and not game.state.over


def test_a_replacement_loop_is_refused_with_a_message(monkeypatch):
    from engine import replacement
    monkeypatch.setattr(loops, "MAX_ROUNDS", 5)
    calls = []

    def endless(game, kind, ev):  # a new effect for every round: 614.5 never runs out of them
        calls.append(1)
        n = len(calls)
        return [replacement.Replacement("draw", "draw_two_instead", 0, "Endlos", n, key=("endless", n))]

    monkeypatch.setattr(replacement, "BUILT_IN", [*replacement.BUILT_IN, endless])
    game = Game.new(["Alice", "Bob"])
    with pytest.raises(loops.Unbounded, match="applying replacement effects to one draw event went round 5 times") \
            as refused:
        replacement.replace_event(game, "draw", {"player": 0, "amount": 1}, 0)
    assert refused.value.rule == "616.1f"   # "the process is repeated" until none applies


def test_a_game_that_uses_up_its_budget_is_refused_and_returned_to_the_state_before():
    game = Game.new(["Alice", "Bob"])
    game.budget = 5
    before = game.state.copy()
    refused = game.advance_to("main1", next_turn=True)
    assert isinstance(refused, loops.Unbounded) and "budget" in refused.message
    assert game.state == before


def test_a_scenario_that_runs_out_of_budget_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(loops, "BUDGET", 5)
    path = tmp_path / "lang.scenario"
    path.write_text("players: Alice, Bob\nnext turn\nnext turn\n  expect turn: 3\n", encoding="utf-8")
    result = run_file(path)
    assert not result.ok
    text = "\n".join(result.failures())
    assert "lang.scenario:2:" in text and "budget" in text and "refused" in text


# -- hostile files -----------------------------------------------------------------------------------------------

DEEP = {
    "brackets": 'effects = ' + "[" * 5000 + "]" * 5000,
    "inline tables": 'effects = ' + "[{a = " * 2000 + "1" + "}]" * 2000,
    "dotted keys": 'note.' + ".".join(["x"] * 5000) + " = 1",
    "dotted keys in an effect": 'effects = [{do = "damage", amount = 2, to.' + ".".join(["x"] * 5000) + " = 1}]",
}


@pytest.mark.parametrize("name", list(DEEP))
def test_a_card_file_nested_5000_deep_is_refused_with_file_and_line(tmp_path, name):
    (tmp_path / "tief.toml").write_text(f'name = "Tief"\ntypes = ["instant"]\n{DEEP[name]}\n', encoding="utf-8")
    with pytest.raises(CardError) as e:
        CardDB.load(tmp_path)
    assert "tief.toml:3:" in str(e.value) and "nested more than 32 deep" in str(e.value)


def test_a_deep_card_file_given_to_kb_scenario_run_is_one_line_not_a_traceback(tmp_path):
    from click.testing import CliRunner

    from kb.trace.cli import scenario as scenario_group
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "tief.toml").write_text('name = "Tief"\ntypes = ["instant"]\n' + DEEP["brackets"] + "\n", encoding="utf-8")
    sc = tmp_path / "a.scenario"
    sc.write_text("players: Alice, Bob\n", encoding="utf-8")
    out = CliRunner().invoke(scenario_group, ["run", "--cards", str(cards), str(sc)])
    assert out.exit_code != 0 and "Traceback" not in out.output and "RecursionError" not in out.output
    assert "tief.toml:3: lists and tables nested more than 32 deep" in out.output


def test_scenario_lines_nested_deep_or_setups_too_large_are_refused_with_file_and_line(tmp_path):
    deep = tmp_path / "tief.scenario"
    deep.write_text("players: Alice, Bob\nAlice hand: Schock\nAlice casts Schock\n    mana: "
                    + "Gebirge (choose: " * 500 + ")" * 500 + "\n", encoding="utf-8")
    assert "tief.scenario:4: parentheses nested more than 3 deep" in "\n".join(run_file(deep).failures())
    big = tmp_path / "gross.scenario"
    big.write_text("players: Alice, Bob\n" + "Alice library: " + "; ".join(["200x Insel"] * 30) + "\n",
                   encoding="utf-8")
    assert "gross.scenario:2: more than 5000 objects in the setup" in "\n".join(run_file(big).failures())


# -- random short games ------------------------------------------------------------------------------------------

def _targets(game, card, draw) -> dict:
    """A random choice for every target slot of the card's spell (legal or not)."""
    spell = DB[card].spell
    slots = {}
    everything = [player_target(0), player_target(1)] + [object_target(o) for o in game.state.objects]
    for mode in (spell.modes if spell is not None else ()):
        for slot in mode.targets:
            slots[slot.name] = (draw(st.sampled_from(everything)),)
    return slots


def _act(game, draw) -> IllegalAction | None:
    """One random action by the player with priority (or a pass of the game to a later step)."""
    s = game.state
    player = s.priority if s.priority is not None else s.active
    kind = draw(st.sampled_from(["cast", "cast", "activate", "land", "pass", "pass", "advance", "attack"]))
    hand = s.players[player].hand
    if kind == "cast" and hand:
        oid = draw(st.sampled_from(hand))
        card = s.objects[oid].card
        choices = Choices(targets=_targets(game, card, draw), x=draw(st.integers(0, 3)),
                          modes=(0,) if DB[card].spell is not None and len(DB[card].spell.modes) > 1 else ())
        return game.cast(player, oid, choices)
    if kind == "land" and hand:
        return game.play_land(player, draw(st.sampled_from(hand)))
    if kind == "activate" and s.battlefield:
        return game.activate(player, draw(st.sampled_from(s.battlefield)), draw(st.sampled_from([None, 1, 2])))
    if kind == "advance":
        return game.advance_to(draw(st.sampled_from(STEPS)), next_turn=draw(st.booleans()))
    if kind == "attack":
        mine = [o for o in s.battlefield if s.objects[o].controller == s.active]
        attackers = draw(st.lists(st.sampled_from(mine), max_size=3, unique=True)) if mine else []
        return game.advance_to("declare_attackers",
                               choices=Choices(attack=[(o, player_target(1 - s.active)) for o in attackers]))
    return game.pass_priority(player)


def random_game(draw) -> tuple[int, int]:
    """Play one random short game; returns (legal actions, illegal actions).  Raises whatever the engine raises
    other than an illegal action or card text it refuses to execute."""
    game = Game.new(["Alice", "Bob"])
    for p in (0, 1):
        for name in draw(st.lists(st.sampled_from(CARDS), min_size=2, max_size=6)):
            game.put(name, "hand", p)
        for name in draw(st.lists(st.sampled_from(CARDS), min_size=0, max_size=4)):
            game.put(name, "battlefield", p)
        for name in draw(st.lists(st.sampled_from(LANDS), min_size=2, max_size=4)):
            game.put(name, "battlefield", p)
        for name in draw(st.lists(st.sampled_from(CARDS), min_size=3, max_size=8)):
            game.put(name, "library", p)
    game.begin()
    legal = illegal = 0
    for _ in range(draw(st.integers(5, 30))):
        if game.state.over:
            break
        try:
            outcome = _act(game, draw)
        except NotExecutable:
            continue  # card text the engine refuses to execute (a `pending` part): refused, the game unchanged
        assert outcome is None or isinstance(outcome, IllegalAction)
        legal, illegal = legal + (outcome is None), illegal + (outcome is not None)
    assert game.budget > 0
    return legal, illegal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_short_games_end_and_raise_nothing_but_illegal_actions(data):
    random_game(data.draw)


def test_a_deep_card_file_stops_kb_build_with_file_and_line(tmp_path, monkeypatch):
    """Issue 30 pt 6: kb build reads the card files through the same loader; a card file nested 5,000 deep is a
    build error naming file and line, not a RecursionError."""
    import sqlite_utils

    import kb.trace as tr
    from kb.build import BuildError

    (tmp_path / "tief.toml").write_text('name = "Tief"\ntypes = ["instant"]\n' + DEEP["brackets"] + "\n",
                                        encoding="utf-8")
    monkeypatch.setattr(tr, "default_db", lambda: CardDB.load(tmp_path))
    with pytest.raises(BuildError, match=r"card files: .*tief\.toml:3: lists and tables nested more than 32 deep"):
        tr.store(sqlite_utils.Database(memory=True))
