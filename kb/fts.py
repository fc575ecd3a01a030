"""The full-text indexes, built in a process of their own while the build writes the rows.

Writing the rows is one core's work (:func:`kb.build._write_documents`), and so is indexing their text
(FTS5), which until the rows were written could not start: on an archive of a hundred editions each took
several seconds with the other core idle.  :func:`start` forks a process that reads the same rows (the
parse cache and the lemmas, numbered the same way) into a side database of its own, holding only the
indexed columns, and indexes them there with sqlite-utils' ``enable_fts``.  :func:`finish` creates the
same virtual tables in the KB and copies the side database's shadow tables (``rules_fts_data``,
``_idx``, ``_docsize``, ``_config``) into them: an FTS5 index is those rows, and with the same rowids
and values it is the index ``enable_fts`` would have built in the KB itself.  If the side process
failed, the KB indexes its tables itself, as before.
"""
from __future__ import annotations

import multiprocessing
import sqlite3
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from . import schema

#: the indexed columns of each table, and the tokenizer
FTS = {"rules": ["number", "title", "text", "lemmas"], "items": ["title", "text", "lemmas"]}
TOKENIZE = "unicode61 remove_diacritics 0"

#: one document's rows: per table a dict of columns (with ``id`` and ``lemmas``), and the ids earlier documents
#: used per table (added to this document's ids, see :meth:`kb.rows.DocumentRows.claim`)
Columns = tuple[dict[str, dict[str, list]], dict[str, int]]


@dataclass
class SideIndex:
    process: multiprocessing.process.BaseProcess
    path: Path


def start(path: Path, documents: Callable[[], Iterable[Columns]]) -> SideIndex:
    """Fork the process that indexes the rows ``documents()`` yields into the side database ``path``."""
    path.unlink(missing_ok=True)
    proc = multiprocessing.get_context("fork").Process(target=_run, args=(path, documents), daemon=True)
    proc.start()
    return SideIndex(proc, path)


def finish(db: sqlite_utils.Database, side: SideIndex | None) -> None:
    """The full-text indexes of the KB: copied from the side database, or built here when it has none."""
    done = False
    if side is not None:
        side.process.join()
        done = side.process.exitcode == 0 and _copy(db, side.path)
        side.path.unlink(missing_ok=True)
    if not done:
        for table, cols in FTS.items():
            db.table(table).enable_fts(cols, tokenize=TOKENIZE)


def _run(path: Path, documents: Callable[[], Iterable[Columns]]) -> None:
    try:
        _index(path, documents)
    except Exception:   # noqa: BLE001 - the KB then indexes its tables itself (finish), with its own errors
        sys.exit(1)


def _index(path: Path, documents: Callable[[], Iterable[Columns]]) -> None:
    side = sqlite_utils.Database(path)
    side.execute("pragma page_size = 16384")   # (as the KB's, :func:`kb.schema.create`: a tenth less CPU to index)
    side.execute("pragma journal_mode = off")
    side.execute("pragma synchronous = off")
    for table, cols in FTS.items():
        side.execute(f"create table [{table}] (id integer primary key, {', '.join(f'[{c}]' for c in cols)})")
    with side.conn:
        for columns, base in documents():
            for table, cols in FTS.items():
                if values := columns.get(table):
                    names = ["id", *cols]
                    side.conn.executemany(schema.insert_sql(table, names, base), zip(*(values[c] for c in names)))
    for table, cols in FTS.items():
        side.table(table).enable_fts(cols, tokenize=TOKENIZE)
    side.close()


def _copy(db: sqlite_utils.Database, path: Path) -> bool:
    """Create the side database's full-text tables in ``db`` and copy their shadow tables; False if it has none."""
    side = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        made = dict(side.execute("select name, sql from sqlite_master where name in "
                                 f"({', '.join('?' * len(FTS))})", [f"{t}_fts" for t in FTS]).fetchall())
        shadows = {t: [name for (name,) in side.execute(
            "select name from sqlite_master where type = 'table' and name like ? escape '!'",
            [f"{t}!_fts!_%"])] for t in FTS}
    finally:
        side.close()
    if set(made) != {f"{t}_fts" for t in FTS}:
        return False
    db.execute("attach database ? as side", [str(path)])
    try:
        with db.conn:
            for table in FTS:
                db.conn.execute(made[f"{table}_fts"])
                for shadow in shadows[table]:
                    db.conn.execute(f"delete from main.[{shadow}]")
                    db.conn.execute(f"insert into main.[{shadow}] select * from side.[{shadow}]")
    finally:
        db.execute("detach database side")
    return True
