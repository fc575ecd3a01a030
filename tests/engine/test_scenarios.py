"""Scenarios: every file in data/scenarios passes; bad scenarios fail with a message naming the line."""
import re

import pytest
from click.testing import CliRunner

from engine.scenario import SCENARIOS_DIR, all_files, load, parse, run_file
from kb.trace.cli import COMMANDS
from kb.trace.cli import scenario as scenario_group

SCENARIOS = all_files() + all_files(SCENARIOS_DIR / "peer")  # peer/: cases from other engines' suites
# (the tests of what the scenarios are tagged with read them, they do not play them: each is played by
# test_scenario_passes; playing all three times over cost some 11 s of every run, and of every mutant of the
# mutation check that survives, for nothing run_file reports could fail them)


def test_there_are_scenarios_for_every_example_family():
    tags = " ".join(load(p).tags.__str__() for p in SCENARIOS)
    examples = ["601.2c", "601.2h", "601.3a", "601.3b", "601.3e", "601.3e#2", "601.5", "602.1a", "603.2c", "603.2f",
                "603.2h", "603.4", "603.7a", "603.7a#2", "603.7c", "603.8", "603.10a", "603.11", "603.12", "605.2",
                "605.4a", "606.5", "607.2i", "607.4", "608.2b", "608.2d", "608.2f#2", "608.2i", "608.2j", "608.2k"]
    for rule in examples:  # the examples of 601-608 that do not wait on layers (data/scenarios/UNEXPRESSED.md)
        assert re.search(rf"example {re.escape(rule)}(?![#\d])", tags), rule
    assert len(re.findall(r"source 003:\d+", tags)) >= 40


def test_every_chapter_6_example_is_a_scenario_or_listed_as_missing(kb_db):
    """Each "Beispiel:" of the German 2024 chapter 6 is tagged by a scenario or named in UNEXPRESSED.md's table."""
    import sqlite3
    from collections import Counter

    from engine.paths import ROOT
    with sqlite3.connect(kb_db) as db:
        rows = db.execute("SELECT r.number FROM items i JOIN rules r ON i.rule_id = r.id WHERE r.edition_id = "
                          "'de-2024' AND i.kind = 'example' ORDER BY i.line_start").fetchall()
    seen: Counter = Counter()
    labels = []
    for (number,) in rows:
        seen[number] += 1
        labels.append(number + (f"#{seen[number]}" if seen[number] > 1 else ""))
    assert len(labels) == 74
    tags = {t for p in SCENARIOS for t in load(p).tags}
    missing_table = (ROOT / "data" / "scenarios" / "UNEXPRESSED.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| (\d{3}\.\d+[a-z]?(?:, (?:first|second|fourth))?)", missing_table, re.M))
    ordinal = {"first": "", "second": "#2", "fourth": "#4"}
    listed_labels = {m.split(",")[0] + ordinal[m.split(", ")[1]] if ", " in m else m for m in listed}
    missing = [label for label in labels if f"example {label}" not in tags]
    assert missing and sorted(missing) == sorted(listed_labels)
    assert len(labels) - len(missing) >= 63


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_passes(path):
    result = run_file(path)
    assert result.ok, "\n".join(result.failures())
    assert result.scenario.title and result.scenario.tags


def test_every_scenario_is_tagged_with_something_it_encodes():
    for path in SCENARIOS:
        sc = load(path)
        assert any(t.startswith(("example", "source")) or re.match(r"(?:[a-z]{2}-[\w-]+/)?\d{3}\.", t)
                   for t in sc.tags), path


BAD = {
    "unknown card": ("players: Alice, Bob\nAlice hand: Ernt des Altars\n", 2, "unknown card 'Ernt des Altars'"),
    "unknown card in a step": ("players: Alice, Bob\nAlice casts Schockk\n", 2, "unknown card or label 'Schockk'"),
    "malformed line": ("players: Alice, Bob\nAlice zaubert Schock\n", 2, "cannot read"),
    "option without step": ("players: Alice, Bob\n    x: 3\n", 2, "must follow a step"),
    "unknown option": ("players: Alice, Bob\nAlice hand: Schock\nAlice casts Schock\n    ziel: Bob\n", 4,
                       "unknown option 'ziel'"),
    "bad number": ("players: Alice, Bob\nAlice hand: Heiße Glut\nAlice casts Heiße Glut\n    x: drei\n", 4,
                   "x: cannot read 'drei'"),
    "no players": ("title: nothing\n", None, "no 'players:' line"),
    "setup after a step": ("players: Alice, Bob\nresolve\nAlice hand: Schock\n", 3, "before the first step"),
    "unknown player": ("players: Alice, Bob\nCarol hand: Schock\n", 2, "unknown player 'Carol'"),
    "bad expectation": ("players: Alice, Bob\nAlice hand: Schock as s\nexpect s: brennt\n", 3, "cannot check 'brennt'"),
    "empty expect": ("players: Alice, Bob\nexpect\n", 2, "expect what?"),
    "bad tag": ("players: Alice, Bob\ntags: Regel sechs\n", 2, "unknown tag kind"),
    "bad mana": ("players: Alice, Bob\nAlice pool: {Q}{B}\n", 2, "unknown mana symbol {Q}"),
    "generic mana in a pool": ("players: Alice, Bob\nAlice pool: {2}\n", 2, "is not a list of mana"),
    "illegal choice": ("players: Alice, Bob\nAlice hand: Schock\nAlice pool: {R}\nAlice casts Schock\n"
                       "    target: Schock\n", 4, "unexpected illegal action: 601.2c"),
    "failed expectation": ("players: Alice, Bob\nAlice hand: Schock\nAlice pool: {R}\nAlice casts Schock\n"
                           "    target: Bob\nresolve\n  expect Bob life: 19\n", 7, "life is 18"),
    "ambiguous name": ("players: Alice, Bob\nAlice hand: Schock\nBob battlefield: Grizzlybären; "
                       "Grizzlybären (tapped)\nAlice pool: {R}\nAlice casts Schock\n    target: Grizzlybären\n",
                       6, "ambiguous"),
    "label reused": ("players: Alice, Bob\nAlice hand: Schock as a; Schock as a\n", 2, "already used"),
    "expected illegal but legal": ("players: Alice, Bob\nAlice hand: Schock\nAlice pool: {R}\nAlice casts Schock\n"
                                   "    target: Bob\n  expect illegal\n", 6, "the step was legal"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_scenarios_name_the_line(tmp_path, name):
    text, line, message = BAD[name]
    path = tmp_path / "bad.scenario"
    path.write_text(text, encoding="utf-8")
    result = run_file(path)
    assert not result.ok
    failures = "\n".join(result.failures())
    assert message in failures, failures
    if line is not None:
        assert f"bad.scenario:{line}:" in failures, failures


def test_unreadable_files(tmp_path):
    missing = run_file(tmp_path / "missing.scenario")
    assert not missing.ok and "cannot read" in str(missing.error)
    binary = tmp_path / "latin1.scenario"
    binary.write_bytes("players: Alice, Bob\nAlice hand: Gr\xfcn\n".encode("latin-1"))
    assert "not UTF-8" in str(run_file(binary).error)


def test_cli_exit_codes_and_no_tracebacks(tmp_path):
    runner = CliRunner()
    first = next(p for p in SCENARIOS if p.name.startswith("601.2h"))
    good = runner.invoke(scenario_group, ["run", str(first)])
    assert good.exit_code == 0, good.output
    assert "rules: 601.2" in good.output
    bad = tmp_path / "bad.scenario"
    bad.write_text(BAD["illegal choice"][0], encoding="utf-8")
    out = runner.invoke(scenario_group, ["run", "-q", str(first), str(bad)])
    assert out.exit_code == 1
    assert "bad.scenario:4:" in out.output and "Traceback" not in out.output
    assert "1 of 2 scenario(s) passed" in out.output
    assert {c.name for c in COMMANDS} == {"scenario", "trace", "coverage", "engine-bench"}


def test_parse_keeps_line_numbers():
    sc = parse("players: Alice, Bob\n\n# comment\nAlice hand: Schock\nAlice casts Schock\n    target: Bob\n"
               "  expect cost: {R}\n", "x")
    [step] = sc.steps
    assert step.line == 5 and step.options[0].line == 6 and step.expects == [(7, "cost: {R}")]


def test_every_option_and_verb_the_parser_reads_has_a_handler():
    from engine.scenario import model, reader, steps

    assert set(steps.OPTIONS) == set(model.OPTIONS)
    assert set(steps.VERBS) == {verb for _, verb in reader._STEP_RE}


def test_one_hint_for_every_unknown_name(tmp_path):
    from engine.scenario import did_you_mean

    assert did_you_mean("Ernt des Altars", ["Ernte des Altars", "Schock"]) == " (did you mean 'Ernte des Altars'?)"
    assert did_you_mean("qqq", ["Schock"]) == ""
    cases = {"players: Alice, Bob\nAlice hand: Ernt des Altars\n": "unknown card 'Ernt des Altars' (did you mean",
             "players: Alice, Bob\nAlice hand: Schock\nAlice casts Schockk\n": "card or label 'Schockk' (did you",
             "players: Alice, Bob\nAlice hand: Schock\nAlice casts Schock\n    targt: Bob\n":
                 "unknown option 'targt' (did you mean 'target'?)"}
    for text, message in cases.items():
        path = tmp_path / "hint.scenario"
        path.write_text(text, encoding="utf-8")
        assert message in "\n".join(run_file(path).failures())
