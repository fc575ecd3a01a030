"""Find cross-references to rules in German, Italian and English text.

Recognised forms (non-breaking spaces included):

* keyword-led: "siehe Regel 601.2f", "Regeln 601.2a–e", "Regel 730", "Regeln 306-311",
  "Regel 118.8 und Regel 118.9", "vedi regola 700.2", "regole 601.2a-d", "see rule 115",
  "Kapitel 5", "section 5" (the English rules' word for a chapter);
* bare dotted numbers and ranges inside prose: "die in 601.2a–h beschriebenen Schritte";
* reference lists of index entries ("214.8c–i, 412.2, 420"), with ``bare=True``.

Resolution against the rules of an edition happens in the build (``kb.build``);
this module only finds what the text says.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from . import numbers

_ANY = r"\d{3}(?:\.\d+[a-z]?)?"
_END = r"(?:\d{3}(?:\.\d+[a-z]?)?|\d+[a-z]?|[a-z])(?![A-Za-zÄÖÜäöüßÀ-ÿ0-9])"
_DASH = r"\s?[–—-]\s?"
_ITEM_ANY = rf"{_ANY}(?:{_DASH}{_END})?"
#: the first digit of a number that follows no digit or dot; the look-behind comes after the digit, as a search
#: skips to the candidates quickly only for a pattern that starts with a character class
_FREE_DIGIT = r"\d(?<![\d.]\d)"
_JOIN = r"\s*(?:,|und|oder|bzw\.|sowie|bis|e|o|and|or|through)\s*"
_KEYWORD = r"(?:Regeln|Regel|regole|regola|rules|rule|Rules|Rule|Kapitel|capitolo|chapter|Abschnitt)"
_CHAPTER_WORDS = ("Kapitel", "capitolo", "chapter", "section")

KEYWORD_RE = re.compile(rf"\b(?P<kw>{_KEYWORD})\s+(?P<items>{_ITEM_ANY}(?:{_JOIN}(?:{_KEYWORD}\s+)?{_ITEM_ANY})*)")
CHAPTER_RE = re.compile(rf"\b(?:{'|'.join(_CHAPTER_WORDS)})\s+(\d)\b(?![.\d])")
ITEM_RE = re.compile(rf"(?P<start>{_ANY})(?:{_DASH}(?P<end>{_END}))?")
DOTTED_RE = re.compile(rf"{_FREE_DIGIT}\d\d\.\d+[a-z]?(?:{_DASH}{_END})?(?!\d)")
BARE_RE = re.compile(rf"{_FREE_DIGIT}\d\d(?:\.\d+[a-z]?)?(?:{_DASH}{_END})?(?!\d)")
#: every reference has a digit (``\d``: any decimal digit): a text without one is not searched further
DIGIT_RE = re.compile(r"\d")


@dataclass(frozen=True)
class Ref:
    raw: str        # the matched text ("Regeln 601.2a–e", "601.2f")
    start: int      # offset in the searched text
    end: int
    target: str     # first (or only) number, normalised
    range_end: str | None = None  # abbreviated or full end of a range, as printed ("e", "601.2h", "311")

    @property
    def is_range(self) -> bool:
        return self.range_end is not None


def _items(text: str, offset: int, raw_prefix_end: int | None = None) -> list[Ref]:
    out = []
    for m in ITEM_RE.finditer(text):
        start = numbers.normalize(m.group("start"))
        if not numbers.is_number(start):
            continue
        end = m.group("end")
        out.append(Ref(m.group(), offset + m.start(), offset + m.end(), start, end))
    return out


@lru_cache(maxsize=1 << 16)
def find_refs(text: str, bare: bool = False) -> tuple[Ref, ...]:
    """All rule references in ``text``, in order.

    ``bare=True`` treats every number as a reference (index entries, reference
    lists); otherwise three-digit numbers count only after a keyword ("Regel 730").
    Cached: consecutive editions repeat most texts word for word.
    """
    if not _has_digit(text):
        return ()
    if bare:
        return tuple(_items_in(BARE_RE, text))
    refs: list[Ref] = []
    taken: list[tuple[int, int]] = []
    for m in KEYWORD_RE.finditer(text):
        kw = m.group("kw").lower()
        if kw in ("kapitel", "capitolo", "chapter"):
            continue
        items_start = m.start("items")
        for r in _items(m.group("items"), items_start):
            refs.append(r)
        taken.append((m.start(), m.end()))
    chapters = CHAPTER_RE.finditer(text) if any(w in text for w in _CHAPTER_WORDS) else ()
    for m in chapters:
        refs.append(Ref(m.group(), m.start(), m.end(), m.group(1)))
        taken.append((m.start(), m.end()))
    for m in DOTTED_RE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        refs.extend(_items(m.group(), m.start()))
    return tuple(sorted(refs, key=lambda r: r.start))


def _has_digit(text: str) -> bool:
    """Does ``text`` hold a decimal digit? (looking for each ASCII digit is much faster than a search)"""
    return any(d in text for d in "0123456789") or (not text.isascii() and DIGIT_RE.search(text) is not None)


def _items_in(pattern: re.Pattern, text: str) -> list[Ref]:
    out = []
    for m in pattern.finditer(text):
        out.extend(_items(m.group(), m.start()))
    return out
