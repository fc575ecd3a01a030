"""A German rules article in prose ("article"), e.g. "Einen Zauberspruch wirken" (2009).

One paragraph per line; no rule numbers.  Line kinds::

    von Mario Haßler, 28.12.2009 - 22:41 – Regeln      <- byline (first line): author and date
    Bitte nicht stören!                               <- section heading: short, no final . : ; ,
    Gleich zu Anfang sei darauf hingewiesen, ...      <- paragraph
    Beispiel: Wenn du die Blitzaxt wirkst, ...        <- example ("Beispiel:" / "Beispiele:")
    → Spruch auf den Stapel legen                     <- step; consecutive arrow lines form one list
    Klick hier für eine Übersicht ...                 <- link to the article series (boilerplate)

Examples hang off no rule (``owner=None``); ``meta["paragraph"]`` is the index of
the paragraph they illustrate (the last one before them).  Steps carry
``meta["list"]`` (1-based number of the list in the article) and ``meta["step"]``
(1-based position in the list).

Mana symbols were lost when the article was extracted ("betragen . Also");
gaps that show as a space before punctuation, empty or half-empty parentheses
or dangling "+"/"=" are reported as ``lost-symbol`` warnings (a lower bound: a
lost symbol between two words leaves no trace).
"""
from __future__ import annotations

import re

from .complete import ends_with_footer
from .model import Parsed, ParseWarning, Record, Span
from .registry import parser
from .text import clean

BYLINE_RE = re.compile(
    r"^von\s+(?P<author>[^,]+),\s*(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})\b"
)
STEP_RE = re.compile(r"^→\s*(?P<text>.*)$")
EXAMPLE_RE = re.compile(r"^(?P<label>Beispiele|Beispiel)\s*:\s*(?P<text>.*)$")
LINK_RE = re.compile(r"^Klicke? hier\b")
HEADING_MAX = 60
HEADING_END_RE = re.compile(r"[.:;,]$")
LOST_SYMBOL_RE = re.compile(r" [.,;)](?!\.)|\( |\(\)|[=+] ?\+|\+ ?=")


def is_heading(text: str) -> bool:
    """Short capitalised line without final sentence punctuation ("Bitte nicht stören!" is one)."""
    return len(text) <= HEADING_MAX and text[0].isupper() and not HEADING_END_RE.search(text)


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.records: list[Record] = []
        self.warnings: list[ParseWarning] = []
        self.paragraph: int | None = None  # index of the last paragraph record
        self.lists = 0                      # step lists started so far
        self.step = 0                       # steps in the current list; 0 = no open list

    def run(self) -> Parsed:
        first = True
        for no, raw in enumerate(self.lines, 1):
            text = clean(raw)
            if not text:
                self.step = 0
                continue
            self.line(no, text, first)
            first = False
        return Parsed(self.records, self.warnings)

    def add(self, rec: Record) -> int:
        self.records.append(rec)
        return len(self.records) - 1

    def line(self, no: int, text: str, first: bool) -> None:
        step = STEP_RE.match(text)
        if not step:
            self.step = 0
        byline = BYLINE_RE.match(text) if first else None
        if byline:
            self.byline(no, text, byline)
        elif step:
            self.add_step(no, clean(step.group("text")))
        elif LINK_RE.match(text):
            self.add(Record("boilerplate", [Span(no)], text=text, meta={"what": "navigation"}))
        elif m := EXAMPLE_RE.match(text):
            self.check_gaps(no, text)
            self.add(Record("example", [Span(no)], text=m.group("text"), label=m.group("label"),
                            meta={"paragraph": self.paragraph}))
        elif is_heading(text):
            self.add(Record("heading", [Span(no)], title=text))
        else:
            self.check_gaps(no, text)
            self.paragraph = self.add(Record("paragraph", [Span(no)], text=text))

    def byline(self, no: int, text: str, m: re.Match) -> None:
        date = f"{m.group('y')}-{int(m.group('m')):02d}-{int(m.group('d')):02d}"
        self.add(Record("boilerplate", [Span(no)], text=text,
                        meta={"what": "byline", "author": m.group("author").strip(), "date": date}))

    def add_step(self, no: int, text: str) -> None:
        if self.step == 0:
            self.lists += 1
        self.step += 1
        self.check_gaps(no, text)
        self.add(Record("step", [Span(no)], text=text, meta={"list": self.lists, "step": self.step}))

    def check_gaps(self, no: int, text: str) -> None:
        m = LOST_SYMBOL_RE.search(text)
        if m:
            snippet = text[max(0, m.start() - 25):m.end() + 10]
            self.warnings.append(ParseWarning(no, "lost-symbol", f"probably a lost mana symbol: …{snippet}…"))


@parser("article", symbols="none", requires=("step",), complete=ends_with_footer,
        description="German rules article in prose (byline, headings, 'Beispiel:' examples, → step lists)")
def parse(lines: list[str], path: str, lang: str) -> Parsed:
    """German rules article in prose (byline, headings, 'Beispiel:' examples, → step lists)."""
    return _Parser(lines).run()
