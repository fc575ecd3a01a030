"""Lines of the official plain-text Comprehensive Rules: what a line is, numbers in sequence, wrapped text.

The plain-text editions from 1999 to today share a handful of line shapes: numbered
rules (``100.1.``, ``100.1a``), section and chapter headings (``100. General``,
``1. Game Concepts``), ``Example:`` paragraphs, decoration rules (``-----``), and
prose.  Some editions are hard-wrapped at 70-110 columns, so a line can also be
the continuation of the one above it, even when it begins with a number
("... see rule" / "409.1.").  This module answers the per-line questions; the
state machine in :mod:`ingest.cr_text_plain` decides with the context.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from . import numbers
from .text import clean

RULE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?\.?)(?:\s+(?P<text>.*))?$")
#: a number glued to its text: "901.4.All players", "608.2hSe"
GLUED = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?\.?)(?P<text>[A-Z\"'“‘(\[{].*)$")
SECTION = re.compile(r"^(?P<num>\d{3}\.)\s+(?P<title>\S.*)$")
CHAPTER = re.compile(r"^(?P<num>\d\.)\s+(?P<title>\S.*)$")
#: the rest of a section line that is really a rule with a space inside its number: "606. 8b Players win"
SPLIT_TAIL = re.compile(r"^(?P<tail>\d+[a-z]?)\s+(?P<text>\S.*)$")
MALFORMED = re.compile(r"^\d[\d.]*[a-z]*\d*[.a-z]\S*\s")
EXAMPLE = re.compile(r"^(?P<label>Examples?|EXAMPLES?)\s*:\s*(?P<text>.*)$")
#: a numbered sense of a glossary definition: "1. To counter a spell ..."
SENSE = re.compile(r"^(?P<n>\d)\.\s+\S")
#: a line drawn with one repeated character: "-----", "=====", "*****"
DECORATION = re.compile(r"^([-=_*~#+])\1{2,}$")
_DECORATION_CHARS = "-=_*~#+"
CONTENTS_TITLES = ("contents", "table of contents", "inhalt", "inhaltsverzeichnis", "indice")
#: sections of the back of the book that change how lines are read, by the first word of their heading
SECTION_WORDS = (("glossary", "glossary"), ("glossar", "glossary"), ("glossario", "glossary"),
                 ("index", "index"), ("credits", "credits"), ("danksagungen", "credits"),
                 ("riconoscimenti", "credits"))
QUOTES = "\"'`´‘’‚‛“”„‟«»‹›"
_SENTENCE_END = ".!?:;"
_CLOSERS = QUOTES + ")]}"
_DASHES = "-‐‑–—"
#: invisible characters that may stick to a line's ends (a byte-order mark inside the file, zero widths)
_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060"


@dataclass(slots=True)
class Line:
    """One source line: ``text`` is cleaned, ``indent`` counts leading blanks (tabs as 8)."""

    no: int
    text: str
    indent: int
    #: the raw line ends in whitespace: a hard wrap at a space (not after a hyphen or dash)
    soft: bool
    #: blank, or a decoration line: both separate paragraphs
    sep: bool
    decoration: bool


def scan(lines: list[str]) -> list[Line]:
    out: list[Line] = []
    append = out.append
    for no, raw in enumerate(lines, 1):
        append(Line(no, *_shape(raw)))
    return out


@lru_cache(maxsize=1 << 17)   # (per distinct raw line: an archive's 658,465 lines hold 22,904 distinct ones)
def _shape(raw: str) -> tuple[str, int, bool, bool, bool]:
    """The fields of a :class:`Line` after its number: text, indent, soft, sep, decoration."""
    if not raw:
        return "", 0, False, True, False
    text = clean(raw)
    if text and (text[0] in _INVISIBLE or text[-1] in _INVISIBLE):
        text = text.strip(_INVISIBLE) or text  # a line of invisible characters only is a stray line
    if raw[:1].isspace():
        expanded = raw.expandtabs(8) if "\t" in raw else raw
        indent = len(expanded) - len(expanded.lstrip())
    else:
        indent = 0
    decoration = bool(text) and text[0] in _DECORATION_CHARS and bool(DECORATION.match(text.replace(" ", "")))
    return text, indent, raw[-1].isspace(), not text or decoration, decoration


@lru_cache(maxsize=1 << 16)   # (per distinct line: the editions of an archive repeat theirs)
def is_stray(text: str) -> bool:
    """A line without a letter or digit that is no decoration: a stray character (or a few)."""
    return not text[:1].isalnum() and not any(c.isalnum() for c in text)


def ends_sentence(text: str) -> bool:
    """True if ``text`` ends a sentence (after closing quotes and brackets): the next line is no wrap of it."""
    text = text.rstrip().rstrip(_CLOSERS)
    return bool(text) and text[-1] in _SENTENCE_END


def term_like(text: str) -> bool:
    """Could this line be a glossary term ("For Mirrodin!" is one), not a paragraph of a definition?"""
    end = text.rstrip(_CLOSERS)
    return len(text) <= 90 and bool(end) and end[-1] not in ".;:"


def heading_like(text: str) -> bool:
    first = text.lstrip("_*" + QUOTES)[:1]  # "_Magic: The Gathering_ Comprehensive Rules"
    return len(text) <= 80 and (first.isupper() or first.isdigit()) and text[-1] not in ".,;:"


def join_wrapped(text: str, piece: str, soft: bool) -> str:
    """Append a wrapped line.  A line broken right after a hyphen or dash glued to its word (and no space
    before the break: ``soft`` is False) joins without a space: "Snow-" + "Covered", "once—" + "the"."""
    if not text:
        return piece
    word = text.rstrip(_DASHES)
    if not soft and word != text and word and not word[-1].isspace():
        return text + piece
    return text + " " + piece


@lru_cache(maxsize=1 << 16)   # (per distinct line: the editions of an archive repeat theirs)
def title_key(text: str) -> str:
    """Heading text for comparison: case, quotes, markup (``_Magic_``, ``(R)``) and punctuation folded."""
    # (the marks before NFKC, which spells "™" as "TM": "Gathering™" is "Gathering(TM)", not "GatheringTM")
    text = re.sub(r"\((r|tm|c)\)|[®™©_]", " ", text, flags=re.IGNORECASE)
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.findall(r"\w+", text))   # (the words only: no quote or punctuation is a word character)


def section_kind(text: str) -> str | None:
    """``glossary``, ``index`` or ``credits`` when a heading names one of these sections ("Glossary",
    "Glossary of Terms")."""
    key = title_key(text)
    return next((kind for word, kind in SECTION_WORDS if key == word or key.startswith(word + " ")), None)


@lru_cache(maxsize=1 << 16)   # (per distinct line: the editions of an archive repeat theirs)
def number_of(text: str) -> tuple[str, str, str] | None:
    """``(kind, printed number, rest)`` of a numbered line: kind ``rule``, ``glued``, ``section`` or ``chapter``."""
    if not text[:1].isdecimal():  # what every pattern begins with (``\d``), checked cheaply
        return None
    m = RULE.match(text)
    if m:
        return "rule", m.group("num"), m.group("text") or ""
    m = GLUED.match(text)
    if m:
        return "glued", m.group("num"), m.group("text")
    m = SECTION.match(text) or CHAPTER.match(text)
    if m:
        return ("section" if len(m.group("num")) > 2 else "chapter"), m.group("num"), m.group("title")
    return None


def _letter(letter: str | None) -> int:
    return ord(letter) - ord("a") + 1 if letter else 0


def plausible_next(prev: str | None, cand: str) -> bool:
    """Can ``cand`` follow ``prev`` as the next numbered line of a rules text?

    Used to tell a rule from a hard-wrapped line that begins with a cross-reference:
    after 413.2d, "413.2e" or "413.3" or "414." are plausible, "103.4." or "409.1" are not.
    """
    c = numbers.split(cand)
    p = numbers.split(prev) if prev is not None else None
    if c is None:
        return False
    if prev is None or p is None:
        return True
    if numbers.sort_key(cand) <= numbers.sort_key(prev):
        return False
    head, rule, letter = p
    c_head, c_rule, c_letter = c
    chapter = numbers.chapter(prev)
    if c_head < 10:
        return c_head == chapter + 1
    if head < 10:  # after a chapter heading: its first sections
        return c_rule is None and c_head // 100 == head and c_head % 100 <= 2
    if c_rule is None:  # a section heading: the next one or two
        return c_head - head <= 2 or (c_head // 100 == chapter + 1 and c_head % 100 <= 2)
    if c_head != head:
        return False
    if c_letter is None:
        return 0 < c_rule - (rule or 0) <= 2
    if c_rule == rule:
        return 0 < _letter(c_letter) - _letter(letter) <= 3
    return False


def is_hard_wrapped(lines: list[Line]) -> bool:
    """Is the document hard-wrapped?  Counts rule lines that run on into an unnumbered line of the same
    indent in mid-sentence; in an unwrapped edition a rule is one line (its extra paragraphs indented)."""
    rules = wrapped = 0
    for ln, nxt in zip(lines, lines[1:], strict=False):
        info = number_of(ln.text)   # (cached per text: a rule line is one RULE matches)
        if info is None or info[0] != "rule":
            continue
        rules += 1
        if nxt.sep or nxt.indent > ln.indent + 2 or number_of(nxt.text) or EXAMPLE.match(nxt.text):
            continue
        if not ends_sentence(ln.text):
            wrapped += 1
    return wrapped > 0 and wrapped * 5 >= rules
