"""A rule's life across editions and languages (kb history), and coverage-aware change classes."""
from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from kb import diff as D
from kb.cli import main
from kb.history import HistoryError, history, render_text


def test_601_2c_from_german_2024_back_to_1999_in_both_languages(conn):
    h = history(conn, "601.2c", "de-2024")
    chains = {c.family: c for c in h.chains}
    assert h.chains[0].family == "de-cr"  # the queried edition's own chain first
    de = [(e.edition, e.numbers) for e in chains["de-cr"].events]
    en = [(e.edition, e.numbers) for e in chains["en-cr"].events]
    assert de[0][0] == "de-1999" and "409.2c" in de[0][1] and de[-1] == ("de-2024", ["601.2c"])
    assert en[0][0] == "en-1999-04-23" and "409.1c" in en[0][1] and en[-1] == ("en-2024-11-08", ["601.2c"])
    assert chains["de-cr"].events[0].kind == "first"
    assert ("en-2024-11-08", "601.2c", "en") in h.counterparts and ("it-wiki", "601.2c", "it") in h.counterparts


def test_a_reworded_rule_shows_its_word_diff(conn):
    h = history(conn, "601.2f", "de-2024")
    de = next(c for c in h.chains if c.family == "de-cr")
    last = de.events[-1]
    # the step names the lineage's link (409.2f split into 601.2f, 601.2h and more: data/gold), not a relation of
    # its own; the word diff shows what changed between the two texts
    assert last.kind == "split" and "409.2f" in last.detail and last.previous == "de-1999"
    assert [(lk["old"], lk["new"], lk["relation"]) for lk in last.links] == [("409.2f", "601.2f", "split")]
    assert "[-" in last.diff and "{+" in last.diff


def test_cli_text_json_and_errors(kb_db):
    out = CliRunner().invoke(main, ["history", "601.2C.", "--edition", "de-2024", "--db", str(kb_db)])
    assert out.exit_code == 0 and "en-1999-04-23" in out.output and "409.1c" in out.output
    js = CliRunner().invoke(main, ["history", "601.2c", "-e", "de-2024", "--format", "json", "--db", str(kb_db)])
    data = json.loads(js.output)
    assert data["edition"] == "de-2024" and {c["family"] for c in data["chains"]} >= {"de-cr", "en-cr"}
    missing = CliRunner().invoke(main, ["history", "999.9", "--db", str(kb_db)])
    assert missing.exit_code == 1 and "no rule 999.9" in missing.output
    with pytest.raises(HistoryError, match=r"no edition 'xx-1999' in the KB \(editions: de-1999, de-2024, "):
        history(sqlite3.connect(kb_db), "601.2c", "xx-1999")
    with pytest.raises(HistoryError, match=r"^no rule 999\.9 in edition de-2024$"):
        history(sqlite3.connect(kb_db), "999.9", "de-2024")


def test_outside_the_other_editions_coverage_is_not_removed():
    old = [D.make_rule("a", n, "Same words." if n == "409.1" else f"text {n}", seq=k)
           for k, n in enumerate(["100.1", "409.1", "409.2", "500.1"])]
    new = [D.make_rule("b", n, "Same words." if n == "601.1" else f"text {n}", seq=k)
           for k, n in enumerate(["601.1", "601.2", "602.1"])]
    pairs = [("409.1", "601.1", "", 1.0)]
    cls = D.classify(old, new, pairs, new_covers=("6",))
    # 409 went to 601 (covered): 409.2 is removed; 100.1 and 500.1 are outside the excerpt
    assert cls.old_class == {"a/100.1": "outside", "a/409.1": "unchanged", "a/409.2": "removed",
                             "a/500.1": "outside"}
    # the old edition is complete: what the new one adds is added
    assert cls.new_class["b/602.1"] == "added" and cls.new_class["b/601.2"] == "added"
    excerpt = D.classify(old, new, pairs, old_covers=("4",))
    assert excerpt.new_class["b/601.2"] == "added"      # 601 is where 409 went
    assert excerpt.new_class["b/602.1"] == "outside"    # nothing of the excerpt went to 602


def test_1999_to_2024_report_counts_chapters_outside(kb_db):
    conn = sqlite3.connect(kb_db)
    rep = D.compare(conn, "de-1999", "de-2024")
    by = {(r["edition"], r["chapter"]): r["counts"] for r in rep.cls.by_chapter()}
    assert by["de-1999", 2]["outside"] > 100 and by["de-1999", 2]["removed"] == 0
    from kb.diff.report import render

    text = render(rep, "text")
    assert "Outside:" in text and "de-2024 covers 6" in text


@pytest.fixture(scope="module")
def with_english_editions(english_chain_db):
    """The seed data with the English sample editions added (tests/conftest.py), built."""
    c = sqlite3.connect(english_chain_db)
    yield c
    c.close()


def test_601_2c_goes_back_to_1999_through_every_english_edition_a_user_added(with_english_editions):
    """Through the 2009 renumbering (409 → 601), where the one sentence about choosing the same target twice became
    a rule of its own: 601.2c, which carries the rest of 409.1c, is where 409.1c went."""
    h = history(with_english_editions, "601.2c", "de-2024")
    chains = {c.family: c for c in h.chains}
    en = [(e.edition, e.numbers) for e in chains["en-cr"].events]
    assert en[0][0] == "en-1999-04-23" and "409.1c" in en[0][1]
    # (the lineage reaches every rule its links reach: 1999 409.1c and 409.1d merged into 601.2c, as data/gold says
    # of their German translations)
    assert any(e == "en-2007-07-13" and "409.1c" in nums for e, nums in en)
    assert any(e == "en-2009-07-11" and "601.2c" in nums for e, nums in en)
    assert en[-1] == ("en-2026-01-16", ["601.2c"]) and len({e for e, _ in en}) >= 10
    de = [(e.edition, e.numbers) for e in chains["de-cr"].events]
    assert de[0][0] == "de-1999" and "409.2c" in de[0][1] and de[-1] == ("de-2024", ["601.2c"])
    # the timeline prints a row where something changed and counts the editions that printed the rule unchanged
    text = render_text(h)
    quiet = [e.edition for e in chains["en-cr"].events if e.kind == "unchanged"]
    rows = [line.split()[1] for line in text.splitlines() if line.startswith("    ") and line.split()[0][:4].isdigit()]
    assert quiet and rows and not set(quiet) & set(rows)
    assert "unchanged in" in text


def test_the_history_dict_has_every_field_of_the_history(conn):
    """The JSON of a rule's history (rule pages' .json, `kb history --json`) carries every field by its name: the
    number, each chain's language, each event's numbers and links, the counterparts."""
    import dataclasses
    for number, edition in (("601.2f", "de-2024"), ("601.2", "en-2024-11-08")):
        h = history(conn, number, edition)
        mine = h.as_dict()
        assert mine == dataclasses.asdict(h)
        assert mine["number"].rstrip(".") == number and mine["counterparts"]
        assert {c["language"] for c in mine["chains"]} >= {"en"}
        events = [ev for c in mine["chains"] for ev in c["events"]]
        assert any(ev["links"] for ev in events) and all(isinstance(ev["numbers"], list) for ev in events)


def test_a_terminology_shift_is_folded_in_the_history_diff(conn):
    """A word the terminology table renames ("he or she" -> "they") is one marked span in a history step's diff, as
    on the diff pages, not a deletion and an insertion."""
    h = history(conn, "601.2", "en-2024-11-08")
    assert any('class="term"' in (ev.diff_html or "") for c in h.chains for ev in c.events)
