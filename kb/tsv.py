"""The curated tab-separated tables (``data/terminology.tsv``, ``data/gold/*.tsv``), read with their line numbers.

Lines starting with ``#`` and blank lines are skipped; the first other line is the header.  Whatever is wrong with
the file itself (not UTF-8, a column missing) raises ``ValueError`` naming the file and line; the callers check
their rows the same way.
"""
from __future__ import annotations

import csv
from pathlib import Path


def read(path: Path, columns: tuple[str, ...], empty_ok: bool = True) -> list[tuple[int, list[str], dict[str, str]]]:
    """``(line number, fields, row)`` of every row of ``path`` after its header; ``row`` maps the header's names to
    the stripped fields ("" for a field the line lacks).  A file without a header has no rows (``empty_ok``) or
    raises."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        at = raw[:e.start].count(b"\n") + 1
        raise ValueError(f"{path}:{at}: not UTF-8 text ({e.reason})") from None
    numbered = [(n, next(csv.reader([line], delimiter="\t"))) for n, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.startswith("#")]
    if not numbered:
        if empty_ok:
            return []
        raise ValueError(f"{path}: no header line (columns {', '.join(columns)}, ...)")
    head_at, header = numbered[0]
    lacking = [c for c in columns if c not in header]
    if lacking:
        raise ValueError(f"{path}:{head_at}: no column {', '.join(lacking)} (the header has {', '.join(header)})")
    return [(n, fields, {name: (fields[k].strip() if k < len(fields) else "") for k, name in enumerate(header)})
            for n, fields in numbered[1:]]
