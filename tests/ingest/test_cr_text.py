"""The numbered-CR parsers: the official plain-text format (hand-made fixture) and the German web page (seed 000)."""
import codecs
import re
from collections import Counter

import pytest

import ingest
from ingest import SourceError, numbers
from tests.helpers import ROOT, SEEDS

FIXTURE = ROOT / "tests/fixtures/cr_text/MagicCompRules-mini.txt"


def parse_bytes(tmp_path, data: bytes, name="rules.txt", parser="cr-text", lang="en"):
    path = tmp_path / name
    path.write_bytes(data)
    return ingest.parse_document(path, parser, lang)


def summary(parsed):
    return [(r.kind, r.number, r.title, r.text, r.owner) for r in parsed.records]


@pytest.fixture   # (parsed in each test: the mutation check runs a test with what it calls)
def mini():
    return ingest.parse_document(FIXTURE, "cr-text", "en")


def test_official_format_structure(mini):
    kinds = Counter(r.kind for r in mini.records)
    # Counted in the fixture by hand: 7 contents lines, 2 chapters + 3 sections + 5 rules + 5 subrules,
    # 3 examples, 2 glossary entries, 2 credit lines.
    assert kinds["toc"] == 7
    assert kinds["rule"] == 15
    assert kinds["example"] == 3
    assert kinds["glossary"] == 2
    assert kinds["unparsed"] == 0
    rules = {numbers.normalize(r.number): r for r in mini.records if r.kind == "rule"}
    assert rules["100.1"].number == "100.1."  # printed number kept
    assert rules["100.1a"].text.startswith("A two-player game")
    assert rules["601"].title == "Casting Spells" and rules["6"].title == "Spells, Abilities, and Effects"
    assert [numbers.level(n) for n in ("6", "601", "601.2", "601.2c")] == ["chapter", "section", "rule", "subrule"]


def test_examples_hang_off_the_preceding_rule(mini):
    examples = [r for r in mini.records if r.kind == "example"]
    owners = [mini.records[e.owner].number for e in examples]
    assert owners == ["100.2.", "601.2c", "601.2c"]
    assert examples[1].text.startswith("If a spell says")


def test_glossary_entries_keep_all_definition_lines(mini):
    active = next(r for r in mini.records if r.kind == "glossary" and r.title == "Active Player")
    assert active.text == "The player whose turn it is.\nSee rule 101.1."
    assert [s.line for s in active.spans] == [60, 61, 62]


def test_contents_are_not_rules(mini):
    toc = [r for r in mini.records if r.kind == "toc"]
    assert [t.meta["number"] for t in toc[:3]] == ["1", "100", "101"]
    assert min(r.first_line for r in mini.records if r.kind == "rule") == 19  # the body, not the contents


@pytest.mark.parametrize("encoding,bom", [
    ("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("cp1252", b""),
    ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE), ("utf-16-le", b""),
])
@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_encodings_and_line_ends_give_identical_records(tmp_path, mini, encoding, bom, eol):
    text = FIXTURE.read_text(encoding="utf-8").replace("\n", eol)
    parsed = parse_bytes(tmp_path, bom + text.encode(encoding))
    assert summary(parsed) == summary(mini)
    assert [r.spans for r in parsed.records] == [r.spans for r in mini.records]


def test_truncated_file_is_reported_with_file_and_line(tmp_path):
    text = FIXTURE.read_text(encoding="utf-8")
    cut = text[: text.index("Glossary\n\nAbandon")]
    with pytest.raises(SourceError) as e:
        parse_bytes(tmp_path, cut.encode("utf-8"), name="cut.txt")
    assert "truncated" in str(e.value) and "cut.txt:" in str(e.value) and "'Glossary'" in str(e.value)
    assert e.value.line == cut.count("\n")


def test_file_cut_inside_a_multibyte_character(tmp_path):
    data = FIXTURE.read_bytes()
    cut = data[: data.index("’".encode()) + 1]
    with pytest.raises(SourceError) as e:
        parse_bytes(tmp_path, cut, name="cut.txt")
    assert "truncated" in e.value.message and e.value.line == cut.count(b"\n") + 1


def test_unknown_encoding_names_the_line(tmp_path):
    data = FIXTURE.read_bytes().replace("“playing”".encode(), b"\x81playing\x81")
    line = data[: data.index(b"\x81")].count(b"\n") + 1
    with pytest.raises(SourceError) as e:
        parse_bytes(tmp_path, data, name="odd.txt")
    assert "unknown encoding" in e.value.message and e.value.line == line and "odd.txt" in str(e.value)



def test_binary_data_is_not_taken_for_utf16_without_a_byte_order_mark(tmp_path):
    data = FIXTURE.read_bytes()[:200] + b"\n\x89PNG\x00\x00\x00\rIHDR\x00\x01" * 20
    with pytest.raises(SourceError) as e:
        parse_bytes(tmp_path, data, name="image.txt")
    assert "not a text file" in e.value.message and e.value.line == data[:data.index(0)].count(b"\n") + 1

def test_manifest_encoding_that_python_does_not_know(tmp_path):
    path = tmp_path / "r.txt"
    path.write_bytes(b"100.1. x\n")
    with pytest.raises(SourceError, match="unknown encoding 'klingon-8'"):
        ingest.parse_document(path, "cr-text", "en", encoding="klingon-8")


def test_duplicate_backwards_and_malformed_numbers_are_warned_with_lines():
    lines = ["100. General", "100.1. First.", "100.2. Second.", "100.1. First again.", "100.3. Third.",
             "100.3x4 Broken number.", "100.2a Late subrule."]
    parsed = ingest.parse_lines(lines, "hand.txt", "cr-text", "en")
    got = {(w.line, w.code) for w in parsed.warnings}
    assert (4, "duplicate-number") in got
    assert (4, "number-backwards") in got
    assert (7, "number-backwards") in got
    assert (6, "malformed-number") in got
    # nothing dropped: both 100.1 rules are kept, the malformed line is an unparsed record
    assert [r.number for r in parsed.records if r.kind == "rule"].count("100.1.") == 2
    assert [r.first_line for r in parsed.records if r.kind == "unparsed"] == [6]


# --- the German web page (seed 000) -------------------------------------------------------------

@pytest.fixture   # (parsed in each test: the mutation check runs a test with what it calls)
def de2024():
    return ingest.parse_document(SEEDS["000"], "cr-web", "de")


def test_web_page_rules_and_examples_match_the_source(de2024):
    raw = SEEDS["000"].read_text(encoding="utf-8").splitlines()
    rule_lines = [line for line in raw if re.match(r"^\d{1,3}\.(\d+[a-z]?)?\s", line) and "→←" not in line]
    example_lines = [line for line in raw if line.startswith("Beispiel:")]
    rules = [r for r in de2024.records if r.kind == "rule"]
    assert len(rules) == len(rule_lines)
    assert sum(r.kind == "example" for r in de2024.records) == len(example_lines)
    assert not [r for r in de2024.records if r.kind == "unparsed"]
    assert not de2024.warnings


def test_web_page_translator_note_and_navigation(de2024):
    note = next(r for r in de2024.records if r.kind == "note")
    assert note.label == "Hinweis des Übersetzers" and de2024.records[note.owner].number == "603.4"
    boiler = [r.first_line for r in de2024.records if r.kind == "boilerplate"]
    assert 1 in boiler and 825 in boiler  # visitor counter, chapter navigation
    assert all(r.first_line not in boiler for r in de2024.records if r.kind == "rule")


def test_web_page_subrule_letters_skip_l_and_o(de2024):
    letters = [r.number[-1] for r in de2024.records if r.kind == "rule" and r.number.startswith("613.7")
               and r.number[-1].isalpha()]
    assert "l" not in letters and "m" in letters and letters == sorted(letters)
