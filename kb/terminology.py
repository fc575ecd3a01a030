"""The curated old -> new terminology table, ``data/terminology.tsv`` (one reader for every user).

Columns ``old_term, new_term, lang, note``; lines starting with ``#`` are comments.  The aligner
rewrites old wording into new before comparing; the diff folds these shifts.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from . import paths

TERMINOLOGY = paths.DATA / "terminology.tsv"


@dataclass(frozen=True)
class Term:
    """One row of the curated terminology table: the old wording became the new one."""

    old: str
    new: str
    note: str = ""


def load(path: Path | str = TERMINOLOGY, lang: str = "de") -> list[Term]:
    """Rows of ``lang`` (a row without a language counts for every language); identity rows skipped.

    A missing file is an empty table.
    """
    path = Path(path)
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    out = []
    for row in csv.DictReader(lines, delimiter="\t"):
        if (row.get("lang") or lang) != lang:
            continue
        old, new = (row.get("old_term") or "").strip(), (row.get("new_term") or "").strip()
        if old and old != new:
            out.append(Term(old, new, (row.get("note") or "").strip()))
    return out
