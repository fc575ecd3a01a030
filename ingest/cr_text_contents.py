"""The table of contents of a plain-text Comprehensive Rules edition, and what the body owes it.

The contents lists the chapters and sections (numbered) and the unnumbered parts
(Introduction, Glossary, Index, Credits, "Questions?", "Customer Service
Information", ...).  The body must bring every entry, in order.  Wording may differ
between contents and body ("1. Game Concepts" vs "1. The Game", typographic vs
ASCII quotes): numbered entries are matched by number, unnumbered ones by their
words, leniently.  Only entries that never come *after the last entry the body
reached* mean that the file ends early (truncation); an entry missing in the middle
is a warning.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import numbers
from .cr_text_lines import CHAPTER, SECTION, title_key


@dataclass
class Entry:
    index: int
    line: int
    text: str
    number: str | None
    title: str
    key: str
    #: body line of the heading that brought this entry, once found
    found: int | None = None


class Contents:
    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.heading_line: int | None = None
        self._by_number: dict[str, list[Entry]] = {}
        self._last_found = -1

    def add(self, line: int, text: str) -> Entry:
        m = SECTION.match(text) or CHAPTER.match(text)
        number = m.group("num").rstrip(".") if m else None
        title = m.group("title") if m else text
        entry = Entry(len(self.entries), line, text, number, title, title_key(title))
        self.entries.append(entry)
        if number:
            self._by_number.setdefault(number, []).append(entry)
        return entry

    def body_begins(self, text: str, number: str | None) -> bool:
        """Does this line start the body?  It repeats an entry, or its number restarts the numbering."""
        if not self.entries:
            return False
        if number is None:
            key = title_key(text)
            return any(e.key == key and not e.number for e in self.entries)
        last = next((e.number for e in reversed(self.entries) if e.number), None)
        return last is not None and numbers.sort_key(number) <= numbers.sort_key(last)

    def found_number(self, number: str, line: int) -> Entry | None:
        """The body reached the numbered heading ``number``: its entry, if the contents lists it."""
        entry = next((e for e in self._by_number.get(numbers.normalize(number), []) if e.found is None), None)
        if entry:
            self._found(entry, line)
        return entry

    def find_heading(self, text: str, line: int, fuzzy: bool) -> Entry | None:
        """The first pending unnumbered entry after the last one reached that ``text`` names.

        Equal after folding case, quotes and punctuation; with ``fuzzy`` (a line standing on its own),
        also when the words of one contain the words of the other ("Glossary" / "Glossary of Terms").
        """
        key = title_key(text)
        if not key:
            return None
        words = set(key.split())
        for entry in self.entries[self._last_found + 1:]:
            if entry.number or entry.found is not None or not entry.key:
                continue
            other = set(entry.key.split())
            if entry.key == key or (fuzzy and (words <= other or other <= words)):
                self._found(entry, line)
                return entry
        return None

    def _found(self, entry: Entry, line: int) -> None:
        entry.found = line
        self._last_found = max(self._last_found, entry.index)

    def missing(self) -> tuple[list[Entry], list[Entry]]:
        """Entries the body never brought: ``(skipped, trailing)``.

        ``skipped`` lie before the last entry the body reached (a section left out or renamed beyond
        recognition: a warning); ``trailing`` come after it (the file ends early: truncation).
        """
        skipped = [e for e in self.entries[: self._last_found + 1] if e.found is None]
        trailing = [e for e in self.entries[self._last_found + 1:] if e.found is None]
        return skipped, trailing
