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

import json
import os
import threading
from collections import OrderedDict
from typing import Any

#: snapshots kept (each holds the links of the pairs read so far: about 50 MB for the default KB's 231,000 links)
KEPT = 2
_SNAPSHOTS: OrderedDict[tuple, _State] = OrderedDict()
_LOCK = threading.Lock()

#: the build's table of the paths of stored pairs a lineage composes along (:mod:`kb.lineage_store` writes it)
PATHS = "lineage_paths"
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
    """The snapshot of the KB ``conn`` reads (kept per :func:`key`), read through ``conn``: a snapshot is shared by
    the threads of a process, each reading through its own connection (SQLite's connections are not shared)."""
    k = key(conn)
    if k is None:
        return fresh(conn)
    with _LOCK:
        state = _SNAPSHOTS.get(k)
        if state is None:
            state = _SNAPSHOTS[k] = _State()
            while len(_SNAPSHOTS) > KEPT:
                _SNAPSHOTS.popitem(last=False)
        else:
            _SNAPSHOTS.move_to_end(k)
    return Snapshot(conn, state)


def fresh(conn) -> Snapshot:
    """A snapshot of the KB ``conn`` reads that no one else shares (kept by the caller only)."""
    return Snapshot(conn, _State())


class _State:
    """What has been read of one KB (each part when first asked for)."""

    def __init__(self) -> None:
        self.specs: dict | None = None
        self.graph: dict[str, set[str]] | None = None
        self.map_key: tuple | None = None
        self.stored: set[tuple[str, str]] | None = None
        self.has_pairs: bool | None = None
        self.has_review: bool | None = None
        self.steps: dict[tuple[str, str], dict[int, list[Direct]]] = {}
        self.direct: dict[tuple[str, str], dict[int, list[Direct]]] = {}
        self.reviews: dict[tuple[str, str], list] = {}
        #: what :class:`ByRule` has read, by kind and pair; the pairs whose links are stored the other way round
        self.by_rule: dict[tuple[str, str, str], dict] = {}
        self.turned: dict[tuple[str, str], bool] = {}
        #: the build's paths (:mod:`kb.lineage_store`), or None when the KB has none
        self.paths: dict[tuple[str, str], tuple[str, ...]] | None = None
        self.paths_read = False


class Snapshot:
    """The editions and stored pairs of one KB, each part read through ``conn`` when first asked for and kept in
    ``state`` (shared)."""

    def __init__(self, conn, state: _State) -> None:
        self.conn = _raw(conn)
        self._s = state

    # ----------------------------------------------------------------------- the editions and the graph

    def specs(self) -> dict:
        """Edition id -> its :class:`kb.align.pairs.EditionSpec` (do not change it: it is shared)."""
        if self._s.specs is None:
            import sqlite_utils

            from .store import edition_specs

            self._s.specs = {e.id: e for e in edition_specs(sqlite_utils.Database(self.conn))}
        return self._s.specs

    def has_pairs(self) -> bool:
        if self._s.has_pairs is None:
            self._s.has_pairs = self.conn.execute(
                "select 1 from sqlite_master where type = 'table' and name = 'edition_pairs'").fetchone() is not None
        return self._s.has_pairs

    def graph(self) -> dict[str, set[str]]:
        """:func:`kb.align.ondemand._graph` of the KB."""
        if self._s.graph is None:
            import sqlite_utils

            from .ondemand import _graph

            self._s.graph = _graph(sqlite_utils.Database(self.conn)) if self.has_pairs() else {}
        return self._s.graph

    def map_key(self) -> tuple:
        if self._s.map_key is None:
            from .ondemand import map_key

            self._s.map_key = map_key(self.graph(), self.specs())
        return self._s.map_key

    def stored(self) -> set[tuple[str, str]]:
        """The stored pairs of editions whose links join rules to rules, as stored (source, target)."""
        if self._s.stored is None:
            from .ondemand import RULE_KINDS

            self._s.stored = {(s, t) for s, t, kind in self.conn.execute(
                "select source_edition, target_edition, kind from edition_pairs")
                if kind in RULE_KINDS} if self.has_pairs() else set()
        return self._s.stored

    def path(self, a: str, b: str) -> list[str] | None:
        """The path of stored pairs the lineage composes from ``a`` to ``b`` along (the older edition first): the
        build's (:mod:`kb.lineage_store`), else found now (:func:`kb.align.ondemand.path_on`)."""
        paths = self._paths()
        if paths is not None:
            got = paths.get((a, b))
            return list(got) if got is not None else None
        from .ondemand import path_on

        return path_on(self.map_key(), self.graph(), self.specs(), a, b)

    def _paths(self) -> dict[tuple[str, str], tuple[str, ...]] | None:
        """The build's paths, or None for a KB built without them."""
        if not self._s.paths_read:
            if self.conn.execute("select 1 from sqlite_master where type = 'table' and name = ?",
                                 [PATHS]).fetchone() is not None:
                self._s.paths = {(s, t): tuple(json.loads(p)) for s, t, p in self.conn.execute(
                    f"select source_edition, target_edition, path from {PATHS}")}
            self._s.paths_read = True
        return self._s.paths

    def has_review(self) -> bool:
        if self._s.has_review is None:
            self._s.has_review = "review" in {r[1] for r in self.conn.execute("pragma table_info(alignments)")}
        return self._s.has_review

    # ----------------------------------------------------------------------- the links of a stored pair

    def _load(self, a: str, b: str) -> None:
        """Read the alignments of editions ``a`` and ``b`` (stored either way round) once, as :meth:`step` and
        :meth:`direct` give them from both sides (the texts of the relations and methods shared)."""
        review = "review" if self.has_review() else "null"
        rows: dict[tuple[str, str], list[tuple]] = {(a, b): [], (b, a): []}
        for row in self.conn.execute(
                f"""select source_edition, target_edition, source_rule_id, target_rule_id, score, relation, method,
                           {review} from alignments
                    where source_edition = ? and target_edition = ? or source_edition = ? and target_edition = ?
                    order by id""", [a, b, b, a]):
            rows[row[0], row[1]].append(row[2:])
        direct, tails = _both_ways(rows, a, b)
        linked = {p: any(r[0] is not None and r[1] is not None for r in rows[p]) for p in rows}
        if linked[a, b] and linked[b, a]:   # (b, a)'s own links come first, then (a, b)'s turned round
            direct[b, a] = {}
            for (x, y), at, far, flip in (((b, a), 0, 1, False), ((a, b), 1, 0, True)):
                for row in rows[x, y]:
                    if row[at] is not None and row[far] is not None:
                        direct[b, a].setdefault(row[at], []).append((row[far], *tails[row[2:]][flip]))
        for x, y in ((a, b), (b, a)):
            # a step follows the pair as stored (x, y) if it has rules so, else (y, x) turned round: the same links
            # as the direct ones, unless both ways have rules
            if any(r[0] is not None for r in rows[x, y]) and linked[y, x]:
                step: dict[int, list[Direct]] = {}
                for s, t, *rest in rows[x, y]:
                    if s is not None and t is not None:
                        step.setdefault(s, []).append((t, *tails[tuple(rest)][0]))
                self._s.steps[x, y] = step
            else:
                self._s.steps[x, y] = direct[x, y]
        self._s.direct.update(direct)

    def step(self, a: str, b: str) -> Links:
        """Rule of ``a`` -> its stored links to ``b`` (target, score, relation read from ``a``, then the method and
        review that :func:`kb.align.compose.step` passes over), in stored order, as
        :func:`kb.align.ondemand._links_of_rule` reads them: the pair as stored (a, b) if it has rule links so, else
        the pair (b, a) turned round.  Read rule by rule until :meth:`read_all` has read the whole pair."""
        got = self._s.steps.get((a, b))
        if got is not None:
            return got
        turned = self._s.turned.get((a, b))
        if turned is None:
            turned = self._s.turned[a, b] = self.conn.execute(
                """select 1 from alignments where source_edition = ? and target_edition = ?
                   and source_rule_id is not null limit 1""", [a, b]).fetchone() is None
        return ByRule(self.conn, self._s.by_rule.setdefault(("step", a, b), {}),
                      [(self._sql(_TURNED if turned else _AHEAD), b, turned)])

    def direct(self, a: str, b: str) -> Links:
        """Rule of ``a`` -> every stored link of it to ``b``, either way round, as :func:`kb.lineage._direct` reads
        them: those stored as (a, b), then those stored as (b, a) turned round, each in stored order.  Read rule by
        rule until :meth:`read_all` has read the whole pair."""
        got = self._s.direct.get((a, b))
        if got is not None:
            return got
        return ByRule(self.conn, self._s.by_rule.setdefault(("direct", a, b), {}),
                      [(self._sql(_AHEAD), b, False), (self._sql(_TURNED), b, True)])

    def _sql(self, query: str) -> str:
        return query.format(review="review" if self.has_review() else "null")

    def reviews(self, a: str, b: str) -> list:
        """:func:`kb.align.reviews.for_pair` of (a, b)."""
        if (a, b) not in self._s.reviews:
            from .reviews import for_pair

            self._s.reviews[a, b] = for_pair(self.conn, a, b)
        return self._s.reviews[a, b]

    def read_all(self) -> None:
        """Read every stored pair's links, each pair as a whole, and the paths now (a server does before its first
        request: 0.7 s and 110 MB for the default KB's 231,000 links; a rule's lineage follows nearly all pairs)."""
        if self.has_pairs():
            for a, b in sorted(self.stored()):
                if (a, b) not in self._s.steps:
                    self._load(a, b)
            self._paths()


#: a stored link of a rule by the rule id's index: as stored from it, or stored to it (turned round by the reader).
#: The other edition's term (the unary +) uses no index, so that SQLite never prefers the pair's index (it would,
#: before the build's `analyze`, and read the whole pair)
_AHEAD = """select target_rule_id, score, relation, method, {review} from alignments
            where source_rule_id = ? and +target_edition = ? and target_rule_id is not null order by id"""
_TURNED = """select source_rule_id, score, relation, method, {review} from alignments
             where target_rule_id = ? and +source_edition = ? and source_rule_id is not null order by id"""


class ByRule:
    """The stored links of one side of a pair, read rule by rule as asked for (``get``, as a dict's), each rule's
    once per process (``memo``, shared by the threads; the queries go through ``conn``, the caller's)."""

    def __init__(self, conn, memo: dict[int, list[Direct]], queries: list[tuple[str, str, bool]]) -> None:
        self.conn, self.memo, self.queries = conn, memo, queries

    def get(self, rule_id: int, default=None):
        got = self.memo.get(rule_id)
        if got is None:
            from .ondemand import FLIP

            got = [(t, score, FLIP.get(rel, rel) if turned else rel, method, mark or "")
                   for sql, other, turned in self.queries
                   for t, score, rel, method, mark in self.conn.execute(sql, [rule_id, other])]
            self.memo[rule_id] = got
        return got or default


#: the links of one side of a pair by rule: read whole, or rule by rule
Links = dict[int, list[Direct]] | ByRule


def _both_ways(rows: dict[tuple[str, str], list[tuple]], a: str, b: str
               ) -> tuple[dict[tuple[str, str], dict[int, list[Direct]]], dict[tuple, tuple[tuple, tuple]]]:
    """The stored links of (a, b) and (b, a) by rule, from each side: a row stored as (x, y) is a link of its
    source to ``y`` and, turned round, of its target to ``x``; and the (score, relation, method, review) of the
    links, each made once, both ways (most links carry one of a few)."""
    from .ondemand import FLIP

    tails: dict[tuple, tuple[tuple, tuple]] = {}
    direct: dict[tuple[str, str], dict[int, list[Direct]]] = {(a, b): {}, (b, a): {}}
    for (x, y), links in rows.items():
        ahead, back = direct[x, y], direct[y, x]
        for s, t, score, rel, method, mark in links:
            if s is None or t is None:
                continue
            k = (score, rel, method, mark)
            both = tails.get(k)
            if both is None:
                both = tails[k] = ((score, rel, method, mark or ""), (score, FLIP.get(rel, rel), method, mark or ""))
            mine = ahead.get(s)
            if mine is None:
                ahead[s] = [(t, *both[0])]
            else:
                mine.append((t, *both[0]))
            theirs = back.get(t)
            if theirs is None:
                back[t] = [(s, *both[1])]
            else:
                theirs.append((s, *both[1]))
    return direct, tails
