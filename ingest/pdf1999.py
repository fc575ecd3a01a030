"""Parser for the 1999 German rules booklet as extracted from its PDF ("cr-1999-pdf").

The document is "Magic: Die Zusammenkunft - Zusammenfassung der Regeln" (Classic
Sixth Edition, April 1999).  The text extraction has this layout, top to bottom:

* **Table of contents**: ``Einführung<TAB>1``, chapters ``1. Eine Partie<TAB>2``,
  space-indented sections ``     100. Allgemeines<TAB>2``, then ``Glossar<TAB>46``
  and ``Index<TAB>74``; blank lines in between.  It ends at the first line
  without a trailing ``<TAB>page``.
* **Front matter**: the title lines and the introduction, blank-separated blocks.
  A short first line without final punctuation is a heading, the rest of a block
  is one hard-wrapped paragraph.
* **Rules**, from the first chapter heading on: chapter ``1. Eine Partie``,
  section ``100. Allgemeines`` (sometimes tab-indented), rules
  ``<TAB>100.1. text`` (the number keeps its trailing dot, subrules are
  ``214.6a`` without one), each hard-wrapped at about 80 columns with
  unindented continuation lines.  Some rules only carry a title
  (``214.6. Artefakte``) and are followed by their subrules.  Indented
  ``Beispiel:`` paragraphs belong to the rule before them.
* **Glossary**, after the line ``Glossar``: a term line (unindented, after a
  blank line) and its definition lines.  The entry ``Erweiterungssymbol`` holds
  an indented, tab-separated table of expansion symbols with blank lines.
  Definition lines may start with a rule number (``502.5 "Eile".``).
* **Index**, after the line ``Index``: ``Term, 214.8a, 412.2`` with ranges
  ``214.8c–i``; tab-indented lines are sub-entries of the last unindented term.
* **Credits** from the line ``Danke`` to the end: credits, the copyright
  notice, the date line and the ``Source: geocities...`` lines of the web copy.

Known defects of the extraction are reported as warnings, never repaired:
placeholders such as ``<Karte>`` were dropped (``Spiele  nur, wenn``), doubled
full stops, index lines without a comma or with an empty reference, and
differences between the table of contents and the headings of the body.  A
file that ends before everything the table of contents promises raises
:class:`SourceError`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import numbers
from .complete import whole_1999_booklet
from .model import Parsed, ParseWarning, Record, SourceError, Span
from .registry import parser
from .text import clean, join_wrapped

# Format markers of this document (headings and labels as printed).
GLOSSARY_HEADING = "Glossar"
INDEX_HEADING = "Index"
CREDITS_HEADING = "Danke"
EXAMPLE_LABEL = "Beispiel"

TOC_RE = re.compile(r"^\s*(?:(?P<number>\d{1,3})\.\s+)?(?P<title>\S.*?)\s*\t\s*(?P<page>\d+)\s*$")
CHAPTER_RE = re.compile(r"^\s*(?P<number>\d\.)\s+(?P<title>\S.*?)\s*$")
SECTION_RE = re.compile(r"^\s*(?P<number>\d{3}\.)\s+(?P<title>\S.*?)\s*$")
RULE_RE = re.compile(r"^\s*(?P<number>\d{3}\.\d+[a-z]?\.?)(?:\s+(?P<text>.*?))?\s*$")
EXAMPLE_RE = re.compile(r"^\s*" + EXAMPLE_LABEL + r":\s*(?P<text>.*?)\s*$")
INDEX_RE = re.compile(
    r"^(?P<indent>\s*)(?P<term>[^\s,\d][^,\d]*?)(?P<comma>\s*,)?\s*(?P<refs>[,\d].*?)\s*$"
)
INDEX_REF_RE = re.compile(r"^\d{1,3}(?:\.\d+[a-z]?)?(?:–(?:\d{1,3}(?:\.\d+)?[a-z]?|[a-z]))?$")
SOURCE_RE = re.compile(r"^(?:Source:\s*)?(?:\(?\s*geocities\.com\S*?\s*\)?\s*)+$")
DATE_RE = re.compile(r"\bStand vom \d{1,2}\. \w+ \d{4}\.?$")
COPYRIGHT_RE = re.compile(r"^(?:©|\(c\)|Copyright\b)")
#: a heading of the front matter: short, no final punctuation
HEADING_MAX = 50

# Heuristics for placeholders lost in extraction (see _lost_placeholder).
GAP_RE = re.compile(r"[^\s.!?:;]  +\S")
SPACE_PUNCT_RE = re.compile(r" [,](?=\s|$)| \.(?![.])")
DOUBLE_PERIOD_RE = re.compile(r"(?<!\.)\.\.(?!\.)")
#: a quotation mark with blanks on both sides, a closing one after a blank, an opening one before a blank
EMPTY_QUOTE_RE = re.compile(r'(?:^|\s)"(?:$|[\s.,;:!?)\]])|\s“|„\s')


@dataclass
class _Block:
    """Lines of one record being collected: (line number, text part of the line)."""

    kind: str
    lines: list[tuple[int, str]]
    number: str | None = None
    label: str | None = None
    owner: int | None = None


@dataclass
class _Builder:
    path: str
    lines: list[str]
    records: list[Record] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)

    def add(self, rec: Record) -> int:
        self.records.append(rec)
        return len(self.records) - 1

    def warn(self, line: int, code: str, message: str, number: str | None = None) -> None:
        self.warnings.append(ParseWarning(line, code, message, number))


@parser("cr-1999-pdf", symbols="font-1999", complete=whole_1999_booklet,
        description="1999 German rules booklet (Classic Sixth Edition), PDF text with TOC, glossary and index")
def parse(lines: list[str], path: str, lang: str) -> Parsed:
    """Parse the PDF text of the 1999 rules booklet; see the module docstring."""
    b = _Builder(path, lines)
    toc_end = _parse_toc(b)
    toc = list(b.records)
    body = _find_first(lines, toc_end, len(lines), _is_chapter)
    if body is None:
        if toc:
            _check_promises(b, toc)
        raise SourceError(path, toc_end + 1 if toc_end < len(lines) else None,
                          "no chapter heading ('1. ...') found: not the 1999 rules booklet format")
    glossary = _find_first(lines, body, len(lines), _is_heading(GLOSSARY_HEADING))
    index = _find_first(lines, glossary if glossary is not None else body, len(lines), _is_heading(INDEX_HEADING))
    after = next((i for i in (index, glossary) if i is not None), body)
    credits = _find_first(lines, after + 1, len(lines), _is_heading(CREDITS_HEADING))
    bounds = [i for i in (glossary, index, credits) if i is not None] + [len(lines)]

    def end_after(start: int) -> int:
        return min(i for i in bounds if i > start)

    _parse_front(b, toc_end, body)
    _parse_rules(b, body, end_after(body))
    if glossary is not None:
        _parse_glossary(b, glossary, end_after(glossary))
    if index is not None:
        _parse_index(b, index, end_after(index))
    if credits is not None:
        _parse_credits(b, credits, len(lines))
    if toc:
        _check_promises(b, toc)
    return Parsed(b.records, b.warnings)


# --- locating the parts ---------------------------------------------------------------


def _is_blank(line: str) -> bool:
    return not line.strip()


def _is_chapter(line: str) -> bool:
    return bool(CHAPTER_RE.match(line)) and not TOC_RE.match(line)


def _is_heading(word: str):
    return lambda line: clean(line) == word


def _find_first(lines: list[str], start: int, end: int, pred) -> int | None:
    """0-based index of the first line in ``lines[start:end]`` that satisfies ``pred``."""
    return next((i for i in range(start, end) if pred(lines[i])), None)


def _is_source(line: str) -> bool:
    """A ``Source: geocities.com/...`` line of the web copy the text was taken from."""
    return "geocities" in line and bool(SOURCE_RE.match(clean(line)))


# --- table of contents ----------------------------------------------------------------


def _parse_toc(b: _Builder) -> int:
    """TOC records for the leading ``title<TAB>page`` lines; returns the index after them."""
    i = 0
    while i < len(b.lines):
        line = b.lines[i]
        m = TOC_RE.match(line)
        if not m and not _is_blank(line):
            break
        if m:
            b.add(Record("toc", [Span(i + 1)], title=clean(m["title"]),
                         meta={"page": int(m["page"]), "number": m["number"]}))
        i += 1
    return i


def _toc_label(rec: Record) -> str:
    return f"{rec.meta['number']}. {rec.title}" if rec.meta["number"] else rec.title or ""


def _check_promises(b: _Builder, toc: list[Record]) -> None:
    """Every TOC entry must appear in the body; missing ones at the end mean truncation."""
    rules = {numbers.normalize(r.number): r for r in b.records if r.kind == "rule" and r.number}
    headings = {r.title for r in b.records if r.kind == "heading"}
    found = []
    for entry in toc:
        if entry.meta["number"]:
            body = rules.get(entry.meta["number"])
            found.append(body is not None)
            if body is not None and _norm_title(body.title) != _norm_title(entry.title):
                b.warn(body.first_line, "toc-mismatch",
                       f"heading {body.title!r} differs from the table of contents "
                       f"entry {entry.title!r} (line {entry.first_line})", numbers.normalize(body.number or ""))
        else:
            found.append(entry.title in headings)
    last = max((k for k, ok in enumerate(found) if ok), default=-1)
    for k, entry in enumerate(toc):
        if found[k]:
            continue
        if k > last:
            raise SourceError(b.path, len(b.lines),
                              f"truncated file: the table of contents promises {_toc_label(entry)!r} "
                              f"but the file ends at line {len(b.lines)}")
        b.warn(entry.first_line, "toc-missing",
               f"the table of contents lists {_toc_label(entry)!r} but the body has no such heading",
               entry.meta["number"])


def _norm_title(title: str | None) -> str:
    return clean(title or "").rstrip(".")


# --- front matter ---------------------------------------------------------------------


def _blocks(lines: list[str], start: int, end: int) -> list[list[int]]:
    """Blank-separated groups of 0-based line indexes."""
    out: list[list[int]] = []
    cur: list[int] = []
    for i in range(start, end):
        if _is_blank(lines[i]):
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(i)
    if cur:
        out.append(cur)
    return out


def _looks_like_heading(line: str) -> bool:
    text = clean(line)
    return 0 < len(text) <= HEADING_MAX and not re.search(r"[.,;:!?\-]$", text)


def _parse_front(b: _Builder, start: int, end: int) -> None:
    """Title lines and introduction between the TOC and the first chapter heading."""
    for block in _blocks(b.lines, start, end):
        if _looks_like_heading(b.lines[block[0]]):
            b.add(Record("heading", [Span(block[0] + 1)], title=clean(b.lines[block[0]])))
            block = block[1:]
        if block:
            rec = Record("paragraph", [Span(i + 1) for i in block], text=join_wrapped([b.lines[i] for i in block]))
            _check_text(b, rec, [(i + 1, b.lines[i]) for i in block])
            b.add(rec)


# --- rules ----------------------------------------------------------------------------


def _parse_rules(b: _Builder, start: int, end: int) -> None:
    """Chapters, sections, rules and examples from the first chapter heading on."""
    first = len(b.records)
    block: _Block | None = None
    last_rule: int | None = None
    blank = False
    for i in range(start, end):
        no, line = i + 1, b.lines[i]
        if _is_blank(line):
            blank = True
            continue
        if _is_source(line):
            b.add(Record("boilerplate", [Span(no)], text=clean(line), meta={"what": "source"}))
            continue
        heading = CHAPTER_RE.match(line) or SECTION_RE.match(line)
        rule = RULE_RE.match(line)
        example = EXAMPLE_RE.match(line)
        if heading or rule or example:
            last_rule = _flush(b, block, last_rule)
            block = None
        if heading:
            last_rule = b.add(Record("rule", [Span(no)], number=heading["number"], title=clean(heading["title"])))
        elif rule:
            block = _Block("rule", [(no, rule["text"] or "")], number=rule["number"])
            _check_number(b, no, rule["number"])
        elif example:
            block = _Block("example", [(no, example["text"])], label=EXAMPLE_LABEL, owner=last_rule)
        elif block is None:
            b.warn(no, "orphan-line", "text line outside any rule or example")
        else:
            if blank:
                b.warn(no, "detached-continuation", "continuation line after a blank line", block.number)
            block.lines.append((no, line))
        blank = False
    _flush(b, block, last_rule)
    _mark_title_rules(b.records, first)


def _check_number(b: _Builder, no: int, number: str) -> None:
    """Rules print ``100.1.`` (trailing dot) and subrules ``214.6a`` (none)."""
    has_letter = number.rstrip(".")[-1].isalpha()
    if has_letter == number.endswith("."):
        b.warn(no, "number-format", f"rule number {number!r} deviates from the printed convention "
               f"('100.1.' for rules, '214.6a' for subrules)", numbers.normalize(number))


def _flush(b: _Builder, block: _Block | None, last_rule: int | None) -> int | None:
    """Turn a collected block into a record; returns the index of the latest rule."""
    if block is None:
        return last_rule
    rec = Record(block.kind, [Span(no) for no, _ in block.lines], text=join_wrapped([t for _, t in block.lines]),
                 number=block.number, label=block.label, owner=block.owner)
    owner_number = block.number or (b.records[block.owner].number if block.owner is not None else None)
    _check_text(b, rec, block.lines, numbers.normalize(owner_number) if owner_number else None)
    idx = b.add(rec)
    return idx if block.kind == "rule" else last_rule


def _mark_title_rules(records: list[Record], first: int) -> None:
    """``214.6. Artefakte`` followed by ``214.6a``: a one-line rule that only titles its subrules."""
    for k in range(first, len(records) - 1):
        rec, nxt = records[k], records[k + 1]
        if rec.kind != "rule" or not rec.number or rec.title is not None or len(rec.spans) != 1:
            continue
        own = numbers.split(rec.number)
        sub = numbers.split(nxt.number) if nxt.kind == "rule" and nxt.number else None
        if own and sub and own[2] is None and sub[2] and sub[:2] == own[:2] and not rec.text.endswith(":"):
            rec.title = rec.text[:-1] if rec.text.endswith(".") else rec.text
            rec.text = ""


# --- defect detection in prose ----------------------------------------------------------


def _check_text(b: _Builder, rec: Record, lines: list[tuple[int, str]], number: str | None = None) -> None:
    """Warn (once per record and defect) about lost placeholders and doubled full stops."""
    where = f"{rec.kind} {number or rec.title or ''}".rstrip()
    gap = _lost_placeholder(lines)
    if gap:
        no, snippet = gap
        b.warn(no, "lost-placeholder",
               f"{where}: text may have lost a placeholder in extraction: {snippet!r}", number)
    for no, text in lines:
        m = DOUBLE_PERIOD_RE.search(text)
        if m:
            b.warn(no, "double-period", f"{where}: doubled full stop: {_around(text, m.start())!r}", number)
            break


def _lost_placeholder(lines: list[tuple[int, str]]) -> tuple[int, str] | None:
    """First spot where a placeholder like ``<Karte>`` seems to have been dropped.

    Signs: two spaces inside a sentence, a space before ``,`` or ``.``, a
    continuation line starting with a single space or with ``,``/``.``, and a
    quotation mark with nothing quoted next to it (``"Regeneriere " bedeutet``,
    ``um “``).
    """
    for k, (no, raw) in enumerate(lines):
        if k > 0 and re.match(r"^ \S", raw):
            return no, raw.strip()[:40]
        text = raw.strip()
        if k > 0 and text[:1] in ",.":
            return no, text[:40]
        for rx in (GAP_RE, SPACE_PUNCT_RE, EMPTY_QUOTE_RE):
            m = rx.search(text)
            if m:
                return no, _around(text, m.start())
    return None


def _around(text: str, pos: int, width: int = 20) -> str:
    return text[max(0, pos - width):pos + width].strip()


# --- glossary -------------------------------------------------------------------------


def _parse_glossary(b: _Builder, start: int, end: int) -> None:
    """``Glossar`` heading, then term line + definition lines per entry."""
    b.add(Record("heading", [Span(start + 1)], title=clean(b.lines[start])))
    entries: list[list[int]] = []
    blank = True
    for i in range(start + 1, end):
        line = b.lines[i]
        if _is_blank(line):
            blank = True
            continue
        if _is_source(line):
            b.add(Record("boilerplate", [Span(i + 1)], text=clean(line), meta={"what": "source"}))
            continue
        if blank and not line[:1].isspace() and (_is_term(line) or not entries):
            entries.append([i])
        elif entries:
            if blank and not line[:1].isspace():
                b.warn(i + 1, "glossary-term",
                       f"unindented line after a blank line is not a term: {clean(line)[:40]!r}")
            entries[-1].append(i)
        blank = False
    for entry in entries:
        _glossary_entry(b, entry)


def _is_term(line: str) -> bool:
    text = clean(line)
    return len(text) <= HEADING_MAX and not re.search(r"[.,;:]$", text)


def _glossary_entry(b: _Builder, entry: list[int]) -> None:
    term, body = entry[0], entry[1:]
    table_at = next((k for k, i in enumerate(body) if _starts_table(b.lines, i, body)), len(body))
    prose = [(i + 1, b.lines[i]) for i in body[:table_at]]
    text = join_wrapped([t for _, t in prose])
    rows = _table_rows(b.lines, body[table_at:])
    if rows:
        text = "\n".join([text] + rows) if text else "\n".join(rows)
    rec = Record("glossary", [Span(i + 1) for i in entry], text=text, title=clean(b.lines[term]))
    if not body:
        b.warn(term + 1, "glossary-empty", f"glossary term {rec.title!r} has no definition")
    _check_text(b, rec, prose)
    b.add(rec)


def _starts_table(lines: list[str], i: int, body: list[int]) -> bool:
    """An indented line with a tab, or an indented line followed by a blank line, starts a table."""
    line = lines[i]
    if not line[:1].isspace():
        return False
    return "\t" in line.strip() or (i + 1 < len(lines) and _is_blank(lines[i + 1]) and i + 1 <= body[-1])


def _table_rows(lines: list[str], rows: list[int]) -> list[str]:
    """One string per table row; cells (separated by tabs) joined by a tab; wrapped prose joined."""
    out = []
    for block in _groups(rows):
        cells = [[clean(c) for c in lines[i].strip().split("\t") if clean(c)] for i in block]
        if len(block) > 1 and all(len(c) <= 1 for c in cells):
            # a wrapped note, possibly under a one-line group heading ("Neuauflagen")
            if _looks_like_heading(lines[block[0]]):
                out.append(clean(lines[block[0]]))
                block = block[1:]
            out.append(join_wrapped([lines[i] for i in block]))
        else:
            out.extend("\t".join(c) for c in cells if c)
    return out


def _groups(indexes: list[int]) -> list[list[int]]:
    """Runs of consecutive line indexes (a gap is a blank line)."""
    out: list[list[int]] = []
    for i in indexes:
        if out and out[-1][-1] == i - 1:
            out[-1].append(i)
        else:
            out.append([i])
    return out


# --- index ----------------------------------------------------------------------------


def _parse_index(b: _Builder, start: int, end: int) -> None:
    """``Index`` heading, then ``Term, refs`` lines; tab-indented lines are sub-entries."""
    b.add(Record("heading", [Span(start + 1)], title=clean(b.lines[start])))
    parent: str | None = None
    for i in range(start + 1, end):
        no, line = i + 1, b.lines[i]
        if _is_blank(line):
            continue
        if _is_source(line):
            b.add(Record("boilerplate", [Span(no)], text=clean(line), meta={"what": "source"}))
            continue
        m = INDEX_RE.match(line)
        if not m:
            b.warn(no, "index-format", f"not an index entry 'Term, refs': {clean(line)[:40]!r}")
            continue
        term, refs = clean(m["term"]), m["refs"]
        sub = bool(m["indent"])
        b.add(Record("index", [Span(no)], text=refs, title=term, meta={"parent_term": parent if sub else None}))
        if not sub:
            parent = term
        _check_index(b, no, line, m)


def _check_index(b: _Builder, no: int, line: str, m: re.Match) -> None:
    term = clean(m["term"])
    if not m["comma"]:
        b.warn(no, "index-missing-comma", f"index entry {term!r}: no comma between term and references")
    parts = [p.strip() for p in m["refs"].split(",")]
    if any(not p for p in parts):
        b.warn(no, "index-empty-ref", f"index entry {term!r}: empty reference in {m['refs']!r}")
    bad = [p for p in parts if p and not INDEX_REF_RE.match(p)]
    if bad:
        b.warn(no, "index-bad-ref", f"index entry {term!r}: not a rule number or range: {bad[0]!r}")
    if "  " in line.strip():
        b.warn(no, "index-spacing", f"index entry {term!r}: double space")


# --- credits --------------------------------------------------------------------------


def _parse_credits(b: _Builder, start: int, end: int) -> None:
    """From ``Danke`` to the end: credits, copyright, date and source lines, one record per block."""
    for block in _blocks(b.lines, start, end):
        first = clean(b.lines[block[0]])
        if all(_is_source(b.lines[i]) for i in block):
            what = "source"
        elif COPYRIGHT_RE.match(first):
            what = "copyright"
        elif len(block) == 1 and DATE_RE.search(first):
            what = "date"
        else:
            what = "credits"
        b.add(Record("boilerplate", [Span(i + 1) for i in block],
                     text=join_wrapped([b.lines[i] for i in block]), meta={"what": what}))
