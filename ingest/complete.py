"""What a complete document of a format has (shared by the parsers' registrations)."""
from __future__ import annotations

import bisect

from . import numbers
from .cr_text_lines import number_of, section_kind
from .model import Parsed


def ends_with_footer(parsed: Parsed, lines: list[str]) -> str | None:
    """A web page is complete when the site's footer (boilerplate) follows its last content record."""
    content = [r.last_line for r in parsed.records if r.kind not in ("boilerplate", "unparsed")]
    footer = [r.first_line for r in parsed.records if r.kind == "boilerplate"]
    if content and not any(line > max(content) for line in footer):
        return "the page ends without the site's footer after its content: a truncated copy of the page?"
    return None


def last_line(lines: list[str]) -> int:
    """The number of the last non-blank line (where a truncated document ends)."""
    return next((n for n in range(len(lines), 0, -1) if lines[n - 1].strip()), 0)


#: at most this share of a document's numbered rules may be out of place ("mostly in order": the official editions
#: have at most one such rule; a shuffled text, or two texts glued together, half of them or more) ...
OUT_OF_ORDER_SHARE = 0.02
#: ... and never fewer than this many
OUT_OF_ORDER_ALLOWED = 5


def _chapters_without_rules(parsed: Parsed) -> str | None:
    """A chapter the contents lists (its entry numbered "1" … "9") with no rule ("100.1") in the body."""
    sections = {numbers.normalize(r.number).split(".")[0] for r in parsed.records
                if r.kind == "rule" and r.number and numbers.is_number(r.number) and "." in numbers.normalize(r.number)}
    for r in parsed.records:
        chapter = (r.meta or {}).get("number") if r.kind == "toc" else None
        if chapter and len(chapter) == 1 and chapter.isdigit() and not any(s[:1] == chapter for s in sections):
            return (f"the contents lists chapter {chapter} {(r.title or r.text or '')!r} (line {r.first_line}) "
                    "but the body has no rule of it")
    return None


class _Desc:
    """A key with its order turned round (for :func:`in_order`, which reads the keys from the end)."""
    __slots__ = ("key",)

    def __init__(self, key) -> None:
        self.key = key

    def __lt__(self, other: _Desc) -> bool:
        return other.key < self.key


def in_order(keys: list) -> list[bool]:
    """Which of ``keys`` form a longest strictly increasing subsequence (patience sorting, O(n log n)), the earliest
    such where there is a choice: the rules that stand in order; every other rule is out of place.  One misprinted
    number costs one rule, a shuffled text most of them, a text glued after a copy of itself its second half."""
    rev = [_Desc(k) for k in reversed(keys)]    # read from the end, so that ties keep the earliest rules
    tails: list[_Desc] = []   # tails[k]: the last key of the best run of length k + 1 found so far ...
    tail_at: list[int] = []   # ... and its index
    before = [-1] * len(rev)
    for i, key in enumerate(rev):
        k = bisect.bisect_left(tails, key)
        if k == len(tails):
            tails.append(key)
            tail_at.append(i)
        else:
            tails[k], tail_at[k] = key, i
        before[i] = tail_at[k - 1] if k else -1
    keep = [False] * len(rev)
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        keep[i], i = True, before[i]
    return keep[::-1]


def _out_of_order(parsed: Parsed) -> str | None:
    """Rule numbers that are not mostly in order (a shuffled text, or pieces of several glued together)."""
    rules = [r for r in parsed.records if r.kind == "rule" and r.number and numbers.is_number(r.number)]
    keep = in_order([numbers.sort_key(numbers.normalize(r.number)) for r in rules])
    out = [r for r, k in zip(rules, keep) if not k]
    if len(out) > max(OUT_OF_ORDER_ALLOWED, OUT_OF_ORDER_SHARE * len(rules)):
        return (f"rule numbers out of order: {len(out)} of {len(rules)} rules are out of place (repeated, or before "
                f"a rule printed above them; the first at line {out[0].first_line}): a shuffled or spliced text?")
    return None


def _promised_sections(parsed: Parsed) -> str | None:
    """A section the contents promises by a kind the parser reads (Glossary) of which the body has no entry."""
    kinds = {r.kind for r in parsed.records}
    for r in parsed.records:
        kind = section_kind(r.title or r.text or "") if r.kind == "toc" else None
        if kind in PROMISED and kind not in kinds:
            return (f"the contents lists {(r.title or r.text or '')!r} (line {r.first_line}) but the body has no "
                    f"{kind} entry")
    return None


def _rules_in_back_matter(parsed: Parsed) -> str | None:
    """Numbered rules read as the credits or back matter that close a text: the text goes on after its end (two
    texts glued together?)."""
    stray = [r for r in parsed.records if r.kind == "boilerplate" and (number_of(r.text or "") or ("",))[0] == "rule"]
    if len(stray) > OUT_OF_ORDER_ALLOWED:
        return (f"{len(stray)} numbered rules after the end of the rules text, in its credits or back matter (the "
                f"first at line {stray[0].first_line}): two texts glued together?")
    return None


#: sections the plain-text parser reads into records of their own kind
PROMISED = ("glossary",)


def whole_rules_text(parsed: Parsed, lines: list[str]) -> str | None:
    """A plain-text Comprehensive Rules edition is whole when it has its contents, rules in every chapter the
    contents lists, the glossary it lists, and rule numbers mostly in order (the parser itself refuses a text that
    ends before an entry the contents promises)."""
    if not any(r.kind == "toc" for r in parsed.records):
        return ("no table of contents: a Comprehensive Rules text lists its chapters and sections after its "
                "introduction (\"Contents\")")
    return (_chapters_without_rules(parsed) or _promised_sections(parsed) or _out_of_order(parsed)
            or _rules_in_back_matter(parsed))


def whole_1999_booklet(parsed: Parsed, lines: list[str]) -> str | None:
    """The 1999 booklet is whole with rules in every chapter of its contents, its glossary and its index, and the
    closing credits after the index (a copy cut inside the index lacks them)."""
    for kind, name in (("glossary", "glossary (Glossar)"), ("index", "index")):
        if not any(r.kind == kind for r in parsed.records):
            return f"no {name}: the 1999 booklet ends with its glossary and index"
    return (_chapters_without_rules(parsed) or _out_of_order(parsed)
            or (ends_with_footer(parsed, lines) and "the text ends without the credits after the index: cut short?"))
