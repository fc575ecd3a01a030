"""Numbered Comprehensive Rules text: the official plain text (``cr-text``) and the German web page (``cr-web``).

``cr-text``
    The official plain-text CR (MagicCompRules.txt), every edition from 1999 on::

        Magic: The Gathering Comprehensive Rules      <- title (heading)
        These rules are effective as of ...           <- paragraph
        Introduction / Contents                        <- headings
        1. Game Concepts / 100. General / Glossary     <- contents (toc) until the body begins
        1. Game Concepts                               <- chapter
        100. General                                   <- section
        100.1. These Magic rules apply ...             <- rule ("100.1." with a dot)
        100.1a A two-player game is ...                <- subrule
             A further paragraph of 100.1a             <- continuation paragraph (indented)
        Example: ...                                   <- example of the preceding rule
        Glossary                                       <- term line + definition lines, blank-separated
        Credits                                        <- boilerplate, then sections such as "Questions?"

    Hard-wrapped editions, wording that differs between contents and body and the
    other quirks of the archive are handled in :mod:`ingest.cr_text_plain`.

``cr-web``
    The German web page of the CR (``601.1 Früher ...``: rules without the dot,
    "Beispiel:" examples, "Hinweis des Übersetzers:" notes, site navigation around
    the rules, mana symbols as ``{s}``/``{tap}``), read by :class:`_Machine` below.

A table of contents promises sections; a file that ends before reaching them is
reported as truncated (:class:`~ingest.model.SourceError` with file and line).
"""
from __future__ import annotations

import re

from . import cr_text_plain
from .complete import ends_with_footer, whole_rules_text
from .model import Parsed, ParseWarning, Record, SourceError, Span
from .registry import parser
from .text import clean

#: version of the cr-text parser's output (see :attr:`ingest.registry.ParserSpec.version`)
VERSION = 2

RULE = re.compile(r"^(?P<num>\d{3}\.\d+[a-z]?\.?)(?:\s+(?P<text>.*))?$")
SECTION = re.compile(r"^(?P<num>\d{3}\.)\s+(?P<title>\S.*)$")
CHAPTER = re.compile(r"^(?P<num>\d\.)\s+(?P<title>\S.*)$")
MALFORMED = re.compile(r"^\d[\d.]*[a-z]*\d*[.a-z]\S*\s")
LABELS = {
    "example": ("Beispiele", "Beispiel", "Examples", "Example", "Esempi", "Esempio"),
    "note": ("Hinweis des Übersetzers", "Note", "Nota"),
}
LABEL_RE = re.compile(
    r"^(?P<label>" + "|".join(re.escape(x) for xs in LABELS.values() for x in xs) + r")\s*:\s*(?P<text>.*)$"
)
#: site chrome of the German web page
WEB_BOILERPLATE = re.compile(
    r"^(derzeit online:|zurück zu|/ zurück zur|Werbung\b|Hinweis: Die Comprehensive Rules)|→←"
)


def _label_kind(label: str) -> str:
    return next(kind for kind, labels in LABELS.items() if label in labels)


class _Machine:
    def __init__(self, lines: list[str], path: str, boilerplate: re.Pattern | None):
        self.lines, self.path, self.boilerplate = lines, path, boilerplate
        self.records: list[Record] = []
        self.warnings: list[ParseWarning] = []
        self.state = "front"
        self.toc: list[str] = []      # printed toc entries, in order
        self.reached: set[str] = set()
        self.rule: int | None = None  # index of the last rule record
        self.entry: Record | None = None  # open glossary entry / paragraph

    def add(self, rec: Record) -> Record:
        self.records.append(rec)
        return rec

    def run(self) -> Parsed:
        for no, raw in enumerate(self.lines, 1):
            line = clean(raw)
            if not line:
                self.entry = None
                continue
            if self.boilerplate and self.boilerplate.search(line):
                self.add(Record("boilerplate", [Span(no)], text=line, meta={"what": "site"}))
                continue
            getattr(self, "on_" + self.state)(no, line)
        self.check_promises()
        return Parsed(self.records, self.warnings)

    # -- states -------------------------------------------------------------
    def on_front(self, no: int, line: str) -> None:
        if line in ("Contents", "Inhalt", "Inhaltsverzeichnis", "Indice"):
            self.add(Record("heading", [Span(no)], title=line))
            self.state = "toc"
        elif RULE.match(line) or SECTION.match(line) or CHAPTER.match(line):
            self.state = "rules"
            self.on_rules(no, line)
        else:
            self.prose(no, line)

    def on_toc(self, no: int, line: str) -> None:
        if self.toc and line == self.toc[0]:
            self.state = "rules"
            self.on_rules(no, line)
            return
        m = SECTION.match(line) or CHAPTER.match(line)
        self.toc.append(line)
        self.add(Record("toc", [Span(no)], title=m.group("title") if m else line,
                        meta={"number": m.group("num").rstrip(".") if m else None, "page": None}))

    def on_rules(self, no: int, line: str) -> None:
        self.reached.add(line)
        if line in ("Glossary", "Glossar", "Glossario"):
            self.add(Record("heading", [Span(no)], title=line))
            self.state = "glossary"
            return
        if line in ("Credits", "Danksagungen", "Riconoscimenti"):
            self.add(Record("heading", [Span(no)], title=line))
            self.state = "credits"
            return
        m = RULE.match(line)
        if m:
            text = m.group("text") or ""
            self.rule = len(self.records)
            self.add(Record("rule", [Span(no)], number=m.group("num"), text=text))
            return
        m = SECTION.match(line) or CHAPTER.match(line)
        if m:
            self.rule = len(self.records)
            self.add(Record("rule", [Span(no)], number=m.group("num"), title=m.group("title")))
            return
        m = LABEL_RE.match(line)
        if m and self.rule is not None:
            label = m.group("label")
            self.add(Record(_label_kind(label), [Span(no)], text=m.group("text"), label=label, owner=self.rule))
            return
        if MALFORMED.match(line):
            self.add(Record("unparsed", [Span(no)], text=line, meta={"reason": "malformed rule number"}))
            self.warnings.append(ParseWarning(no, "malformed-number",
                                              f"line starts with a malformed rule number: {line.split()[0]!r}"))
            return
        self.add(Record("unparsed", [Span(no)], text=line,
                        meta={"reason": "text outside any rule, example or note"}))

    def on_glossary(self, no: int, line: str) -> None:
        if line in ("Credits", "Danksagungen", "Riconoscimenti"):
            self.reached.add(line)
            self.entry = None
            self.add(Record("heading", [Span(no)], title=line))
            self.state = "credits"
            return
        if self.entry is None:
            self.entry = self.add(Record("glossary", [Span(no)], title=line))
        else:
            self.entry.spans.append(Span(no))
            self.entry.text = (self.entry.text + "\n" + line) if self.entry.text else line

    def on_credits(self, no: int, line: str) -> None:
        self.add(Record("boilerplate", [Span(no)], text=line, meta={"what": "credits"}))

    def prose(self, no: int, line: str) -> None:
        """Front matter: short unpunctuated lines are headings, the rest paragraphs."""
        if len(line) < 80 and not re.search(r"[.:;,]$", line):
            self.entry = None
            self.add(Record("heading", [Span(no)], title=line))
        elif self.entry is not None and self.entry.kind == "paragraph":
            self.entry.spans.append(Span(no))
            self.entry.text += " " + line
        else:
            self.entry = self.add(Record("paragraph", [Span(no)], text=line))

    def check_promises(self) -> None:
        missing = [t for t in self.toc if t not in self.reached]
        if missing:
            last = len(self.lines)
            raise SourceError(self.path, last, f"truncated file: the table of contents promises "
                                               f"{missing[0]!r} but the file ends at line {last}")


@parser("cr-text", symbols="en-braces", version=VERSION, complete=whole_rules_text,
        description="official plain-text Comprehensive Rules, every edition 1999 to today (MagicCompRules.txt)")
def parse_cr_text(lines: list[str], path: str, lang: str) -> Parsed:
    return cr_text_plain.parse(lines, path)


@parser("cr-web", symbols="de-braces", complete=ends_with_footer,
        description="German Comprehensive Rules web page (rules without trailing dot, site navigation)")
def parse_cr_web(lines: list[str], path: str, lang: str) -> Parsed:
    return _Machine(lines, path, WEB_BOILERPLATE).run()
