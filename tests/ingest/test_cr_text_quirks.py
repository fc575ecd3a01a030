"""cr-text on hand-made fixtures, one per quirk of the plain-text CR archive (tests/fixtures/cr_text)."""
import codecs
from collections import Counter
from pathlib import Path

import pytest

import ingest
from ingest import SourceError, numbers

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "cr_text"


def parse(name):
    return ingest.parse_document(FIXTURES / name, "cr-text", "en")


def parse_text(tmp_path, text: str, name="rules.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return ingest.parse_document(path, "cr-text", "en")


def rules(parsed):
    return {numbers.normalize(r.number): r for r in parsed.records if r.kind == "rule"}


def kinds(parsed):
    return Counter(r.kind for r in parsed.records)


def codes(parsed):
    return Counter(w.code for w in parsed.warnings)


def source_lines(name, encoding="utf-8"):
    return (FIXTURES / name).read_bytes().decode(encoding).splitlines()


# --- continuation paragraphs --------------------------------------------------------------------------

def test_indented_continuation_paragraphs_belong_to_the_rule_above():
    parsed = parse("continuation.txt")
    r = rules(parsed)
    assert r["100.1"].text == ("These rules apply to any game with two or more players.\n"
                               "A second paragraph of rule 100.1, indented by five spaces.\n"
                               "A third paragraph, indented deeper.")
    assert [s.line for s in r["100.1"].spans] == [22, 23, 24]
    assert r["205.4c"].text.split("\n") == [
        "Any land with the supertype “basic” is a basic land. Any land that doesn’t have this supertype is a "
        "nonbasic land.",
        "Cards printed in sets prior to the Eighth Edition core set didn’t use the word “basic” to indicate a "
        "basic land.",
    ]
    example = next(x for x in parsed.records if x.kind == "example")
    assert parsed.records[example.owner].number == "205.4c"
    assert kinds(parsed)["unparsed"] == 0 and not parsed.warnings


# --- hard wrapping -------------------------------------------------------------------------------------

@pytest.fixture   # (parsed in each test: the mutation check runs a test with what it calls)
def wrapped_1999():
    return parse("hardwrap-1999.txt")


def test_hard_wrapped_lines_join_their_rule(wrapped_1999):
    r = rules(wrapped_1999)
    assert r["408.1a"].text == ("The active player receives priority at the beginning of each step. The player "
                                "with priority may play a spell or ability. See rule 408.1b. Then the other player "
                                "receives priority.")
    assert [s.line for s in r["408.1a"].spans] == [66, 67, 68]
    # a hyphen at the end of a line is a hyphenated word broken at its hyphen
    assert "at least sixty cards. Snow-Covered lands count as basic lands." in r["100.2"].text
    assert r["409.1"].text == "Playing a spell or activated ability follows the steps below, in order."


def test_wrapped_lines_that_begin_with_a_number_are_no_rules(wrapped_1999):
    # "... is in rule" / "409.1. Each player ...": 409.1 does not come next after 100.1
    # "... See rule" / "408.1b. Then ...": 408.1b would come next, but the sentence above is unfinished
    # "... See rule" / "103.4. If a player ...": looks like a whole rule, but goes backwards
    r = rules(wrapped_1999)
    assert "103.4" not in r and list(r).count("408.1b") == 1 and list(r).count("409.1") == 1
    assert r["100.1"].text.endswith("how to play them is in rule 409.1. Each player needs a deck.")
    assert r["409.1a"].text == ("The player announces the spell. See rule 103.4. If a player must make more "
                                "than one choice at a time, he or she makes them in the order written.")
    assert r["408.1b"].first_line == 72


def test_hard_wrapped_examples_paragraphs_and_headings(wrapped_1999):
    ex = next(x for x in wrapped_1999.records if x.kind == "example")
    assert ex.label == "EXAMPLE" and wrapped_1999.records[ex.owner].number == "408.1a"
    assert ex.text == "A player plays a spell; the opponent may respond by playing another spell."
    # a paragraph after a blank line continues the rule above
    assert rules(wrapped_1999)["408.1b"].text.split("\n")[1] == \
        '"Static" abilities are written as statements; see the glossary.'
    headings = [x.title for x in wrapped_1999.records if x.kind == "heading"]
    assert headings == ["COMPREHENSIVE RULES 04/23/99", "Contents", "Magic: The Gathering(R) Comprehensive Rules",
                        "Introduction", "Glossary", "Index", "Credits"]
    assert [t.meta["number"] for t in wrapped_1999.records if t.kind == "toc"] == [
        None, "1", "100", "4", "408", "409", "421", None, None]


def test_hard_wrapped_glossary_and_index(wrapped_1999):
    gloss = {g.title: g for g in wrapped_1999.records if g.kind == "glossary"}
    assert gloss["Ability"].text == ('"Ability" and "effect" are often confused with one another. An instruction in '
                                     "a permanent's text is an ability.\nA permanent may have one or more abilities.")
    assert gloss["Counter"].text == ("1. To counter a spell or ability is to cancel it, removing it from the stack.\n"
                                     "2. A counter is a marker placed on a permanent.")
    index = [(x.title, x.text, x.meta.get("parent")) for x in wrapped_1999.records if x.kind == "index"]
    assert index == [("Abilities", "402", None), ("activated ability", "403, 406.1d", "Abilities"),
                     ("Zone", "217, 402.3", None)]


def test_quotes_that_differ_between_contents_and_body_are_no_defect(wrapped_1999):
    # contents: 421. Handling "Infinite" Loops; body: 421. Handling 'Infinite' Loops
    assert rules(wrapped_1999)["421"].title == "Handling 'Infinite' Loops"
    assert kinds(wrapped_1999)["unparsed"] == 0
    assert not wrapped_1999.warnings


def test_hard_wrapped_2003_style_cp1252_with_trailing_spaces():
    parsed = parse("hardwrap-2003-cp1252.txt")
    r = rules(parsed)
    assert r["100.1"].text == (
        "These Magic rules assume a game between two players. Optional rules allow for more players but aren't "
        "discussed here. Snow-Covered lands are basic lands. A delayed ability triggers only once—the next time its "
        "trigger event occurs. Subtypes follow a long dash: “Artifact — Equipment.”")
    # first-line-indented paragraphs of a wrapped rule, and a wrapped "103.4." that is no rule
    paragraphs = r["413.2d"].text.split("\n")
    assert paragraphs[0].endswith("See rule 103.4. If a player must make more than one choice at a time, he or she "
                                  "makes the choices in the order written.")
    assert paragraphs[1:] == [
        "Some spells and abilities have multiple steps or actions, denoted by separate sentences or clauses. In "
        "these cases, the active player makes any choices required for the first action.",
        "Another paragraph of the same rule, also indented on its first line only, that wraps onto a second line.",
    ]
    assert list(r) == ["1", "100", "100.1", "4", "413", "413.2d", "413.2e"]
    gloss = {g.title: g.text for g in parsed.records if g.kind == "glossary"}
    assert gloss["Delayed Triggered Ability"].endswith("some spells or abilities resolve. See rule 404.4.")
    assert gloss["Counter"].split("\n")[1:] == [
        "1. To counter a spell or ability is to cancel it, removing it from the stack. See rule 414, “Countering "
        "Spells and Abilities.”",
        "2. A counter is a marker placed on an object."]
    assert kinds(parsed)["unparsed"] == 0 and not parsed.warnings


# --- sections after the Credits, differing headings ---------------------------------------------------

def test_sections_after_the_credits_are_headings_and_boilerplate():
    parsed = parse("after-credits.txt")
    headings = [(x.first_line, x.title) for x in parsed.records if x.kind == "heading"]
    assert (54, "Questions?") in headings and (65, "Customer Service Information") in headings
    back = [x for x in parsed.records if x.kind == "boilerplate" and x.first_line > 54]
    assert {x.meta["section"] for x in back} == {"Questions?", "Customer Service Information"}
    assert any(x.text == "1702 Groot-Bijgaarden" for x in back)  # a line starting with a number is no rule
    assert kinds(parsed)["unparsed"] == 0 and not parsed.warnings
    assert kinds(parsed)["rule"] == 6 and kinds(parsed)["glossary"] == 2


def test_a_heading_that_differs_from_its_contents_entry_is_a_warning_not_a_refusal():
    parsed = parse("heading-mismatch.txt")
    warnings = [(w.line, w.code) for w in parsed.warnings]
    assert warnings == [(11, "heading-mismatch"), (21, "heading-mismatch")]
    assert "'1. The Game'" in parsed.warnings[0].message and "'1. Game Concepts'" in parsed.warnings[0].message
    assert rules(parsed)["1"].title == "The Game"
    assert [g.title for g in parsed.records if g.kind == "glossary"] == ["Loop"]  # "Glossary of Terms"


def test_a_contents_entry_missing_in_the_middle_is_a_warning(tmp_path):
    text = (FIXTURES / "after-credits.txt").read_bytes().decode("ascii")
    text = text.replace("\r\nQuestions?\r\nContact", "\r\nContact")  # the body drops a heading in the middle
    parsed = parse_text(tmp_path, text)
    assert [(w.code, w.line) for w in parsed.warnings] == [("missing-section", 19)]
    assert kinds(parsed)["unparsed"] == 0


# --- defects on one line -------------------------------------------------------------------------------

HAND = ["1. Game Concepts", "", "100. General", "", "100.1. First.", "", "100.2.All players glued.", "", "•", "",
        "100.3. Third.", "", "100.4b The last one."]


def test_a_number_glued_to_its_text_is_kept_with_a_warning():
    parsed = ingest.parse_lines(HAND, "hand.txt", "cr-text", "en")
    r = rules(parsed)
    assert r["100.2"].number == "100.2." and r["100.2"].text == "All players glued."
    assert [(w.line, w.code, w.number) for w in parsed.warnings if w.code == "missing-space"] == [
        (7, "missing-space", "100.2")]


def test_a_stray_character_on_its_own_line_is_recorded_with_a_warning():
    parsed = ingest.parse_lines(HAND, "hand.txt", "cr-text", "en")
    stray = [x for x in parsed.records if x.first_line == 9]
    assert [(x.kind, x.text, x.meta) for x in stray] == [("boilerplate", "•", {"what": "stray"})]
    assert [(w.line, w.code) for w in parsed.warnings if w.code == "stray-line"] == [(9, "stray-line")]
    assert rules(parsed)["100.3"].text == "Third."
    assert kinds(parsed)["unparsed"] == 0


def test_invisible_and_control_characters_are_kept_as_stray_lines():
    lines = ["100. General", "", "\ufeff100.1. A byte-order mark in the middle of the file.", "", "\ufeff", "",
             "100.2. Last.", "", "\x1a"]
    parsed = ingest.parse_lines(lines, "hand.txt", "cr-text", "en")
    assert rules(parsed)["100.1"].text == "A byte-order mark in the middle of the file."
    assert [(x.first_line, x.meta["what"]) for x in parsed.records if x.kind == "boilerplate"] == [
        (5, "stray"), (9, "stray")]
    assert [(w.line, w.code) for w in parsed.warnings] == [(5, "stray-line"), (9, "stray-line")]


def test_a_line_break_before_a_cross_reference_in_unwrapped_text_is_no_rule():
    lines = ["100. General", "", "100.1. A long rule that was broken before its reference, see rule",
             "702.19b. And it goes on.", "", "100.2. The next rule."]
    parsed = ingest.parse_lines(lines, "hand.txt", "cr-text", "en")
    assert list(rules(parsed)) == ["100", "100.1", "100.2"]
    assert rules(parsed)["100.1"].text.endswith("see rule 702.19b. And it goes on.")


def test_a_space_inside_a_rule_number_is_read_as_the_next_rule():
    lines = ["702. Keyword Abilities", "", "702.37. Storm", "", "702. 37a Storm is a triggered ability.", "",
             "702. 37b If a spell has multiple instances of storm, each triggers separately.", "", "702.38. Affinity"]
    parsed = ingest.parse_lines(lines, "hand.txt", "cr-text", "en")
    assert [numbers.normalize(r.number) for r in parsed.records if r.kind == "rule"] == [
        "702", "702.37", "702.37a", "702.37b", "702.38"]
    assert [(w.line, w.code) for w in parsed.warnings] == [(5, "split-number"), (7, "split-number")]


def test_a_glossary_term_without_definition_is_warned():
    lines = ["100.1. A rule.", "", "Glossary", "", "Attack", "To declare a creature as an attacker.", "",
             "Orphan Term", "", "Zone", "A place.", "", "Credits", "", "Someone"]
    parsed = ingest.parse_lines(lines, "hand.txt", "cr-text", "en")
    assert [g.title for g in parsed.records if g.kind == "glossary"] == ["Attack", "Orphan Term", "Zone"]
    assert [(w.line, w.code) for w in parsed.warnings] == [(8, "empty-definition")]


# --- encodings and line ends ---------------------------------------------------------------------------

def summary(parsed):
    return [(r.kind, r.number, r.title, r.text, r.label, r.owner, r.meta, r.spans) for r in parsed.records]


def mixed_cr_crlf(text: str) -> str:
    """Line ends as in the 2019-2026 editions: bare CR, and CR + CRLF before the chapters."""
    out = text.replace("\n", "\r")
    return out.replace("\r\r1. ", "\r\r\n1. ").replace("\r\r2. ", "\r\r\n2. ").replace("\r\rGlossary", "\r\r\nGlossary")


@pytest.mark.parametrize("name", ["continuation.txt", "hardwrap-1999.txt"])
@pytest.mark.parametrize("encoding,bom", [
    ("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("cp1252", b""), ("ascii", b""),
    ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
])
@pytest.mark.parametrize("eol", ["lf", "crlf", "cr", "mixed"])
def test_every_encoding_and_line_end_gives_identical_records(tmp_path, name, encoding, bom, eol):
    text = (FIXTURES / name).read_text(encoding="utf-8")
    if encoding == "ascii":
        text = text.translate(str.maketrans("“”’", "\"\"'"))
    expected = parse_text(tmp_path, text, "expected.txt")
    if eol == "mixed":
        text = mixed_cr_crlf(text)
    else:
        text = text.replace("\n", {"lf": "\n", "crlf": "\r\n", "cr": "\r"}[eol])
    path = tmp_path / "rules.txt"
    path.write_bytes(bom + text.encode(encoding))
    parsed = ingest.parse_document(path, "cr-text", "en")
    assert summary(parsed) == summary(expected)
    assert parsed.warnings == expected.warnings


def test_mixed_line_ends_keep_line_numbers():
    text = (FIXTURES / "continuation.txt").read_text(encoding="utf-8")
    mixed = mixed_cr_crlf(text)
    assert "\r\r\n1. Game Concepts" in mixed and "\r\r\n2. Parts" in mixed and "\n" not in mixed.replace("\r\n", "")
    assert ingest.text.split_lines(mixed) == text.split("\n")[:-1]


# --- truncation ----------------------------------------------------------------------------------------

def test_a_file_that_ends_inside_the_glossary_is_refused_naming_what_is_missing(tmp_path):
    text = (FIXTURES / "after-credits.txt").read_bytes().decode("ascii")
    cut = text[: text.index("Zone\r\n")]  # ends after the first glossary entry (and a blank line)
    with pytest.raises(SourceError) as e:
        parse_text(tmp_path, cut, "cut.txt")
    lines = cut.split("\r\n")[:-1]
    assert e.value.line == len(lines) and str(e.value).startswith(f"{tmp_path / 'cut.txt'}:{len(lines)}: ")
    msg = e.value.message
    assert msg.startswith("truncated file") and f"ends at line {len(lines) - 1} inside 'Glossary'" in msg
    assert "'Credits' (line 17) and 2 more entries up to 'Customer Service Information'" in msg


def test_a_file_that_ends_inside_the_rules_is_refused(tmp_path):
    text = (FIXTURES / "continuation.txt").read_text(encoding="utf-8")
    cut = text[: text.index("Example:")]
    with pytest.raises(SourceError) as e:
        parse_text(tmp_path, cut, "cut.txt")
    assert "inside rule 205.4c" in e.value.message and "'Glossary' (line 15)" in e.value.message


def test_a_file_that_ends_after_everything_the_contents_promises_is_accepted(tmp_path):
    text = (FIXTURES / "after-credits.txt").read_bytes().decode("ascii")
    cut = text[: text.index("All Other European")]  # the last section is reached, its text cut short
    parsed = parse_text(tmp_path, cut, "cut.txt")
    assert kinds(parsed)["unparsed"] == 0


def test_a_file_that_ends_before_any_rule_is_refused(tmp_path):
    text = (FIXTURES / "continuation.txt").read_text(encoding="utf-8")
    with pytest.raises(SourceError, match="truncated"):
        parse_text(tmp_path, text[: text.index("Contents")], "cut.txt")


def test_the_parser_version_is_recorded_in_the_registry():
    assert ingest.registry.get("cr-text").version == 2 and ingest.registry.get("cr-web").version == 1
