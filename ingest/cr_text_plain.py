"""The state machine of ``cr-text``: every official plain-text Comprehensive Rules edition, 1999 to today.

An edition is front matter (title, effective date, Introduction), the Contents,
the rules (chapters ``1.``, sections ``100.``, rules ``100.1.``, subrules
``100.1a``, ``Example:`` paragraphs), a Glossary, sometimes an Index, the
Credits and, in older editions, more sections after the Credits ("Questions?",
"Customer Service Information").  What varies between editions:

* **Continuation paragraphs.**  A rule can continue in an indented paragraph
  without a number; it belongs to the rule above (joined with ``"\\n"``).
* **Hard wrapping.**  Some editions are wrapped at 70-110 columns, subrules
  indented.  Wrapped lines join the rule, example or definition they continue,
  also when they begin with a number ("... See rule" / "103.4."): such a line
  starts a rule only after a finished sentence and when its number comes next in
  the numbering (:func:`~ingest.cr_text_lines.plausible_next`).
* **Contents and body disagree.**  Headings are matched leniently
  (:mod:`ingest.cr_text_contents`): different wording is a warning; only entries
  the file never reaches make it truncated (:class:`~ingest.model.SourceError`).
* **Defects** stay visible as warnings: a number glued to its text ("901.4.All"),
  stray characters on a line of their own, a heading that differs from its
  contents entry, a glossary term without definition.
"""
from __future__ import annotations

import itertools
import re
from functools import cache

from . import numbers
from .cr_text_contents import Contents, Entry
from .cr_text_lines import (
    CONTENTS_TITLES,
    EXAMPLE,
    MALFORMED,
    SENSE,
    SPLIT_TAIL,
    Line,
    ends_sentence,
    heading_like,
    is_hard_wrapped,
    is_stray,
    join_wrapped,
    number_of,
    plausible_next,
    scan,
    section_kind,
    term_like,
    title_key,
)
from .model import Parsed, ParseWarning, Record, SourceError, Span

INDEX_ENTRY = re.compile(r"^(?P<term>.*?),\s*(?P<refs>\d.*)$")
#: the span of a whole line: spans are immutable, so records share one per line number (cheaper than a new one)
_whole_line = cache(Span)


def _prose_line(text: str) -> bool:
    """A line no table of contents has: long, ending like a sentence, or starting in lower case."""
    return len(text) > 100 or text[-1] in ".,;" or text[0].islower()


class PlainText:
    def __init__(self, lines: list[str], path: str):
        self.path = path
        self.lines = scan(lines)
        self.records: list[Record] = []
        self.warnings: list[ParseWarning] = []
        self.contents = Contents()
        self.wrapped = is_hard_wrapped(self.lines)
        self.mode = "front"
        self.i = 0                        # index of the current line
        self.sep = True                   # a blank or decoration line came right before the current line
        self.prev: Line | None = None     # the previous line with text
        self.rule: int | None = None      # record index of the last rule: examples and paragraphs hang off it
        self.last_number: str | None = None
        self.open: Record | None = None   # the record a wrapped line or further paragraph continues
        self.open_indent = 0              # indent of the first line of the open paragraph
        self.base_indent: int | None = None  # indent of glossary terms / top-level index entries
        self.index_parent: str | None = None
        self.sense = 0                    # last numbered sense of the open glossary definition
        self.section = ""                 # heading of the current section

    # -- driver ----------------------------------------------------------------------------------------
    def run(self) -> Parsed:
        # the handler of each mode; a local table, not an attribute: bound methods kept in the parser would make it
        # a reference cycle, which only the garbage collector frees (with all its lines and records)
        handlers = {"front": self.on_front, "toc": self.on_toc, "rules": self.on_rules, "glossary": self.on_glossary,
                    "index": self.on_index, "credits": self.on_credits, "back": self.on_back}
        for i, ln in enumerate(self.lines):
            if not ln.text:
                self.sep = True
                continue
            self.i = i
            if ln.decoration:
                self.add("boilerplate", ln, text=ln.text, meta={"what": "decoration"})
                self.sep = True
                if self.mode == "toc" and self.contents.entries:  # the contents is framed, as every part
                    self.mode = "front"
                continue
            if is_stray(ln.text) and not self.continues():
                self.add("boilerplate", ln, text=ln.text, meta={"what": "stray"})
                self.warn(ln.no, "stray-line", f"stray character(s) on a line of their own: {ln.text!r}")
                continue
            handlers[self.mode](ln)
            self.sep = False
            self.prev = ln
        self.finish()
        return Parsed(self.records, self.warnings)

    def add(self, kind: str, ln: Line, **fields) -> Record:
        rec = Record(kind, [_whole_line(ln.no)], **fields)
        self.records.append(rec)
        return rec

    def warn(self, line: int, code: str, message: str, number: str | None = None) -> None:
        self.warnings.append(ParseWarning(line, code, message, number))

    def extend(self, rec: Record, ln: Line, wrap: bool) -> None:
        """Add ``ln`` to ``rec``: a wrapped line joins with a space, a new paragraph with a line break."""
        rec.spans.append(_whole_line(ln.no))
        if wrap:
            rec.text = join_wrapped(rec.text, ln.text, self.prev.soft if self.prev else True)
        else:
            rec.text = f"{rec.text}\n{ln.text}" if rec.text else ln.text
            self.open_indent = ln.indent

    @property
    def standalone(self) -> bool:
        """The current line stands between blank (or decoration) lines: a heading, not part of a paragraph."""
        return self.sep and (self.i + 1 >= len(self.lines) or self.lines[self.i + 1].sep)

    def framed(self) -> bool:
        """Between two decoration lines ("-----" / "Credits" / "-----")."""
        before, after = self.i - 1, self.i + 1
        return before >= 0 and after < len(self.lines) and self.lines[before].decoration \
            and self.lines[after].decoration

    def continues(self) -> bool:
        """Does the current line (no blank line before it) carry on the text above: hard-wrapped, or mid-sentence?"""
        return not self.sep and self.open is not None and self.prev is not None \
            and (self.wrapped or not ends_sentence(self.prev.text))

    def wraps(self, ln: Line) -> bool:
        """Does ``ln`` (no blank line before it) continue the open paragraph rather than start a new one?"""
        above = min(self.open_indent, self.prev.indent if self.prev else 0)
        if ln.indent > above + 2:  # indented below the paragraph (or its last line): a new paragraph
            return False
        return self.wrapped or (self.prev is not None and not ends_sentence(self.prev.text))

    # -- front matter, contents and prose sections -----------------------------------------------------
    def on_front(self, ln: Line) -> None:
        if self.contents.heading_line is None and title_key(ln.text) in CONTENTS_TITLES:
            self.add("heading", ln, title=ln.text)
            self.contents.heading_line = ln.no
            self.mode, self.open = "toc", None
            return
        if self.sep and (self.enter_heading(ln) or self.start_rules(ln)):
            return
        self.prose(ln)

    def start_rules(self, ln: Line) -> bool:
        info = number_of(ln.text)
        if not info or (info[0] == "chapter" and not heading_like(ln.text)):
            return False
        self.mode = "rules"
        self.on_rules(ln)
        return True

    def prose(self, ln: Line) -> None:
        if self.standalone and heading_like(ln.text):
            self.add("heading", ln, title=ln.text)
            self.open = None
        elif self.sep or self.open is None:   # (outside the rules, a paragraph is the only record left open)
            self.open, self.open_indent = self.add("paragraph", ln, text=ln.text), ln.indent
        else:
            self.extend(self.open, ln, wrap=self.wraps(ln))

    def on_toc(self, ln: Line) -> None:
        info = number_of(ln.text)
        number = info[1] if info and info[0] in ("section", "chapter") else None
        if (info and not number) or self.contents.body_begins(ln.text, number) or (self.sep and self.prose_block()):
            self.mode = "front"
            self.on_front(ln)
            return
        entry = self.contents.add(ln.no, ln.text)
        self.add("toc", ln, title=entry.title, meta={"number": entry.number, "page": None})

    def prose_block(self) -> bool:
        """Does the paragraph starting at the current line read like prose (the contents has ended)?"""
        for ln in itertools.islice(self.lines, self.i, None):
            if ln.sep:
                return False
            if _prose_line(ln.text):
                return True
        return False

    # -- section headings ------------------------------------------------------------------------------
    def enter_heading(self, ln: Line) -> bool:
        """A heading of an unnumbered section (one the contents promises, or Glossary/Index/Credits)."""
        back = self.mode in ("credits", "back")  # anything may be a heading there: lenient
        if not self.sep or (len(ln.text) > 80 and not back) or number_of(ln.text):
            return False
        standalone = self.standalone
        if self.mode == "glossary" and not standalone:  # a glossary term, followed by its definition
            return False
        fuzzy = back or (standalone and heading_like(ln.text))
        entry = self.contents.find_heading(ln.text, ln.no, fuzzy=fuzzy)
        kind = section_kind(ln.text)
        if entry is None and (kind is None or not standalone):
            return False
        if entry is not None:
            kind = kind or section_kind(entry.title)
            if entry.key != title_key(ln.text):
                self.warn(ln.no, "heading-mismatch", f"heading {ln.text!r} differs from its contents entry "
                                                     f"{entry.text!r} (line {entry.line})")
        self.enter_section(ln, kind)
        return True

    def enter_section(self, ln: Line, kind: str | None) -> None:
        self.close_entry()
        self.add("heading", ln, title=ln.text)
        self.open, self.base_indent, self.section = None, None, ln.text
        if kind:
            self.mode = kind
        else:
            self.mode = "back" if self.mode in ("credits", "back") else "front"

    def framed_heading(self, ln: Line) -> bool:
        """A framed heading the contents does not list ("Contact Information" after the Credits).  (One that names
        the Glossary, Index or Credits is entered by :meth:`enter_heading`, asked first.)"""
        if not (self.standalone and self.framed() and heading_like(ln.text)):
            return False
        self.enter_section(ln, None)
        return True

    # -- the rules -------------------------------------------------------------------------------------
    def on_rules(self, ln: Line) -> None:
        info = number_of(ln.text)
        if info is None and self.enter_heading(ln):  # (a numbered line is never a heading of enter_heading's)
            return
        if info and self.starts_record(info[1]):
            self.numbered(ln, *info)
            return
        m = EXAMPLE.match(ln.text)
        if m:
            rec = self.add("example", ln, text=m.group("text"), label=m.group("label"), owner=self.rule)
            self.open, self.open_indent = rec, ln.indent
        elif MALFORMED.match(ln.text) and not self.continues():
            self.add("unparsed", ln, text=ln.text, meta={"reason": "malformed rule number"})
            self.warn(ln.no, "malformed-number", f"line starts with a malformed rule number: {ln.text.split()[0]!r}")
        else:
            self.continue_rule(ln)

    def starts_record(self, number: str) -> bool:
        """A numbered line starts a rule, unless it continues the line above (no blank line before it).

        Hard-wrapped text: it continues unless the sentence above is finished and the number comes next in
        the numbering.  Unwrapped text (a line break inside a paragraph is a defect there): it continues
        only after an unfinished sentence and with a number that does not come next."""
        if self.sep or self.open is None or self.prev is None:
            return True
        plausible = plausible_next(self.last_number, numbers.normalize(number))
        if self.wrapped:
            return plausible and ends_sentence(self.prev.text)
        return plausible or ends_sentence(self.prev.text)

    def split_number(self, number: str, rest: str) -> tuple[str, str, str] | None:
        """"606. 8b Players win" in section 606 after 606.8a is rule 606.8b printed with a space inside:
        ``(number, printed number, text)``, or None for a section heading."""
        m = SPLIT_TAIL.match(rest)
        last = numbers.split(self.last_number) if self.last_number else None
        if not m or last is None or last[0] != int(number.rstrip(".")):
            return None
        joined = number + m.group("tail")
        if not plausible_next(self.last_number, joined):
            return None
        return joined, f"{number} {m.group('tail')}", m.group("text")

    def numbered(self, ln: Line, kind: str, number: str, rest: str) -> None:
        split = self.split_number(number, rest) if kind == "section" else None
        if split:
            joined, printed, text = split
            rec = self.add("rule", ln, number=joined, text=text, meta={"printed": printed})
            self.warn(ln.no, "split-number", f"space inside the rule number {printed!r} (read as {joined})", joined)
        elif kind in ("section", "chapter"):
            rec = self.add("rule", ln, number=number, title=rest)
            entry = self.contents.found_number(number, ln.no)
            if entry is not None and entry.key != title_key(rest):
                self.warn(ln.no, "heading-mismatch", f"heading {ln.text!r} differs from its contents entry "
                                                     f"{entry.text!r} (line {entry.line})", numbers.normalize(number))
        else:
            rec = self.add("rule", ln, number=number, text=rest)
            if kind == "glued":
                self.warn(ln.no, "missing-space", f"no space between rule number {number!r} and its text",
                          numbers.normalize(number))
        self.rule = len(self.records) - 1
        self.last_number = numbers.normalize(rec.number or number)
        self.open, self.open_indent = rec, ln.indent

    def continue_rule(self, ln: Line) -> None:
        if self.open is None or self.rule is None:
            self.prose(ln)
            return
        if not self.sep:
            self.extend(self.open, ln, wrap=self.wraps(ln))
            return
        if self.standalone and heading_like(ln.text) and ln.indent <= self.open_indent:
            self.add("heading", ln, title=ln.text)
            self.warn(ln.no, "unexpected-heading", f"unnumbered heading inside the rules: {ln.text!r}")
            return
        # after a blank line: a further paragraph of the rule above (after its examples, too)
        owner = self.records[self.rule]
        if not self.wrapped and ln.indent == 0:
            self.warn(ln.no, "unindented-paragraph", f"paragraph without a number or indent, kept with rule "
                                                     f"{owner.number}", numbers.normalize(owner.number or ""))
        self.open = owner
        self.extend(owner, ln, wrap=False)

    # -- glossary and index ----------------------------------------------------------------------------
    def on_glossary(self, ln: Line) -> None:
        if self.enter_heading(ln):
            return
        if self.base_indent is None:
            self.base_indent = ln.indent
        entry = self.open
        if entry is None or (self.sep and ln.indent <= self.base_indent + 1 and term_like(ln.text)):
            self.close_entry()
            self.open, self.open_indent, self.sense = self.add("glossary", ln, title=ln.text), ln.indent, 0
            return
        sense = SENSE.match(ln.text)
        new_paragraph = bool(sense and int(sense.group("n")) == self.sense + 1) or bool(EXAMPLE.match(ln.text))
        if not entry.text or self.sep or not self.wrapped or new_paragraph:
            self.extend(entry, ln, wrap=False)
        else:
            self.extend(entry, ln, wrap=ln.indent <= self.open_indent + 2)
        if sense:
            self.sense = int(sense.group("n"))

    def close_entry(self) -> None:
        entry = self.open
        if entry is not None and entry.kind == "glossary" and not entry.text:
            self.warn(entry.first_line, "empty-definition", f"glossary term {entry.title!r} has no definition")

    def on_index(self, ln: Line) -> None:
        if self.enter_heading(ln):
            return
        if self.base_indent is None:
            self.base_indent = ln.indent
        if self.open is not None and not self.sep and ln.text[0].isdigit():
            self.extend(self.open, ln, wrap=True)  # a wrapped list of references
            return
        m = INDEX_ENTRY.match(ln.text)
        term, refs = (m.group("term"), m.group("refs")) if m else (ln.text, "")
        meta = {}
        if ln.indent > self.base_indent and self.index_parent:
            meta["parent"] = self.index_parent
        else:
            self.index_parent = term
        self.open = self.add("index", ln, title=term, text=refs, meta=meta)

    # -- credits and what follows them -----------------------------------------------------------------
    def on_credits(self, ln: Line) -> None:
        if not (self.enter_heading(ln) or self.framed_heading(ln)):
            self.add("boilerplate", ln, text=ln.text, meta={"what": "credits"})

    def on_back(self, ln: Line) -> None:
        if not (self.enter_heading(ln) or self.framed_heading(ln)):
            self.add("boilerplate", ln, text=ln.text, meta={"what": "back matter", "section": self.section})

    # -- the end: what the contents promised -----------------------------------------------------------
    def finish(self) -> None:
        self.close_entry()
        skipped, trailing = self.contents.missing()
        for e in skipped:
            self.warn(e.line, "missing-section", f"the contents lists {e.text!r} but the body has no such heading",
                      e.number)
        if trailing:
            self.truncated(trailing)
        if self.rule is None:
            raise SourceError(self.path, len(self.lines), f"truncated file (or no rules text): it ends at line "
                                                          f"{len(self.lines)} before the first numbered rule")

    def truncated(self, trailing: list[Entry]) -> None:
        """Refuse the file: name where its text ends and the contents entries it never reaches."""
        last = next((ln.no for ln in reversed(self.lines) if ln.text), 0)
        if self.mode == "rules" and self.last_number:
            where = f"inside rule {self.last_number}"
        elif self.section:
            where = f"inside {self.section!r}"
        else:
            where = "before the body begins"
        first, final = trailing[0], trailing[-1]
        promised = f"{first.text!r} (line {first.line})"
        if len(trailing) > 1:
            promised += f" and {len(trailing) - 1} more entr{'y' if len(trailing) == 2 else 'ies'} up to {final.text!r}"
        raise SourceError(self.path, len(self.lines),
                          f"truncated file: its text ends at line {last} {where}, but the contents promises "
                          f"{promised}, missing from the body")


def parse(lines: list[str], path: str) -> Parsed:
    return PlainText(lines, path).run()
