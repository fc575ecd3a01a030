"""What the lineage reads of a KB's stored alignments, read once per process and KB file.

A rule's lineage (:func:`kb.lineage.of_rule`) follows the stored links of every pair of editions on its paths: read
rule by rule, that is hundreds of small queries a rule page (a hundred English editions in one chain).  The KB is
immutable while it is read, so the editions, the graph of stored pairs, and each stored pair's links (by source
rule, in stored order, both ways) are read once, as a whole, and kept for the life of the process.

A snapshot is kept per KB file and its state (:func:`key`: the file's identity, size and modification time, its
write-ahead log's, and the connection's own uncommitted changes), so a KB rebuilt or written since is read again;
a connection to no file (``:memory:``) gets a snapshot of its own each call (nothing kept).  Nothing here writes.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any

#: snapshots kept (each holds the links of the pairs read so far: about 50 MB for the default KB's 231,000 links)
KEPT = 2
_SNAPSHOTS: OrderedDict[tuple, Snapshot] = OrderedDict()

#: a stored link of one rule: target rule id, score, relation (read from the rule), method, review mark
Direct = tuple[int, float, str, str, str]


def _raw(conn):
    return getattr(conn, "conn", conn)


def key(conn) -> tuple | None:
    """What identifies the state of the KB ``conn`` reads, or None for a connection to no file."""
    raw = _raw(conn)
    path = next((f for _, name, f in raw.execute("pragma database_list") if name == "main"), "")
    if not path:
        return None
    out: list[Any] = [path, raw.total_changes]
    for p in (path, path + "-wal"):
        try:
            st = os.stat(p)
        except OSError:
            out.append(None)
            continue
        out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


def snapshot(conn) -> Snapshot:
    """The snapshot of the KB ``conn`` reads (kept per :func:`key`)."""
    k = key(conn)
    if k is None:
        return Snapshot(conn)
    got = _SNAPSHOTS.get(k)
    if got is None:
        got = _SNAPSHOTS[k] = Snapshot(conn)
        while len(_SNAPSHOTS) > KEPT:
            _SNAPSHOTS.popitem(last=False)
    else:
        _SNAPSHOTS.move_to_end(k)
    got.conn = _raw(conn)   # (the snapshot reads lazily through the connection last given)
    return got


class Snapshot:
    """The editions and stored pairs of one KB, each part read when first asked for."""

    def __init__(self, conn) -> None:
        self.conn = _raw(conn)
        self._specs: dict | None = None
        self._graph: dict[str, set[str]] | None = None
        self._map_key: tuple | None = None
        self._stored: set[tuple[str, str]] | None = None
        self._has_pairs: bool | None = None
        self._has_review: bool | None = None
        self._rows: dict[tuple[str, str], list[tuple]] = {}
        self._steps: dict[tuple[str, str], dict[int, list[tuple[int, float, str]]]] = {}
        self._direct: dict[tuple[str, str], dict[int, list[Direct]]] = {}
        self._reviews: dict[tuple[str, str], list] = {}

    # ----------------------------------------------------------------------- the editions and the graph

    def specs(self) -> dict:
        """Edition id -> its :class:`kb.align.pairs.EditionSpec` (do not change it: it is shared)."""
        if self._specs is None:
            import sqlite_utils

            from .store import edition_specs

            self._specs = {e.id: e for e in edition_specs(sqlite_utils.Database(self.conn))}
        return self._specs

    def has_pairs(self) -> bool:
        if self._has_pairs is None:
            self._has_pairs = self.conn.execute(
                "select 1 from sqlite_master where type = 'table' and name = 'edition_pairs'").fetchone() is not None
        return self._has_pairs

    def graph(self) -> dict[str, set[str]]:
        """:func:`kb.align.ondemand._graph` of the KB."""
        if self._graph is None:
            import sqlite_utils

            from .ondemand import _graph

            self._graph = _graph(sqlite_utils.Database(self.conn)) if self.has_pairs() else {}
        return self._graph

    def map_key(self) -> tuple:
        if self._map_key is None:
            from .ondemand import map_key

            self._map_key = map_key(self.graph(), self.specs())
        return self._map_key

    def stored(self) -> set[tuple[str, str]]:
        """The stored pairs of editions whose links join rules to rules, as stored (source, target)."""
        if self._stored is None:
            from .ondemand import RULE_KINDS

            self._stored = {(s, t) for s, t, kind in self.conn.execute(
                "select source_edition, target_edition, kind from edition_pairs")
                if kind in RULE_KINDS} if self.has_pairs() else set()
        return self._stored

    def has_review(self) -> bool:
        if self._has_review is None:
            self._has_review = "review" in {r[1] for r in self.conn.execute("pragma table_info(alignments)")}
        return self._has_review

    # ----------------------------------------------------------------------- the links of a stored pair

    def _pair_rows(self, a: str, b: str) -> list[tuple]:
        """The alignments stored as (a, b), in stored order: source, target, score, relation, method, review."""
        if (a, b) not in self._rows:
            review = "review" if self.has_review() else "null"
            self._rows[a, b] = self.conn.execute(
                f"""select source_rule_id, target_rule_id, score, relation, method, {review} from alignments
                    where source_edition = ? and target_edition = ? order by id""", [a, b]).fetchall()
        return self._rows[a, b]

    def step(self, a: str, b: str) -> dict[int, list[tuple[int, float, str]]]:
        """Rule of ``a`` -> its stored links to ``b`` (target, score, relation read from ``a``), in stored order, as
        :func:`kb.align.ondemand._links_of_rule` reads them: the pair as stored (a, b) if it has rule links so, else
        the pair (b, a) turned round."""
        if (a, b) not in self._steps:
            from .ondemand import FLIP

            forward = self._pair_rows(a, b)
            out: dict[int, list[tuple[int, float, str]]] = {}
            if any(s is not None for s, *_ in forward):
                for s, t, score, rel, _, _ in forward:
                    if s is not None and t is not None:
                        out.setdefault(s, []).append((t, score, rel))
            else:
                for s, t, score, rel, _, _ in self._pair_rows(b, a):
                    if s is not None and t is not None:
                        out.setdefault(t, []).append((s, score, FLIP.get(rel, rel)))
            self._steps[a, b] = out
        return self._steps[a, b]

    def direct(self, a: str, b: str) -> dict[int, list[Direct]]:
        """Rule of ``a`` -> every stored link of it to ``b``, either way round, as :func:`kb.lineage._direct` reads
        them: those stored as (a, b), then those stored as (b, a) turned round, each in stored order."""
        if (a, b) not in self._direct:
            from .ondemand import FLIP

            out: dict[int, list[Direct]] = {}
            for s, t, score, rel, method, review in self._pair_rows(a, b):
                if s is not None and t is not None:
                    out.setdefault(s, []).append((t, score, rel, method, review or ""))
            for s, t, score, rel, method, review in self._pair_rows(b, a):
                if s is not None and t is not None:
                    out.setdefault(t, []).append((s, score, FLIP.get(rel, rel), method, review or ""))
            self._direct[a, b] = out
        return self._direct[a, b]

    def reviews(self, a: str, b: str) -> list:
        """:func:`kb.align.reviews.for_pair` of (a, b)."""
        if (a, b) not in self._reviews:
            from .reviews import for_pair

            self._reviews[a, b] = for_pair(self.conn, a, b)
        return self._reviews[a, b]
