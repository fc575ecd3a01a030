"""One parsed document -> rows of the KB tables (rules, items, unparsed, warnings, source lines, refs).

:class:`Ids` hands out the row ids of the whole build, so that documents can be turned into rows
one at a time (and their memory freed) while ids stay unique and in manifest order.  Everything
here is per document: parents, cross-references and duplicate numbers never cross a document.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

from ingest import Parsed, Record, get_parser, numbers, refs, symbols

from .manifest import Document, EditionEntry

ITEM_KINDS_WITH_REFS = {"example", "note", "faq", "paragraph", "step", "glossary", "index", "heading"}


@dataclass
class Ids:
    """The last id used per table, across the documents of one build."""

    last: Counter = field(default_factory=Counter)

    def next(self, table: str) -> int:
        self.last[table] += 1
        return self.last[table]


#: the columns of each table that hold row ids, and the table they number (``source_lines.record_id``
#: numbers the table its ``record_table`` names)
ID_COLUMNS: dict[str, dict[str, str]] = {
    "rules": {"id": "rules", "parent_id": "rules"},
    "items": {"id": "items", "rule_id": "rules"},
    "unparsed": {"id": "unparsed"},
    "refs": {"id": "refs", "from_rule_id": "rules", "from_item_id": "items", "target_rule_id": "rules"},
}


@dataclass
class DocumentRows:
    """One document's rows as the parse cache keeps them and the build writes them (:func:`cacheable_rows`).

    Per table (rules, items, refs, unparsed, source_lines), a list of values per column: lists of plain
    values load from the cache several times faster than a dict per row, and ``zip`` turns them into the
    parameters of one insert.  Ids are numbered from 1 (:meth:`claim`).  The warnings stay dicts: the build
    numbers and reports them.
    """

    columns: dict[str, dict[str, list]]
    warnings: list[dict]
    #: ids this document used, per table
    used: dict[str, int]

    def claim(self, ids: Ids) -> dict[str, int]:
        """Count this document's ids into ``ids``; returns the ids handed out before it, per table, which writing
        adds to the id columns of its rows (:func:`kb.schema.insert_document`): the result is what numbering
        with ``ids`` directly would have given, as nothing here refers to another document."""
        base = dict(ids.last)
        for table, n in self.used.items():
            ids.last[table] += n
        return base


#: the columns of each table, in the order of its rows' values
COLUMNS = {
    "rules": ("id", "key", "edition_id", "language", "document_id", "seq", "line_start", "line_end", "number", "norm",
              "level", "chapter", "section", "parent_id", "title", "text", "text_norm", "text_sha256"),
    "items": ("id", "edition_id", "language", "document_id", "seq", "line_start", "line_end", "kind", "rule_id",
              "label", "title", "text", "text_norm", "meta"),
    "refs": ("id", "edition_id", "from_rule_id", "from_item_id", "raw", "range_end", "line", "kind", "target",
             "target_rule_id", "resolved"),
    "unparsed": ("id", "document_id", "edition_id", "line", "text", "reason"),
    "source_lines": ("document_id", "line", "col_start", "col_end", "text", "record_table", "record_id", "kind"),
}
#: the tables whose ids records take, and the table of each record kind (every other kind is an item)
RECORD_TABLES = {"rule": "rules", "unparsed": "unparsed"}


def lemma_text(title: str | None, text: str | None) -> str:
    """The text lemmatised for a rule or item: title and text joined."""
    return f"{title} {text}" if title and text else title or text or ""


def texts_of(doc: Document, parsed: Parsed) -> list[tuple[str, str]]:
    """(language, text) of every rule and item row of a document (:func:`lemma_text`)."""
    language = {lang: doc.edition_for(lang).language for lang in {rec.lang for rec in parsed.records}}
    return [(language[rec.lang], lemma_text(rec.title, rec.text)) for rec in parsed.records if rec.kind != "unparsed"]


def cacheable_rows(doc: Document, parsed: Parsed, lines: list[str]) -> DocumentRows:
    """The rows of one document numbered from 1 (see :meth:`DocumentRows.claim`): what the parse cache keeps."""
    return document_rows(doc, parsed, lines, Ids())


def document_rows(doc: Document, parsed: Parsed, lines: list[str], ids: Ids) -> DocumentRows:
    """The rows of one document, numbered on from ``ids`` (lemmas are filled in later, see :mod:`kb.cache`).

    Rows are tuples in the order of :data:`COLUMNS` until :meth:`_Rows.columns` turns them into columns (the source
    lines, the largest table, go straight to theirs); what depends on a text or a number only is computed once per
    process (:func:`_text_norm`, :func:`_sha256`, :func:`_number`, :func:`ingest.refs.find_refs`): a worker parses
    many editions, which repeat most of their texts word for word."""
    out = _Rows(doc, get_parser(doc.parser).symbols, ids)
    out.add(parsed.records)
    path = f"data/{doc.path}"
    warnings = [{"document_id": doc.id, "path": path, "line": w.line, "code": w.code, "number": w.number,
                 "message": w.message} for w in parsed.warnings]
    warnings += [{"document_id": doc.id, "path": path, "line": rec.first_line, "code": "unparsed", "number": None,
                  "message": f"unparsed line ({rec.meta.get('reason', '')}): {rec.text[:60]}"}
                 for rec in parsed.records if rec.kind == "unparsed"]
    out.link_parents()
    out.link_owners(parsed.records)
    out.resolve_refs()
    columns = out.columns()
    if parsed.records:
        columns["source_lines"] = out.source_lines(parsed.records, lines)
    return DocumentRows(columns, warnings, out.claim())


class _Rows:
    """The rows of one document as :func:`document_rows` collects them."""

    def __init__(self, doc: Document, scheme: str, ids: Ids):
        self.doc, self.scheme, self.ids = doc, scheme, ids
        self.rows: dict[str, list[tuple]] = {table: [] for table in ("rules", "items", "refs", "unparsed")}
        #: the id before the first of this document, per table
        self.base = {table: ids.last.get(table, 0) for table in self.rows}
        #: per record: its table and id
        self.tables: list[str] = []
        self.ids_of_records: list[int] = []
        self.editions: dict[str | None, EditionEntry] = {}
        self.seq: dict[str, int] = {}
        #: per edition: normalised number -> first rule id, and numbers in document order
        self.rule_ids: dict[str, dict[str, int]] = defaultdict(dict)
        self.order: dict[str, list[str]] = defaultdict(list)
        #: per edition: its numbers indexed for ranges (:meth:`_levels`), once they are all known
        self.levels: dict[str, numbers.Levels] = {}
        self.parent_ids: list[int | None] = []
        self.rule_ids_of_items: list[int | None] = []

    def add(self, records: list[Record]) -> None:
        """The rows of the records (names bound once: a document has thousands)."""
        rows, base, editions, seq = self.rows, self.base, self.editions, self.seq
        add_table, add_id = self.tables.append, self.ids_of_records.append
        for rec in records:
            edition = editions.get(rec.lang) or editions.setdefault(rec.lang, self.doc.edition_for(rec.lang))
            table = RECORD_TABLES.get(rec.kind, "items")
            table_rows = rows[table]
            rid = base[table] + len(table_rows) + 1
            add_table(table)
            add_id(rid)
            if table == "unparsed":
                table_rows.append((rid, self.doc.id, edition.id, rec.spans[0].line, rec.text,
                                   rec.meta.get("reason", "")))
            else:
                n = seq[edition.id] = seq.get(edition.id, 0) + 1
                table_rows.append(self._rule(rid, rec, edition, n) if table == "rules" else
                                  self._item(rid, rec, edition, n))

    def _rule(self, rid: int, rec: Record, edition: EditionEntry, seq: int) -> tuple:
        norm, level, chapter, section = _number(rec.number or "")
        known = self.rule_ids[edition.id]
        spans = rec.spans
        key = f"{edition.id}/{norm}"
        if norm in known:
            key += f"#{spans[0].line}"
        else:
            known[norm] = rid
            self.order[edition.id].append(norm)
        text = rec.text or ""
        return (rid, key, edition.id, edition.language, self.doc.id, seq, spans[0].line, spans[-1].line, rec.number,
                norm, level, chapter, section, None, rec.title, text, _text_norm(text, self.scheme),
                _sha256(text))

    def _item(self, rid: int, rec: Record, edition: EditionEntry, seq: int) -> tuple:
        text = rec.text or ""
        spans = rec.spans
        return (rid, edition.id, edition.language, self.doc.id, seq, spans[0].line, spans[-1].line, rec.kind, None,
                rec.label, rec.title, rec.text, _text_norm(text, self.scheme),
                json.dumps(rec.meta, ensure_ascii=False) if rec.meta else None)

    def source_lines(self, records: list[Record], lines: list[str]) -> dict[str, list]:
        """The columns of the source lines: a row per span of each record (the largest table: its values go
        straight to their columns)."""
        columns: dict[str, list] = {name: [] for name in COLUMNS["source_lines"]}
        add_line, add_start, add_end, add_text, add_table, add_id, add_kind = (
            columns[name].append for name in COLUMNS["source_lines"][1:])
        for rec, table, rid in zip(records, self.tables, self.ids_of_records):
            for s in rec.spans:
                line = lines[s.line - 1]
                end = len(line) if s.end is None else s.end
                add_line(s.line)
                add_start(s.start)
                add_end(end)
                add_text(line[s.start:end])
                add_table(table)
                add_id(rid)
                add_kind(rec.kind)
        columns["document_id"] = [self.doc.id] * len(columns["line"])
        return columns

    def link_parents(self) -> None:
        """Parent = nearest existing ancestor number of the same edition."""
        for edition, norm, level in map(_fields("rules", "edition_id", "norm", "level"), self.rows["rules"]):
            self.parent_ids.append(None if level is None else _nearest(_ancestors(norm), self.rule_ids[edition]))

    def link_owners(self, records: list[Record]) -> None:
        """The rule of each item: the rule record it hangs off, if any."""
        for rec, table in zip(records, self.tables):
            if table == "items":
                self.rule_ids_of_items.append(self._rule_id(rec.owner))

    def _rule_id(self, record: int | None) -> int | None:
        """The id of the record at index ``record`` if it is a rule."""
        if record is None or not 0 <= record < len(self.tables) or self.tables[record] != "rules":
            return None
        return self.ids_of_records[record]

    def resolve_refs(self) -> None:
        """Cross-references of the rules and items; ranges expand to the members the edition has."""
        rules = map(_fields("rules", "id", "edition_id", "line_start", "text"), self.rows["rules"])
        for rid, edition, line, text in rules:
            if found := refs.find_refs(text):
                self._refs(edition, rid, None, line, "text", found)
        items = map(_fields("items", "id", "edition_id", "line_start", "kind", "text"), self.rows["items"])
        for rid, edition, line, kind, text in items:
            if kind in ITEM_KINDS_WITH_REFS and text and (found := refs.find_refs(text, kind == "index")):
                self._refs(edition, None, rid, line, kind, found)

    def _refs(self, edition: str, rule_id: int | None, item_id: int | None, line: int, kind: str,
              found: tuple[refs.Ref, ...]) -> None:
        rows = self.rows["refs"]
        known = self.rule_ids[edition]
        for r in found:
            targets = numbers.expand_in(r.target, r.range_end, self._levels(edition)) if r.range_end else [r.target]
            resolved = [n for n in targets if n in known]
            if not resolved:
                rows.append((self.base["refs"] + len(rows) + 1, edition, rule_id, item_id, r.raw, r.range_end, line,
                             kind, r.target, None, 0))
            for n in resolved:
                rows.append((self.base["refs"] + len(rows) + 1, edition, rule_id, item_id, r.raw, r.range_end, line,
                             kind, n, known[n], 1))

    def _levels(self, edition: str) -> numbers.Levels:
        """The rule numbers of ``edition`` indexed for ranges (:func:`ingest.numbers.by_level`), once per edition."""
        levels = self.levels.get(edition)
        if levels is None:
            levels = self.levels[edition] = numbers.by_level(tuple(self.order[edition]))
        return levels

    def columns(self) -> dict[str, dict[str, list]]:
        """Per table with rows, a list of values per column."""
        out = {table: dict(zip(COLUMNS[table], map(list, zip(*rows)))) for table, rows in self.rows.items() if rows}
        if "rules" in out:
            out["rules"]["parent_id"] = self.parent_ids
        if "items" in out:
            out["items"]["rule_id"] = self.rule_ids_of_items
        return out

    def claim(self) -> dict[str, int]:
        """The ids this document used per table (in the order the tables first took one), counted into ``ids``."""
        tables = [*dict.fromkeys(self.tables), "refs"]
        used = {table: len(self.rows[table]) for table in tables if self.rows[table]}
        for table, n in used.items():
            self.ids.last[table] += n
        return used


def _fields(table: str, *names: str) -> itemgetter:
    """The values of the columns ``names`` in a row of ``table`` (a tuple in the order of :data:`COLUMNS`)."""
    return itemgetter(*(COLUMNS[table].index(name) for name in names))


@lru_cache(maxsize=None)
def _number(printed: str) -> tuple[str, str | None, int | None, int | None]:
    """The norm, level, chapter and section columns of a printed rule number (None for no valid number); cached,
    as the editions of an archive repeat their numbers."""
    norm = numbers.normalize(printed)
    if not numbers.is_number(norm):
        return norm, None, None, None
    return (norm, numbers.level(norm), numbers.chapter(norm),
            int(norm.split(".")[0]) if "." in norm else (int(norm) if len(norm) == 3 else None))


def _nearest(candidates: tuple[str, ...], known: dict[str, int]) -> int | None:
    """The id of the first of ``candidates`` that is ``known``."""
    for n in candidates:
        if n in known:
            return known[n]
    return None


@lru_cache(maxsize=None)
def _ancestors(norm: str) -> tuple[str, ...]:
    """The numbers above a valid normalised number, nearest first."""
    out = []
    p = numbers.parent(norm)
    while p is not None:
        out.append(p)
        p = numbers.parent(p)
    return tuple(out)


def _text_norm(text: str, scheme: str) -> str:
    """``text`` with its symbols normalised (:func:`ingest.symbols.normalize`); ``text`` itself when that changes
    nothing, so that the pickled rows hold one string for both columns."""
    changed = _changed_text(text, scheme)
    return text if changed is None else changed


@lru_cache(maxsize=1 << 16)
def _changed_text(text: str, scheme: str) -> str | None:
    """Cached per distinct text: consecutive editions repeat most texts word for word."""
    norm = symbols.normalize(text, scheme)
    return None if norm == text else norm


@lru_cache(maxsize=1 << 16)
def _sha256(text: str) -> str:
    """Cached per distinct text, as :func:`_changed_text`."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
