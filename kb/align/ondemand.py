"""The alignment of any two editions of the KB, stored or not.

:func:`between` answers ``kb align export --from A --to B`` and ``kb diff --from A --to B``:

1. a pair the build stored (either direction) is read from the ``alignments`` table;
2. else, when stored pairs connect the two editions (a chain of consecutive editions, a
   translation and its original), their rule links are composed along the shortest such path:
   consecutive editions align exactly, so following the chain beats jumping over it.  The path
   only passes through editions that cover all that one of its ends covers (:func:`_path`): an
   excerpt on the way (a translation of one chapter) would lose every rule outside it;
3. else the pair is aligned now, with the aligner its languages call for.

Every answer says which method gave it.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import partial

from ingest import numbers

from . import compose
from .pairs import EditionSpec, PlannedPair, rule_pair_kind
from .store import align_input, edition_specs, pair_input
from .views import Alignment, AlignRule, views_from_db

#: what passing through an excerpt adds to a path's length: it decides between paths of equal length only
EXCERPT_STEP = 1e-3
#: a relation seen from the other edition of its pair
FLIP = {"split": "merged", "merged": "split"}
#: stored pair kinds whose links join rules to rules
RULE_KINDS = ("cross-language", "cross-edition")


#: the links of one source rule (:func:`_composer`)
Composer = Callable[[AlignRule], list[Alignment]]


class Answer:
    """An answer of :func:`between`: its ``links``, its ``method`` (stored, composed or computed) and its ``path``
    (the editions the links were composed through; stored or computed: just the two).  A composed answer composes
    the links of a source rule when they are asked for (:meth:`links_of`): a few rules of a long chain cost the
    reading of its stored links only."""

    def __init__(self, links: list[Alignment] | None, method: str, path: list[str],
                 composed: tuple[list[AlignRule], Callable[[bool], Composer]] | None = None):
        self.method, self.path = method, path
        self._links, self._composed = links, composed
        self._by_key: dict[str, list[Alignment]] | None = None
        #: a composed answer's source rules by key and its rule-by-rule composer (made when first asked)
        self._lazy: tuple[dict[str, AlignRule], Composer] | None = None

    @property
    def links(self) -> list[Alignment]:
        """Every link, in source order (as stored, for a stored pair)."""
        if self._links is None:
            assert self._composed is not None
            sources, composer = self._composed
            of = composer(False)
            self._links = [lk for v in sources for lk in of(v)]
        return self._links

    def links_of(self, key: str) -> list[Alignment]:
        """The links of the source rule ``key`` (none for a key of no source rule)."""
        if self._composed is not None and self._links is None:
            if self._lazy is None:
                sources, composer = self._composed
                self._lazy = {v.key: v for v in sources}, composer(True)
            by_key, of = self._lazy
            return of(by_key[key]) if key in by_key else []
        if self._by_key is None:
            self._by_key = {}
            for lk in self.links:
                self._by_key.setdefault(lk.source.key, []).append(lk)
        return self._by_key.get(key, [])


#: a stored link seen from one edition of its pair: source rule id, target rule id (None: no counterpart), score,
#: relation, method
Link = tuple[int, int | None, float, str, str]


def _stored_links(db, a: str, b: str) -> list[Link] | None:
    """The rule links stored for (a, b), turned round when stored as (b, a) (then without the rules of ``b`` that
    have no counterpart in ``a``), in stored order; None if there are none."""
    for src, tgt, turned in ((a, b, False), (b, a, True)):
        rows = db.execute(
            """select source_rule_id, target_rule_id, score, relation, method from alignments
               where source_edition = ? and target_edition = ? and source_rule_id is not null order by id""",
            [src, tgt]).fetchall()
        if not rows:
            continue
        if not turned:
            return rows
        return [(t, s, score, FLIP.get(rel, rel), method) for s, t, score, rel, method in rows if t is not None]
    return None


def _stored(db, a: str, b: str, rules) -> list[Alignment] | None:
    """Rule links stored for (a, b), turned round when stored as (b, a); None if there are none."""
    links = _stored_links(db, a, b)
    if links is None:
        return None
    src, tgt = ({v.id: v for v in rules(e)} for e in (a, b))
    return [Alignment(src[s], tgt[t], score, rel, method) if t is not None
            else Alignment(src[s], None, 0.0, "no counterpart", method) for s, t, score, rel, method in links]


def _graph(db) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for r in db.query("select distinct source_edition s, target_edition t, kind from edition_pairs"):
        if r["kind"] in RULE_KINDS and r["s"] != r["t"]:
            g.setdefault(r["s"], set()).add(r["t"])
            g.setdefault(r["t"], set()).add(r["s"])
    return g


def _covers(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    """Does a coverage hold all of another (number prefixes; empty: the whole rules)?"""
    return not outer or (bool(inner) and all(numbers.covered(p, outer) for p in inner))


#: (the map of :func:`map_key`, a, b) -> the path :func:`_path` finds there (a pure function of them, kept per process:
#: a rule page asks for the paths from its edition to every other, and the next page of that edition again)
_PATHS: dict[tuple, tuple[str, ...] | None] = {}
_PATHS_KEPT = 100_000


def map_key(g: dict[str, set[str]], specs: dict[str, EditionSpec]) -> tuple:
    """All that :func:`_path` reads of the stored pairs and the editions: the key of :func:`path_on`'s memo."""
    return (frozenset((x, y) for x, ys in g.items() for y in ys),
            tuple(sorted((e.id, e.covers) for e in specs.values())))


def path_on(key: tuple, g: dict[str, set[str]], specs: dict[str, EditionSpec], a: str, b: str) -> list[str] | None:
    """:func:`_path`, remembered for the map ``key`` (:func:`map_key` of ``g`` and ``specs``)."""
    k = (key, a, b)
    if k not in _PATHS:
        if len(_PATHS) >= _PATHS_KEPT:
            _PATHS.clear()
        found = _path(g, specs, a, b)
        _PATHS[k] = tuple(found) if found is not None else None
    got = _PATHS[k]
    return list(got) if got is not None else None


def _path(g: dict[str, set[str]], specs: dict[str, EditionSpec], a: str, b: str) -> list[str] | None:
    """The shortest path of stored pairs from ``a`` to ``b``, or None.

    It passes only editions that cover all that ``a`` or all that ``b`` covers: the links of a path carry at most
    the narrower end's rules, so an excerpt of what that end covers loses nothing (Italian 6 -> German 6 ->
    English), while a narrower one would lose every rule outside it.  Of paths of equal length, the one through
    fewer excerpts is taken, then the first by edition ids."""
    def passable(x: str) -> bool:
        return x in specs and any(_covers(specs[x].covers, specs[e].covers) for e in (a, b))

    queue: list[tuple[float, list[str]]] = [(0.0, [a])]
    seen: set[str] = set()
    while queue:
        cost, path = heapq.heappop(queue)
        x = path[-1]
        if x == b:
            return path
        if x in seen:
            continue
        seen.add(x)
        for y in g.get(x, ()):
            if y not in seen and (y == b or passable(y)):
                heapq.heappush(queue, (cost + 1 + (EXCERPT_STEP if y != b and specs[y].covers else 0.0), [*path, y]))
    return None


def between(db, a: str, b: str) -> Answer:
    """The rule alignment of edition ``a`` to edition ``b`` (see the module doc); ``LookupError`` for an
    edition the KB does not have.  The views read it through :func:`kb.lineage.pair` (which applies the reviews of
    a pair the build did not store)."""
    specs = {e.id: e for e in edition_specs(db)}
    for e in (a, b):
        if e not in specs:
            raise LookupError(f"no edition {e!r} in the KB (editions: {', '.join(sorted(specs))})")
    rules = _rules_of(db)
    stored = _stored(db, a, b, rules) if "edition_pairs" in db.table_names() else None
    if stored is not None:
        return Answer(stored, "stored", [a, b])
    path = _path(_graph(db), specs, a, b) if "edition_pairs" in db.table_names() else None
    if path is not None and len(path) > 2:
        return Answer(None, "composed", path, (rules(a), partial(_composer, db, path, rules)))
    inp = pair_input(db, PlannedPair(a, b, rule_pair_kind(specs[a], specs[b]), "on demand"), specs, rules)
    return Answer(align_input(inp), "computed", [a, b])


def detour(db, a: str, b: str) -> Answer | None:
    """The links of ``a`` to ``b`` composed along the shortest path of stored pairs that is not the pair itself
    (for German 1999 -> 2024: through the English originals and the English chain between them), or None
    when there is no such path: a second path of evidence beside the pair's own alignment."""
    g = {x: ys - {b} if x == a else ys - {a} if x == b else ys for x, ys in _graph(db).items()}
    path = _path(g, {e.id: e for e in edition_specs(db)}, a, b)
    if path is None:
        return None
    rules = _rules_of(db)
    return Answer(None, "composed", path, (rules(a), partial(_composer, db, path, rules)))


def _rules_of(db) -> Callable[[str], list[AlignRule]]:
    """The rules of an edition, read once."""
    cache: dict[str, list[AlignRule]] = {}

    def rules(edition: str) -> list[AlignRule]:
        if edition not in cache:
            cache[edition] = views_from_db(db, edition)
        return cache[edition]

    return rules


def composed_method(path: list[str]) -> str:
    """The method of a composed link: its path ("composed via A → B → C"), the middle left out of a long one."""
    shown = path if len(path) <= 5 else [*path[:2], "…", *path[-2:]]
    return "composed via " + " → ".join(shown) + (f" ({len(path) - 1} steps)" if len(path) > 5 else "")


def composed_relation(rel: str, targets: int, same_number: bool) -> str:
    """The relation of a composed link: ``split`` when the source reaches several rules, else the split or merge
    along its path (:func:`kb.align.compose.step`), else equivalent or renumbered by the numbers of its two ends."""
    if targets > 1:
        return "split"
    return rel if rel in ("split", "merged") else ("equivalent" if same_number else "renumbered")


#: one step of a path: the stored links of a rule of its first edition (target rule id, score, relation)
Step = compose.StepLinks


def steps_of(db, path: list[str], lazy: bool) -> list[Step]:
    """The steps of ``path``: each pair's stored links read at once, or with ``lazy`` rule by rule as the rules are
    followed (:func:`_links_of_rule`: for a few rules)."""
    steps: list[Step] = []
    for x, y in zip(path, path[1:]):
        if lazy:
            steps.append(_links_of_rule(db, x, y))
            continue
        step: dict[int, list[tuple[int, float, str]]] = {}
        for s, t, score, rel, _ in _stored_links(db, x, y) or []:
            if t is not None:
                step.setdefault(s, []).append((t, score, rel))
        steps.append(partial(_links_in, step))
    return steps


def _composer(db, path: list[str], rules, lazy: bool = False) -> Composer:
    """The links of a rule of the first edition of ``path`` to the last, following the stored links along it (the
    editions in between are followed by rule id: only the two ends' rules are read) by the one composition rule
    (:func:`kb.align.compose.compose`)."""
    steps = steps_of(db, path, lazy)
    method = composed_method(path)
    last = {v.id: v for v in rules(path[-1])}

    def links(v: AlignRule) -> list[Alignment]:
        best = compose.compose(v.id, steps) if v.id is not None else {}
        if not best:
            return [Alignment(v, None, 0.0, "no counterpart", method)]
        return [Alignment(v, last[key], round(conf, 3), composed_relation(rel, len(best), last[key].norm == v.norm),
                          method) for key, (conf, rel) in best.items()]

    return links


def path_steps(db, path: list[str]) -> list[tuple[Callable[[int], list[tuple[int, float, str]]], int]]:
    """Each step of ``path``: its stored links by source rule id (as :func:`_composer` follows them) and how many of
    them link a rule that changed in that step (every link of a step the full aligner aligned; of consecutive
    editions, the links of the rules whose text is not printed again as it was)."""
    out: list[tuple[Callable[[int], list[tuple[int, float, str]]], int]] = []
    for x, y in zip(path, path[1:]):
        step: dict[int, list[tuple[int, float, str]]] = {}
        changed = 0
        for s, t, score, rel, method in _stored_links(db, x, y) or []:
            changed += not method.endswith(("-same", "-moved"))
            if t is not None:
                step.setdefault(s, []).append((t, score, rel))
        out.append((partial(_links_in, step), changed))
    return out


def _links_in(step: dict[int, list[tuple[int, float, str]]], rule_id: int) -> list[tuple[int, float, str]]:
    return step.get(rule_id, [])


def _links_of_rule(db, a: str, b: str) -> Callable[[int], list[tuple[int, float, str]]]:
    """The stored links of (a, b) of one rule of ``a`` at a time, as :func:`_stored_links` gives them (target rule,
    score, relation; turned round when stored as (b, a)), each read once, by the index on the rule's id."""
    turned = db.execute("""select 1 from alignments where source_edition = ? and target_edition = ?
                           and source_rule_id is not null limit 1""", [a, b]).fetchone() is None
    # by the rule id's index: a rule id names its edition, and the other edition's term (the unary +) uses no index,
    # so that SQLite never prefers the pair's index (it would, before the build's `analyze`, and read the whole pair)
    sql = ("""select source_rule_id, score, relation from alignments where target_rule_id = ? and +source_edition = ?
              and source_rule_id is not null order by id""" if turned else
           """select target_rule_id, score, relation from alignments where source_rule_id = ? and +target_edition = ?
              and target_rule_id is not null order by id""")
    memo: dict[int, list[tuple[int, float, str]]] = {}
    execute = getattr(db, "conn", db).execute   # (sqlite-utils' execute wraps each of many small queries)

    def links(rule_id: int) -> list[tuple[int, float, str]]:
        got = memo.get(rule_id)
        if got is None:
            rows = execute(sql, [rule_id, b]).fetchall()   # (b: the stored source or target edition)
            got = memo[rule_id] = [(t, score, FLIP.get(rel, rel)) for t, score, rel in rows] if turned else rows
        return got

    return links
