"""The SQLite schema of the KB's core tables, and fast bulk writes into it.

:func:`create` makes the tables (with primary and foreign keys, through sqlite-utils),
:func:`insert_document` appends one document's rows, :func:`finish` adds the indexes and the
full-text indexes once every document is in.  The later stages (engine trace links,
alignments, diffs) add their own tables.
"""
from __future__ import annotations

from operator import itemgetter

import sqlite_utils

from .manifest import Manifest
from .rows import ID_COLUMNS, DocumentRows

COLUMNS: dict[str, dict[str, type]] = {
    "rules": {"id": int, "key": str, "edition_id": str, "language": str, "document_id": str, "number": str,
              "norm": str, "level": str, "chapter": int, "section": int, "parent_id": int, "title": str,
              "text": str, "text_norm": str, "lemmas": str, "seq": int, "line_start": int, "line_end": int,
              "text_sha256": str},
    "items": {"id": int, "edition_id": str, "language": str, "document_id": str, "kind": str, "rule_id": int,
              "label": str, "title": str, "text": str, "text_norm": str, "lemmas": str, "seq": int,
              "line_start": int, "line_end": int, "meta": str},
    "refs": {"id": int, "edition_id": str, "from_rule_id": int, "from_item_id": int, "kind": str, "raw": str,
             "target": str, "range_end": str, "target_rule_id": int, "resolved": int, "line": int},
    "unparsed": {"id": int, "document_id": str, "edition_id": str, "line": int, "text": str, "reason": str},
    "warnings": {"id": int, "document_id": str, "path": str, "line": int, "code": str, "number": str,
                 "message": str},
    "source_lines": {"document_id": str, "line": int, "col_start": int, "col_end": int, "text": str,
                     "record_table": str, "record_id": int, "kind": str},
}
FOREIGN_KEYS = {
    "rules": [("edition_id", "editions", "id"), ("document_id", "documents", "id"), ("parent_id", "rules", "id")],
    "items": [("edition_id", "editions", "id"), ("document_id", "documents", "id"), ("rule_id", "rules", "id")],
    "refs": [("edition_id", "editions", "id"), ("from_rule_id", "rules", "id"), ("from_item_id", "items", "id"),
             ("target_rule_id", "rules", "id")],
    "unparsed": [("document_id", "documents", "id"), ("edition_id", "editions", "id")],
    "warnings": [("document_id", "documents", "id")],
    "source_lines": [("document_id", "documents", "id")],
}
PRIMARY_KEYS: dict[str, str | tuple[str, ...]] = {"source_lines": ("document_id", "line", "col_start")}
INDEXES = (("rules", ["edition_id", "norm"]), ("rules", ["edition_id", "seq"]), ("rules", ["parent_id"]),
           ("items", ["rule_id"]), ("items", ["edition_id", "kind"]), ("refs", ["target_rule_id"]),
           ("refs", ["from_rule_id"]), ("refs", ["from_item_id"]))


def create(db: sqlite_utils.Database, manifest: Manifest) -> None:
    """The documents and editions of the manifest, and the empty core tables."""
    # pages of 16 KiB instead of 4: the bulk inserts and the full-text indexes of an archive build cost about a
    # tenth less CPU, and the file is smaller (the database is written once, then only read)
    db.execute("pragma page_size = 16384")
    db.execute("pragma journal_mode = off")
    db.execute("pragma synchronous = off")
    db.table("documents").insert_all(
        ({"id": d.id, "path": f"data/{d.path}", "sha256": d.sha256, "parser": d.parser, "encoding": d.encoding,
          "source": d.source, "lines": 0} for d in manifest.documents), pk="id")
    db.table("editions").insert_all(
        ({"id": e.id, "document_id": d.id, "language": e.language, "date": e.date, "kind": e.kind,
          "title": e.title, "parser": d.parser, "source": f"data/{d.path}", "family": e.family or None,
          "translation_of": e.translation_of or None, "covers": " ".join(e.covers) or None,
          "align_with": " ".join(e.align_with) or None} for d, e in manifest.editions),
        pk="id", foreign_keys=[("document_id", "documents", "id")])
    for table, columns in COLUMNS.items():
        db.table(table).create(columns, pk=PRIMARY_KEYS.get(table, "id"), foreign_keys=FOREIGN_KEYS[table])


def insert_document(db: sqlite_utils.Database, document_id: str, rows: DocumentRows, base: dict[str, int]) -> None:
    """Append one document's rows (one transaction; executemany, not row-by-row inserts).

    Its rows are numbered from 1 (:func:`kb.rows.cacheable_rows`): the insert adds ``base``, the ids earlier
    documents used per table (:meth:`kb.rows.DocumentRows.claim`), to every id column (NULL stays NULL).
    """
    with db.conn:
        for table, columns in rows.columns.items():
            db.conn.executemany(insert_sql(table, list(columns), base), zip(*columns.values()))
        if rows.warnings:
            names = list(COLUMNS["warnings"])
            db.conn.executemany(insert_sql("warnings", names, {}), map(itemgetter(*names), rows.warnings))
        first_columns = rows.columns.get("source_lines", {}).get("col_start", []).count(0)
        db.conn.execute("update documents set lines = ? where id = ?", (first_columns, document_id))


def insert_rows(db: sqlite_utils.Database, table: str, rows: list[dict]) -> None:
    """Rows (dicts with the same keys) into an existing table: one statement, one transaction (sqlite-utils'
    ``insert_all`` checks and converts every value, several times slower for the build's tables)."""
    if not rows:
        return
    names = list(rows[0])
    with db.conn:
        db.conn.executemany(f"insert into [{table}] ({', '.join(f'[{c}]' for c in names)}) "
                            f"values ({', '.join('?' * len(names))})", [tuple(r[c] for c in names) for r in rows])


def insert_sql(table: str, names: list[str], base: dict[str, int]) -> str:
    """The insert of one row of ``table``, its id columns moved by ``base`` (also the side index's tables,
    :mod:`kb.fts`, which share the names)."""
    values = []
    for i, name in enumerate(names, 1):
        target = ID_COLUMNS.get(table, {}).get(name)
        if target:
            values.append(f"?{i} + {base.get(target, 0)}")
        elif table == "source_lines" and name == "record_id" and base:
            by_table = " ".join(f"when '{t}' then {n}" for t, n in base.items())
            values.append(f"?{i} + case ?{names.index('record_table') + 1} {by_table} else 0 end")
        else:
            values.append(f"?{i}")
    return f"insert into [{table}] ({', '.join(f'[{c}]' for c in names)}) values ({', '.join(values)})"


def finish(db: sqlite_utils.Database) -> None:
    """The indexes of the core tables (the full-text indexes are :mod:`kb.fts`'s)."""
    for table, cols in INDEXES:
        db.table(table).create_index(cols)
