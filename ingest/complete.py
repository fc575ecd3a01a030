"""What a complete document of a format has (shared by the parsers' registrations)."""
from __future__ import annotations

from . import numbers
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


#: at most this share of a document's numbered rules may come before the rule printed above them ("mostly in
#: order": the official editions have at most one such rule, a shuffled or spliced text half of them) ...
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


def _out_of_order(parsed: Parsed) -> str | None:
    """Rule numbers that are not mostly in order (a shuffled text, or pieces of several glued together)."""
    rules = [r for r in parsed.records if r.kind == "rule" and r.number and numbers.is_number(r.number)]
    keys = [numbers.sort_key(numbers.normalize(r.number)) for r in rules]
    back = [rules[i] for i in range(1, len(keys)) if keys[i] < keys[i - 1]]
    if len(back) > max(OUT_OF_ORDER_ALLOWED, OUT_OF_ORDER_SHARE * len(rules)):
        return (f"rule numbers out of order: {len(back)} of {len(rules)} rules come before the rule printed above "
                f"them (the first at line {back[0].first_line}): a shuffled or spliced text?")
    return None


def whole_rules_text(parsed: Parsed, lines: list[str]) -> str | None:
    """A plain-text Comprehensive Rules edition is whole when it has its contents, rules in every chapter the
    contents lists, and rule numbers mostly in order (the parser itself refuses a text that ends before an entry
    the contents promises)."""
    if not any(r.kind == "toc" for r in parsed.records):
        return ("no table of contents: a Comprehensive Rules text lists its chapters and sections after its "
                "introduction (\"Contents\")")
    return _chapters_without_rules(parsed) or _out_of_order(parsed)


def whole_1999_booklet(parsed: Parsed, lines: list[str]) -> str | None:
    """The 1999 booklet is whole with rules in every chapter of its contents, its glossary and its index, and the
    closing credits after the index (a copy cut inside the index lacks them)."""
    for kind, name in (("glossary", "glossary (Glossar)"), ("index", "index")):
        if not any(r.kind == kind for r in parsed.records):
            return f"no {name}: the 1999 booklet ends with its glossary and index"
    return (_chapters_without_rules(parsed) or _out_of_order(parsed)
            or (ends_with_footer(parsed, lines) and "the text ends without the credits after the index: cut short?"))
