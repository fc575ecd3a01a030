"""Read-side library over the built KB; the CLI and the Datasette pages both use it."""
from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ingest import numbers


class KBMissing(Exception):
    pass


def require(db_path: Path) -> Path:
    """``db_path`` if it holds a built KB; otherwise :class:`KBMissing` telling the user what to do."""
    db_path = Path(db_path)
    if not db_path.exists():
        raise KBMissing(f"{db_path} does not exist: run `kb build` first")
    return db_path


def connect(db_path: Path) -> sqlite3.Connection:
    """A read-only sqlite3 connection to the KB (rows as :class:`sqlite3.Row`)."""
    conn = sqlite3.connect(f"file:{require(db_path)}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def open_kb(db_path: Path):
    """The KB as a ``sqlite_utils.Database``; :class:`KBMissing` if it is not built (or has no rules)."""
    import sqlite_utils

    db = sqlite_utils.Database(require(db_path))
    if "rules" not in db.table_names():
        raise KBMissing(f"{db_path} has no rules table: run `kb build` first")
    return db


@dataclass
class RulePage:
    rule: dict
    edition: dict
    parent: dict | None
    children: list[dict]
    items: list[dict]      # examples, notes, FAQ items hanging off the rule, in order
    cites: list[dict]      # outgoing references (resolved or not)
    cited_by: list[dict]   # incoming resolved references, with the citing rule or item


def _rows(conn, sql: str, *params) -> list[dict]:
    return [dict(r) for r in conn.execute(sql, params)]


def find_rules(conn, number: str, edition: str | None = None) -> list[dict]:
    norm = numbers.normalize(number)
    if edition:
        return _rows(conn, "select * from rules where norm = ? and edition_id = ? order by seq", norm, edition)
    return _rows(conn, "select r.* from rules r join editions e on e.id = r.edition_id "
                       "where r.norm = ? order by e.date desc, r.seq", norm)


def rule_view(conn, rule_id: int) -> RulePage:
    rule = _rows(conn, "select * from rules where id = ?", rule_id)[0]
    edition = _rows(conn, "select * from editions where id = ?", rule["edition_id"])[0]
    parent = _rows(conn, "select * from rules where id = ?", rule["parent_id"]) if rule["parent_id"] else []
    return RulePage(
        rule=rule, edition=edition, parent=parent[0] if parent else None,
        children=_rows(conn, "select * from rules where parent_id = ? order by seq", rule_id),
        items=_rows(conn, "select * from items where rule_id = ? order by seq", rule_id),
        cites=_rows(conn, """select refs.*, t.number as target_number, t.key as target_key
                             from refs left join rules t on t.id = refs.target_rule_id
                             where refs.from_rule_id = ? order by refs.id""", rule_id),
        cited_by=_rows(conn, """select refs.*, r.number as from_number, r.key as from_key,
                                    i.kind as from_kind, i.title as from_title, i.text as from_text,
                                    owner.number as owner_number
                                from refs left join rules r on r.id = refs.from_rule_id
                                left join items i on i.id = refs.from_item_id
                                left join rules owner on owner.id = i.rule_id
                                where refs.target_rule_id = ? order by refs.edition_id, refs.id""", rule_id),
    )


def citer_name(ref: dict) -> str:
    """What cites a rule, as a reader names it: ``601.2c`` (a rule, its number normalised), ``example of 601.2c``,
    ``glossary “Total Cost”``."""
    if ref.get("from_number"):
        return numbers.normalize(ref["from_number"])
    name = ref.get("from_kind") or "item"
    if ref.get("from_title"):
        name += f" “{ref['from_title']}”"
    if ref.get("owner_number"):
        name += f" of {numbers.normalize(ref['owner_number'])}"
    return name


def editions(conn) -> list[dict]:
    return _rows(conn, "select id, language, date, kind, parser, source, title from editions order by id")


def stats(conn) -> list[dict]:
    """Per document: records by kind and the share of non-blank lines attributed to a record."""
    out = []
    for doc in _rows(conn, "select * from documents order by id"):
        kinds: Counter = Counter()
        for row in conn.execute("select count(*) n, level from rules where document_id = ? group by level",
                                (doc["id"],)):
            kinds[f"rule:{row['level']}"] = row["n"]
        for row in conn.execute("select count(*) n, kind from items where document_id = ? group by kind",
                                (doc["id"],)):
            kinds[row["kind"]] = row["n"]
        kinds["unparsed"] = conn.execute("select count(*) from unparsed where document_id = ?",
                                         (doc["id"],)).fetchone()[0]
        lines = conn.execute("select count(distinct line) from source_lines where document_id = ?",
                             (doc["id"],)).fetchone()[0]
        unattributed = conn.execute(
            "select count(distinct line) from source_lines where document_id = ? and record_table = 'unparsed'",
            (doc["id"],)).fetchone()[0]
        warnings = conn.execute("select count(*) from warnings where document_id = ?", (doc["id"],)).fetchone()[0]
        out.append({"document": doc["id"], "path": doc["path"], "parser": doc["parser"], "kinds": dict(kinds),
                    "nonblank_lines": lines, "attributed": lines - unattributed,
                    "share": (lines - unattributed) / lines if lines else 1.0, "warnings": warnings})
    return out
