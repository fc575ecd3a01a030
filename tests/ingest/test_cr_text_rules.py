"""cr-text, the state machine (ingest.cr_text_plain) and the contents (ingest.cr_text_contents), on small hand-made
texts: what becomes a rule, a paragraph of a rule, a heading, a glossary definition or an index entry, which defect
is warned about where, and how a file that ends early is refused.

Each text follows the layout of the sample editions (tests/corpus/crs, see its README): chapters "1.", sections
"100.", rules "100.1." and subrules "100.1a", "Example:" paragraphs, a Glossary of a term line and its definition,
an Index of tab-indented entries (1999), Credits and, in 2005-2010, sections after the Credits.  Each test
parses its own text (cheap: the mutation check runs, for a mutant, the tests during which its function ran).
"""
import pytest

import ingest
from ingest import SourceError, numbers


def parse(lines):
    return ingest.parse_lines(lines, "rules.txt", "cr-text", "en")


def rules(parsed) -> dict:
    return {numbers.normalize(r.number): r for r in parsed.records if r.kind == "rule"}


def of_kind(parsed, kind):
    return [r for r in parsed.records if r.kind == kind]


def warned(parsed):
    return [(w.line, w.code) for w in parsed.warnings]


def refusal(lines) -> SourceError:
    with pytest.raises(SourceError) as e:
        parse(lines)
    assert e.value.path == "rules.txt"
    return e.value


# --- what the contents promises, and a file that ends early ----------------------------------------------

CONTENTS = ["Magic: The Gathering Comprehensive Rules", "", "Contents", "", "1. The Game", "100. General", "Glossary",
            "Credits", ""]
BODY = ["1. The Game", "", "100. General", "", "100.1. These Magic rules assume a game between two players.", "",
        "100.2. In constructed play, each player needs a deck of at least sixty cards.", ""]
BACK = ["Glossary", "", "Attack", "To declare a creature as an attacker.", "", "Credits", "", "Rules Manager: someone"]


def test_a_whole_text_brings_every_entry_of_its_contents():
    parsed = parse(CONTENTS + BODY + BACK)
    assert [(t.first_line, t.title, t.meta) for t in of_kind(parsed, "toc")] == [
        (5, "The Game", {"number": "1", "page": None}), (6, "General", {"number": "100", "page": None}),
        (7, "Glossary", {"number": None, "page": None}), (8, "Credits", {"number": None, "page": None})]
    assert [(h.first_line, h.title) for h in of_kind(parsed, "heading")] == [
        (1, "Magic: The Gathering Comprehensive Rules"), (3, "Contents"), (18, "Glossary"), (23, "Credits")]
    assert list(rules(parsed)) == ["1", "100", "100.1", "100.2"]
    assert [(g.title, g.text) for g in of_kind(parsed, "glossary")] == [
        ("Attack", "To declare a creature as an attacker.")]
    assert [(b.first_line, b.text, b.meta) for b in of_kind(parsed, "boilerplate")] == [
        (25, "Rules Manager: someone", {"what": "credits"})]
    assert not parsed.warnings


def test_a_file_that_ends_inside_a_rule_names_the_rule_and_what_is_missing():
    lines = CONTENTS + BODY[:-2] + ["100.2. In constructed play, each player needs", "", ""]
    e = refusal(lines)
    assert e.line == len(lines) == 18
    assert e.message == ("truncated file: its text ends at line 16 inside rule 100.2, but the contents promises "
                         "'Glossary' (line 7) and 1 more entry up to 'Credits', missing from the body")


def test_a_file_that_ends_inside_the_glossary_names_the_one_entry_missing():
    lines = CONTENTS + BODY + BACK[:4]
    e = refusal(lines)
    assert e.line == 21 and e.message == ("truncated file: its text ends at line 21 inside 'Glossary', but the "
                                          "contents promises 'Credits' (line 8), missing from the body")


@pytest.mark.parametrize("end", [[""], []])
def test_a_file_that_ends_in_its_contents_is_refused_before_its_body(end):
    lines = ["Contents", "", "Introduction", "1. The Game", "Glossary", "Credits", *end]
    e = refusal(lines)
    assert e.line == len(lines) and e.message == (
        "truncated file: its text ends at line 6 before the body begins, but the contents promises 'Introduction' "
        "(line 3) and 3 more entries up to 'Credits', missing from the body")


def test_a_text_without_any_rule_is_refused():
    e = refusal(["Magic: The Gathering Comprehensive Rules", "", "These rules are effective as of today.", ""])
    assert e.line == 4 and e.message == ("truncated file (or no rules text): it ends at line 4 before the first "
                                         "numbered rule")


def test_an_entry_the_body_skips_is_a_warning_at_the_entry():
    lines = CONTENTS[:7] + ["Index"] + CONTENTS[7:] + BODY + BACK
    parsed = parse(lines)
    assert [(w.line, w.code, w.message, w.number) for w in parsed.warnings] == [
        (8, "missing-section", "the contents lists 'Index' but the body has no such heading", None)]
    lines = CONTENTS[:6] + ["101. Starting the Game"] + CONTENTS[6:] + BODY + BACK
    assert [(w.line, w.code, w.number) for w in parse(lines).warnings] == [(7, "missing-section", "101")]


def test_a_renamed_chapter_is_a_warning_at_its_heading():
    lines = CONTENTS + ["1. Game Concepts"] + BODY[1:] + BACK
    parsed = parse(lines)
    assert [(w.line, w.code, w.number) for w in parsed.warnings] == [(10, "heading-mismatch", "1")]
    assert parsed.warnings[0].message == ("heading '1. Game Concepts' differs from its contents entry '1. The Game' "
                                          "(line 5)")
    assert rules(parsed)["1"].title == "Game Concepts"


def test_headings_match_their_entries_in_order_and_leniently():
    contents = ["Contents", "", "Introduction", "1. The Game", "100. General", "Glossary of Terms", "Index",
                "Credits", "Customer Service Information", ""]
    body = ["Introduction", "", "This document is the rules.", "", "1. The Game", "", "100. General", "",
            "100.1. A rule.", "", "Glossary", "", "Attack", "To declare.", "", "Index", "", "Attack, 100.1", "",
            "Credits", "", "Someone", "", "Customer Service", "", "Call us."]
    parsed = parse(contents + body)
    assert [(h.first_line, h.title) for h in of_kind(parsed, "heading")] == [
        (1, "Contents"), (11, "Introduction"), (21, "Glossary"), (26, "Index"), (30, "Credits"),
        (34, "Customer Service")]
    # "Glossary" stands for "Glossary of Terms", "Customer Service" for "Customer Service Information": a warning
    assert warned(parsed) == [(21, "heading-mismatch"), (34, "heading-mismatch")]
    assert [(x.title, x.text) for x in of_kind(parsed, "index")] == [("Attack", "100.1")]
    assert [(b.text, b.meta) for b in of_kind(parsed, "boilerplate")] == [
        ("Someone", {"what": "credits"}),
        ("Call us.", {"what": "back matter", "section": "Customer Service"})]


def test_the_body_begins_where_the_contents_repeats_itself_or_its_numbering_restarts():
    # unnumbered: the body repeats the first entry ("Introduction"); numbered: "1." comes again after "100."
    for first in (["Introduction", "", "Prose of the introduction, as a sentence.", ""], []):
        contents = ["Contents", "", "Introduction", "1. The Game", "100. General", ""]
        parsed = parse(contents + first + ["1. The Game", "", "100. General", "", "100.1. A rule."])
        assert [(t.first_line, t.title) for t in of_kind(parsed, "toc")] == [
            (3, "Introduction"), (4, "The Game"), (5, "General")]
        assert [r.first_line for r in of_kind(parsed, "rule")][0] == 7 + len(first)


def test_prose_after_the_contents_ends_it():
    # 1999: the contents is followed by a paragraph ("In response to play issues ..."), then the body
    lines = ["Contents", "", "1. The Game", "100. General", "", "In response to play issues and to keep these rules",
             "current, changes may have been made.", "", "1. The Game", "", "100. General", "", "100.1. A rule."]
    parsed = parse(lines)
    assert len(of_kind(parsed, "toc")) == 2
    assert [(p.first_line, p.text) for p in of_kind(parsed, "paragraph")] == [
        (6, "In response to play issues and to keep these rules current, changes may have been made.")]
    for prose in (["a line in lower case"], ["A Long Line " * 9], ["One,", "Two"], ["One;"]):
        parsed = parse(["Contents", "", "1. The Game", "100. General", "", "Heading Like", *prose, "", "1. The Game",
                        "", "100. General", "", "100.1. A rule."])
        assert len(of_kind(parsed, "toc")) == 2, prose


def test_a_contents_framed_by_lines_ends_at_its_frame():
    # 1999: "-----" / "Contents" / "-----" / entries / "-----" / "Magic: The Gathering(R) Comprehensive Rules"
    lines = ["-" * 20, "Contents", "-" * 20, "", "1. The Game", "100. General", "", "-" * 20, "Title Of The Body",
             "-" * 20, "", "1. The Game", "", "100. General", "", "100.1. A rule."]
    parsed = parse(lines)
    assert len(of_kind(parsed, "toc")) == 2
    assert [h.title for h in of_kind(parsed, "heading")] == ["Contents", "Title Of The Body"]
    assert [b.first_line for b in of_kind(parsed, "boilerplate")] == [1, 3, 8, 10]
    assert {(b.text, b.meta["what"]) for b in of_kind(parsed, "boilerplate")} == {("-" * 20, "decoration")}


def test_a_contents_heading_is_read_once():
    # a second "Contents" before the body is a heading of the front matter: no second contents begins there
    lines = ["Contents", "", "Introduction", "", "Introduction", "", "Contents", "", "1. The Game", "",
             "100.1. A rule."]
    parsed = parse(lines)
    assert [(t.first_line, t.title) for t in of_kind(parsed, "toc")] == [(3, "Introduction")]
    assert [h.first_line for h in of_kind(parsed, "heading")] == [1, 5, 7]
    assert list(rules(parsed)) == ["1", "100.1"] and not parsed.warnings


# --- rules, their paragraphs and examples ----------------------------------------------------------------

def test_an_unnumbered_heading_inside_the_rules_is_a_warning():
    lines = ["100. General", "", "100.1. A rule.", "", "Some Heading", "", "100.2. Next."]
    parsed = parse(lines)
    assert [(h.first_line, h.title) for h in of_kind(parsed, "heading")] == [(5, "Some Heading")]
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (5, "unexpected-heading", "unnumbered heading inside the rules: 'Some Heading'")]
    assert rules(parsed)["100.1"].text == "A rule."


def test_a_paragraph_without_indent_after_a_blank_line_is_kept_with_its_rule_and_warned():
    lines = ["100. General", "", "100.1. A rule.", "", "A paragraph kept with the rule.", "", "100.2. Next."]
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "A rule.\nA paragraph kept with the rule."
    assert [(w.line, w.code, w.message, w.number) for w in parsed.warnings] == [
        (5, "unindented-paragraph", "paragraph without a number or indent, kept with rule 100.1.", "100.1")]
    # indented, it is a continuation paragraph as the editions print them: no warning
    lines[4] = "     A paragraph kept with the rule."
    assert not parse(lines).warnings
    # an indented heading-like line is a paragraph too
    lines[4] = "     Kept With The Rule"
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "A rule.\nKept With The Rule" and not parsed.warnings


def test_a_paragraph_after_an_example_belongs_to_the_rule_not_the_example():
    lines = ["100. General", "", "100.1. A rule.", "", "Example: An example.", "", "     A second paragraph.", "",
             "100.2. Next."]
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "A rule.\nA second paragraph."
    (example,) = of_kind(parsed, "example")
    assert (example.text, example.label, parsed.records[example.owner].number) == ("An example.", "Example", "100.1.")


def test_a_rule_and_its_example_run_on_over_lines_in_unwrapped_text():
    # a line break in mid-sentence continues the text; after a finished sentence a line is a new paragraph
    # (one rule of six runs on: an unwrapped text, see test_cr_text_lines.py)
    lines = ["100. General", "", "100.1. A rule broken in the middle of", "its sentence.", "A new paragraph.",
             "Example: An example broken in", "the middle.", ""] + [f"100.{n}. Next." for n in range(2, 9)]
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "A rule broken in the middle of its sentence.\nA new paragraph."
    assert of_kind(parsed, "example")[0].text == "An example broken in the middle."


def test_a_number_after_a_finished_sentence_starts_a_rule_in_unwrapped_text():
    # not the next number (a gap of three), but the sentence above is finished: a rule
    lines = ["100. General", "", "100.1. A rule.", "100.5. A rule after a gap.", "100.6. And one more"]
    assert list(rules(parse(lines))) == ["100", "100.1", "100.5", "100.6"]


def test_a_malformed_number_is_kept_and_warned_unless_it_continues_a_sentence():
    lines = ["100. General", "", "100.1. A rule.", "", "100.1x4 Broken.", "", "100.2. The cost is", "2.5b or more."]
    parsed = parse(lines)
    assert [(u.first_line, u.text, u.meta) for u in of_kind(parsed, "unparsed")] == [
        (5, "100.1x4 Broken.", {"reason": "malformed rule number"})]
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (5, "malformed-number", "line starts with a malformed rule number: '100.1x4'")]
    assert rules(parsed)["100.2"].text == "The cost is 2.5b or more."


def test_a_stray_character_inside_a_sentence_is_text():
    lines = ["100. General", "", "100.1. The symbol", "•", "means a bullet.", "", "•", "", "100.2. Next."]
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "The symbol • means a bullet."
    assert [(b.first_line, b.text, b.meta["what"]) for b in of_kind(parsed, "boilerplate")] == [(7, "•", "stray")]
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (7, "stray-line", "stray character(s) on a line of their own: '•'")]


@pytest.mark.parametrize("line,split", [
    ("606. 8b Players win.", True),            # en-2005-08-01, line 2104
    ("606. 9c Too far on.", False),            # not the next letter: a section heading (606 again)
    ("607. 8b Another section.", False),       # not the section of the rule above
])
def test_a_space_inside_a_rule_number(line, split):
    lines = ["606. Loyalty Abilities", "", "606.8a A rule.", "", line]
    parsed = parse(lines)
    last = of_kind(parsed, "rule")[-1]
    if split:
        assert (last.number, last.text, last.meta) == ("606.8b", "Players win.", {"printed": "606. 8b"})
        assert [(w.line, w.code, w.number) for w in parsed.warnings] == [(5, "split-number", "606.8b")]
        assert "space inside the rule number '606. 8b' (read as 606.8b)" == parsed.warnings[0].message
    else:
        assert (last.number, last.title) == (line[:4], line[5:])
        assert not [w for w in parsed.warnings if w.code == "split-number"]


def test_a_number_glued_to_its_text_is_warned_with_the_number():
    parsed = parse(["901. Planechase", "", "901.4.All plane and phenomenon cards."])
    assert rules(parsed)["901.4"].text == "All plane and phenomenon cards."
    assert [(w.line, w.code, w.number, w.message) for w in parsed.warnings] == [
        (3, "missing-space", "901.4", "no space between rule number '901.4.' and its text")]


def test_a_chapter_line_that_reads_as_a_sentence_is_no_chapter():
    # front matter: "1. To counter ..." ends in a full stop: not a heading, so the rules have not begun
    lines = ["Introduction", "", "1. Sentences are not chapters.", "", "1. The Game", "", "100.1. A rule."]
    parsed = parse(lines)
    assert [(p.first_line, p.text) for p in of_kind(parsed, "paragraph")] == [(3, "1. Sentences are not chapters.")]
    assert list(rules(parsed)) == ["1", "100.1"]


def test_paragraphs_of_the_front_matter():
    lines = ["Magic: The Gathering Comprehensive Rules", "", "These rules are effective as of November 8, 2024.",
             "They replace the rules before them.", "", "Introduction", "", "This document is a series of",
             "numbered rules.", "", "Each rule has its own number.", "", "100.1. A rule."]
    parsed = parse(lines)
    assert [(p.first_line, p.text) for p in of_kind(parsed, "paragraph")] == [
        (3, "These rules are effective as of November 8, 2024.\nThey replace the rules before them."),
        (8, "This document is a series of numbered rules."), (11, "Each rule has its own number.")]
    assert [h.title for h in of_kind(parsed, "heading")] == ["Magic: The Gathering Comprehensive Rules",
                                                              "Introduction"]


# --- glossary and index ----------------------------------------------------------------------------------

def test_glossary_terms_definitions_senses_and_examples():
    lines = ["100.1. A rule.", "", "Glossary", "", "Active Player", "The player whose turn it is.",
             "See rule 101.1.", "", "Counter", "1. To cancel a spell.", "2. A marker placed on an object.",
             "Example: A +1/+1 counter.", "", "For Mirrodin!", "A keyword ability.", "", "Credits", "", "Someone"]
    parsed = parse(lines)
    assert [(g.title, g.text, [s.line for s in g.spans]) for g in of_kind(parsed, "glossary")] == [
        ("Active Player", "The player whose turn it is.\nSee rule 101.1.", [5, 6, 7]),
        ("Counter", "1. To cancel a spell.\n2. A marker placed on an object.\nExample: A +1/+1 counter.",
         [9, 10, 11, 12]),
        ("For Mirrodin!", "A keyword ability.", [14, 15]),
    ]
    assert not parsed.warnings


def test_a_hard_wrapped_glossary_joins_wrapped_lines_and_keeps_paragraphs():
    rules_part = [f"100.{n}. A rule that the editor wrapped at seventy columns, so" if n % 2 else
                  f"100.{n}. A rule on one line." for n in range(1, 5)]
    body = []
    for n, line in enumerate(rules_part, 1):
        body += [line] + (["its sentence goes on here."] if n % 2 else []) + [""]
    glossary = ["Glossary", "", "Counter", "  A word with two senses in the rules:",
                "  1. To counter a spell or ability is to cancel it, removing it from",
                "  the stack.", "  2. A counter is a marker placed on a permanent. It is", "  not a card.",
                "  3. The next sense, after a finished sentence", "  4. is a sense.", "  Example: A +1/+1 counter.", "",
                "Skip", "  To skip a step is to proceed past it.", "", "  Once a step has started, it can",
                "  no longer be skipped.", "", "Credits"]
    parsed = parse(["100. General", ""] + body + glossary)
    gloss = {g.title: g.text for g in of_kind(parsed, "glossary")}
    assert gloss["Counter"].split("\n") == [
        "A word with two senses in the rules:",
        "1. To counter a spell or ability is to cancel it, removing it from the stack.",
        "2. A counter is a marker placed on a permanent. It is not a card.",
        "3. The next sense, after a finished sentence",
        "4. is a sense.",
        "Example: A +1/+1 counter."]
    assert gloss["Skip"] == ("To skip a step is to proceed past it.\n"
                             "Once a step has started, it can no longer be skipped.")


def test_an_indented_line_after_a_blank_is_a_paragraph_of_the_definition_not_a_term():
    lines = ["100.1. A rule.", "", "Glossary", "", "Skip", "  To skip a step.", "", "  Anything Scheduled",
             "  waits.", "", "Snow-Covered (Obsolete)", "  A land may be snow-covered."]
    parsed = parse(lines)
    assert [(g.title, g.text) for g in of_kind(parsed, "glossary")] == [
        ("Skip", "To skip a step.\nAnything Scheduled\nwaits."),
        ("Snow-Covered (Obsolete)", "A land may be snow-covered.")]


def test_an_index_of_terms_subterms_and_wrapped_references():
    lines = ["100.1. A rule.", "", "Index", "", "\tAbilities, 402", "\t\tactivated ability, 403, 406.1d,",
             "\t\t407.2", "\t\tstatic ability, 405", "", "\tZone, 217, 402.3", "\tTokens"]
    parsed = parse(lines)
    assert [(x.title, x.text, x.meta.get("parent"), [s.line for s in x.spans]) for x in of_kind(parsed, "index")] == [
        ("Abilities", "402", None, [5]),
        ("activated ability", "403, 406.1d, 407.2", "Abilities", [6, 7]),
        ("static ability", "405", "Abilities", [8]),
        ("Zone", "217, 402.3", None, [10]),
        ("Tokens", "", None, [11]),
    ]


def test_an_index_entry_that_begins_with_a_sign_is_no_wrapped_reference():
    parsed = parse(["100.1. A rule.", "", "Index", "", "Counters, 121", "+1/+1 counters, 122.3"])
    assert [(x.title, x.text) for x in of_kind(parsed, "index")] == [("Counters", "121"), ("+1/+1 counters", "122.3")]


def test_an_index_without_a_top_level_entry_has_no_parents():
    parsed = parse(["100.1. A rule.", "", "Index", "", "  Attack, 506", "    Block, 509"])
    assert [(x.title, x.meta) for x in of_kind(parsed, "index")] == [("Attack", {}), ("Block", {"parent": "Attack"})]


# --- after the credits -----------------------------------------------------------------------------------

def test_framed_headings_after_the_credits_start_sections():
    lines = ["100.1. A rule.", "", "Credits", "", "Someone", "", "-" * 20, "Contact Information", "-" * 20, "",
             "Call us.", "", "-" * 20, "More Things", "-" * 20, "", "Write to us."]
    parsed = parse(lines)
    assert [h.title for h in of_kind(parsed, "heading")] == ["Credits", "Contact Information", "More Things"]
    assert [(b.text, b.meta.get("section")) for b in of_kind(parsed, "boilerplate")
            if b.meta["what"] != "decoration"] == [
        ("Someone", None), ("Call us.", "Contact Information"), ("Write to us.", "More Things")]


def test_a_heading_that_is_not_framed_nor_in_the_contents_is_credits_text():
    lines = ["100.1. A rule.", "", "Credits", "", "Someone", "", "Contact Information", "", "Call us."]
    parsed = parse(lines)
    assert [h.title for h in of_kind(parsed, "heading")] == ["Credits"]
    assert [b.text for b in of_kind(parsed, "boilerplate")] == ["Someone", "Contact Information", "Call us."]


def test_a_last_line_after_a_frame_in_the_credits_is_credits_text():
    lines = ["100.1. A rule.", "", "Credits", "", "Someone", "", "-" * 20, "The End"]
    parsed = parse(lines)
    assert [h.title for h in of_kind(parsed, "heading")] == ["Credits"]
    assert [(b.first_line, b.meta["what"]) for b in of_kind(parsed, "boilerplate")] == [
        (5, "credits"), (7, "decoration"), (8, "credits")]


def test_a_numbered_line_inside_a_front_matter_paragraph_is_prose():
    lines = ["Introduction", "", "The rules begin with chapter", "1. The Game", "", "1. The Game", "", "100.1. A rule."]
    parsed = parse(lines)
    assert [(p.first_line, p.text) for p in of_kind(parsed, "paragraph")] == [
        (3, "The rules begin with chapter 1. The Game")]
    assert [r.first_line for r in of_kind(parsed, "rule")] == [6, 8]


def test_a_rule_after_a_contents_of_unnumbered_entries_starts_the_body():
    lines = ["Contents", "", "Introduction", "Glossary", "", "100.1. A rule.", "", "Glossary", "", "Term", "A term."]
    parsed = parse(lines)
    assert [t.title for t in of_kind(parsed, "toc")] == ["Introduction", "Glossary"]
    assert list(rules(parsed)) == ["100.1"] and [g.title for g in of_kind(parsed, "glossary")] == ["Term"]
    assert warned(parsed) == [(3, "missing-section")]     # the body has no Introduction


@pytest.mark.parametrize("frame", [["-" * 20, "Contact Information", ""], ["", "Contact Information", "-" * 20]])
def test_a_line_drawn_on_one_side_only_does_not_frame_a_heading(frame):
    lines = ["100.1. A rule.", "", "Credits", "", "Someone", *frame, "Call us."]
    parsed = parse(lines)
    assert [h.title for h in of_kind(parsed, "heading")] == ["Credits"]
    assert [b.text for b in of_kind(parsed, "boilerplate") if b.meta["what"] == "credits"] == [
        "Someone", "Contact Information", "Call us."]


def test_wrapped_lines_as_deeply_indented_as_their_rule_join_it():
    # a hard-wrapped text whose subrules and their wrapped lines are indented by four
    lines = ["408. Timing", "", "408.1. Playing Spells and Abilities", ""]
    for letter in "abcd":
        lines += [f"    408.1{letter} The active player receives priority at the beginning of each step. The",
                  "    player with priority may play a spell.", ""]
    parsed = parse(lines)
    assert rules(parsed)["408.1a"].text == ("The active player receives priority at the beginning of each step. The "
                                            "player with priority may play a spell.")


def test_a_continuation_paragraph_broken_in_mid_sentence_stays_one_paragraph():
    lines = ["100. General", "", "100.1. A rule.", "", "     A second paragraph of the rule, broken in",
             "     the middle.", "", "100.2. Next.", "", "100.3. Next.", "", "100.4. Next.", "", "100.5. Next."]
    parsed = parse(lines)
    assert rules(parsed)["100.1"].text == "A rule.\nA second paragraph of the rule, broken in the middle."
    assert not of_kind(parsed, "paragraph")


def test_a_glossary_term_indented_by_one_space_is_still_a_term():
    lines = ["100.1. A rule.", "", "Glossary", "", "Attack", "  To declare an attacker.", "", " Block",
             "  To declare a blocker."]
    parsed = parse(lines)
    assert [(g.title, g.text) for g in of_kind(parsed, "glossary")] == [
        ("Attack", "To declare an attacker."), ("Block", "To declare a blocker.")]


@pytest.mark.parametrize("length,kind", [(100, "toc"), (101, "paragraph")])
def test_a_line_of_more_than_100_characters_ends_the_contents(length, kind):
    title = ("The Long Title Of A Part " * 5)[:length - 1] + "X"
    lines = ["Contents", "", title, "1. The Game", "100. General", "", "1. The Game", "", "100. General", "",
             "100.1. A rule."]
    parsed = parse(lines)
    assert [r.kind for r in parsed.records if r.first_line == 3] == [kind]
    assert list(rules(parsed)) == ["1", "100", "100.1"]


def hard_wrapped(*rule_lines: str) -> list[str]:
    """A hard-wrapped text (four rules running on in mid-sentence) with ``rule_lines`` as its rule 100.5."""
    lines = ["100. General", ""]
    for n in range(1, 5):
        lines += [f"100.{n}. A rule that the editor wrapped at seventy columns, so its", "sentence goes on here.", ""]
    return lines + list(rule_lines)


def test_a_hyphen_before_a_blank_at_the_end_of_a_wrapped_line_keeps_its_space():
    # en-2003-12-01: "... a power- " / "and toughness-changing effect." (a suspended compound)
    parsed = parse(hard_wrapped("100.5. Apply a power- ", "and toughness-changing effect, then a Snow-",
                                "Covered land's."))
    assert rules(parsed)["100.5"].text == ("Apply a power- and toughness-changing effect, then a Snow-Covered "
                                           "land's.")


@pytest.mark.parametrize("indent,joined", [(2, True), (3, False)])
def test_a_wrapped_line_indented_up_to_two_columns_deeper_continues_the_rule(indent, joined):
    parsed = parse(hard_wrapped("100.5. The first line of a rule, and", " " * indent + "the rest of it."))
    between = " " if joined else "\n"
    assert rules(parsed)["100.5"].text == f"The first line of a rule, and{between}the rest of it."


@pytest.mark.parametrize("indent,joined", [(4, True), (5, False)])
def test_a_wrapped_definition_line_indented_up_to_two_columns_deeper_continues_it(indent, joined):
    lines = hard_wrapped("100.5. A rule.", "", "Glossary", "", "Skip", "  To skip a step is to proceed",
                         " " * indent + "past it.")
    parsed = parse(lines)
    (skip,) = of_kind(parsed, "glossary")
    assert skip.text == "To skip a step is to proceed" + (" " if joined else "\n") + "past it."


def test_the_body_begins_with_the_last_numbered_entry_of_the_contents_again():
    lines = ["Contents", "", "Introduction", "1. The Game", "", "1. The Game", "", "100.1. A rule."]
    parsed = parse(lines)
    assert [t.title for t in of_kind(parsed, "toc")] == ["Introduction", "The Game"]
    assert list(rules(parsed)) == ["1", "100.1"]
    assert warned(parsed) == [(3, "missing-section")]


def test_an_unnumbered_heading_is_never_matched_to_a_numbered_entry():
    # "The Game of Magic" holds the words of the entry "1. The Game": only the numbered line brings that entry
    lines = ["Contents", "", "Introduction", "1. The Game", "", "Introduction", "", "The Game of Magic", "",
             "1. The Game", "", "100.1. A rule."]
    parsed = parse(lines)
    assert [h.first_line for h in of_kind(parsed, "heading")] == [1, 6, 8]
    assert not parsed.warnings


def test_headings_after_the_credits_match_their_entries_even_inside_a_paragraph():
    # after the Credits anything may be a heading: "Any Questions" (for "Questions?") and "Customer Service" (for
    # "Customer Service Information") are matched with the text running on below them
    contents = ["Contents", "", "1. The Game", "100. General", "Credits", "Questions?", "Customer Service Information",
                ""]
    body = ["1. The Game", "", "100. General", "", "100.1. A rule.", "", "Credits", "", "Someone", "",
            "Any Questions", "Write to us.", "", "Customer Service", "Call us."]
    parsed = parse(contents + body)
    assert [(h.first_line, h.title) for h in of_kind(parsed, "heading")] == [
        (1, "Contents"), (15, "Credits"), (19, "Any Questions"), (22, "Customer Service")]
    assert warned(parsed) == [(19, "heading-mismatch"), (22, "heading-mismatch")]
    assert [(b.text, b.meta) for b in of_kind(parsed, "boilerplate")] == [
        ("Someone", {"what": "credits"}), ("Write to us.", {"what": "back matter", "section": "Any Questions"}),
        ("Call us.", {"what": "back matter", "section": "Customer Service"})]


def test_a_section_title_or_rule_text_that_begins_with_a_number():
    # (after a rule of its section, "100. 2 Players" would be rule 100.2 printed with a space: see above)
    parsed = parse(["100. 40 Card Decks", "", "100.1. 40 cards make a deck."])
    assert [(r.number, r.title, r.text) for r in of_kind(parsed, "rule")] == [
        ("100.", "40 Card Decks", ""), ("100.1.", None, "40 cards make a deck.")]
    assert not parsed.warnings


def test_a_heading_stands_alone_even_at_the_end_of_the_file():
    # "Glossary" with a line right below it is no heading: the paragraph is kept with the rule above
    parsed = parse(["100.1. A rule.", "", "Glossary", "Attack"])
    assert not of_kind(parsed, "heading") and rules(parsed)["100.1"].text == "A rule.\nGlossary Attack"
    parsed = parse(["100.1. A rule.", "", "Glossary", "", "Attack", "To declare an attacker."])
    assert [g.title for g in of_kind(parsed, "glossary")] == ["Attack"]


@pytest.mark.parametrize("length,heading", [(80, True), (81, False)])
def test_a_heading_the_contents_lists_is_at_most_80_characters_long(length, heading):
    title = ("Appendix Of Examples And Other Material " * 3)[:length - 1] + "S"
    lines = ["Contents", "", "1. The Game", title, "Credits", "", "1. The Game", "", "100.1. A rule.", "", title, "",
             "Credits", "", "Someone"]
    parsed = parse(lines)
    assert [h.title for h in of_kind(parsed, "heading")] == ["Contents"] + [title] * heading + ["Credits"]
    # too long for a heading: a paragraph kept with the rule above, and the entry is missing
    assert sorted(warned(parsed)) == ([] if heading else [(4, "missing-section"), (11, "unindented-paragraph")])


def test_a_glossary_term_named_like_a_later_section_is_a_term():
    contents = ["Contents", "", "1. The Game", "Glossary", "Index", "Credits", ""]
    lines = contents + ["1. The Game", "", "100.1. A rule.", "", "Glossary", "", "Index",
                        "A list of terms and the rules they appear in.", "", "Index", "", "Attack, 100.1", "",
                        "Credits"]
    parsed = parse(lines)
    assert [(g.title, g.text) for g in of_kind(parsed, "glossary")] == [
        ("Index", "A list of terms and the rules they appear in.")]
    assert [(x.title, x.text) for x in of_kind(parsed, "index")] == [("Attack", "100.1")]
    assert not parsed.warnings


def test_a_heading_that_names_its_section_only_through_its_contents_entry():
    # "The Glossary" is no section name of its own, but the entry it stands for ("Glossary") is
    lines = CONTENTS + BODY + ["The Glossary", "", "Attack", "To declare a creature as an attacker.", "", "Credits",
                               "", "Someone"]
    parsed = parse(lines)
    assert [(g.title, g.text) for g in of_kind(parsed, "glossary")] == [
        ("Attack", "To declare a creature as an attacker.")]
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (18, "heading-mismatch", "heading 'The Glossary' differs from its contents entry 'Glossary' (line 7)")]


def test_a_glossary_term_without_definition_at_the_end_of_the_file():
    parsed = parse(["100.1. A rule.", "", "Glossary", "", "Attack", "To attack.", "", "Orphan"])
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (8, "empty-definition", "glossary term 'Orphan' has no definition")]
