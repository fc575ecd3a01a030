"""Which number can come next in a rules text (ingest.cr_text_lines.plausible_next): what tells a new rule from a
hard-wrapped line that begins with a cross-reference ("... See rule" / "103.4. If ...").

Cases: the function's own examples; the Comprehensive Rules' numbering, which skips the letters l and o
(en-2024-11-08: 107.3k then 107.3m, 107.3n then 107.3p) and sometimes a rule (en-1999-04-23: 305.2 then 305.4);
chapters, sections, rules and subrules in their order."""
import pytest

from ingest.cr_text_lines import plausible_next

CASES = [
    # (previous number, candidate, can it come next?)
    ("413.2d", "413.2e", True), ("413.2d", "413.3", True), ("413.2d", "414.", True),      # the docstring's
    ("413.2d", "103.4", False), ("413.2d", "409.1", False),
    ("107.3k", "107.3m", True), ("107.3n", "107.3p", True),     # l and o are skipped
    ("107.3k", "107.3n", True), ("107.3k", "107.3o", False),    # at most three letters on
    ("305.2", "305.4", True), ("305.2", "305.5", False),        # one rule skipped, not two
    ("100.1b", "100.2", True), ("100.1b", "100.3", True), ("100.1b", "100.4", False),
    ("100.1", "100.1a", True), ("100.1", "100.1d", False),
    ("100.2", "100.2", False), ("100.2", "100.1", False), ("100.2a", "100.1b", False),   # never backwards
    ("100.2", "101.1", False),                                  # a rule of the next section before its heading
    ("100.2", "101.", True), ("100.2", "102.", True), ("100.2", "103.", False),
    ("116.4", "200.", True), ("116.4", "201.", True), ("116.4", "203.", False),   # the next chapter's sections
    ("116.4", "2.", True), ("116.4", "3.", False),              # chapter headings
    ("1.", "100.", True), ("1.", "102.", True), ("1.", "103.", False), ("1.", "100.1", False),
    (None, "100.1", True), ("100.1", "not a number", False),
    ("Introduction", "100.1", True),                            # no number before: anything goes
    ("101.", "101.", False),                                    # a section heading again is no next one
    ("116.4", "202.", True),                                    # the next chapter's third section
    ("100.1", "100.1c", True),                                  # a rule's subrules: a, b, c (l and o skipped)
    ("100.1b", "100.2a", False),                                # a subrule of a rule not yet begun
    ("100", "100.0", False),                                    # rules are numbered from 1
]


@pytest.mark.parametrize("prev, cand, expected", CASES, ids=[f"{p}->{c}" for p, c, _ in CASES])
def test_which_number_can_come_next(prev, cand, expected):
    assert plausible_next(prev, cand) is expected


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_a_byte_of_no_known_encoding_is_reported_on_its_line(newline):
    """0x81 is neither UTF-8 (a continuation byte alone) nor cp1252 (unassigned): the message names its line,
    whatever the line endings (LF, CRLF, or the old Mac CR alone)."""
    from ingest import SourceError
    from ingest.text import decode

    data = newline.join([b"First line", b"Second line", b"Third \x81 line", b"Fourth"])
    with pytest.raises(SourceError) as e:
        decode(data, "rules.txt")
    assert e.value.line == 3 and "0x81" in e.value.message
    with pytest.raises(SourceError) as cut:
        decode(newline.join([b"One", b"Two", "Drei: \u00fc".encode()[:-1]]), "rules.txt")
    assert cut.value.line == 3 and "truncated" in cut.value.message
