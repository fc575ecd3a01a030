"""What a line of the plain-text Comprehensive Rules is (ingest.cr_text_lines), on lines as the editions print them.

The lines are taken from the sample editions (tests/corpus/crs) unless said otherwise: the 1999 edition's frames
("=====", "-----") and tab-indented index, the glued numbers of 2022-2024 ("901.4.All"), the glossary term
"For Mirrodin!" (2024-11-08), the typographic and ASCII quotes of 1999 ("Handling 'Infinite' Loops" in the body,
"Handling \"Infinite\" Loops" in the contents).  The state machine (ingest.cr_text_plain) decides with these
answers what a line is in its context; tests/ingest/test_cr_text_rules.py tests it on whole texts.
"""
import pytest

from ingest.cr_text_lines import (
    ends_sentence,
    heading_like,
    is_hard_wrapped,
    is_stray,
    join_wrapped,
    number_of,
    scan,
    section_kind,
    term_like,
    title_key,
)


def shape(raw: str) -> tuple:
    (line,) = scan([raw])
    return line.text, line.indent, line.soft, line.sep, line.decoration


def test_lines_are_numbered_from_one():
    assert [ln.no for ln in scan(["a", "", "b"])] == [1, 2, 3]


@pytest.mark.parametrize("raw,expected", [
    # (text, indent, soft: ends in a blank, sep: separates paragraphs, decoration)
    ("", ("", 0, False, True, False)),
    ("     ", ("", 5, True, True, False)),                          # blanks only: a separator
    ("100.1. These Magic rules", ("100.1. These Magic rules", 0, False, False, False)),
    ("  408.1a The active player ", ("408.1a The active player", 2, True, False, False)),
    ("\tAbilities, 402", ("Abilities, 402", 8, False, False, False)),           # the 1999 index: tabs count 8
    ("\t\tactivated ability, 403", ("activated ability, 403", 16, False, False, False)),
    (" \tZone, 217", ("Zone, 217", 8, False, False, False)),                    # a space then a tab: to column 8
    ("=" * 78, ("=" * 78, 0, False, True, True)),
    ("-" * 12, ("-" * 12, 0, False, True, True)),
    ("- - - - -", ("- - - - -", 0, False, True, True)),
    ("***", ("***", 0, False, True, True)),
    ("~~~", ("~~~", 0, False, True, True)), ("___", ("___", 0, False, True, True)),
    ("###", ("###", 0, False, True, True)), ("+++", ("+++", 0, False, True, True)),
    ("--", ("--", 0, False, False, False)),                                     # two are no line drawn
    ("-=-", ("-=-", 0, False, False, False)),                                   # one character repeated only
    ("--- Rules ---", ("--- Rules ---", 0, False, False, False)),
    ("\ufeff100.1. A byte-order mark", ("100.1. A byte-order mark", 0, False, False, False)),
    ("Glossary\u200b", ("Glossary", 0, False, False, False)),
    ("\u200b", ("\u200b", 0, False, False, False)),                             # only invisible: kept, a stray line
])
def test_the_shape_of_a_line(raw, expected):
    assert shape(raw) == expected


@pytest.mark.parametrize("text,stray", [
    ("•", True), ("*", True), ("—", True), ("", True), ("“”", True),
    ("a", False), ("(1)", False), ("…1", False), ("• x", False),
])
def test_a_stray_line_has_no_letter_or_digit(text, stray):
    assert is_stray(text) is stray


@pytest.mark.parametrize("text,ends", [
    ("rule 103.4.", True), ("Then the other player receives priority.", True), ('the same as "Prevent."', True),
    ("(see rule 101.1).", True), ("“Artifact — Equipment.”", True), ("Loops?", True), ("For Mirrodin!", True),
    ("the following:", True), ("in order;", True), ("(See rule 409.1.)", True), ("See rule 103.4. ", True),
    ("See rule", False), ("it doesn't go on the", False), ("(see rule 101.1)", False), ("", False), ("  ", False),
    ('"Infinite"', False),
])
def test_a_finished_sentence(text, ends):
    assert ends_sentence(text) is ends


@pytest.mark.parametrize("text,term", [
    ("For Mirrodin!", True), ("Active Player", True), ("Snow-Covered (Obsolete)", True), ('"Legendary"', True),
    ("The player whose turn it is.", False), ("See rule 101.1;", False), ("Ante:", False),
    ("x" * 90, True), ("x" * 91, False), ("", False), ('"."', False),
])
def test_a_glossary_term(text, term):
    assert term_like(text) is term


@pytest.mark.parametrize("text,heading", [
    ("Glossary", True), ("100. General", True), ("_Magic: The Gathering_ Comprehensive Rules", True),
    ("“Infinite” Loops", True), ("*Credits*", True), ("Questions?", True), ("X Rules", True),
    ("GLOSSARY AND INDEX", True),
    ("glossary", False), ("Introduction.", False), ("In response to play issues,", False), ("Note:", False),
    ("A" * 80, True), ("A" * 81, False), ("See rule 101.1;", False),
])
def test_a_heading(text, heading):
    assert heading_like(text) is heading


@pytest.mark.parametrize("text,piece,soft,joined", [
    ("", "Covered lands", False, "Covered lands"),
    ("at least sixty cards. Snow-", "Covered lands", False, "at least sixty cards. Snow-Covered lands"),
    ("triggers only once—", "the next time", False, "triggers only once—the next time"),
    ("a black-", "and-green creature", False, "a black-and-green creature"),       # en-2003-10-01
    ("a power-", "and toughness-changing effect", True,                # en-2003-12-01: "power- " then a break
     "a power- and toughness-changing effect"),
    ("damage -", "and then", False, "damage - and then"),                 # a dash on its own, not glued
    ("--", "x", False, "-- x"),
    ("See rule", "409.1. Each player", False, "See rule 409.1. Each player"),
])
def test_a_wrapped_line_joins_with_a_space_unless_broken_at_a_hyphen(text, piece, soft, joined):
    assert join_wrapped(text, piece, soft) == joined


@pytest.mark.parametrize("a,b", [
    ('Handling "Infinite" Loops', "Handling 'Infinite' Loops"),
    ("Handling “Infinite” Loops", "HANDLING INFINITE LOOPS"),
    ("Magic: The Gathering(R)  Comprehensive Rules", "_Magic: The Gathering_ Comprehensive Rules"),
    ("Magic: The Gathering® Comprehensive Rules", "Magic The Gathering Comprehensive Rules"),
    ("Magic™ (TM) (c) © Rules", "magic rules"),
    ("Questions?", "questions"), ("Glossary of Terms", "glossary   of terms"),
    ("ﬁnal Straße", "FINAL STRASSE"),                       # NFKC and case folding
])
def test_headings_compare_without_case_quotes_markup_and_punctuation(a, b):
    assert title_key(a) == title_key(b)


def test_the_folded_key_keeps_the_words():
    assert title_key("_Magic: The Gathering(R)_ Comprehensive Rules") == "magic the gathering comprehensive rules"
    assert title_key("100. General") == "100 general"
    assert title_key("Rock’n’Roll") == "rock n roll"
    assert title_key("Handling Infinite Loops") != title_key("Handling Infinite Loop")


@pytest.mark.parametrize("text,kind", [
    ("Glossary", "glossary"), ("GLOSSARY", "glossary"), ("Glossary of Terms", "glossary"), ("Glossar", "glossary"),
    ("Glossario", "glossary"), ("Index", "index"), ("Credits", "credits"), ("Danksagungen", "credits"),
    ("Riconoscimenti", "credits"),
    ("Glossaryx", None), ("Indexing", None), ("The Glossary", None), ("Introduction", None), ("Contents", None),
])
def test_the_back_sections_by_their_heading(text, kind):
    assert section_kind(text) == kind


@pytest.mark.parametrize("text,expected", [
    ("100.1. These Magic rules apply", ("rule", "100.1.", "These Magic rules apply")),
    ("100.1a A two-player game", ("rule", "100.1a", "A two-player game")),
    ("702.163. For Mirrodin!", ("rule", "702.163.", "For Mirrodin!")),
    ("409.1.", ("rule", "409.1.", "")),
    ("901.4.All plane and phenomenon cards", ("glued", "901.4.", "All plane and phenomenon cards")),
    ("305.3.After triggered abilities", ("glued", "305.3.", "After triggered abilities")),
    ("100. General", ("section", "100.", "General")),
    ("1. Game Concepts", ("chapter", "1.", "Game Concepts")),
    ("1702 Groot-Bijgaarden", None), ("2.5 mana", None), ("12. Twelve", None), ("100.1.all", None),
    ("Example: 100.1", None), ("", None),
])
def test_the_number_a_line_begins_with(text, expected):
    assert number_of(text) == expected


# --- hard wrapping --------------------------------------------------------------------------------------

def wrapped_rules(wrapped: int, whole: int) -> list[str]:
    """``wrapped`` rules that run on into a second line in mid-sentence, ``whole`` rules of one line."""
    lines = []
    for n in range(1, wrapped + 1):
        lines += [f"100.{n}. A rule that the editor wrapped at seventy columns, so its", "sentence goes on here.", ""]
    for n in range(wrapped + 1, wrapped + whole + 1):
        lines += [f"100.{n}. A rule on one line.", ""]
    return lines


def test_a_text_is_hard_wrapped_when_one_rule_in_five_runs_on_in_mid_sentence():
    assert is_hard_wrapped(scan(wrapped_rules(1, 4)))
    assert not is_hard_wrapped(scan(wrapped_rules(1, 5)))
    assert not is_hard_wrapped(scan(wrapped_rules(0, 3)))
    assert is_hard_wrapped(scan(wrapped_rules(3, 0)))


@pytest.mark.parametrize("after", [
    "     A further paragraph of the rule, indented.",      # deeper: a continuation paragraph (2024)
    "100.9. The next rule without a blank line.",
    "Example: A player plays a spell.",
    "-----",
    "",
])
def test_what_follows_a_rule_without_making_the_text_wrapped(after):
    lines = ["100.1. A rule that ends without a full stop, as in the contents of some editions", after]
    assert not is_hard_wrapped(scan(lines))


def test_a_line_indented_as_the_rule_continues_it():
    lines = ["  408.1a The player with priority may play a spell or ability. See rule", "  408.1b. Then the other"]
    assert not is_hard_wrapped(scan(lines))          # a numbered line is never counted as a wrap
    lines = ["  408.1a The player with priority may play a spell or ability. See", "  rule 408.1b."]
    assert is_hard_wrapped(scan(lines))
    lines = ["  408.1a The player with priority may play a spell or ability. See", "     rule 408.1b."]
    assert not is_hard_wrapped(scan(lines))          # three columns deeper: a new paragraph
    lines = ["  408.1a The player with priority may play a spell or ability. See", "    rule 408.1b."]
    assert is_hard_wrapped(scan(lines))              # two columns deeper: still the same paragraph
