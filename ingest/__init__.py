"""Parsers for the source formats of the rules texts, and their shared normalisers.

The one entry point is :func:`parse_document`: bytes on disk in, checked
records out.  Parsers register themselves in :mod:`ingest.registry`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from . import numbers
from .complete import ends_with_footer, last_line
from .model import Parsed, ParseWarning, Record, SourceError, Span
from .registry import PARSERS, UnknownParser, get, parser
from .text import decode, split_lines

__all__ = ["parse_document", "parse_lines", "read_lines", "get_parser", "incomplete", "ends_with_footer", "last_line",
           "PARSERS", "Parsed", "Record", "Span", "SourceError", "UnknownParser", "parser"]


def parse_document(path: str | Path, parser_name: str, lang: str, encoding: str = "auto") -> Parsed:
    """Read, decode and parse one source document; every non-blank line ends up in a record."""
    return parse_lines(read_lines(path, encoding), str(path), parser_name, lang)


#: the largest source file read (bytes): ten times the largest edition (1.7 MB, UTF-16)
MAX_FILE_BYTES = 16_000_000
#: the longest line read (characters): no rule, example or paragraph of any edition has 4,000
MAX_LINE_CHARS = 20_000


def read_lines(path: str | Path, encoding: str = "auto", shown: str | None = None) -> list[str]:
    """Decoded lines of a source file (CRLF, CR or LF); errors name ``shown`` (default: the path).

    A file larger than :data:`MAX_FILE_BYTES` or with a line longer than :data:`MAX_LINE_CHARS` is no rules
    document (a whole KB dumped on one line, a binary): refused before it is parsed, with its line."""
    shown = shown or str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            with open(path, "rb") as fh:
                head = fh.read(MAX_FILE_BYTES + 1)
            raise SourceError(shown, head.count(b"\n") + 1, f"file of {size:,} bytes, far larger than any rules "
                                                            f"document (at most {MAX_FILE_BYTES:,} bytes are read)")
        data = Path(path).read_bytes()
    except OSError as e:
        raise SourceError(shown, None, f"cannot read: {e.strerror}") from None
    lines = split_lines(decode(data, shown, encoding))
    for no, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise SourceError(shown, no, f"line of {len(line):,} characters, longer than any rule or paragraph "
                                         f"(at most {MAX_LINE_CHARS:,})")
    return lines


def get_parser(name: str):
    """The registered parser ``name``; :class:`UnknownParser` (listing the known ones) otherwise."""
    return get(name)


def parse_lines(lines: list[str], path: str, parser_name: str, lang: str) -> Parsed:
    """Parse decoded lines; a parser that fails on unexpected input is reported as a SourceError."""
    spec = get(parser_name)
    try:
        parsed = spec.parse(lines, path, lang)
    except SourceError:
        raise
    except Exception as e:  # a parser bug must not surface as a traceback or as "unknown parser"
        raise SourceError(path, None, f"parser {parser_name!r} failed ({type(e).__name__}: {e}); "
                                      "this is a bug in the parser, please report it with this file") from e
    _cover_leftovers(parsed, lines)
    parsed.warnings.extend(check_sequence(parsed.records, lang))
    parsed.warnings.sort(key=lambda w: w.line)
    return parsed


def incomplete(parsed: Parsed, lines: list[str], parser_name: str) -> str | None:
    """What a document lacks to be a complete document of its format, or None.

    Every format yields some records of its kind (rules; an article's steps); a web page ends
    with its site's footer after the content, so a truncated copy of a page shows.  ``kb add`` and
    ``kb build`` refuse an incomplete document unless it was added with ``--allow-partial``.
    """
    spec = get(parser_name)
    if not any(r.kind in spec.requires for r in parsed.records):
        return (f"no {' or '.join(spec.requires)} found: not a document of the {parser_name!r} format "
                f"({spec.description})")
    return spec.complete(parsed, lines) if spec.complete is not None else None


def _cover_leftovers(parsed: Parsed, lines: list[str]) -> None:
    """Safety net: a non-blank line no record covers becomes an ``unparsed`` record.

    Two records claiming the same characters is a parser bug and raises.
    """
    spans = [s for rec in parsed.records for s in rec.spans]
    whole = {s.line for s in spans if s.start == 0 and s.end is None}
    claims: dict[int, list[Span]] = {}
    if len(whole) < len(spans):  # some line has several spans or a part-line one: those are checked span by span
        for s in spans:
            claims.setdefault(s.line, []).append(s)
        claims = {no: got for no, got in claims.items() if len(got) > 1 or got[0] != Span(no)}
        whole.difference_update(claims)
    for no, text in enumerate(lines, 1):
        if no in whole or (no not in claims and not text.strip()):
            continue
        for a, b in _gaps(text, claims.get(no, []), no):
            parsed.records.append(Record(
                "unparsed", [Span(no, a, None if b == len(text) else b)], text=text[a:b].strip(),
                meta={"reason": "no rule of the format explains this line"},
            ))


def _gaps(text: str, spans: list[Span], no: int) -> list[tuple[int, int]]:
    """The column ranges of line ``no`` that hold text but none of ``spans``."""
    ranges = sorted((s.start, len(text) if s.end is None else s.end) for s in spans)
    for (_, b1), (a2, _) in zip(ranges, ranges[1:]):
        if a2 < b1:
            raise AssertionError(f"parser bug: line {no} is claimed by two records")
    pos, gaps = 0, []
    for a, b in ranges:
        if text[pos:a].strip():
            gaps.append((pos, a))
        pos = max(pos, b)
    if text[pos:].strip():
        gaps.append((pos, len(text)))
    return gaps


def check_sequence(records: list[Record], lang: str) -> list[ParseWarning]:
    """Duplicate rule numbers and numbers that go backwards, per language of the document."""
    out: list[ParseWarning] = []
    seen: dict[tuple[str | None, str], int] = {}
    last: dict[str | None, tuple[tuple, str]] = {}
    for rec in records:
        if rec.kind != "rule" or not rec.number:
            continue
        number = _sequence_key(rec.number)
        if number is None:
            continue
        key_lang = rec.lang or lang
        norm, key = number
        if (key_lang, norm) in seen:
            out.append(ParseWarning(rec.first_line, "duplicate-number",
                                    f"rule number {norm} appears again (first at line {seen[key_lang, norm]})", norm))
        else:
            seen[key_lang, norm] = rec.first_line
        prev = last.get(key_lang)
        if prev and key < prev[0]:
            out.append(ParseWarning(rec.first_line, "number-backwards",
                                    f"rule number {norm} goes backwards after {prev[1]}", norm))
        if not prev or key > prev[0]:
            last[key_lang] = (key, norm)
    return out


@lru_cache(maxsize=None)
def _sequence_key(printed: str) -> tuple[str, tuple] | None:
    """The normalised number and its document order, or None for no rule number (editions repeat numbers)."""
    if not numbers.is_number(printed):
        return None
    norm = numbers.normalize(printed)
    return norm, numbers.sort_key(norm)


# Importing the parser modules registers their parsers (last: they import the names above).
from . import article, cr_text, it_wiki, morph_wiki, pdf1999  # noqa: E402, F401
