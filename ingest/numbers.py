"""Rule numbers as data: parse, normalise, order, find parents and expand ranges.

Number scheme of the Comprehensive Rules: ``6`` is a chapter, ``601`` a section
(rule family), ``601.2`` a rule and ``601.2a`` a subrule.  Subrule letters skip
``l`` and ``o`` in modern editions, but older documents may use them, so ranges
only ever expand to numbers that exist in the edition.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

NUMBER_RE = re.compile(r"^(\d{1,3})(?:\.(\d+)([a-z])?)?\.?$")


@lru_cache(maxsize=None)
def split(number: str) -> tuple[int, int | None, str | None] | None:
    """``"601.2f"`` -> ``(601, 2, "f")``; ``"6"`` -> ``(6, None, None)``; invalid -> None."""
    m = NUMBER_RE.match(normalize(number))
    if not m:
        return None
    head, rule, letter = m.groups()
    return int(head), (int(rule) if rule is not None else None), letter


def parts(number: str) -> tuple[int, int | None, str | None]:
    """:func:`split` for a number known to be valid; ``ValueError`` otherwise."""
    got = split(number)
    if got is None:
        raise ValueError(f"not a rule number: {number!r}")
    return got


def within(number: str, prefix: str) -> bool:
    """Is ``number`` inside the part of the rules ``prefix`` names?

    ``"601.2c"`` is within ``"6"``, ``"601"``, ``"601.2"`` and ``"601.2c"``; ``"702.34a"`` within
    ``"702.34"``; ``"61"`` is no prefix of ``"610"``: whole number parts only.
    """
    if not prefix:
        return True
    if number == prefix:
        return True
    if len(prefix) == 1 and prefix.isdigit():
        return number[:1] == prefix and len(number.split(".")[0]) == 3
    if number.startswith(prefix):
        rest = number[len(prefix):]
        return rest[0] == "." or ("." in prefix and rest[0].isalpha())
    return False


def covered(number: str, covers) -> bool:
    """Is ``number`` inside a coverage (number prefixes; empty: the whole rules)?"""
    return not covers or any(within(number, p) for p in covers)


@lru_cache(maxsize=1 << 16)   # (editions repeat their numbers)
def normalize(printed: str) -> str:
    """Strip what printing adds around a number: spaces and trailing dots (``"601.2."`` -> ``"601.2"``); subrule
    letters are lower case (``"601.2F"`` -> ``"601.2f"``), so a number typed by a user matches as printed."""
    return printed.strip().rstrip(".").strip().lower()


def is_number(text: str) -> bool:
    return split(text) is not None


@lru_cache(maxsize=None)
def level(number: str) -> str:
    head, rule, letter = parts(number)
    if rule is None:
        return "chapter" if head < 10 else "section"
    return "subrule" if letter else "rule"


def parent(number: str) -> str | None:
    head, rule, letter = parts(number)
    if letter:
        return f"{head}.{rule}"
    if rule is not None:
        return str(head)
    if head >= 100:
        return str(head // 100)
    return None


def chapter(number: str) -> int:
    head = parts(number)[0]
    return head if head < 10 else head // 100


@lru_cache(maxsize=None)
def sort_key(number: str) -> tuple:
    """Document order of rule numbers: chapter, section, rule, letter."""
    head, rule, letter = parts(number)
    if head < 10:
        return (head, -1, -1, "")
    return (head // 100, head, -1 if rule is None else rule, letter or "")


def full_end(start: str, end: str) -> str | None:
    """Complete the abbreviated end of a range relative to its start.

    ``("601.2a", "e")`` -> ``"601.2e"``; ``("404.1", "2")`` -> ``"404.2"``;
    ``("306", "311")`` -> ``"311"``; ``("601.2a", "601.2e")`` -> ``"601.2e"``.
    """
    end = normalize(end)
    if split(end) and ("." in end or len(end) == 3):
        return end
    head, rule, letter = parts(start)
    if re.fullmatch(r"[a-z]", end) and letter:
        return f"{head}.{rule}{end}"
    if re.fullmatch(r"\d+", end) and rule is not None and not letter:
        return f"{head}.{end}"
    if re.fullmatch(r"\d+[a-z]", end) and rule is not None:
        return f"{head}.{end}"
    return None


def expand_range(start: str, end: str, existing: list[str]) -> list[str]:
    """Every number of ``existing`` between ``start`` and ``end`` (inclusive) at the start's level.

    ``existing`` are normalised numbers of one edition.  Numbers that do not exist
    are never invented: a range in a document is only as good as the document.
    """
    return expand_in(start, end, by_level(tuple(existing)))


#: per level, the numbers of an edition sorted by their keys (with the keys), and each number's first position in
#: document order (:func:`by_level`)
Levels = dict[str, tuple[list[tuple], list[str], dict[str, int]]]


def expand_in(start: str, end: str, levels: Levels) -> list[str]:
    """:func:`expand_range` over the numbers ``levels`` indexes (:func:`by_level`: built once for the many ranges
    of one edition)."""
    if split(start) is None:
        return []
    last = full_end(start, end)
    if last is None or split(last) is None:
        return []
    lo, hi = sort_key(start), sort_key(last)
    if hi < lo:
        lo, hi = hi, lo
    keys, found, position = levels.get(level(start), ((), (), {}))
    wanted = found[bisect_left(keys, lo):bisect_right(keys, hi)]
    return sorted(wanted, key=position.__getitem__)


@lru_cache(maxsize=16)
def by_level(existing: tuple[str, ...]) -> Levels:
    """Per level, the numbers ``existing`` (normalised, in document order) sorted by their keys (with the keys),
    and each number's first position in document order; cached, as the editions of an archive often share their
    numbering (the result is shared: read it only)."""
    groups: dict[str, list[tuple[tuple, int, str]]] = {}
    position: dict[str, int] = {}
    for i, n in enumerate(existing):
        position.setdefault(n, i)
        groups.setdefault(level(n), []).append((sort_key(n), i, n))
    out = {}
    for lvl, members in groups.items():
        members.sort()
        out[lvl] = ([m[0] for m in members], [m[2] for m in members], position)
    return out
