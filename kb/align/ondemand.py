"""The alignment of any two editions of the KB, stored or not.

:func:`between` answers ``kb align export --from A --to B`` and ``kb diff --from A --to B``:

1. a pair the build stored (either direction) is read from the ``alignments`` table;
2. else, when stored pairs connect the two editions (a chain of consecutive editions, a
   translation and its original), their rule links are composed along the shortest such path:
   consecutive editions align exactly, so following the chain beats jumping over it;
3. else the pair is aligned now, with the aligner its languages call for.

Every answer says which method gave it.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .pairs import PlannedPair
from .store import align_input, edition_specs, pair_input
from .views import Alignment, AlignRule, views_from_db

#: stored pair kinds whose links join rules to rules
RULE_KINDS = ("cross-language", "cross-edition")


@dataclass
class Answer:
    links: list[Alignment]
    #: stored, composed or computed
    method: str
    #: the editions the links were composed through (stored/computed: just the two)
    path: list[str]


def _stored(db, a: str, b: str, views: dict[str, dict[str, AlignRule]]) -> list[Alignment] | None:
    """Rule links stored for (a, b), turned round when stored as (b, a); None if there are none."""
    flip = {"split": "merged", "merged": "split"}
    for src, tgt, turned in ((a, b, False), (b, a, True)):
        rows = list(db.query(
            """select s.key s_key, t.key t_key, al.score, al.relation, al.method from alignments al
               join rules s on s.id = al.source_rule_id left join rules t on t.id = al.target_rule_id
               where al.source_edition = ? and al.target_edition = ? order by al.id""", [src, tgt]))
        if not rows:
            continue
        out = []
        for r in rows:
            if r["t_key"] is None:
                if not turned:
                    out.append(Alignment(views[a][r["s_key"]], None, 0.0, "no counterpart", r["method"]))
                continue
            s, t = (r["t_key"], r["s_key"]) if turned else (r["s_key"], r["t_key"])
            rel = flip.get(r["relation"], r["relation"]) if turned else r["relation"]
            out.append(Alignment(views[a][s], views[b][t], r["score"], rel, r["method"]))
        return out
    return None


def _graph(db) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for r in db.query("select distinct source_edition s, target_edition t, kind from edition_pairs"):
        if r["kind"] in RULE_KINDS and r["s"] != r["t"]:
            g.setdefault(r["s"], set()).add(r["t"])
            g.setdefault(r["t"], set()).add(r["s"])
    return g


def _path(g: dict[str, set[str]], a: str, b: str) -> list[str] | None:
    prev: dict[str, str | None] = {a: None}
    queue = deque([a])
    while queue:
        x = queue.popleft()
        if x == b:
            out = [b]
            while prev[out[-1]] is not None:
                out.append(prev[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for y in sorted(g.get(x, ())):
            if y not in prev:
                prev[y] = x
                queue.append(y)
    return None


def between(db, a: str, b: str) -> Answer:
    """The rule alignment of edition ``a`` to edition ``b`` (see the module doc); ``LookupError`` for an
    edition the KB does not have."""
    specs = {e.id: e for e in edition_specs(db)}
    for e in (a, b):
        if e not in specs:
            raise LookupError(f"no edition {e!r} in the KB (editions: {', '.join(sorted(specs))})")
    rules = _rules_of(db)
    by_key = {e: {v.key: v for v in rules(e)} for e in (a, b)}
    stored = _stored(db, a, b, by_key) if "edition_pairs" in db.table_names() else None
    if stored is not None:
        return Answer(stored, "stored", [a, b])
    path = _path(_graph(db), a, b) if "edition_pairs" in db.table_names() else None
    if path is not None and len(path) > 2:
        return Answer(_compose(db, path, rules), "composed", path)
    kind = "cross-edition" if specs[a].language == specs[b].language else "cross-language"
    inp = pair_input(db, PlannedPair(a, b, kind, "on demand"), specs, rules)
    return Answer(align_input(inp), "computed", [a, b])


def detour(db, a: str, b: str) -> Answer | None:
    """The links of ``a`` to ``b`` composed along the shortest path of stored pairs that is not the pair itself
    (for German 1999 -> 2024: through the English originals and the English chain between them), or None
    when there is no such path: a second path of evidence beside the pair's own alignment."""
    g = {x: ys - {b} if x == a else ys - {a} if x == b else ys for x, ys in _graph(db).items()}
    path = _path(g, a, b)
    if path is None:
        return None
    return Answer(_compose(db, path, _rules_of(db)), "composed", path)


def _rules_of(db) -> Callable[[str], list[AlignRule]]:
    """The rules of an edition, read once."""
    cache: dict[str, list[AlignRule]] = {}

    def rules(edition: str) -> list[AlignRule]:
        if edition not in cache:
            cache[edition] = views_from_db(db, edition)
        return cache[edition]

    return rules


def _compose(db, path: list[str], rules) -> list[Alignment]:
    """Follow the stored links along ``path``: a rule of the first edition reaches the rules of the last."""
    step_links = []
    for x, y in zip(path, path[1:]):
        views = {e: {v.key: v for v in rules(e)} for e in (x, y)}
        links = _stored(db, x, y, views) or []
        step: dict[str, list[Alignment]] = {}
        for lk in links:
            if lk.target is not None:
                step.setdefault(lk.source.key, []).append(lk)
        step_links.append(step)
    via = " → ".join(path)
    out: list[Alignment] = []
    for v in rules(path[0]):
        frontier = [(v, 1.0, "")]
        for step in step_links:
            nxt = []
            for node, score, rel in frontier:
                for lk in step.get(node.key, []):
                    assert lk.target is not None
                    r = rel if rel in ("split", "merged") else (lk.relation if lk.relation in ("split", "merged")
                                                              else rel)
                    nxt.append((lk.target, score * lk.score, r))
            frontier = nxt
        best: dict[str, tuple[AlignRule, float, str]] = {}
        for node, score, rel in frontier:
            if node.key not in best or score > best[node.key][1]:
                best[node.key] = (node, score, rel)
        if not best:
            out.append(Alignment(v, None, 0.0, "no counterpart", f"composed via {via}"))
            continue
        split = len(best) > 1
        for node, score, rel in best.values():
            relation = "split" if split else rel or ("equivalent" if node.norm == v.norm else "renumbered")
            out.append(Alignment(v, node, round(score, 3), relation, f"composed via {via}"))
    return out
