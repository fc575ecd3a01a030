"""The scenario runner's items of issue 29: a land named in ``mana:`` stays usable once one of that name is
tapped; ``chosen`` checks a value with spaces; one check that cannot be made fails alone, the later steps run."""
from engine.scenario import run_file

CARD = """name = "Beispiel-Wortwahl"
synthetic = true
cost = "{1}"
types = ["artifact"]
statics = [{ kind = "enters", choose = "word", options = ["hohe Flut", "Ebbe"], link = "gezeit" }]
"""


def _run(tmp_path, text, db=None):
    path = tmp_path / "t.scenario"
    path.write_text(text, encoding="utf-8")
    return run_file(path, db=db)


def test_mana_takes_the_first_untapped_land_of_that_name(tmp_path):
    res = _run(tmp_path, "players: Alice, Bob\nAlice battlefield: Gebirge; Gebirge\nAlice hand: Schock; Schock\n"
                         "Alice casts Schock\n    target: Bob\n    mana: Gebirge\nresolve\n"
                         "Alice casts Schock\n    target: Bob\n    mana: Gebirge\nresolve\n  expect Bob life: 16\n")
    assert res.ok, res.failures()


def test_chosen_checks_a_value_with_spaces(tmp_path):
    from engine.cards import CardDB, default_db, parse_card
    db = CardDB(default_db().cards)
    import tomllib
    db.add(parse_card(tomllib.loads(CARD)))
    res = _run(tmp_path, "players: Alice, Bob\nAlice hand: Beispiel-Wortwahl as w\nAlice pool: {C}\n"
                         "Alice casts w\nresolve\n    choose: hohe Flut\n  expect w: chosen gezeit hohe Flut\n"
                         "  expect w: chosen gezeit Ebbe\n", db=db)
    checks = [(text, passed) for s in res.steps for _, text, passed, _ in s.checks]
    assert checks == [("w: chosen gezeit hohe Flut", True), ("w: chosen gezeit Ebbe", False)]


def test_a_check_that_cannot_be_made_fails_alone_and_later_steps_still_run(tmp_path):
    res = _run(tmp_path, "players: Alice, Bob\nAlice hand: Schock\nAlice pool: {R}\n"
                         "Alice casts Schock\n    target: Bob\n  expect nichtda: tapped\n"
                         "resolve\n  expect Bob life: 18\n")
    assert not res.ok
    failures = "\n".join(res.failures())
    assert "t.scenario:6:" in failures and "nichtda" in failures
    last = res.steps[-1]
    assert last.text == "resolve" and last.checks[0][2] is True  # the later step ran and its check held
