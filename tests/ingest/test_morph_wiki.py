"""Tests of the "morph-wiki" parser (bilingual wiki page on Morph, 702.34).

Expected values were read from data/sources/004_04f47a11a442ed7b.txt (line
numbers, grep counts), not taken from the parser's output.
"""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from ingest.model import Span
from tests.helpers import ROOT

SOURCE = ROOT / "data" / "sources" / "004_04f47a11a442ed7b.txt"
RAW_LINES = SOURCE.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def parsed():
    return ingest.parse_document(SOURCE, "morph-wiki", "de")


def on_line(parsed, line):
    return [r for r in parsed.records if any(s.line == line for s in r.spans)]


def by_line(parsed, line):
    (rec,) = on_line(parsed, line)
    return rec


def rule_numbers(parsed, lang):
    return [r.number for r in parsed.records if r.kind == "rule" and r.lang == lang]


# -- the real file --------------------------------------------------------------
def test_no_unparsed_lines(parsed):
    assert [r for r in parsed.records if r.kind == "unparsed"] == []


def test_record_counts(parsed):
    # grep -c '•' -> 50 FAQ bullets, 25 per language (lines 29-59 and 78-108)
    kinds = Counter((r.kind, r.lang) for r in parsed.records)
    assert kinds == {
        ("boilerplate", None): 7,                       # lines 1, 3, 6, 8, 109, 111, 112
        ("heading", "de"): 4, ("heading", "en"): 4,     # part heading + 3 FAQ headings each
        ("paragraph", "de"): 1, ("paragraph", "en"): 1,  # lines 12 and 63 (first part)
        ("rule", "de"): 6, ("rule", "en"): 6,           # 702.34 and 702.34a-e
        ("faq", "de"): 25, ("faq", "en"): 25,
    }


def test_every_content_record_has_a_language(parsed):
    for rec in parsed.records:
        if rec.kind == "boilerplate":
            assert rec.lang is None
        else:
            assert rec.lang in ("de", "en"), rec


def test_both_languages_have_the_rules(parsed):
    assert rule_numbers(parsed, "de") == ["702.34", "702.34a", "702.34b", "702.34c", "702.34d", "702.34e"]
    assert rule_numbers(parsed, "en") == ["702.34.", "702.34a.", "702.34b.", "702.34c.", "702.34d.", "702.34e."]
    de_title = by_line(parsed, 14)
    assert (de_title.number, de_title.title, de_title.text) == ("702.34", "Morph", "")
    assert by_line(parsed, 16).text.startswith("Morph ist eine statische Fähigkeit")
    assert by_line(parsed, 65).text.startswith("Morph is a static ability")
    assert by_line(parsed, 73).text == ("See rule 707, „Face-Down Spells and Permanents,“ for more information "
                                        "on how to cast cards with morph.")


def test_no_sequence_warnings_across_languages(parsed):
    # the same numbers twice, but in two languages: neither duplicates nor going backwards
    assert [(w.line, w.code) for w in parsed.warnings] == [(63, "merged-line")]


def test_line_63_is_split(parsed):
    raw = RAW_LINES[62]
    k = raw.index("702.34. Morph")
    para, rule = on_line(parsed, 63)
    assert para.kind == "paragraph" and para.spans == [Span(63, 0, k)]
    assert para.text.startswith("The _Future Sight_ set contains three cards")
    assert para.text.endswith("part of the rules for morph are being updated.")
    assert rule.kind == "rule" and rule.spans == [Span(63, k, None)]
    assert (rule.number, rule.title, rule.text, rule.lang) == ("702.34.", "Morph", "", "en")


def test_part_headings(parsed):
    de, en = by_line(parsed, 10), by_line(parsed, 61)
    assert (de.kind, de.title, de.lang) == ("heading", "Regelauszug - Deutsche Übersetzung", "de")
    assert (en.kind, en.title, en.lang) == ("heading", "Regelauszug - Englischer Originaltext", "en")
    assert by_line(parsed, 12).kind == "paragraph" and by_line(parsed, 12).lang == "de"


def test_faq_headings(parsed):
    heads = [(r.first_line, r.lang) for r in parsed.records if r.kind == "heading"]
    assert heads == [(10, "de"), (27, "de"), (33, "de"), (39, "de"), (61, "en"), (76, "en"), (82, "en"), (88, "en")]


def test_faq_groups_per_language(parsed):
    groups = Counter((r.lang, r.meta["faq"]) for r in parsed.records if r.kind == "faq")
    # lines 29-31, 35-37, 41-59 (German); 78-80, 84-86, 90-108 (English)
    assert groups == {
        ("de", "Future Sight"): 3, ("de", "other"): 3, ("de", "Aufmarsch"): 19,
        ("en", "Future Sight"): 3, ("en", "other"): 3, ("en", "Onslaught"): 19,
    }
    assert by_line(parsed, 41).meta == {"faq": "Aufmarsch"}
    assert by_line(parsed, 108).meta == {"faq": "Onslaught"}
    assert by_line(parsed, 35).meta == {"faq": "other"}
    assert by_line(parsed, 108).text.startswith("The _Planeshift_™ card Meddling Mage")


def test_faq_owner_is_the_rule_of_the_same_language(parsed):
    recs = parsed.records
    for rec in recs:
        if rec.kind == "faq":
            owner = recs[rec.owner]
            assert owner.kind == "rule" and owner.lang == rec.lang
            assert owner.number.rstrip(".") == "702.34"
    assert recs[by_line(parsed, 29).owner].first_line == 14
    assert recs[by_line(parsed, 78).owner].first_line == 63


def test_page_chrome(parsed):
    whats = {line: by_line(parsed, line).meta["what"] for line in (1, 3, 6, 8, 109, 111, 112)}
    assert whats == {1: "navigation", 3: "navigation", 6: "page-id", 8: "page-title",
                     109: "last-modified", 111: "footer", 112: "disclaimer"}
    assert by_line(parsed, 109).meta["date"] == "2012-09-09"


def test_registered_without_symbols():
    assert ingest.PARSERS["morph-wiki"].symbols == "none"


# -- hand-made inputs --------------------------------------------------------------
def parse(*lines):
    return ingest.parse_lines(list(lines), "x.txt", "morph-wiki", "de")


SMALL = [
    "Werkzeuge",
    "Regelauszug - Deutsche Übersetzung",
    "Einleitung auf Deutsch.",
    "702.9 Fliegen",
    "702.9a Fliegen ist eine Ausweichfähigkeit.",
    "Neue FAQ:",
    "  • Eine Frage.",
    "Regelauszug - Englischer Originaltext",
    "An English introduction. 702.9. Flying",
    "702.9a. Flying is an evasion ability.",
    "Notes on flying:",
    "  • A note.",
    "wiki/page.txt · Zuletzt geändert: 1.2.2010 10:00",
    "© 2010 | Impressum",
]


def test_small_bilingual_page():
    p = parse(*SMALL)
    got = [(r.kind, r.lang, r.number or r.title or r.text) for r in p.records]
    assert got == [
        ("boilerplate", None, "Werkzeuge"),
        ("heading", "de", "Regelauszug - Deutsche Übersetzung"),
        ("paragraph", "de", "Einleitung auf Deutsch."),
        ("rule", "de", "702.9"),
        ("rule", "de", "702.9a"),
        ("heading", "de", "Neue FAQ"),
        ("faq", "de", "Eine Frage."),
        ("heading", "en", "Regelauszug - Englischer Originaltext"),
        ("paragraph", "en", "An English introduction."),
        ("rule", "en", "702.9."),
        ("rule", "en", "702.9a."),
        ("heading", "en", "Notes on flying"),
        ("faq", "en", "A note."),
        ("boilerplate", None, "wiki/page.txt · Zuletzt geändert: 1.2.2010 10:00"),
        ("boilerplate", None, "© 2010 | Impressum"),
    ]
    assert p.records[6].owner == 3 and p.records[6].meta == {"faq": "Neue"}
    assert p.records[12].owner == 9 and p.records[12].meta == {"faq": "other"}
    assert p.records[9].spans == [Span(9, len("An English introduction. "), None)]
    assert p.records[13].meta == {"what": "last-modified", "date": "2010-02-01"}
    assert [(w.line, w.code) for w in p.warnings] == [(9, "merged-line")]


def test_small_part_of_unknown_language():
    p = parse("Regelauszug - Klingonisch", "702.9 Fliegen")
    assert [(r.kind, r.lang) for r in p.records] == [("heading", None), ("rule", None)]
    assert [(w.line, w.code) for w in p.warnings] == [(1, "unknown-language")]


def test_small_faq_before_any_rule_has_no_owner():
    p = parse("Regelauszug - Deutsche Übersetzung", "  • Frage ohne Regel.")
    assert (p.records[1].kind, p.records[1].owner, p.records[1].meta) == ("faq", None, {"faq": None})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(SMALL + ["", "  • Noch eine.", "Ein Satz. 702.9 Titel", "Morph / Morph"]),
                min_size=1, max_size=14))
def test_any_line_sequence_is_covered_once(lines):
    p = parse(*lines)
    covered = Counter(s.line for r in p.records for s in r.spans)
    nonblank = {i for i, line in enumerate(lines, 1) if line.strip()}
    assert set(covered) == nonblank
    assert all(r.kind != "unparsed" for r in p.records)
