"""Bilingual wiki page on a keyword rule, e.g. Morph 702.34 ("morph-wiki", DokuWiki, ~2007).

The page holds the same rule twice, a German translation and the English
original, each followed by FAQ bullets::

    Benutzer-Werkzeuge / Webseiten-Werkzeuge       <- site navigation (boilerplate, lang None)
    regeln:morph                                   <- page id (boilerplate)
    Morph / Morph                                  <- page title (boilerplate)
    Regelauszug - Deutsche Übersetzung             <- part heading: the German part starts (lang "de")
    Das Set _Blick in die Zukunft_ enthält ...     <- paragraph
    702.34 Morph                                   <- title-only rule: number, title "Morph"
    702.34a Morph ist eine statische ...           <- subrule
    Future Sight FAQ:                              <- FAQ heading ("<name> FAQ:"; other "...:" = "other")
      • Der wichtige Unterschied ...               <- FAQ bullet, owner = the part's rule "702.34"
    Regelauszug - Englischer Originaltext          <- the English part starts (lang "en")
    The _Future Sight_ set ... updated. 702.34. Morph   <- intro paragraph and rule heading on one line
    702.34a. Morph is a static ability ...         <- English numbers carry a trailing dot
    regeln/morph.txt · Zuletzt geändert: 09.09.2012 00:59 (...)   <- end of content (boilerplate)
    © 2003 - 2013 | ... / Diese Webseite steht ...  <- footer and disclaimer (boilerplate)

Every record of a part has ``lang`` set to the part's language; page chrome has
``lang=None``.  A rule heading glued to the end of a paragraph line is split
into two records with column spans and reported as ``merged-line``.
"""
from __future__ import annotations

import re

from . import numbers
from .complete import ends_with_footer
from .model import Parsed, ParseWarning, Record, Span
from .registry import parser
from .text import clean

PART_RE = re.compile(r"^Regelauszug\s*[-–]\s*(?P<what>.+)$")
#: word of the part heading -> language of the part
PART_LANGS = {"deutsch": "de", "englisch": "en", "english": "en"}
RULE_RE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?\.?)\s+(?P<text>\S.*)$")
#: a rule heading ("702.34. Morph") at the end of a paragraph line, after a sentence end
MERGED_RE = re.compile(r"(?<=[.!?])\s+(?P<num>\d{3}\.\d+\.?)\s+(?P<title>[^.!?]{1,40})$")
BULLET_RE = re.compile(r"^\s*•\s*(?P<text>.*)$")
FAQ_HEAD_RE = re.compile(r"^(?P<name>.+?)\s+FAQ\s*:$")
GROUP_HEAD_RE = re.compile(r"^[^•].{0,120}:$")
END_RE = re.compile(r"·\s*Zuletzt geändert:\s*(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})")
PAGE_ID_RE = re.compile(r"^[\w-]+(?::[\w-]+)+$")
TITLE_MAX = 40


def part_lang(what: str) -> str | None:
    low = what.lower()
    return next((lang for word, lang in PART_LANGS.items() if word in low), None)


def is_title(text: str) -> bool:
    """The text of a rule-level number is a title when short and not a sentence ("Morph")."""
    return len(text) <= TITLE_MAX and not re.search(r"[.!?:;]$", text)


class _Parser:
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.records: list[Record] = []
        self.warnings: list[ParseWarning] = []
        self.state = "header"              # header -> part -> footer
        self.lang: str | None = None       # language of the current part
        self.family: dict[str | None, int] = {}  # lang -> index of its rule-level record ("702.34")
        self.faq: str | None = None        # FAQ group of the following bullets

    def run(self) -> Parsed:
        for no, raw in enumerate(self.lines, 1):
            if raw.strip():
                self.line(no, raw, clean(raw))
        return Parsed(self.records, self.warnings)

    def add(self, rec: Record) -> int:
        self.records.append(rec)
        return len(self.records) - 1

    def chrome(self, no: int, text: str, what: str, **meta) -> None:
        self.add(Record("boilerplate", [Span(no)], text=text, meta={"what": what, **meta}))

    # -- states ---------------------------------------------------------------
    def line(self, no: int, raw: str, text: str) -> None:
        part = PART_RE.match(text)
        end = END_RE.search(text)
        if part and self.state != "footer":
            self.start_part(no, text, part.group("what"))
        elif end:
            self.state = "footer"
            date = f"{end.group('y')}-{int(end.group('m')):02d}-{int(end.group('d')):02d}"
            self.chrome(no, text, "last-modified", date=date)
        elif self.state == "header":
            self.header(no, text)
        elif self.state == "footer":
            self.chrome(no, text, "footer" if text.startswith("©") else "disclaimer")
        else:
            self.content(no, raw, text)

    def start_part(self, no: int, text: str, what: str) -> None:
        self.state, self.faq = "part", None
        self.lang = part_lang(what)
        if self.lang is None:
            self.warnings.append(ParseWarning(no, "unknown-language", f"cannot tell the language of part {what!r}"))
        self.add(Record("heading", [Span(no)], title=text, lang=self.lang))

    def header(self, no: int, text: str) -> None:
        if PAGE_ID_RE.match(text):
            self.chrome(no, text, "page-id")
        elif " / " in text:
            self.chrome(no, text, "page-title")
        else:
            self.chrome(no, text, "navigation")

    def content(self, no: int, raw: str, text: str) -> None:
        if m := BULLET_RE.match(text):
            owner = self.family.get(self.lang)
            self.add(Record("faq", [Span(no)], text=m.group("text"), lang=self.lang, owner=owner,
                            meta={"faq": self.faq}))
        elif m := RULE_RE.match(text):
            self.rule(Span(no), m.group("num"), m.group("text"))
        elif m := FAQ_HEAD_RE.match(text):
            self.faq = m.group("name")
            self.add(Record("heading", [Span(no)], title=text.rstrip(":").strip(), lang=self.lang))
        elif GROUP_HEAD_RE.match(text):
            self.faq = "other"
            self.add(Record("heading", [Span(no)], title=text.rstrip(":").strip(), lang=self.lang))
        elif m := MERGED_RE.search(raw):
            self.merged(no, raw, m)
        else:
            self.add(Record("paragraph", [Span(no)], text=text, lang=self.lang))

    def rule(self, span: Span, num: str, text: str) -> None:
        text = clean(text)
        if numbers.level(num) == "rule" and is_title(text):
            idx = self.add(Record("rule", [span], number=num, title=text, text="", lang=self.lang))
            self.family[self.lang] = idx
        else:
            self.add(Record("rule", [span], number=num, text=text, lang=self.lang))

    def merged(self, no: int, raw: str, m: re.Match) -> None:
        k = m.start("num")
        self.add(Record("paragraph", [Span(no, 0, k)], text=clean(raw[:k]), lang=self.lang))
        self.rule(Span(no, k, None), m.group("num"), m.group("title"))
        self.warnings.append(ParseWarning(no, "merged-line",
                                          f"rule heading {m.group('num')} is glued to the end of a paragraph",
                                          m.group("num")))


@parser("morph-wiki", symbols="none", complete=ends_with_footer,
        description="bilingual (de/en) keyword wiki page: rule extract twice, FAQ bullets, DokuWiki chrome")
def parse(lines: list[str], path: str, lang: str) -> Parsed:
    """Bilingual (de/en) keyword wiki page: rule extract twice, FAQ bullets, DokuWiki chrome."""
    return _Parser(lines).run()
