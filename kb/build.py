"""Build the knowledge base: manifest -> parsed records -> SQLite.

``build()`` is the one entry point (``kb build`` is a thin layer over it).  It
checks every source file against the manifest's SHA-256, parses it, links rule
parents, examples and cross-references, lemmatises text for search, runs the
later stages (engine trace links, alignments) and writes the database to a
temporary file that replaces the old one only when everything succeeded.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import sqlite_utils

import ingest
from ingest import numbers, refs as refs_mod, symbols
from ingest.model import Record, SourceError
from ingest.registry import get as get_parser

from . import lemmas, paths
from .manifest import Document, Manifest, ManifestError, load, sha256_of

#: Later stages: ``module:function`` called with the database once rules, items and refs exist.
STAGES = [
    ("engine trace links", "kb.trace:store"),
    ("alignments", "kb.align:store"),
    ("diffs", "kb.diff:store"),
]

ITEM_KINDS_WITH_REFS = {"example", "note", "faq", "paragraph", "step", "glossary", "index", "heading"}


class BuildError(Exception):
    pass


@dataclass
class BuildReport:
    db_path: Path
    counts: dict = field(default_factory=dict)
    warnings: list[dict] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    skipped_stages: list[str] = field(default_factory=list)


def _echo(msg: str) -> None:
    pass


def build(db_path: Path = paths.DEFAULT_DB, data_dir: Path = paths.DATA, strict: bool = False,
          stages: bool = True, progress: Callable[[str], None] = _echo) -> BuildReport:
    """Build the KB from ``data_dir/manifest.toml`` into ``db_path``; raises :class:`BuildError`."""
    t0 = time.perf_counter()
    data_dir = Path(data_dir)
    try:
        manifest = load(data_dir / "manifest.toml")
    except ManifestError as e:
        raise BuildError(str(e)) from None
    report = BuildReport(Path(db_path))
    tables = _Tables()
    for doc in manifest.documents:
        t = time.perf_counter()
        parsed, lines = _parse(doc, data_dir)
        _collect(tables, doc, parsed, lines)
        progress(f"parsed {doc.path} with {doc.parser}: {len(parsed.records)} records, "
                 f"{len(parsed.warnings)} warning{'' if len(parsed.warnings) == 1 else 's'} ({time.perf_counter() - t:.2f}s)")
    report.warnings = tables.warnings
    if strict and tables.warnings:
        first = tables.warnings[0]
        raise BuildError(f"{len(tables.warnings)} source warnings and --strict; first: "
                         f"{first['path']}:{first['line']}: {first['message']}")
    t = time.perf_counter()
    _resolve_refs(tables)
    progress(f"resolved {len(tables.refs)} cross-references ({time.perf_counter() - t:.2f}s)")
    t = time.perf_counter()
    _lemmatise(tables)
    progress(f"lemmatised {len(tables.rules) + len(tables.items)} texts ({time.perf_counter() - t:.2f}s)")

    db_path = Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        db = sqlite_utils.Database(tmp)
        _write(db, manifest, tables)
        if stages:
            for name, target in STAGES:
                t = time.perf_counter()
                func = _stage(target)
                if func is None:
                    report.skipped_stages.append(name)
                    continue
                func(db)
                report.timings[name] = time.perf_counter() - t
                progress(f"{name} ({report.timings[name]:.2f}s)")
        report.counts = {name: db[name].count for name in db.table_names() if not name.endswith(
            ("_fts", "_fts_data", "_fts_idx", "_fts_docsize", "_fts_config"))}
        db.execute("analyze")
        db.close()
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
    report.timings["total"] = time.perf_counter() - t0
    progress(f"wrote {db_path} in {report.timings['total']:.2f}s")
    return report


def _stage(target: str):
    module, func = target.split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            return None
        raise
    return getattr(mod, func, None)


def _parse(doc: Document, data_dir: Path):
    path = doc.file(data_dir)
    shown = f"data/{doc.path}"
    if not path.exists():
        raise BuildError(f"{shown}: file listed in the manifest is missing")
    actual = sha256_of(path)
    if actual != doc.sha256:
        raise BuildError(
            f"{shown}: SHA-256 {actual[:16]}… differs from the manifest ({doc.sha256[:16]}…). "
            "Source documents are kept byte-for-byte; add a new version with `kb add` instead of editing."
        )
    try:
        lines = ingest.read_lines(path, doc.encoding, shown)
        parsed = ingest.parse_lines(lines, shown, doc.parser, doc.editions[0].language)
    except SourceError as e:
        raise BuildError(str(e)) from None
    except KeyError as e:
        raise BuildError(f"{shown}: {e.args[0]}") from None
    return parsed, lines


class _Tables:
    def __init__(self):
        self.rules: list[dict] = []
        self.items: list[dict] = []
        self.unparsed: list[dict] = []
        self.warnings: list[dict] = []
        self.lines: list[dict] = []
        self.refs: list[dict] = []
        #: per edition: normalised number -> first rule id, and numbers in document order
        self.rule_ids: dict[str, dict[str, int]] = defaultdict(dict)
        self.order: dict[str, list[str]] = defaultdict(list)


def _collect(t: _Tables, doc: Document, parsed: ingest.Parsed, lines: list[str]) -> None:
    scheme = get_parser(doc.parser).symbols
    rec_ids: dict[int, tuple[str, int]] = {}
    seq: Counter = Counter()
    for i, rec in enumerate(parsed.records):
        edition = doc.edition_for(rec.lang).id
        seq[edition] += 1
        common = {"edition_id": edition, "language": doc.edition_for(rec.lang).language,
                  "document_id": doc.id, "seq": seq[edition],
                  "line_start": rec.first_line, "line_end": rec.last_line}
        if rec.kind == "rule":
            rid = len(t.rules) + 1
            rec_ids[i] = ("rules", rid)
            t.rules.append(_rule_row(t, rid, rec, common, scheme))
        elif rec.kind == "unparsed":
            rid = len(t.unparsed) + 1
            rec_ids[i] = ("unparsed", rid)
            t.unparsed.append({"id": rid, "document_id": doc.id, "edition_id": edition, "line": rec.first_line,
                               "text": rec.text, "reason": rec.meta.get("reason", "")})
        else:
            rid = len(t.items) + 1
            rec_ids[i] = ("items", rid)
            t.items.append({
                "id": rid, **common, "kind": rec.kind, "rule_id": None,
                "label": rec.label, "title": rec.title, "text": rec.text,
                "text_norm": symbols.normalize(rec.text or "", scheme),
                "meta": json.dumps(rec.meta, ensure_ascii=False) if rec.meta else None,
            })
    for i, rec in enumerate(parsed.records):
        if rec.owner is not None and rec_ids[i][0] == "items":
            table, owner_id = rec_ids.get(rec.owner, (None, None))
            if table == "rules":
                t.items[rec_ids[i][1] - 1]["rule_id"] = owner_id
        table, rid = rec_ids[i]
        for s in rec.spans:
            text = lines[s.line - 1]
            end = len(text) if s.end is None else s.end
            t.lines.append({"document_id": doc.id, "line": s.line, "col_start": s.start, "col_end": end,
                            "text": text[s.start:end], "record_table": table, "record_id": rid, "kind": rec.kind})
    for w in parsed.warnings:
        t.warnings.append({"document_id": doc.id, "path": f"data/{doc.path}", "line": w.line, "code": w.code,
                           "number": w.number, "message": w.message})
    for i, rec in enumerate(parsed.records):
        if rec.kind == "unparsed":
            t.warnings.append({"document_id": doc.id, "path": f"data/{doc.path}", "line": rec.first_line,
                               "code": "unparsed", "number": None,
                               "message": f"unparsed line ({rec.meta.get('reason', '')}): {rec.text[:60]}"})
    _link_parents(t, [t.rules[rec_ids[i][1] - 1] for i, r in enumerate(parsed.records) if r.kind == "rule"])


def _rule_row(t: _Tables, rid: int, rec: Record, common: dict, scheme: str) -> dict:
    norm = numbers.normalize(rec.number or "")
    valid = numbers.is_number(norm)
    edition = common["edition_id"]
    key = f"{edition}/{norm}"
    if norm in t.rule_ids[edition]:
        key += f"#{rec.first_line}"
    else:
        t.rule_ids[edition][norm] = rid
        t.order[edition].append(norm)
    text = rec.text or ""
    return {
        "id": rid, "key": key, **common, "number": rec.number, "norm": norm,
        "level": numbers.level(norm) if valid else None,
        "chapter": numbers.chapter(norm) if valid else None,
        "section": int(norm.split(".")[0]) if valid and "." in norm else (int(norm) if valid and len(norm) == 3 else None),
        "parent_id": None, "title": rec.title, "text": text, "text_norm": symbols.normalize(text, scheme),
        "text_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
    }


def _link_parents(t: _Tables, rows: list[dict]) -> None:
    """Parent = nearest existing ancestor number of the same edition."""
    for row in rows:
        if row["level"] is None:
            continue
        ids = t.rule_ids[row["edition_id"]]
        p = numbers.parent(row["norm"])
        while p is not None and p not in ids:
            p = numbers.parent(p)
        row["parent_id"] = ids.get(p) if p else None


def _resolve_refs(t: _Tables) -> None:
    def add(edition: str, source: tuple[str, int], line: int, r: refs_mod.Ref, kind: str) -> None:
        ids, order = t.rule_ids[edition], t.order[edition]
        targets = numbers.expand_range(r.target, r.range_end, order) if r.is_range else [r.target]
        resolved = [n for n in targets if n in ids]
        base = {"edition_id": edition, "from_rule_id": source[1] if source[0] == "rules" else None,
                "from_item_id": source[1] if source[0] == "items" else None, "raw": r.raw,
                "range_end": r.range_end, "line": line, "kind": kind}
        if not resolved:
            t.refs.append({**base, "target": r.target, "target_rule_id": None, "resolved": 0})
        for n in resolved:
            t.refs.append({**base, "target": n, "target_rule_id": ids[n], "resolved": 1})

    for row in t.rules:
        for r in refs_mod.find_refs(row["text"]):
            add(row["edition_id"], ("rules", row["id"]), row["line_start"], r, "text")
    for row in t.items:
        if row["kind"] not in ITEM_KINDS_WITH_REFS or not row["text"]:
            continue
        bare = row["kind"] == "index"
        for r in refs_mod.find_refs(row["text"], bare=bare):
            add(row["edition_id"], ("items", row["id"]), row["line_start"], r, row["kind"])
    for i, ref in enumerate(t.refs, 1):
        ref["id"] = i


def _lemmatise(t: _Tables) -> None:
    for rows in (t.rules, t.items):
        by_lang: dict[str, list[dict]] = defaultdict(list)
        for row in rows:
            by_lang[row["language"]].append(row)
        for lang, group in by_lang.items():
            texts = [" ".join(x for x in (row.get("title"), row.get("text")) if x) for row in group]
            for row, lem in zip(group, lemmas.lemmatize_many(texts, lang)):
                row["lemmas"] = lem


def _write(db: sqlite_utils.Database, manifest: Manifest, t: _Tables) -> None:
    db.execute("pragma journal_mode = off")
    db.execute("pragma synchronous = off")
    db["documents"].insert_all(
        ({"id": d.id, "path": f"data/{d.path}", "sha256": d.sha256, "parser": d.parser, "encoding": d.encoding,
          "source": d.source, "lines": sum(1 for row in t.lines if row["document_id"] == d.id and row["col_start"] == 0)}
         for d in manifest.documents), pk="id")
    db["editions"].insert_all(
        ({"id": e.id, "document_id": d.id, "language": e.language, "date": e.date, "kind": e.kind,
          "title": e.title, "parser": d.parser, "source": f"data/{d.path}"} for d, e in manifest.editions),
        pk="id", foreign_keys=[("document_id", "documents", "id")])
    db["rules"].create({
        "id": int, "key": str, "edition_id": str, "language": str, "document_id": str, "number": str, "norm": str,
        "level": str, "chapter": int, "section": int, "parent_id": int, "title": str, "text": str, "text_norm": str,
        "lemmas": str, "seq": int, "line_start": int, "line_end": int, "text_sha256": str,
    }, pk="id", foreign_keys=[("edition_id", "editions", "id"), ("document_id", "documents", "id"),
                              ("parent_id", "rules", "id")])
    db["rules"].insert_all(t.rules)
    db["items"].create({
        "id": int, "edition_id": str, "language": str, "document_id": str, "kind": str, "rule_id": int, "label": str,
        "title": str, "text": str, "text_norm": str, "lemmas": str, "seq": int, "line_start": int, "line_end": int,
        "meta": str,
    }, pk="id", foreign_keys=[("edition_id", "editions", "id"), ("document_id", "documents", "id"),
                              ("rule_id", "rules", "id")])
    db["items"].insert_all(t.items)
    db["refs"].create({
        "id": int, "edition_id": str, "from_rule_id": int, "from_item_id": int, "kind": str, "raw": str,
        "target": str, "range_end": str, "target_rule_id": int, "resolved": int, "line": int,
    }, pk="id", foreign_keys=[("edition_id", "editions", "id"), ("from_rule_id", "rules", "id"),
                              ("from_item_id", "items", "id"), ("target_rule_id", "rules", "id")])
    db["refs"].insert_all(t.refs)
    db["unparsed"].create({"id": int, "document_id": str, "edition_id": str, "line": int, "text": str,
                           "reason": str}, pk="id",
                          foreign_keys=[("document_id", "documents", "id"), ("edition_id", "editions", "id")])
    db["unparsed"].insert_all(t.unparsed)
    db["warnings"].create({"id": int, "document_id": str, "path": str, "line": int, "code": str, "number": str,
                           "message": str}, pk="id", foreign_keys=[("document_id", "documents", "id")])
    db["warnings"].insert_all(({"id": i, **w} for i, w in enumerate(t.warnings, 1)))
    db["source_lines"].create({"document_id": str, "line": int, "col_start": int, "col_end": int, "text": str,
                               "record_table": str, "record_id": int, "kind": str},
                              pk=("document_id", "line", "col_start"),
                              foreign_keys=[("document_id", "documents", "id")])
    db["source_lines"].insert_all(t.lines)
    for table, cols in (("rules", ["edition_id", "norm"]), ("rules", ["parent_id"]), ("items", ["rule_id"]),
                        ("items", ["edition_id", "kind"]), ("refs", ["target_rule_id"]), ("refs", ["from_rule_id"]),
                        ("refs", ["from_item_id"])):
        db[table].create_index(cols)
    db["rules"].enable_fts(["number", "title", "text", "lemmas"], tokenize="unicode61 remove_diacritics 0")
    db["items"].enable_fts(["title", "text", "lemmas"], tokenize="unicode61 remove_diacritics 0")
