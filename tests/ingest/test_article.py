"""Tests of the "article" parser (German article "Einen Zauberspruch wirken", 2009).

Expected values were read from data/sources/003_255d457772eddf13.txt (line
numbers, grep counts), not taken from the parser's output.
"""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from tests.helpers import ROOT

SOURCE = ROOT / "data" / "sources" / "003_255d457772eddf13.txt"

# the step lists, as line ranges: grep -n '^→' and grouping consecutive line numbers
STEP_LISTS = [(3, 4), (23, 26), (48, 52), (84, 89), (111, 117), (132, 139), (157, 164)]
HEADING_LINES = [7, 12, 19, 44, 80, 107, 127, 155]


@pytest.fixture(scope="module")
def parsed():
    return ingest.parse_document(SOURCE, "article", "de")


def by_line(parsed, line):
    (rec,) = [r for r in parsed.records if any(s.line == line for s in r.spans)]
    return rec


# -- the real file --------------------------------------------------------------
def test_no_unparsed_lines(parsed):
    assert [r for r in parsed.records if r.kind == "unparsed"] == []


def test_record_counts(parsed):
    # 167 lines, none blank; grep -c '^Beispiel:' -> 65, '^Beispiele:' -> 4; grep -c '^→' -> 40;
    # 8 headings; byline + "Klick hier" line; the rest (167-69-40-8-2 = 48) are paragraphs
    kinds = Counter(r.kind for r in parsed.records)
    assert kinds == {"example": 69, "step": 40, "paragraph": 48, "heading": 8, "boilerplate": 2}


def test_byline(parsed):
    rec = by_line(parsed, 1)
    assert rec.kind == "boilerplate"
    assert rec.meta == {"what": "byline", "author": "Mario Haßler", "date": "2009-12-28"}


def test_headings(parsed):
    titles = [r.title for r in parsed.records if r.kind == "heading"]
    assert titles == [
        "Bitte nicht stören!", "Spruch auf den Stapel legen", "Kosten ermitteln und bezahlen",
        "Gezielte Zaubersprüche", "Zaubersprüche mit variablem X", "Zaubersprüche mit verschiedenen Modi",
        "Alternative, zusätzliche oder andere Spezialkosten", "Zusammenfassung",
    ]
    assert [r.first_line for r in parsed.records if r.kind == "heading"] == HEADING_LINES


def test_short_sentences_stay_paragraphs(parsed):
    # line 66 is short but ends with a period; line 10 likewise
    assert by_line(parsed, 66).kind == "paragraph"
    assert by_line(parsed, 10).kind == "paragraph"


def test_step_lists(parsed):
    steps = [r for r in parsed.records if r.kind == "step"]
    lists = {}
    for rec in steps:
        lists.setdefault(rec.meta["list"], []).append(rec)
    assert sorted(lists) == list(range(1, 8))
    for n, (first, last) in enumerate(STEP_LISTS, 1):
        recs = lists[n]
        assert [r.first_line for r in recs] == list(range(first, last + 1))
        assert [r.meta["step"] for r in recs] == list(range(1, last - first + 2))
    assert [len(lists[n]) for n in range(1, 8)] == [2, 4, 5, 6, 7, 8, 8]


def test_first_list_text(parsed):
    assert [r.text for r in parsed.records if r.kind == "step" and r.meta["list"] == 1] == [
        "Spruch auf den Stapel legen", "Kosten bezahlen"]


def test_final_summary_list(parsed):
    final = [r.text for r in parsed.records if r.kind == "step" and r.meta["list"] == 7]
    assert final == [
        "Spruch auf den Stapel legen",
        "Modus bestimmen (bei modalen Zaubersprüchen)",
        "Wert für X festlegen (bei Sprüchen mit variablen Kosten)",
        "Alternative, zusätzliche oder andere Spezialkosten ankündigen (falls zutreffend)",
        "Ziele wählen (bei gezielten Zaubersprüchen)",
        "Kosten ermitteln",
        "Manafähigkeiten aktivieren (falls Mana benötigt wird)",
        "Kosten bezahlen",
    ]
    # the summary list follows the "Zusammenfassung" heading and its introduction (line 156)
    assert by_line(parsed, 155).title == "Zusammenfassung"


def test_examples(parsed):
    recs = parsed.records
    ex = by_line(parsed, 14)
    assert (ex.kind, ex.label, ex.owner) == ("example", "Beispiel", None)
    assert ex.text.startswith("Wenn du die Blitzaxt wirkst")
    assert recs[ex.meta["paragraph"]].first_line == 13
    # two examples in a row illustrate the same paragraph
    assert by_line(parsed, 15).meta["paragraph"] == ex.meta["paragraph"]
    # after a step list the examples still point at the paragraph before the list (line 47)
    assert recs[by_line(parsed, 53).meta["paragraph"]].first_line == 47
    plural = by_line(parsed, 82)
    assert (plural.kind, plural.label) == ("example", "Beispiele")
    assert plural.text.startswith("Heiße Glut, Wilde Hydra")
    assert recs[plural.meta["paragraph"]].first_line == 81
    labels = Counter(r.label for r in recs if r.kind == "example")
    assert labels == {"Beispiel": 65, "Beispiele": 4}
    assert all(r.owner is None for r in recs if r.kind == "example")


def test_link_line_is_boilerplate(parsed):
    rec = by_line(parsed, 167)
    assert (rec.kind, rec.meta) == ("boilerplate", {"what": "navigation"})


def test_lost_symbol_warnings(parsed):
    lines = {w.line for w in parsed.warnings}
    assert {w.code for w in parsed.warnings} == {"lost-symbol"}
    # "betragen . Also", "die Kosten (), ...", "die Kosten ( und drei", "Kosten + = ergeben"
    assert {21, 90, 92, 95} <= lines
    assert not lines & {2, 5, 13, 108}   # prose with "..." and "–" but no gap


def test_registered_without_symbols():
    assert ingest.PARSERS["article"].symbols == "none"


# -- hand-made inputs --------------------------------------------------------------
def parse(*lines):
    return ingest.parse_lines(list(lines), "x.txt", "article", "de")


def test_small_step_lists_are_split_by_prose_and_blank_lines():
    p = parse("Einleitung, die zu den Schritten führt:", "→ Eins", "→ Zwei",
              "Ein Absatz dazwischen.", "→ Drei", "", "→ Vier")
    steps = [(r.text, r.meta) for r in p.records if r.kind == "step"]
    assert steps == [("Eins", {"list": 1, "step": 1}), ("Zwei", {"list": 1, "step": 2}),
                     ("Drei", {"list": 2, "step": 1}), ("Vier", {"list": 3, "step": 1})]


def test_small_example_before_any_paragraph():
    p = parse("Überschrift", "Beispiel: Gleich zu Beginn.", "Ein Absatz.", "Beispiele: A, B.")
    kinds = [(r.kind, r.label, r.meta.get("paragraph")) for r in p.records]
    assert kinds == [("heading", None, None), ("example", "Beispiel", None),
                     ("paragraph", None, None), ("example", "Beispiele", 2)]


def test_small_byline_only_on_first_line():
    p = parse("von Anna Muster, 1.2.2003 - 10:00 – Regeln", "von Bert, 3.4.2005 wird hier nur erzählt.")
    assert p.records[0].meta == {"what": "byline", "author": "Anna Muster", "date": "2003-02-01"}
    assert p.records[1].kind == "paragraph"


def test_small_lost_symbol():
    p = parse("Die Kosten betragen . Also zahlst du.", "Die Kosten betragen drei.")
    assert [(w.line, w.code) for w in p.warnings] == [(1, "lost-symbol")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([
    "", "→ Schritt", "Beispiel: x.", "Beispiele: y.", "Kurzer Titel", "Ein ganzer Satz.",
    "Klick hier für mehr", "von A, 1.1.2000", "→", "Kosten ( und mehr.",
]), min_size=1, max_size=12))
def test_any_line_sequence_is_covered_once(lines):
    p = parse(*lines)
    covered = Counter(s.line for r in p.records for s in r.spans)
    nonblank = {i for i, line in enumerate(lines, 1) if line.strip()}
    assert set(covered) == nonblank and all(n == 1 for n in covered.values())
    assert all(r.kind != "unparsed" for r in p.records)
