"""The curated old -> new terminology table, ``data/terminology.tsv`` (one reader for every user).

Columns ``old_term, new_term, lang, note``; lines starting with ``#`` are comments.  The aligner
rewrites old wording into new before comparing; the diff folds these shifts.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import paths, tsv

TERMINOLOGY = paths.DATA / "terminology.tsv"


@dataclass(frozen=True)
class Term:
    """One row of the curated terminology table: the old wording became the new one."""

    old: str
    new: str
    note: str = ""


#: the columns of the table (``note`` may be left out)
COLUMNS = ("old_term", "new_term", "lang")


def load(path: Path | str = TERMINOLOGY, lang: str = "de") -> list[Term]:
    """Rows of ``lang`` (a row without a language counts for every language); identity rows skipped.

    A missing file is an empty table.  A file that is not UTF-8 or lacks a column, and a row without a tab or an old
    term (an empty new term is allowed: the concept is gone), raise ``ValueError`` naming the file and line: a broken
    line is never read as a term that vanished.
    """
    path = Path(path)
    if not path.exists():
        return []
    out = []
    for n, fields, row in tsv.read(path, COLUMNS):
        if len(fields) < 2 or not row["old_term"]:
            raise ValueError(f"{path}:{n}: not a row of {', '.join(COLUMNS)}, note (tab-separated, the old term first)")
        if (row["lang"] or lang) != lang:
            continue
        old, new = row["old_term"], row["new_term"]
        if old != new:
            out.append(Term(old, new, row.get("note", "")))
    return out
