"""The lineage: one answer to "how does this rule relate to that one", read by every view.

The build stores the direct links (``alignments``): each rule of an edition to its predecessor(s) in the previous
edition of its family (the chain), to its original where the edition is a translation, and the few other pairs the
data names; the diffs stage adds the split and merge parts it completes from word evidence, and the reviews of
``data/alignment_reviews.tsv`` are applied (:mod:`kb.align.reviews`).  Any other pair of editions is composed along
those links (:mod:`kb.align.ondemand`: the shortest path of stored pairs, one rule of composition
:mod:`kb.align.compose`), with the reviews of its two ends applied.

Two entry points, both over the same links:

* :func:`pair` — every link of two editions (``kb align export``, ``kb diff``, the diff pages);
* :func:`of_rule` — every link of one rule to every other edition (the rule page, its JSON, ``kb history``, and the
  SQL function ``lineage(rule_id)`` that :func:`register` adds to the server's connections: the canned query
  ``rule_across_editions`` reads it).

A :class:`Link` names its relation read from the older edition to the newer (a split is a split from whichever
side it is seen) and its confidence (1.0 for a reviewed link, with the review's mark).

A composed link keeps the weakest confidence along its path (:func:`kb.align.compose.step`), and nothing else
decides it: ``kb align-eval`` scores :func:`pair`, so the figures it reports are the links the views show.  (A check
of a composed link against a direct comparison of its two ends was measured and deleted: see
:mod:`kb.align.compose`.)
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

import sqlite_utils

from .align import compose, kbcache, ondemand, reviews
from .align.pairs import when
from .align.views import Alignment

FLIP = ondemand.FLIP


@dataclass(frozen=True)
class Link:
    source_id: int
    source_edition: str
    source_number: str
    target_id: int
    target_edition: str
    target_number: str
    #: read from the older edition to the newer
    relation: str
    confidence: float
    #: how the link was found: the aligner's method, "composed via A → B → C", or "review"
    method: str
    #: "confirmed by R on D" for a reviewed link, else ""
    review: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def _db(conn) -> sqlite_utils.Database:
    return conn if isinstance(conn, sqlite_utils.Database) else sqlite_utils.Database(conn)


def _raw(conn):
    return getattr(conn, "conn", conn)


#: (date, edition id) -> :func:`order` (a rule page orders a few hundred links: the dates are parsed once)
_ORDERS: dict[tuple[str, str], tuple] = {}


def order(spec) -> tuple:
    """Which of two editions is the older: by date, then (one date) by id, so that every pair has one."""
    k = (spec.date, spec.id)
    got = _ORDERS.get(k)
    if got is None:
        got = _ORDERS[k] = (when(spec.date), spec.id)
    return got


def older_first(relation: str, source, target) -> str:
    """A relation read from edition ``source`` to ``target`` (:class:`kb.align.pairs.EditionSpec`), read from the
    older edition to the newer instead."""
    return FLIP.get(relation, relation) if order(target) < order(source) else relation


# --------------------------------------------------------------------------- two editions


def pair(conn, a: str, b: str) -> ondemand.Answer:
    """Every link of edition ``a`` to edition ``b``: stored (reviews applied by the build), else composed or computed,
    then the reviews of the two editions applied (:func:`kb.align.ondemand.between`; ``LookupError`` for an
    unknown edition).  Relations are read from ``a`` to ``b``."""
    db = _db(conn)
    answer = ondemand.between(db, a, b)
    if answer.method == "composed":
        specs = {e.id: e for e in ondemand.edition_specs(db)}
        if order(specs[b]) < order(specs[a]):   # composed from the older edition, then turned round
            answer = _turned(db, ondemand.between(db, b, a), a)
    if answer.method == "stored":
        marks = _review_marks(_raw(conn), a, b)
        if marks:
            for lk in answer.links:
                if lk.target is not None and (lk.source.id, lk.target.id) in marks:
                    lk.evidence = {**lk.evidence, "review": marks[lk.source.id, lk.target.id]}
        return answer
    found = reviews.for_pair(_raw(conn), a, b)
    if not found:
        return answer
    rules_b = {v.id: v for v in ondemand._rules_of(db)(b)}
    links = _reviewed(answer.links, found, rules_b)
    return ondemand.Answer(links, answer.method, answer.path)


def _turned(db, forward: ondemand.Answer, a: str) -> ondemand.Answer:
    """The links of a composed answer from edition ``b`` to ``a`` seen from ``a`` (relations turned round), in the
    order of ``a``'s rules; a rule of ``a`` that no rule of ``b`` reaches has no counterpart."""
    by_target: dict[Any, list[Alignment]] = {}
    method = ondemand.composed_method(forward.path[::-1])   # (the path named from ``a``, as the view asked)
    for lk in forward.links:
        if lk.target is not None:
            by_target.setdefault(lk.target.id, []).append(
                Alignment(lk.target, lk.source, lk.score, FLIP.get(lk.relation, lk.relation), method, lk.evidence))
    links = [x for v in ondemand._rules_of(db)(a)
             for x in by_target.get(v.id) or [Alignment(v, None, 0.0, "no counterpart", method)]]
    return ondemand.Answer(links, "composed", forward.path[::-1])


def _review_marks(conn, a: str, b: str) -> dict[tuple[Any, Any], str]:
    if "review" not in {r[1] for r in conn.execute("pragma table_info(alignments)")}:
        return {}
    out = {}
    for s, t, s_ed, mark in conn.execute("""select source_rule_id, target_rule_id, source_edition, review
            from alignments where review is not null and ((source_edition = ? and target_edition = ?)
            or (source_edition = ? and target_edition = ?))""", [a, b, b, a]):
        out[(s, t) if s_ed == a else (t, s)] = mark
    return out


def _reviewed(links: list[Alignment], found: list[reviews.Review], rules_b: dict) -> list[Alignment]:
    """Composed or computed links with the reviews of their two editions applied (oriented ``a`` → ``b``)."""
    by_source: dict[Any, list[Alignment]] = {}
    order: list[Any] = []
    sources: dict[Any, Any] = {}
    for lk in links:
        if lk.source.id not in by_source:
            order.append(lk.source.id)
            by_source[lk.source.id] = []
        sources[lk.source.id] = lk.source
        if lk.target is not None:
            by_source[lk.source.id].append(lk)
    for r in found:
        if r.source_id not in sources or r.target_id not in rules_b:
            continue
        have = by_source[r.source_id]
        kept = [lk for lk in have if lk.target.id != r.target_id]   # type: ignore[union-attr]
        if r.verdict != "reject":
            kept.append(Alignment(sources[r.source_id], rules_b[r.target_id], reviews.REVIEWED,
                                  "", "review", {"review": r.mark}))
        for lk in kept:
            assert lk.target is not None
            lk.relation = ondemand.composed_relation("" if lk.method == "review" else lk.relation, len(kept),
                                                     lk.target.norm == lk.source.norm) if len(kept) > 1 or \
                lk.method == "review" else lk.relation
        by_source[r.source_id] = kept
    out: list[Alignment] = []
    for sid in order:
        out.extend(by_source[sid] or [Alignment(sources[sid], None, 0.0, "no counterpart", "review")])
    return out


# --------------------------------------------------------------------------- one rule


def of_rule(conn, rule_id: int) -> list[Link]:
    """Every link of rule ``rule_id`` to the other editions of the KB, the same links :func:`pair` gives for its
    edition and each other one (editions no stored pairs connect to it are left out: they would be aligned now).

    The stored pairs' links, the editions and their graph are read once per process (:mod:`kb.align.kbcache`)."""
    raw = _raw(conn)
    got = raw.execute("select edition_id, norm, number from rules where id = ?", [rule_id]).fetchone()
    snap = kbcache.snapshot(conn)
    if got is None or not snap.has_pairs():
        return []
    a, norm, number = got
    specs, stored = snap.specs(), snap.stored()
    walk = _Walk(snap, rule_id)
    # first what this rule reaches in each edition (the rule ids whose numbers decide a relation), then the links
    plan: list[tuple[str, str, Any]] = []   # (edition, how, what): direct rows, reached forward, or reached back
    for x in sorted(specs):
        if x == a:
            continue
        if (a, x) in stored or (x, a) in stored:
            plan.append((x, "direct", snap.direct(a, x).get(rule_id, [])))
            continue
        back = order(specs[x]) < order(specs[a])   # composed from the older edition, as :func:`pair` composes it
        path = snap.path(*((x, a) if back else (a, x)))
        if path is None or len(path) < 3:
            continue
        if back:   # (along the path pair() follows, from x: turned round, it finds the rules of x to follow)
            reached = {t: walk.ahead(t, tuple(path)) for t in walk.frontier(tuple(path[::-1]))}
            plan.append((x, "back", (path, {t: fwd for t, fwd in reached.items() if rule_id in fwd})))
        else:
            plan.append((x, "ahead", (path, walk.frontier(tuple(path)))))
    return _links(raw, _found(raw, plan, rule_id, a, norm, snap), rule_id, a, number or norm, specs)


class _Walk:
    """What rule ``rule_id`` reaches along paths of stored pairs, each step and each path's prefix composed once."""

    def __init__(self, snap: kbcache.Snapshot, rule_id: int) -> None:
        self.snap, self.rule_id = snap, rule_id
        self.steps: dict[tuple[str, str], ondemand.Step] = {}
        self.frontiers: dict[tuple[str, ...], compose.Frontier] = {}
        self.aheads: dict[tuple[int, tuple[str, ...]], compose.Frontier] = {}

    def step(self, x: str, y: str) -> ondemand.Step:
        if (x, y) not in self.steps:
            self.steps[x, y] = partial(_links_in, self.snap.step(x, y))
        return self.steps[x, y]

    def frontier(self, path: tuple[str, ...]) -> compose.Frontier:
        """The rules this rule reaches along ``path`` (paths share their prefixes)."""
        if len(path) == 1:
            return compose.start(self.rule_id)
        if path not in self.frontiers:
            self.frontiers[path] = compose.step(self.frontier(path[:-1]), self.step(path[-2], path[-1]))
        return self.frontiers[path]

    def ahead(self, t: int, path: tuple[str, ...]) -> compose.Frontier:
        """:func:`kb.align.compose.compose` of rule ``t`` (of ``path[0]``) along ``path``.  A rule whose one link
        of the first step is certain and no split or merge reaches what that link's rule reaches along the rest of
        the path (the frontier after such a step is that rule's start): the older editions' rules share the rest."""
        k = (t, path)
        got = self.aheads.get(k)
        if got is None:
            first = self.step(path[0], path[1])(t) if len(path) > 1 else ()
            if len(path) == 1:
                got = compose.start(t)
            elif len(first) == 1 and first[0][1] >= 1.0 and first[0][2] not in ("split", "merged"):
                got = self.ahead(first[0][0], path[1:])
            else:
                got = compose.compose(t, [self.step(p, q) for p, q in zip(path, path[1:])])
            self.aheads[k] = got
        return got


def _links_in(step: kbcache.Links, rule_id: int) -> Sequence[kbcache.Direct]:
    return step.get(rule_id, ())


def _found(raw, plan: list[tuple[str, str, Any]], rule_id: int, a: str, norm: str,
           snap: kbcache.Snapshot) -> list[tuple[str, int, float, str, str, str]]:
    """The links of :func:`of_rule`'s ``plan`` (edition, target, confidence, relation, method, review), with the
    relations of the composed ones and the reviews of their pairs."""
    norms = _norms(raw, [rule_id, *{t for _, how, what in plan if how != "direct" for t in what[1]}])
    found: list[tuple[str, int, float, str, str, str]] = []
    for x, how, what in plan:
        if how == "direct":
            found += [(x, *row) for row in what]
            continue
        path, reached = what
        if how == "ahead":
            via = ondemand.composed_method(path)
            found += [(x, t, conf, ondemand.composed_relation(rel, len(reached), norms.get(t) == norm), via, "")
                      for t, (conf, rel) in reached.items()]
        else:
            via = ondemand.composed_method(path[::-1])   # (the path named from the rule, as the view asked)
            for t, got_t in reached.items():
                conf, rel = got_t[rule_id]
                rel = ondemand.composed_relation(rel, len(got_t), norms.get(t) == norms.get(rule_id))
                found.append((x, t, conf, FLIP.get(rel, rel), via, ""))
        found = _review_rule(raw, found, rule_id, a, x, norm, snap.reviews(a, x))
    return found


def _norms(conn, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    return dict(conn.execute(f"select id, norm from rules where id in ({marks})", ids).fetchall())


def _review_rule(conn, found: list[tuple], rule_id: int, a: str, x: str, norm: str,
                 pair_reviews: list[reviews.Review]) -> list[tuple]:
    """``found`` with the reviews of (this rule, a rule of ``x``) applied to its links to ``x`` (``pair_reviews``:
    :func:`kb.align.reviews.for_pair` of ``a`` and ``x``)."""
    mine = [r for r in pair_reviews if r.source_id == rule_id]
    if not mine:
        return found
    rest = [f for f in found if f[0] != x]
    here = [f for f in found if f[0] == x]
    for r in mine:
        here = [f for f in here if f[1] != r.target_id]
        if r.verdict != "reject":
            here.append((x, r.target_id, reviews.REVIEWED, "", "review", r.mark))
    norms = _norms(conn, [f[1] for f in here])
    out = []
    for f in here:
        rel = f[3] if f[4] != "review" and len(here) == 1 else ondemand.composed_relation(
            "" if f[4] == "review" else f[3], len(here), norms.get(f[1]) == norm)
        out.append((f[0], f[1], f[2], rel, f[4], f[5]))
    return rest + out


def _links(conn, found: list[tuple], rule_id: int, a: str, number: str, specs: dict) -> list[Link]:
    out = _as_links(conn, found, rule_id, a, number, specs)
    out.sort(key=lambda lk: (-order(specs[lk.target_edition])[0].toordinal(), lk.target_edition, lk.target_id))
    return out


def _as_links(conn, found: list[tuple], rule_id: int, a: str, number: str, specs: dict,
              known: dict[int, tuple[str, str, str]] | None = None) -> list[Link]:
    """``found`` (edition, target, confidence, relation, method, review) as links, in its order (``known``: rule id
    -> its edition, norm and number, of rules the caller has read)."""
    known = known or {}
    info: dict[int, tuple[str, str, str]] = {}
    ids = [f[1] for f in found if f[1] not in known]
    if ids:
        marks = ", ".join("?" for _ in ids)
        info = {i: (ed, norm, num) for i, ed, norm, num in conn.execute(
            f"select id, edition_id, norm, number from rules where id in ({marks})", ids)}

    def name(t: int) -> str:
        _, norm, num = known.get(t) or info[t]
        return num or norm

    return [Link(rule_id, a, number, t, x, name(t), older_first(rel, specs[a], specs[x]), round(conf, 3), method,
                 review) for x, t, conf, rel, method, review in found]


def edition_specs(conn) -> dict:
    """Edition id -> its :class:`kb.align.pairs.EditionSpec` (what :func:`to_edition` reads of each)."""
    return dict(kbcache.snapshot(conn).specs())


def to_edition(conn, rule_id: int, x: str, specs: dict | None = None,
               known: dict[int, tuple[str, str, str]] | None = None,
               snap: kbcache.Snapshot | None = None) -> list[Link]:
    """The links of rule ``rule_id`` to edition ``x``, the same :func:`of_rule` gives: read as stored (in the
    order the build stored them) when the build aligned the two editions, else composed along the lineage.
    Where the caller asks for many: ``specs``, :func:`edition_specs` of the KB; ``known``, rule id -> its edition,
    norm and number, of rules the caller has read; ``snap``, :func:`kb.align.kbcache.snapshot` of ``conn``."""
    raw = _raw(conn)
    got = (known or {}).get(rule_id) or raw.execute("select edition_id, norm, number from rules where id = ?",
                                                    [rule_id]).fetchone()
    snap = snap or kbcache.snapshot(conn)
    if got is None or not snap.has_pairs():
        return []
    a, norm, number = got
    if (a, x) not in snap.stored() and (x, a) not in snap.stored():
        return [lk for lk in of_rule(conn, rule_id) if lk.target_edition == x]
    rows = snap.direct(a, x).get(rule_id, [])
    return _as_links(raw, [(x, *row) for row in rows], rule_id, a, number or norm, specs or snap.specs(), known)


def warm(conn) -> None:
    """Read what every lineage reads of the KB (:mod:`kb.align.kbcache`) now, not with the first rule asked for."""
    kbcache.snapshot(conn).read_all()


def link_between(conn, source_id: int, target_id: int) -> Link | None:
    """The lineage link of two rules (None when the lineage does not link them)."""
    return next((lk for lk in of_rule(conn, source_id) if lk.target_id == target_id), None)


# --------------------------------------------------------------------------- SQL


def sql_lineage(conn, rule_id) -> str:
    """:func:`of_rule` as a JSON array of links (the SQL function ``lineage``); ``[]`` for no rule."""
    if rule_id is None:
        return "[]"
    return json.dumps([lk.as_dict() for lk in of_rule(conn, int(rule_id))], ensure_ascii=False)


def register(conn) -> None:
    """Add the SQL function ``lineage(rule_id)`` to a connection: what a canned query reads of the lineage (SQL
    cannot compose; this is the same :func:`of_rule` every view reads)."""
    conn.create_function("lineage", 1, lambda rule_id: sql_lineage(conn, rule_id))
