"""The KB stage: run every alignment, write ``concepts``, ``alignments`` and ``rules.concept_id``;
the SQL views, Datasette canned queries and table metadata over them."""
from __future__ import annotations

import gc
import hashlib
import io
import json
import multiprocessing
import os
import pickle
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from ingest import numbers

from ..cache import code_version, write_atomic
from ..gcpause import collector_paused
from ..schema import insert_rows
from . import reviews
from .concepts import Concepts, reduce_links
from .consecutive import Keys, align_consecutive
from .crossedition import CompanionPair, align_cross_edition
from .crosslang import align_cross_language
from .items import align_items
from .lexical import load_terminology
from .pairs import ORIGINAL_LANGUAGE, EditionSpec, PlannedPair, plan, when
from .views import Alignment, AlignRule, items_from_db, views_from_db

# --------------------------------------------------------------------------- the KB's alignments

#: share of a source edition's rules printed with the same words in the target (:func:`word_share`: typography
#: aside) from which the pair is aligned as consecutive editions (cheap matching first); below it, the full aligner
#: runs
CONSECUTIVE_FROM = 0.5
#: below this total cost (see :attr:`PairInput.cost`; about 3,000 is a second of work) the pairs are
#: aligned in-process: forking workers costs a tenth of a second
PARALLEL_COST = 3_000


def edition_specs(db, only: Iterable[str] | None = None) -> list[EditionSpec]:
    """The editions of the KB as the pair plan sees them (manifest fields and the record kinds they have); ``only``:
    just these (a view that reads two editions need not read the kinds of all of them)."""
    ids = sorted(set(only)) if only is not None else None
    where, params = ("where edition_id in (" + ", ".join("?" for _ in ids) + ")", ids) if ids is not None else ("", [])
    kinds: dict[str, set[str]] = defaultdict(set)
    for r in db.query(f"select distinct edition_id from rules {where}", params):
        kinds[r["edition_id"]].add("rule")
    for r in db.query(f"select distinct edition_id, kind from items {where}", params):
        kinds[r["edition_id"]].add(r["kind"])
    out = []
    for e in db.query(f"select * from editions {where.replace('edition_id', 'id')} order by id", params):
        out.append(EditionSpec(
            e["id"], e["language"], str(e["date"] or ""), e["kind"] or "cr", e.get("family") or "",
            e.get("translation_of") or "", tuple((e.get("covers") or "").split()),
            tuple((e.get("align_with") or "").split()), frozenset(kinds[e["id"]])))
    return out


def planned_pairs(db) -> list[PlannedPair]:
    return plan(edition_specs(db))


def anchor_ranks(specs: list[EditionSpec]) -> dict[str, int]:
    """Which edition's rule names a concept: the newest edition of the original language first."""
    order = sorted(specs, key=lambda e: (e.language != ORIGINAL_LANGUAGE, e.kind != "cr", -when(e.date).toordinal(),
                                         e.id))
    return {e.id: n for n, e in enumerate(order)}


@dataclass
class PairInput:
    """Everything one pair's aligner needs, read from the KB beforehand (so workers need no database)."""

    pair: PlannedPair
    src: list[AlignRule]
    tgt: list[AlignRule]
    terms: list[tuple[str, str]]
    companion: CompanionPair | None = None
    #: :func:`word_share` of ``src`` and ``tgt`` when :func:`pair_input` has computed it
    share: float | None = None
    #: the keys of ``src`` and ``tgt`` for :func:`align_consecutive`, when :func:`pair_input` was given them
    keys: Keys | None = None

    @property
    def cost(self) -> int:
        return len(self.src) * (1 + len(self.tgt) // 100)

    @cached_property
    def full(self) -> bool:
        """A cross-edition pair for the full aligner (not consecutive editions); computed once."""
        if self.pair.kind != "cross-edition":
            return False
        share = self.share if self.share is not None else word_share(self.src, self.tgt)
        return share < CONSECUTIVE_FROM


@lru_cache(maxsize=1 << 16)
def _words_of(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


_NOT_WORD = re.compile(r"[^\w]+")


def word_share(src: list[AlignRule], tgt: list[AlignRule]) -> float:
    """Share of the source rules whose level, title and words (letters and digits: typography aside) the target
    prints too.  Editions that changed only their quotes or apostrophes (typographic “ ” ’ for plain " ', or a
    conversion that printed them as ?) are consecutive editions all the same: ninety-odd per cent of the same
    words, where :func:`identical_share` sees four in ten."""
    if not src:
        return 0.0
    found = {(v.level, _words_of(v.title or ""), _words_of(v.text)) for v in tgt}
    return sum((v.level, _words_of(v.title or ""), _words_of(v.text)) in found for v in src) / len(src)


def pair_input(db, p: PlannedPair, specs: dict[str, EditionSpec], rules, keys=None,
               terminology=load_terminology) -> PairInput:
    """The views of a pair; editions with one numbering scheme are cut to the parts both cover.
    ``keys(edition)``: the identity keys of the views ``rules(edition)`` (:data:`Keys`), if the caller keeps them;
    ``terminology(lang=...)``: the terminology of a language (:func:`load_terminology`; the caller may keep it)."""
    terms = terminology(lang=specs[p.source].language)
    if p.kind == "items":
        return PairInput(p, items_from_db(db, p.source, ("step", "example", "paragraph")),
                         _cited_subtree(db, p.source, p.target), terms)
    if p.kind == "faq":
        return PairInput(p, items_from_db(db, p.source, ("faq",)),
                         [v for v in rules(p.target) if v.level in ("rule", "subrule")], terms)
    if p.kind == "faq-translation":
        return PairInput(p, items_from_db(db, p.source, ("faq",)), items_from_db(db, p.target, ("faq",)), terms)
    src, tgt = rules(p.source), rules(p.target)
    if p.kind == "cross-language":
        return PairInput(p, _within(src, specs[p.target].covers), _within(tgt, specs[p.source].covers), terms)
    both = (keys(p.source), keys(p.target)) if keys is not None else None
    share = word_share(src, tgt)
    if p.reason == "chain" and share >= CONSECUTIVE_FROM:
        cut_src, cut_tgt = _within(src, specs[p.target].covers), _within(tgt, specs[p.source].covers)
        if len(cut_src) != len(src) or len(cut_tgt) != len(tgt):   # the share of the cut views is another one
            return PairInput(p, cut_src, cut_tgt, terms)
    return PairInput(p, src, tgt, terms, share=share, keys=both)


def _within(views: list[AlignRule], covers: tuple[str, ...]) -> list[AlignRule]:
    return [v for v in views if not v.norm or numbers.covered(v.norm, covers)] if covers else views


def align_input(inp: PairInput) -> list[Alignment]:
    """Run the aligner of a pair's kind on its views (pure: no database)."""
    p, src, tgt, terms = inp.pair, inp.src, inp.tgt, inp.terms
    if p.kind == "cross-language":
        return align_cross_language(src, tgt)
    if p.kind == "cross-edition":
        if not inp.full:
            return align_consecutive(src, tgt, terms, keys=inp.keys)
        return align_cross_edition(src, tgt, terms, companion=inp.companion)
    if p.kind == "items":
        return align_items(src, tgt, terms, method="item-lex")
    if p.kind == "faq":
        return align_items(src, tgt, terms, method="faq-lex")
    if p.kind == "faq-translation":
        return align_cross_language(src, tgt, method="xlang-dp-items")
    raise ValueError(f"unknown pair kind {p.kind!r}")


#: (source rule key, target rule key, score) of a link
RuleLink = tuple[str, str, float]


def rule_links(links: list[Alignment]) -> list[RuleLink]:
    """(source key, target key, score) of the links between two rules."""
    return [(lk.source.key, lk.target.key, lk.score) for lk in links
            if lk.target is not None and lk.source.kind == "rule" and lk.target.kind == "rule"]


def translations(results: dict[tuple[str, str, str], list[RuleLink]]) -> dict[str, dict[str, dict[str, str]]]:
    """edition -> other edition -> (rule key -> its best translation's key), from the :func:`rule_links` of
    cross-language pairs."""
    best: dict[tuple[str, str, str], tuple[float, str]] = {}
    for (a, b, kind), links in results.items():
        if kind != "cross-language":
            continue
        for s_key, t_key, score in links:
            for x, y, ed_x, ed_y in ((s_key, t_key, a, b), (t_key, s_key, b, a)):
                k = (ed_x, ed_y, x)
                if k not in best or score > best[k][0]:
                    best[k] = (score, y)
    out: dict[str, dict[str, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))
    for (ed_x, ed_y, key), (_, other) in best.items():
        out[ed_x][ed_y][key] = other
    return out


def companion_for(inp: PairInput, trans: dict, specs: dict[str, EditionSpec], rules) -> CompanionPair | None:
    """The same pair in another language (the translations of both editions), if the KB has one."""
    a, b = inp.pair.source, inp.pair.target
    options = [(x, y) for x in trans.get(a, {}) for y in trans.get(b, {})
               if specs[x].language == specs[y].language != specs[a].language and x != y]
    if not options:
        return None
    x, y = max(options, key=lambda o: (len(trans[a][o[0]]) + len(trans[b][o[1]]), o))
    return CompanionPair(rules(x), rules(y), load_terminology(lang=specs[x].language), trans[a][x], trans[b][y],
                         (x, y))


#: what forked workers inherit: the inputs of the pairs and the views of every edition (see :func:`_schedule`)
_SHARED: dict = {}


def _run_job(k: tuple[str, str, str], companion: tuple | None, cache_entry: Path | None, stored: bool) -> object:
    """Align pair ``k`` of the inherited inputs in a worker, write the cache entry (if any) there too;
    what the KB stores of it if ``stored`` (:func:`pair_rows`), else rows by position in the pair's views
    (cheap to send back, :func:`_at`)."""
    inp = _SHARED["jobs"][k]
    if companion is not None:
        x, y, terms, s_map, t_map = companion
        views = _SHARED["views"]
        inp.companion = CompanionPair(views[x], views[y], terms, s_map, t_map, (x, y))
    gc.disable()   # a job is short and leaves few garbage cycles: collect them after it, not during it
    try:
        links = align_input(inp)
        if cache_entry is not None:
            AlignmentCache.write(cache_entry, links)
        return pair_rows(k, links) if stored else _positions(links, inp)
    finally:
        gc.enable()


def _rows(links: list[Alignment]) -> list[tuple]:
    return [(lk.source.key, lk.target.key if lk.target else None, lk.score, lk.relation, lk.method, lk.evidence)
            for lk in links]


def _positions(links: list[Alignment], inp: PairInput) -> list[tuple]:
    """:func:`_rows` with the positions of the rules in the pair's views instead of their keys."""
    src = {v.key: n for n, v in enumerate(inp.src)}
    tgt = {v.key: n for n, v in enumerate(inp.tgt)}
    try:
        return [(src[lk.source.key], tgt[lk.target.key] if lk.target else None, lk.score, lk.relation, lk.method,
                 lk.evidence) for lk in links]
    except KeyError as e:
        raise RuntimeError(f"alignment of {inp.pair} names rules its editions do not have") from e


def _at(rows: list[tuple], inp: PairInput) -> list[Alignment]:
    """Alignments from :func:`_positions` rows."""
    src, tgt = inp.src, inp.tgt
    return [Alignment(src[s], tgt[t] if t is not None else None, score, rel, method, ev)
            for s, t, score, rel, method, ev in rows]


def _links(rows: list[tuple], inp: PairInput) -> list[Alignment] | None:
    """Alignments from rows by rule key (None when a key is not among the pair's views)."""
    src = {v.key: v for v in inp.src}
    tgt = {v.key: v for v in inp.tgt}
    try:
        return [Alignment(src[s], tgt[t] if t is not None else None, score, rel, method, ev)
                for s, t, score, rel, method, ev in rows]
    except KeyError:
        return None


class AlignmentCache:
    """Computed alignments keyed by everything they depend on: the pair's views (and its companion's),
    the terminology and the aligners' code.  A pair whose editions did not change is not aligned
    again; rows are stored by rule key, so new row ids of a rebuilt KB do not matter."""

    def __init__(self, root: Path | None):
        self.dir = Path(root) / "alignments" if root else None
        self.used: set[str] = set()
        self._code = _code_version() if self.dir is not None else ""
        self._digests: dict[int, tuple[list[AlignRule], bytes]] = {}
        self._texts: dict[str, bytes] = {}
        self._lemmas: dict[int, tuple[tuple[str, ...], bytes]] = {}

    def key(self, inp: PairInput) -> str:
        """What the pair's alignment depends on, hashed ("" without a cache directory: nothing to look up)."""
        if self.dir is None:
            return ""
        h = hashlib.sha256(self._code.encode())
        h.update(repr((inp.pair.kind, inp.pair.reason, inp.terms)).encode())
        sides = [inp.src, inp.tgt]
        if inp.companion is not None:
            c = inp.companion
            sides += [c.src, c.tgt]
            h.update(repr((c.terms, sorted(c.s_map.items()), sorted(c.t_map.items()))).encode())
        for side in sides:
            h.update(self._digest(side))
        return h.hexdigest()[:40]

    def _digest(self, views: list[AlignRule]) -> bytes:
        """What a key reads of a list of views, hashed once per list (most lists are an edition's views,
        which take part in several pairs)."""
        got = self._digests.get(id(views))
        if got is None or got[0] is not views:
            text, lemmas = self._text_digest, self._lemmas_digest
            fields = [(v.key, v.norm, v.kind, v.level, v.title, text(v.text), lemmas(v.lemmas), text(v.examples))
                      for v in views]
            digest = hashlib.sha256(_unshared_pickle(fields)).digest()
            got = self._digests[id(views)] = (views, digest)
        return got[1]

    def _text_digest(self, text: str) -> bytes:
        """A text's digest, made once per distinct text (editions repeat most texts: the views of all editions
        hold ~12,000 distinct texts among ~200,000 rules of the archive)."""
        got = self._texts.get(text)
        if got is None:
            got = self._texts[text] = hashlib.blake2b(text.encode(), digest_size=16).digest()
        return got

    def _lemmas_digest(self, lemmas: tuple[str, ...]) -> bytes:
        """A lemma tuple's digest, made once per tuple object (the views share one tuple per distinct lemmas)."""
        got = self._lemmas.get(id(lemmas))
        if got is None or got[0] is not lemmas:
            digest = hashlib.blake2b(pickle.dumps(lemmas, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).digest()
            got = self._lemmas[id(lemmas)] = (lemmas, digest)
        return got[1]

    def get(self, key: str, inp: PairInput) -> list[Alignment] | None:
        if self.dir is None:
            return None
        try:
            rows = pickle.loads((self.dir / f"{key}.pickle").read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, ValueError):
            return None
        out = _links(rows, inp)
        if out is not None:
            self.used.add(key)
        return out

    def put(self, key: str, links: list[Alignment]) -> None:
        path = self.entry(key)
        if path is not None:
            self.write(path, links)

    def entry(self, key: str) -> Path | None:
        """The file of a new entry (the caller writes it: :meth:`write`), None without a cache directory."""
        if self.dir is None:
            return None
        self.used.add(key)
        return self.dir / f"{key}.pickle"

    @staticmethod
    def write(path: Path, links: list[Alignment]) -> None:
        write_atomic(path, pickle.dumps(_rows(links), protocol=pickle.HIGHEST_PROTOCOL))

    def prune(self) -> None:
        if self.dir is not None and self.dir.exists():
            for path in self.dir.glob("*.pickle"):
                if path.stem not in self.used:
                    path.unlink(missing_ok=True)


def _unshared_pickle(value) -> bytes:
    """``value`` pickled without the memo: equal values give equal bytes whichever objects they share (a memo writes a
    second reference to one object as a back-reference, and two equal objects in full: the views made while the
    rules are written and those read back share their digests differently)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(value)
    return out.getvalue()


def _code_version() -> str:
    return code_version(Path(__file__).parent)


def run_all(db, pairs: list[PlannedPair] | None = None, workers: int | None = None,
            cache_dir: Path | None = None) -> dict[tuple[str, str, str], list[Alignment]]:
    """Compute the alignment of every planned pair (:mod:`kb.align.pairs`), keyed (source, target, kind)
    in plan order (see :func:`aligned`)."""
    return dict(aligned(db, pairs, workers, cache_dir))


def aligned(db, pairs: list[PlannedPair] | None = None, workers: int | None = None,
            cache_dir: Path | None = None) -> Iterator[tuple[tuple[str, str, str], list[Alignment]]]:
    """The alignment of every planned pair (:mod:`kb.align.pairs`), keyed (source, target, kind), in plan
    order, each as soon as it and the pairs before it are done (see :func:`_aligned`)."""
    yield from _aligned(db, pairs, workers, cache_dir, stored=False)


def stored_pairs(db, pairs: list[PlannedPair] | None = None, workers: int | None = None,
                 cache_dir: Path | None = None, views: dict[str, list[AlignRule]] | None = None
                 ) -> Iterator[tuple[tuple[str, str, str], PairRows]]:
    """:func:`aligned`, each pair as what the KB stores of it (:func:`pair_rows`, made by the worker that
    aligned it: the main process only inserts).  ``views``: those of editions the caller has (see :func:`store`)."""
    yield from _aligned(db, pairs, workers, cache_dir, stored=True, known=views)


def _aligned(db, pairs: list[PlannedPair] | None, workers: int | None, cache_dir: Path | None,
             stored: bool, known: dict[str, list[AlignRule]] | None = None
             ) -> Iterator[tuple[tuple[str, str, str], Any]]:
    """The pairs of :func:`aligned` (as :func:`pair_rows` if ``stored``), in plan order, each as soon as it and the
    pairs before it are done (the caller stores them while workers run).

    A full cross-edition pair takes its companion (the same pair in another language) from the
    translation pairs of its two editions, so it waits for those (:func:`companion_deps`); every
    other pair is independent.  With ``workers`` > 1 (default: the CPUs, at most 2) and enough work,
    the pairs run in forked processes as soon as what they wait for is done (:func:`_schedule`).
    With a ``cache_dir``, pairs whose inputs did not change since an earlier build come from the cache.
    """
    specs = {e.id: e for e in edition_specs(db)}
    views: dict[str, list[AlignRule]] = dict(known or {})

    def rules(edition: str) -> list[AlignRule]:
        if edition not in views:
            views[edition] = views_from_db(db, edition)
        return views[edition]

    # every distinct (level, title, text) as one int, each edition's computed once (most take part in two pairs);
    # the views of consecutive editions share their fields, so most are found by them before any is normalised
    ids: dict[tuple, int] = {}
    by_fields: dict[tuple, int] = {}
    idents: dict[str, list[int]] = {}

    def identity(v: AlignRule) -> int:
        n = by_fields[v.level, v.title, v.text] = ids.setdefault(v.identity, len(ids))
        return n

    def identities(edition: str) -> list[int]:
        if edition not in idents:
            get = by_fields.get
            idents[edition] = [n if (n := get((v.level, v.title, v.text))) is not None else identity(v)
                               for v in rules(edition)]
        return idents[edition]

    planned = list(dict.fromkeys(pairs if pairs is not None else plan(list(specs.values()))))
    keys = list(dict.fromkeys((p.source, p.target, p.kind) for p in planned))
    first = {(p.source, p.target, p.kind): p for p in reversed(planned)}
    terms = lru_cache(load_terminology)   # one table per language, not one per pair
    inputs = {k: pair_input(db, first[k], specs, rules, identities, terms) for k in keys}
    deps = {k: companion_deps(k, keys, specs) for k in keys if inputs[k].full}
    for k in deps:   # the companions' views, loaded before any worker is forked
        for dep in deps[k]:
            rules(dep[0]), rules(dep[1])
    cache = AlignmentCache(cache_dir)
    workers = workers or min(2, os.cpu_count() or 1)
    yield from _schedule(keys, inputs, deps, _Run(inputs, deps, cache, specs, rules, stored), workers, views)
    if cache_dir is not None:
        cache.prune()


def companion_deps(k: tuple[str, str, str], keys: list, specs: dict[str, EditionSpec]) -> list[tuple[str, str, str]]:
    """The translation pairs whose results can give full pair ``k`` its companion (:func:`companion_for`):
    those linking one of its editions to an edition of a language that translates the other one too."""
    a, b = k[0], k[1]
    partners: dict[str, list[tuple[str, tuple]]] = {a: [], b: []}
    for key in keys:
        if key[2] != "cross-language":
            continue
        for end, other in ((key[0], key[1]), (key[1], key[0])):
            if end in partners:
                partners[end].append((other, key))
    langs = ({specs[x].language for x, _ in partners[a]} & {specs[y].language for y, _ in partners[b]}) \
        - {specs[a].language}
    return list(dict.fromkeys(key for end in (a, b) for other, key in partners[end] if specs[other].language in langs))


def _schedule(keys: list, inputs: dict, deps: dict, run: _Run, workers: int,
              views: dict) -> Iterator[tuple[tuple[str, str, str], Any]]:
    """Align ``keys`` and yield them in their order as soon as a key and those before it are done.

    Cached pairs come from the cache; the rest run in priority order (the pairs a full pair waits for,
    then the full pairs, the largest first; then the rest in plan order, so that the front of the plan
    is done early), in forked workers when worth it.  While the workers run, this process looks up
    the cache of the pairs to come and the caller stores what is done.  A full pair's companion comes
    from the results of its :func:`companion_deps` only, so the outcome does not depend on the order."""
    waited = {d for ds in deps.values() for d in ds}
    position = {k: n for n, k in enumerate(keys)}
    todo = sorted(keys, key=lambda k: (0 if k in waited else 1 if k in deps else 2,
                                       -inputs[k].cost if k in waited or k in deps else position[k], k))
    parallel = workers > 1 and len(todo) > 1 and sum(inputs[k].cost for k in todo) > PARALLEL_COST
    done = 0
    try:
        while done < len(keys):
            for k in [k for k in todo if run.ready(k)]:
                if parallel and len(run.running) >= 2 * workers:   # a job queued for each worker: none waits
                    break                                          # while the caller stores a pair
                todo.remove(k)
                run.start(k, views if parallel else None, workers)
            while done < len(keys) and keys[done] in run.results:
                yield keys[done], run.results[keys[done]]
                done += 1
            if run.running:
                # while the workers run: the cache of the next pairs (a hit needs no worker)
                later = next((k for k in todo if k not in run.hashes and run.ready(k)), None)
                if later is not None:
                    run.look_up(later)
                run.collect(block=later is None)
    finally:
        run.close()


class _Run:
    """The pairs being aligned: results, cache keys and the forked workers (started with the first job)."""

    def __init__(self, inputs: dict, deps: dict, cache: AlignmentCache, specs: dict, rules, stored: bool):
        self.inputs, self.deps, self.cache, self.specs, self.rules = inputs, deps, cache, specs, rules
        #: results as :func:`pair_rows` (else the links)
        self.stored = stored
        self.results: dict = {}
        self.hashes: dict = {}
        self.running: dict = {}
        self.pool: ProcessPoolExecutor | None = None

    def ready(self, k) -> bool:
        return all(d in self.results for d in self.deps.get(k, ()))

    def look_up(self, k) -> None:
        """The cache key of ``k`` (its companion first, if a full pair), and its result if cached."""
        inp = self.inputs[k]
        if k in self.deps:
            inp.companion = companion_for(inp, translations({d: self._rule_links(d) for d in self.deps[k]}),
                                          self.specs, self.rules)
        self.hashes[k] = self.cache.key(inp)
        got = self.cache.get(self.hashes[k], inp)
        if got is not None:
            self.results[k] = self._result(k, got)

    def _result(self, k, links: list[Alignment]) -> object:
        return pair_rows(k, links) if self.stored else links

    def _rule_links(self, k) -> list[RuleLink]:
        return self.results[k].translated if self.stored else rule_links(self.results[k])

    def start(self, k, views: dict | None, workers: int) -> None:
        """Align ``k`` (unless cached): here without ``views``, else in a worker that inherits them."""
        if k not in self.hashes:
            self.look_up(k)
        if k in self.results:
            return
        inp = self.inputs[k]
        if views is None:
            links = align_input(inp)
            self.cache.put(self.hashes[k], links)
            self.results[k] = self._result(k, links)
            return
        if self.pool is None:
            # forked workers inherit the inputs and the views (the companions' editions are loaded)
            _SHARED.update(jobs=self.inputs, views=views)
            # the garbage collector of a worker need not walk what it inherits (copy-on-write pages)
            gc.freeze()
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
        c = inp.companion
        payload = None if c is None else (*c.editions, c.terms, c.s_map, c.t_map)
        self.running[self.pool.submit(_run_job, k, payload, self.cache.entry(self.hashes[k]), self.stored)] = k

    def collect(self, block: bool) -> None:
        """The results of the workers that are done (waiting for one if ``block``)."""
        finished, _ = wait(list(self.running), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for f in sorted(finished, key=lambda f: self.running[f]):
            k = self.running.pop(f)
            self.results[k] = f.result() if self.stored else _at(f.result(), self.inputs[k])

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            gc.unfreeze()
        _SHARED.clear()


def _cited_subtree(db, src_ed: str, tgt_ed: str) -> list[AlignRule]:
    """Rules of ``tgt_ed`` under the numbers ``src_ed`` cites (the article cites 601); all rules if none."""
    rules = views_from_db(db, tgt_ed)
    cited = {r["target"] for r in db.query("select distinct target from refs where edition_id = ?", [src_ed])}
    inside = [v for v in rules if v.level in ("rule", "subrule") and any(
        v.norm == c or v.norm.startswith(c + ".") or (len(c) > 3 and v.norm.startswith(c)) for c in cited)]
    return inside or rules


# --------------------------------------------------------------------------- storing in the KB

#: Datasette canned queries over the stored alignments (kb/serve.py merges them into its metadata)
CANNED_QUERIES = {
    "rule_across_editions": {
        "title": "A rule across editions",
        "description": "Give a number and an edition (e.g. 601.2c and it-wiki, or 409.2c and de-1999): the rule and "
                       "every rule the lineage links it to, side by side, with the lineage's relation (read from the "
                       "older edition to the newer) and confidence — what the rule page shows (SQL function "
                       "lineage(rule_id), kb/lineage.py).",
        "sql": """with q as (select id from rules where edition_id = :edition and norm = lower(trim(:number, '. '))),
l as (
  select q.id, null as relation, null as confidence, null as method, null as review from q
  union all
  select json_extract(j.value, '$.target_id'), json_extract(j.value, '$.relation'),
    json_extract(j.value, '$.confidence'), json_extract(j.value, '$.method'), json_extract(j.value, '$.review')
  from q, json_each(lineage(q.id)) j
)
select r.edition_id, e.language, e.date, r.number, r.title, r.text,
  l.relation || ' ' || printf('%.2f', l.confidence) || ' ' || coalesce(nullif(l.review, ''), l.method) as alignment,
  l.relation, l.confidence, r.concept_id, r.key
from l join rules r on r.id = l.id join editions e on e.id = r.edition_id
order by e.date desc, r.edition_id, r.seq""",
    },
    "rules_without_counterpart": {
        "title": "Rules without counterpart",
        "description": "Rules the aligners found no counterpart for, per edition pair (optionally one :edition).",
        "sql": """select a.pair, r.edition_id, r.number, r.title, r.text, r.key
from alignments a join rules r on r.id = a.source_rule_id
where a.relation = 'no counterpart' and (:edition = '' or a.source_edition = :edition)
order by a.pair, r.seq""",
    },
    "target_rules_without_counterpart": {
        "title": "Newer rules nothing older aligns to",
        "description": "Rules of a target edition (e.g. de-2024) that no rule of :source_edition aligns to.",
        "sql": """select r.edition_id, r.number, r.title, r.text, r.key from rules r
where r.edition_id = (select distinct target_edition from alignments where source_edition = :source_edition
                      and source_rule_id is not null limit 1)
  and r.id not in (select target_rule_id from alignments where source_edition = :source_edition
                   and target_rule_id is not null)
order by r.seq""",
    },
}

#: Datasette table metadata for the tables :func:`store` writes
TABLE_METADATA = {
    "alignments": {
        "description": "One row per aligned pair: source and target rule (or item), score, relation (equivalent, "
                       "reworded, renumbered, split, merged, no counterpart), method and the evidence used (JSON).",
        "facets": ["pair", "relation", "method"], "sort_desc": "score",
    },
    "alignment_reviews": {
        "description": "The reviews of data/alignment_reviews.tsv (file and line): a person confirmed, rejected or "
                       "added a link of the lineage; the build applied them to the stored pairs (alignments.review), "
                       "composition applies them to the others (kb/align/reviews.py).",
        "facets": ["verdict", "reviewer"],
    },
    "concepts": {
        "description": "Stable rule identity: aligned versions of a rule share a concept id, separate from the "
                       "printed numbers (like Akoma Ntoso's wId beside eId); named after its rule in the "
                       "newest edition of the original language.",
    },
}


def store(db, progress=None, cache_dir: Path | None = None, workers: int | None = None,
          rows_written: Callable[[Any], object] | None = None,
          views: dict[str, list[AlignRule]] | None = None, reviews_file: Path = reviews.REVIEWS_FILE) -> dict[str, int]:
    """Compute every alignment of the KB and write ``concepts``, ``alignments`` and ``rules.concept_id``.

    ``db`` is a ``sqlite_utils.Database`` whose ``rules``, ``items`` and ``refs`` are written; ``views``: the
    views of its editions if the caller made them as it wrote the rules (:func:`kb.align.views.views_from_rows`),
    else they are read from ``db``.
    ``rows_written(db)`` is called once the ``alignments`` rows are written and indexed by edition pair, before the
    concepts (a later stage that reads the alignments may start there: the build's diffs).
    ``reviews_file``: the reviews of the lineage (:mod:`kb.align.reviews`), applied to the stored pairs before
    anything reads them.
    Returns row counts per edition pair.
    """
    found = reviews.load(db.conn, reviews_file)   # (a review naming a rule the KB lacks stops the build first)
    with collector_paused():   # millions of views, links and rows, no garbage cycles (a second of an archive build)
        return _store(db, progress, cache_dir, workers, rows_written, views, found, reviews_file)


def _store(db, progress, cache_dir: Path | None, workers: int | None,
           rows_written: Callable[[Any], object] | None, views: dict[str, list[AlignRule]] | None,
           found: list[reviews.Review], reviews_file: Path) -> dict[str, int]:
    specs = edition_specs(db)
    pairs = plan(specs)
    for name in ("alignments", "concepts", "edition_pairs"):
        if name in db.table_names():
            db[name].drop()
    db["concepts"].create({"id": int, "label": str, "anchor_rule_id": int, "editions": str}, pk="id",
                          foreign_keys=[("anchor_rule_id", "rules", "id")])
    db["alignments"].create(ALIGNMENT_COLUMNS, pk="id", foreign_keys=[
        ("source_rule_id", "rules", "id"), ("target_rule_id", "rules", "id"), ("source_item_id", "items", "id"),
        ("target_item_id", "items", "id")])
    concepts = Concepts()
    runs, counts = _write_alignments(db, stored_pairs(db, pairs, workers=workers, cache_dir=cache_dir, views=views),
                                     concepts)
    db["alignments"].create_index(["source_edition", "target_edition"])   # one pair's rows (the diffs read each)
    if found:   # (the rule ids' indexes first: each review looks its rules up)
        for cols in (["source_rule_id"], ["target_rule_id"]):
            db["alignments"].create_index(cols)
    reviews.store(db, found, reviews_file)
    # the concepts follow the lineage as stored: the reviewed rules' best links read again once the reviews are in
    concepts.reread(db.conn, {i for r in found for i in (r.source_id, r.target_id)},
                    {(p.source, p.target): p.kind for p in pairs if p.kind in ("cross-edition", "cross-language")})
    if rows_written is not None:   # (before the thread below starts: it may fork)
        rows_written(db)
    # the concepts are assigned in a thread while SQLite indexes the alignments (it lets go of the GIL meanwhile)
    with ThreadPoolExecutor(1) as thread:
        assigned = thread.submit(concepts.assign, anchor_ranks(specs))
        for cols in (["source_rule_id"], ["target_rule_id"], ["source_item_id"], ["pair", "relation"]):
            db["alignments"].create_index(cols, if_not_exists=True)
        rule_ids = dict(db.conn.execute("select key, id from rules order by id"))
        concept_of = assigned.result()
    _write_concepts(db, concept_of, rule_ids)
    db["edition_pairs"].insert_all(({
        "source_edition": p.source, "target_edition": p.target, "kind": p.kind, "reason": p.reason,
        "methods": ", ".join(f"{m} {n}" for m, n in runs[p.source, p.target, p.kind][0]),
        "rows": runs[p.source, p.target, p.kind][1],
    } for p in dict.fromkeys(pairs)), pk=("source_edition", "target_edition", "kind"))
    _create_views(db)
    if progress:
        progress(", ".join(f"{k}: {v}" for k, v in counts.items()))
    return dict(counts)


def _write_alignments(db, stream: Iterator[tuple[tuple[str, str, str], PairRows]], concepts: Concepts
                      ) -> tuple[dict[tuple[str, str, str], tuple[list[tuple[str, int]], int]], Counter[str]]:
    """Insert each pair's ``alignments`` rows as ``stream`` yields it (while the workers align the next pairs)
    and add its links to ``concepts``; the methods and the number of rows of every pair, and the rows per
    edition pair."""
    runs: dict[tuple[str, str, str], tuple[list[tuple[str, int]], int]] = {}
    counts: Counter[str] = Counter()

    def rows() -> Iterator[tuple]:
        for k, got in stream:
            runs[k] = got.methods, len(got.rows)
            if got.rows:
                counts[f"{k[0]} → {k[1]}"] += len(got.rows)
            if k[2] in ("cross-edition", "cross-language"):
                concepts.merge(got.seen, got.best, translations=k[2] == "cross-language")
            yield from got.rows

    columns = [c for c in ALIGNMENT_COLUMNS if c != "id"]   # the ids: 1, 2, ... in the order inserted
    with db.conn:
        db.conn.executemany(f"insert into alignments ({', '.join(columns)}) values ({', '.join('?' for _ in columns)})",
                            rows())
    return runs, counts


def _write_concepts(db, concept_of: dict[str, str], rule_ids: dict[str, int]) -> None:
    """The ``concepts`` table and ``rules.concept_id`` (``rule_ids``: key -> id of every rule, in id order):
    every rule gets a concept (its own if it has no anchor)."""
    anchors = sorted(set(concept_of.values()), key=lambda k: rule_ids.get(k, 0))   # anchors first, then singletons
    for key in rule_ids:
        if key not in concept_of:
            concept_of[key] = key
            anchors.append(key)
    concept_id = {anchor: n for n, anchor in enumerate(dict.fromkeys(anchors), 1)}
    info = {row[0]: dict(zip(("id", "edition_id", "number", "title", "text"), row)) for row in db.conn.execute(
        "select id, edition_id, number, title, text from rules where id in (select value from json_each(?))",
        [json.dumps(sorted({rule_ids[a] for a in concept_id}))])}
    members: dict[str, set] = defaultdict(set)
    for key, anchor in concept_of.items():
        members[anchor].add(key.split("/")[0])
    insert_rows(db, "concepts", [{
        "id": cid, "label": _label(info[rule_ids[anchor]]), "anchor_rule_id": rule_ids[anchor],
        "editions": ", ".join(sorted(members[anchor])),
    } for anchor, cid in concept_id.items()])
    if "concept_id" not in db["rules"].columns_dict:
        # the column and its reference in one ALTER: sqlite-utils' add_foreign_key would copy the whole table
        # (transform) and VACUUM the database, seconds with an archive of editions
        db.execute("alter table rules add column concept_id integer references concepts(id)")
    ids, concepts = list(rule_ids.values()), [concept_id[concept_of[k]] for k in rule_ids]
    with db.conn:   # one UPDATE joined to the ids (UPDATE FROM), not one statement per rule; the ids as one JSON value
        db.conn.execute("create temp table rule_concept (id integer primary key, concept_id integer)")
        if ids and ids[-1] - ids[0] == len(ids) - 1:   # ids 1, 2, ... (ascending): the concepts as an array
            db.conn.execute("insert into rule_concept select key + ?, value from json_each(?)",
                            [ids[0], json.dumps(concepts)])
        else:
            db.conn.execute("insert into rule_concept select cast(key as integer), value from json_each(?)",
                            [json.dumps(dict(zip(ids, concepts)))])
        db.conn.execute("update rules set concept_id = c.concept_id from temp.rule_concept c where c.id = rules.id")
        db.conn.execute("drop table temp.rule_concept")
    db["rules"].create_index(["concept_id"], if_not_exists=True)


ALIGNMENT_COLUMNS = {
    "id": int, "pair": str, "source_edition": str, "target_edition": str, "source_rule_id": int,
    "source_item_id": int, "target_rule_id": int, "target_item_id": int, "source_number": str,
    "target_number": str, "score": float, "relation": str, "method": str, "evidence": str,
}


@dataclass
class PairRows:
    """What the KB stores of one aligned pair, made where the pair was aligned (a worker sends it back as it is)."""

    #: the ``alignments`` rows, in :data:`ALIGNMENT_COLUMNS` order without the id
    rows: list[tuple]
    #: the methods and their number of rows, the most common first
    methods: list[tuple[str, int]]
    #: :func:`reduce_links` of the links (of pairs across editions or languages only)
    seen: dict[str, str]
    best: dict[str, tuple[str, float]]
    #: :func:`rule_links` of a pair across languages (the companions of full pairs are made of them)
    translated: list[RuleLink]


def pair_rows(k: tuple[str, str, str], links: list[Alignment]) -> PairRows:
    """What the KB stores of the links of pair ``k`` (source, target, kind)."""
    seen, best = reduce_links(links) if k[2] in ("cross-edition", "cross-language") else ({}, {})
    return PairRows(_alignment_rows(k, links), Counter(lk.method for lk in links).most_common(), seen, best,
                    rule_links(links) if k[2] == "cross-language" else [])


def _alignment_rows(k: tuple[str, str, str], links: list[Alignment]) -> list[tuple]:
    """The ``alignments`` rows of a pair's links (:attr:`PairRows.rows`)."""
    src_ed, tgt_ed = k[0], k[1]
    pair = f"{src_ed} → {tgt_ed}"
    evidence: dict[tuple, str] = {}   # the same evidence recurs: most links of consecutive editions are alike
    by_dict: dict[int, str] = {}      # ... and share one dict (the links hold them all, so their ids stay theirs)
    out = []
    for link in links:
        s, t, ev = link.source, link.target, link.evidence
        js = by_dict.get(id(ev))
        if js is None:
            js = by_dict[id(ev)] = _evidence_json(ev, evidence)
        out.append((pair, src_ed, tgt_ed, s.id if s.kind == "rule" else None, s.id if s.kind != "rule" else None,
                    t.id if t is not None and t.kind == "rule" else None,
                    t.id if t is not None and t.kind != "rule" else None,
                    s.norm or s.key.split("/")[-1], (t.norm or t.key.split("/")[-1]) if t is not None else None,
                    link.score, link.relation, link.method, js))
    return out


def _evidence_json(ev: dict, memo: dict[tuple, str]) -> str:
    try:
        key = tuple(ev.items())   # the JSON sorts the keys: dicts that differ in order only share it
        hash(key)
    except TypeError:   # a list or dict among the values
        return json.dumps(ev, ensure_ascii=False, sort_keys=True)
    if key not in memo:
        memo[key] = json.dumps(ev, ensure_ascii=False, sort_keys=True)
    return memo[key]


def _label(rule: dict) -> str:
    words = (rule.get("title") or rule.get("text") or "").split()
    head = " ".join(words[:8]) + (" …" if len(words) > 8 else "")
    return f"{rule['edition_id']} {rule['number']}: {head}".strip()


def _create_views(db) -> None:
    """SQL views that work in plain Datasette too.  (A rule's versions across editions are the lineage's, which SQL
    cannot compose: the canned query ``rule_across_editions`` reads them through the SQL function ``lineage``.)"""
    db.execute("drop view if exists aligned_versions")   # (of a KB built before it was dropped)
    db.execute("drop view if exists no_counterpart")
    db.execute("""create view no_counterpart as
select a.pair, r.edition_id, r.number, r.title, r.text, r.key from alignments a
join rules r on r.id = a.source_rule_id where a.relation = 'no counterpart'
order by a.id""")
