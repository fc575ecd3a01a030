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

from ingest import Parsed, Record, get_parser, numbers, refs, symbols

from .manifest import Document

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
class Rows:
    """One document's rows as :func:`document_rows` makes them: a dict per row."""

    rules: list[dict] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)
    unparsed: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    lines: list[dict] = field(default_factory=list)
    refs: list[dict] = field(default_factory=list)
    #: per edition: normalised number -> first rule id, and numbers in document order
    rule_ids: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    order: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


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


def lemma_text(title: str | None, text: str | None) -> str:
    """The text lemmatised for a rule or item: title and text joined."""
    return " ".join(x for x in (title, text) if x)


def texts_of(doc: Document, parsed: Parsed) -> list[tuple[str, str]]:
    """(language, text) of every rule and item row of a document (:func:`lemma_text`)."""
    return [(doc.edition_for(rec.lang).language, lemma_text(rec.title, rec.text))
            for rec in parsed.records if rec.kind != "unparsed"]


def document_rows(doc: Document, parsed: Parsed, lines: list[str], ids: Ids) -> Rows:
    """The rows of one document (lemmas are filled in later, see :mod:`kb.cache`)."""
    out = Rows()
    scheme = get_parser(doc.parser).symbols
    rec_ids: dict[int, tuple[str, int]] = {}
    seq: Counter = Counter()
    path = f"data/{doc.path}"
    for i, rec in enumerate(parsed.records):
        edition = doc.edition_for(rec.lang)
        seq[edition.id] += 1
        common = {"edition_id": edition.id, "language": edition.language, "document_id": doc.id,
                  "seq": seq[edition.id], "line_start": rec.first_line, "line_end": rec.last_line}
        if rec.kind == "rule":
            rid = ids.next("rules")
            rec_ids[i] = ("rules", rid)
            out.rules.append(_rule_row(out, rid, rec, common, scheme))
        elif rec.kind == "unparsed":
            rid = ids.next("unparsed")
            rec_ids[i] = ("unparsed", rid)
            out.unparsed.append({"id": rid, "document_id": doc.id, "edition_id": edition.id,
                                 "line": rec.first_line, "text": rec.text, "reason": rec.meta.get("reason", "")})
        else:
            rid = ids.next("items")
            rec_ids[i] = ("items", rid)
            out.items.append({
                "id": rid, **common, "kind": rec.kind, "rule_id": None,
                "label": rec.label, "title": rec.title, "text": rec.text,
                "text_norm": symbols.normalize(rec.text or "", scheme),
                "meta": json.dumps(rec.meta, ensure_ascii=False) if rec.meta else None,
            })
    items_by_id = {row["id"]: row for row in out.items}
    for i, rec in enumerate(parsed.records):
        table, rid = rec_ids[i]
        if rec.owner is not None and table == "items":
            owner_table, owner_id = rec_ids.get(rec.owner, (None, None))
            if owner_table == "rules":
                items_by_id[rid]["rule_id"] = owner_id
        for s in rec.spans:
            text = lines[s.line - 1]
            end = len(text) if s.end is None else s.end
            out.lines.append({"document_id": doc.id, "line": s.line, "col_start": s.start, "col_end": end,
                              "text": text[s.start:end], "record_table": table, "record_id": rid, "kind": rec.kind})
    for w in parsed.warnings:
        out.warnings.append({"document_id": doc.id, "path": path, "line": w.line, "code": w.code,
                             "number": w.number, "message": w.message})
    for rec in parsed.records:
        if rec.kind == "unparsed":
            out.warnings.append({"document_id": doc.id, "path": path, "line": rec.first_line,
                                 "code": "unparsed", "number": None,
                                 "message": f"unparsed line ({rec.meta.get('reason', '')}): {rec.text[:60]}"})
    _link_parents(out)
    _resolve_refs(out, ids)
    return out


def cacheable_rows(doc: Document, parsed: Parsed, lines: list[str]) -> DocumentRows:
    """The rows of one document numbered from 1 (see :meth:`DocumentRows.claim`), without the lookups that
    only building them needs: what the parse cache keeps."""
    local = Ids()
    out = document_rows(doc, parsed, lines, local)
    tables = {"rules": out.rules, "items": out.items, "refs": out.refs, "unparsed": out.unparsed,
              "source_lines": out.lines}
    columns = {table: {name: [row[name] for row in rows] for name in rows[0]} for table, rows in tables.items() if rows}
    return DocumentRows(columns, out.warnings, dict(local.last))


def _rule_row(out: Rows, rid: int, rec: Record, common: dict, scheme: str) -> dict:
    norm = numbers.normalize(rec.number or "")
    edition = common["edition_id"]
    key = f"{edition}/{norm}"
    if norm in out.rule_ids[edition]:
        key += f"#{rec.first_line}"
    else:
        out.rule_ids[edition][norm] = rid
        out.order[edition].append(norm)
    text = rec.text or ""
    return {
        "id": rid, "key": key, **common, "number": rec.number, "norm": norm, **_number_columns(norm),
        "parent_id": None, "title": rec.title, "text": text, "text_norm": symbols.normalize(text, scheme),
        "text_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
    }


@lru_cache(maxsize=None)
def _number_columns(norm: str) -> dict[str, str | int | None]:
    """The level, chapter and section columns of a normalised rule number (None for no valid number); cached,
    as the editions of an archive repeat their numbers."""
    if not numbers.is_number(norm):
        return {"level": None, "chapter": None, "section": None}
    return {"level": numbers.level(norm), "chapter": numbers.chapter(norm),
            "section": int(norm.split(".")[0]) if "." in norm else (int(norm) if len(norm) == 3 else None)}


def _link_parents(out: Rows) -> None:
    """Parent = nearest existing ancestor number of the same edition."""
    for row in out.rules:
        if row["level"] is None:
            continue
        known = out.rule_ids[row["edition_id"]]
        p = numbers.parent(row["norm"])
        while p is not None and p not in known:
            p = numbers.parent(p)
        row["parent_id"] = known.get(p) if p else None


def _resolve_refs(out: Rows, ids: Ids) -> None:
    """Cross-references of the rules and items; ranges expand to the members the edition has."""
    def add(row: dict, table: str, r: refs.Ref, kind: str) -> None:
        edition = row["edition_id"]
        known, order = out.rule_ids[edition], out.order[edition]
        targets = numbers.expand_range(r.target, r.range_end, order) if r.range_end else [r.target]
        resolved = [n for n in targets if n in known]
        base = {"edition_id": edition, "from_rule_id": row["id"] if table == "rules" else None,
                "from_item_id": row["id"] if table == "items" else None, "raw": r.raw,
                "range_end": r.range_end, "line": row["line_start"], "kind": kind}
        if not resolved:
            out.refs.append({"id": ids.next("refs"), **base, "target": r.target, "target_rule_id": None,
                             "resolved": 0})
        for n in resolved:
            out.refs.append({"id": ids.next("refs"), **base, "target": n, "target_rule_id": known[n],
                             "resolved": 1})

    for row in out.rules:
        for r in refs.find_refs(row["text"]):
            add(row, "rules", r, "text")
    for row in out.items:
        if row["kind"] not in ITEM_KINDS_WITH_REFS or not row["text"]:
            continue
        for r in refs.find_refs(row["text"], bare=row["kind"] == "index"):
            add(row, "items", r, row["kind"])
