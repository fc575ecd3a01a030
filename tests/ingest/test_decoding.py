"""Reading a source document's bytes (ingest.text.decode, split_lines, clean, join_wrapped) on small hand-made inputs.

The encodings are those the official plain-text rules were published in (tests/corpus/crs/README.md: UTF-8 with
and without a byte-order mark, UTF-16 LE and BE with one, cp1252, ASCII; LF, CRLF and bare CR line ends).  What a
user relies on: the text comes out as written, without a byte-order mark, and a file that cannot be read is
refused naming the file, the line and what is wrong (never decoded as something else).
"""
import codecs

import pytest

from ingest import SourceError
from ingest.text import clean, decode, join_wrapped, split_lines

TEXT = "100.1. These Magic rules apply to any game.\n100.1a A two-player game—“basic” lands.\n"


def refused(data: bytes, encoding: str = "auto") -> SourceError:
    with pytest.raises(SourceError) as e:
        decode(data, "rules.txt", encoding)
    assert e.value.path == "rules.txt"
    return e.value


@pytest.mark.parametrize("bom,encoding", [
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
    (b"", "utf-8"), (b"", "utf-16-le"), (b"", "utf-16-be"),
])
def test_the_text_comes_out_as_written_without_its_byte_order_mark(bom, encoding):
    assert decode(bom + TEXT.encode(encoding), "rules.txt") == TEXT


def test_a_cp1252_file_that_ends_in_a_byte_utf8_never_starts_with_is_cp1252():
    assert decode(b"Preis: 5 \x80", "rules.txt") == "Preis: 5 €"      # (0x80 starts no UTF-8 character)
    e = refused(b"Preis: 5 \x80", "utf-8")
    assert e.message == "not valid utf-8 (byte 0x80: invalid start byte); unknown encoding?"


def test_a_utf16_text_keeps_its_first_letter():
    assert decode(codecs.BOM_UTF16_LE + "X marks the spot".encode("utf-16-le"), "rules.txt") == "X marks the spot"


def test_a_nul_byte_far_into_a_file_is_no_text():
    data = b"100.1. A rule.\n" * 300 + b"\x00\x00"                   # 4,500 bytes of text, then NUL bytes
    e = refused(data)
    assert e.line == 301 and e.message.startswith("not a text file")


def test_cp1252_is_read_when_the_file_is_no_utf8():
    # en-2003-10-01 is cp1252: typographic quotes and dashes are single bytes there
    text = "“Artifact — Equipment.” café\r\n"
    assert decode(text.encode("cp1252"), "rules.txt") == text


def test_an_encoding_named_in_the_manifest_is_used_as_named():
    assert decode("Zaubersprüche".encode("latin-1"), "rules.txt", "latin-1") == "Zaubersprüche"
    # a byte-order mark the named encoding keeps is still no part of the text
    assert decode(codecs.BOM_UTF16_LE + "Regel".encode("utf-16-le"), "rules.txt", "utf-16-le") == "Regel"
    e = refused(b"Regel\n\xff\n", "utf-8")
    assert e.line == 2 and e.message == "not valid utf-8 (byte 0xff: invalid start byte); unknown encoding?"


def test_an_unknown_encoding_named_in_the_manifest_is_refused_without_a_line():
    e = refused(b"100.1. A rule.\n", "klingon-8")
    assert e.line is None and e.message == "unknown encoding 'klingon-8' in the manifest"


def test_an_empty_file_is_refused():
    e = refused(b"")
    assert e.line == 1 and e.message == "file is empty (truncated download?)"


@pytest.mark.parametrize("data,line", [
    (codecs.BOM_UTF8 + "Zeile eins\n".encode() + "Zwei: ü".encode()[:-1], 2),
    ("Zeile eins\nZwei: ü".encode()[:-1], 2),
    ("One\rTwo\rDrei: ü".encode()[:-1], 3),                    # bare CR line ends (en-2007-07-13)
    (codecs.BOM_UTF16_LE + "One\nTwo".encode("utf-16-le")[:-1], 2),   # UTF-16 cut inside its last character
    (codecs.BOM_UTF16_LE + "One\nTwo\n".encode("utf-16-le")[:-1], 2),  # ... inside the line end of line 2
])
def test_a_file_cut_inside_a_multibyte_character_is_refused_as_truncated(data, line):
    e = refused(data)
    assert e.line == line and e.message.startswith("truncated file: it ends inside a multi-byte")
    encoding = "utf-16" if data.startswith(codecs.BOM_UTF16_LE) else "utf-8"
    assert e.message == f"truncated file: it ends inside a multi-byte {encoding} character"


def test_a_bad_byte_right_after_a_line_break_is_reported_on_its_own_line():
    # the byte-order mark counts: the bad byte at the start of line 2 is on line 2, not on line 1
    e = refused(codecs.BOM_UTF8 + b"ab\n\xffcd\n")
    assert e.line == 2 and e.message.startswith("not valid utf-8 (byte 0xff")
    # ... and the line ends after the bad byte do not: it is on line 1
    assert refused(codecs.BOM_UTF8 + b"ab\xff\n\ncd").line == 1


@pytest.mark.parametrize("newline", [b"\n", b"\r"])
def test_a_bad_byte_after_a_blank_first_line_is_on_line_two(newline):
    assert refused(newline + b"\x81").line == 2


def test_a_byte_no_encoding_knows_is_refused_naming_it():
    e = refused(b"100.1. Rule\r\n100.2. Bad \x81 byte\r\n")
    assert e.line == 2 and e.message.startswith("unknown encoding: byte 0x81 is neither UTF-8 nor cp1252")


@pytest.mark.parametrize("control", ["\x01", "\x08", "\x0b", "\x0e", "\x1f", "\x7f"])
def test_control_characters_in_cp1252_text_are_refused(control):
    e = refused(f"Caf\xe9\n\nLine{control}three\n".encode("cp1252"))
    assert e.line == 3 and e.message == f"unknown encoding: control character U+{ord(control):04X} in text"
    assert refused(f"\nCaf\xe9{control}".encode("cp1252")).line == 2          # (after a blank first line)


def test_form_feeds_and_tabs_in_cp1252_text_are_text():
    text = "Caf\xe9\tau lait\x0c\n"
    assert decode(text.encode("cp1252"), "rules.txt") == text


def test_binary_data_is_refused_at_its_first_nul_byte():
    e = refused(b"Line one\nLine two\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 3)
    assert e.line == 5 and e.message == "not a text file: NUL bytes that are not UTF-16 text (binary data?)"
    assert refused(b"\x00" * 64).message.startswith("not a text file")     # NUL both ways: neither UTF-16


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_allows_one_character_in_ten_beyond_latin(codec):
    # "—" (U+2014) has no NUL byte, "一" (U+4E00) has its NUL in the other half: 1 in 10 of each is still text
    for text in ("Rules — 10", "Rule 一 two"):
        assert decode(text.encode(codec), "rules.txt") == text
    # two in ten is not: such a file is refused as binary
    assert "not a text file" in refused("R—les — 1".encode(codec)).message
    assert decode("A".encode(codec), "rules.txt") == "A"                  # (a file of one character)
    e = refused("One\nTwo".encode(codec)[:-1])                           # cut inside its last character
    assert e.line == 2 and e.message == f"truncated file: it ends inside a multi-byte {codec} character"


def test_a_single_nul_byte_is_no_text():
    e = refused(b"\x00")
    assert e.line == 1


# --- lines and spacing ---------------------------------------------------------------------------------

def test_lines_split_on_crlf_cr_and_lf_only():
    assert split_lines("a\r\nb\rc\nd\n") == ["a", "b", "c", "d"]
    assert split_lines("a\x0cb\u2028c\u0085d") == ["a\x0cb\u2028c\u0085d"]   # a page break is no line end
    assert split_lines("a\n\n") == ["a", ""]      # only the final empty piece is dropped
    assert split_lines("") == []


@pytest.mark.parametrize("space", ["\u00a0", "\u2007", "\u202f", "\u2009", "\t"])
def test_odd_spaces_in_non_ascii_text_are_spaces(space):
    assert clean(f"Regel{space}601.3 — “basic”") == "Regel 601.3 — “basic”"


def test_clean_spacing():
    assert clean("\t100.1.\tA  rule  ") == "100.1. A rule"
    assert clean("e\u0301t\u00e9  \u00a0 x") == "été x"                  # NFC, and runs collapsed
    assert clean("no change") == "no change"


def test_hyphenated_words_broken_at_a_line_end_are_joined():
    assert join_wrapped(["Schadens-", "übertragung"]) == "Schadensübertragung"   # (an umlaut starts the line)
    assert join_wrapped(["Mana", "", "  ", "Symbol"]) == "Mana Symbol"          # blank pieces are no words
    assert join_wrapped(["Ersatz-", "oder Verhinderungseffekte"]) == "Ersatz- oder Verhinderungseffekte"
    assert join_wrapped(["Kampf-", "bzw. Schadensregeln"]) == "Kampf- bzw. Schadensregeln"
    assert join_wrapped(["Angriffs-", "sowie Blockregeln"]) == "Angriffs- sowie Blockregeln"
    assert join_wrapped(["pre-", "and postcombat"]) == "pre- and postcombat"
    assert join_wrapped(["Kampf-", "order"]) == "Kampforder"          # "or" is a word of its own only
    assert join_wrapped(["Nr. 3-", "4"]) == "Nr. 3- 4"                # no letter before the hyphen: no word
    assert join_wrapped([]) == ""
