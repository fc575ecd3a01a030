"""The records every parser produces, and the errors and warnings it may raise.

A parser turns the lines of one source document into an ordered list of
:class:`Record` objects.  Every non-blank source line (or, rarely, a column
range of a line) is covered by exactly one record's :class:`Span`; that is
what makes ingestion lossless and testable.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: Record kinds.  ``rule`` records become rows of the ``rules`` table, ``unparsed``
#: records rows of ``unparsed``; every other kind is a row of ``items``.
KINDS = (
    "rule",         # a numbered rule node: chapter "6.", section "601.", rule "601.2", subrule "601.2a"
    "example",      # "Beispiel:" / "Esempio:" / "Example:" paragraph, hangs off a rule
    "note",         # translator's note and similar remarks inside the rules
    "faq",          # FAQ bullet, hangs off a rule
    "heading",      # an unnumbered heading (document title, article section, FAQ heading)
    "paragraph",    # unnumbered prose (introductions, article paragraphs)
    "step",         # one step of an ordered step list ("→ Kosten bezahlen")
    "glossary",     # glossary entry: title = term, text = definition
    "index",        # index entry: title = term, text = its references
    "toc",          # table-of-contents line: title, meta["page"]
    "boilerplate",  # site navigation, advertising, credits, copyright
    "unparsed",     # a line no rule of the format explains; meta["reason"] says why
)


@dataclass(frozen=True)
class Span:
    """Part of one source line: ``line`` is 1-based, columns are 0-based, ``end`` exclusive.

    ``end=None`` means "to the end of the line".
    """

    line: int
    start: int = 0
    end: int | None = None


@dataclass
class Record:
    kind: str
    spans: list[Span]
    text: str = ""
    #: the rule number exactly as printed ("601.2.", "608.2h", "6.")
    number: str | None = None
    #: heading or rule title, glossary/index term
    title: str | None = None
    #: printed label that introduced the record ("Beispiel", "Esempio", "Hinweis des Übersetzers")
    label: str | None = None
    #: language of this record when a document holds several (the Morph page); None = the document's
    lang: str | None = None
    #: index (into the same record list) of the rule this record hangs off
    owner: int | None = None
    meta: dict = field(default_factory=dict)

    @property
    def first_line(self) -> int:
        return self.spans[0].line

    @property
    def last_line(self) -> int:
        return self.spans[-1].line


@dataclass(frozen=True)
class ParseWarning:
    """A defect of the source that the parser kept visible instead of repairing silently."""

    line: int
    code: str  # e.g. "duplicate-number", "number-backwards", "missing-space", "trailing-dot"
    message: str
    number: str | None = None


@dataclass
class Parsed:
    records: list[Record]
    warnings: list[ParseWarning] = field(default_factory=list)


class SourceError(Exception):
    """Bad input that cannot be ingested: always names the file and the line."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")
