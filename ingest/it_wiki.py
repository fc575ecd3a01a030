"""Italian Comprehensive Rules chapter 6 copied from a wiki ("it-wiki").

The page is a nested bullet list; the indent of the bullet gives the level::

    Magic: the Gathering Wiki                  <- site title before the first section (boilerplate)
    Advertisement                              <- advertising, anywhere (boilerplate)
    601 - Lanciare Magie[]                     <- section: rule "601", title; "[]" is the wiki edit link
      • 601.1 Precedentemente, ...             <- rule, indent 2
        • 601.1a Alcuni effetti ...            <- subrule, indent 4
          • Esempio: Se una magia ...          <- example, one level below the rule it hangs off
          • 1) definisce i colori ...          <- unnumbered list item: appended to the open record
    Se un evento specifico ...                 <- line without bullet: continuation of the open record

The copy is a patchwork of revisions and has defects.  They are kept as printed
and reported as warnings (duplicate and backwards numbers are reported centrally
by :func:`ingest.check_sequence`):

* ``trailing-dot``: "601.2." (the number is kept with its dot);
* ``missing-space``: "608.2hSe un effetto" -> number "608.2h", text "Se un effetto";
* ``rule-indent``: a rule or subrule at the indent of another level;
* ``example-indent``: an example whose indent does not match the level of its rule
  (it still hangs off the preceding rule);
* ``section-mismatch``: a number outside the section it is printed in ("613.13c" under 614);
* ``continuation-line``: a line without bullet, appended to the preceding record.

English card names in parentheses after the Italian name ("Raccolto dell'Altare
(Altar's Reap)") are collected in ``meta["card_names"]`` of the rule or example.
"""
from __future__ import annotations

import re

from . import numbers
from .complete import ends_with_footer
from .model import Parsed, ParseWarning, Record, Span
from .registry import parser
from .text import clean

SECTION_RE = re.compile(r"^(?P<num>\d{3})\s+-\s+(?P<title>.+?)\s*(?:\[\])?$")
BULLET_RE = re.compile(r"^(?P<indent> *)•\s*(?P<body>.*)$")
NUMBER_RE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?\.?)(?P<sep>\s*)(?P<text>.*)$")
EXAMPLE_RE = re.compile(r"^(?P<label>Esempio|Esempi)\s*:\s*(?P<text>.*)$")
ADVERT_RE = re.compile(r"^Advertisement$")

#: expected bullet indent per number level; an example sits one step deeper than its rule
INDENT = {"section": 0, "rule": 2, "subrule": 4}
STEP = 2

PAREN_RE = re.compile(r"\(([^()]+)\)")
#: lower-case words allowed inside an English card name
NAME_SMALL_WORDS = frozenset("a an and at by for from in into of on the to with".split())


def card_names(text: str) -> list[str]:
    """English card names given in parentheses, in order of appearance, without repeats.

    A parenthesis holds a card name when all its words are capitalised except
    English function words ("Honor of the Pure", "Svogthos, the Restless Tomb");
    single letters ("(T)"), numbers and Italian phrases are not names.
    """
    found: list[str] = []
    for m in PAREN_RE.finditer(text):
        inner = m.group(1).strip()
        if _is_english_name(inner) and inner not in found:
            found.append(inner)
    return found


def _is_english_name(inner: str) -> bool:
    words = [w for w in re.split(r"[\s,]+", inner) if w]
    if not words or re.search(r"\d", inner) or not any(len(w) >= 3 for w in words):
        return False
    if words[0] in NAME_SMALL_WORDS:
        return False
    return all(w in NAME_SMALL_WORDS or w[0].isupper() for w in words)


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.records: list[Record] = []
        self.warnings: list[ParseWarning] = []
        self.rule: int | None = None       # index of the last rule record: owner of examples
        self.open: Record | None = None    # record that list items and continuation lines extend
        self.section: int | None = None    # number of the current section heading
        self.started = False               # a section heading has been seen

    def run(self) -> Parsed:
        for no, raw in enumerate(self.lines, 1):
            if raw.strip():
                self.line(no, raw)
        for rec in self.records:
            if rec.kind in ("rule", "example"):
                names = card_names(rec.text)
                if names:
                    rec.meta["card_names"] = names
        return Parsed(self.records, self.warnings)

    def add(self, rec: Record) -> int:
        self.records.append(rec)
        return len(self.records) - 1

    def warn(self, no: int, code: str, message: str, number: str | None = None) -> None:
        self.warnings.append(ParseWarning(no, code, message, number))

    # -- line kinds -----------------------------------------------------------
    def line(self, no: int, raw: str) -> None:
        text = clean(raw)
        if ADVERT_RE.match(text):
            self.add(Record("boilerplate", [Span(no)], text=text, meta={"what": "advertisement"}))
            return
        bullet = BULLET_RE.match(raw)
        if bullet:
            self.bullet(no, len(bullet.group("indent")), bullet.group("body"))
            return
        section = SECTION_RE.match(text)
        if section:
            self.section_heading(no, section)
        elif not self.started:
            self.add(Record("boilerplate", [Span(no)], text=text, meta={"what": "site-title"}))
        elif self.open is not None:
            self.extend(no, text)
            self.warn(no, "continuation-line",
                      f"line without bullet continues {self.open.number or self.open.label}", self.open.number)
        # otherwise: text between a heading and its first rule; left to the unparsed safety net

    def section_heading(self, no: int, m: re.Match) -> None:
        self.started = True
        self.section = int(m.group("num"))
        self.rule = self.add(Record("rule", [Span(no)], number=m.group("num"), title=m.group("title"), text=""))
        self.open = None

    def bullet(self, no: int, indent: int, body: str) -> None:
        number = NUMBER_RE.match(body)
        if number:
            self.numbered(no, indent, number)
            return
        example = EXAMPLE_RE.match(body)
        if example and self.rule is not None:
            self.example(no, indent, example)
        elif self.open is not None:
            self.extend(no, clean(body))
        # otherwise: a bullet with nothing to hang off; left to the unparsed safety net

    def numbered(self, no: int, indent: int, m: re.Match) -> None:
        num, text = m.group("num"), m.group("text")
        if num.endswith("."):
            self.warn(no, "trailing-dot", f"rule number {num!r} is printed with a trailing dot", num)
        if text and not m.group("sep"):
            self.warn(no, "missing-space", f"no space between rule number {num!r} and its text", num)
        level = numbers.level(num)
        if indent != INDENT[level]:
            self.warn(no, "rule-indent",
                      f"{level} {num} is indented {indent} spaces, expected {INDENT[level]}", num)
        head = numbers.parts(num)[0]
        if self.section is not None and head != self.section:
            self.warn(no, "section-mismatch", f"rule {num} is printed under section {self.section}", num)
        self.rule = self.add(Record("rule", [Span(no)], number=num, text=clean(text)))
        self.open = self.records[self.rule]

    def example(self, no: int, indent: int, m: re.Match) -> None:
        assert self.rule is not None, "examples are only dispatched after a rule"
        owner = self.records[self.rule]
        assert owner.number is not None
        expected = INDENT[numbers.level(owner.number)] + STEP
        if indent != expected:
            self.warn(no, "example-indent",
                      f"example indented {indent} spaces under {owner.number}, expected {expected}", owner.number)
        rec = Record("example", [Span(no)], text=clean(m.group("text")), label=m.group("label"), owner=self.rule)
        self.add(rec)
        self.open = rec

    def extend(self, no: int, text: str) -> None:
        assert self.open is not None, "continuation lines are only dispatched to an open record"
        self.open.spans.append(Span(no))
        self.open.text = f"{self.open.text}\n{text}" if self.open.text else text


@parser("it-wiki", symbols="it-bare", complete=ends_with_footer,
        description="Italian CR chapter 6 copied from a wiki (bullet nesting, '601 - Title[]' sections)")
def parse(lines: list[str], path: str, lang: str) -> Parsed:
    """Italian CR chapter 6 copied from a wiki (bullet nesting, '601 - Title[]' sections)."""
    return _Parser(lines).run()
