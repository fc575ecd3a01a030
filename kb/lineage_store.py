"""The build's ``lineage_paths`` table: the path of stored pairs a lineage composes each pair of editions along.

A rule's lineage (:func:`kb.lineage.of_rule`) composes its links to every edition the build did not pair with its
own along the shortest path of stored pairs (:func:`kb.align.ondemand._path`), from the older edition of the two to
the newer.  The path is a function of the editions and the stored pairs only, the same for every rule, and a rule
page of an edition asks for the paths to all the others: a hundred searches of the graph the first time a process
shows a page of that edition (a tenth of a millisecond each; 13,000 for the 116 editions of the default KB).  The
build finds each once and stores it here; :mod:`kb.align.kbcache` reads the table whole.  A KB without it (built
before it existed) has its paths found as before.

One row per pair (older, newer) of editions the build did not pair, that a path of three editions or more joins;
the path as a JSON array of edition ids.
"""
from __future__ import annotations

import json

import sqlite_utils

from .align import kbcache, ondemand
from .align.store import edition_specs

TABLE = kbcache.PATHS


def store(db: sqlite_utils.Database) -> int:
    """Write the ``lineage_paths`` table (replacing it); the number of paths."""
    table = db.table(TABLE)
    if table.exists():
        table.drop()
    table.create({"source_edition": str, "target_edition": str, "path": str}, pk=("source_edition", "target_edition"))
    rows = list(_paths(db))
    table.insert_all(rows)
    return len(rows)


def _paths(db: sqlite_utils.Database):
    from .lineage import order

    specs = {e.id: e for e in edition_specs(db)}
    if "edition_pairs" not in db.table_names():
        return
    graph = ondemand._graph(db)
    stored = {(s, t) for s, t, kind in db.execute("select source_edition, target_edition, kind from edition_pairs")
              if kind in ondemand.RULE_KINDS}
    for a in sorted(specs):
        for b in sorted(specs):
            if a == b or (a, b) in stored or (b, a) in stored or not order(specs[a]) < order(specs[b]):
                continue
            path = ondemand._path(graph, specs, a, b)
            if path is not None and len(path) >= 3:
                yield {"source_edition": a, "target_edition": b, "path": json.dumps(path)}
