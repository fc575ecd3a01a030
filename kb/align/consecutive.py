"""Consecutive editions of one family: most rules are unchanged, so align cheaply first.

1. **Identical text**, in order: the longest monotone matching of the (level, title, text) keys
   (difflib on the key sequences), then keys left over that are unique on both sides (a rule
   that moved elsewhere).  Same number: ``equivalent``; another number: ``renumbered``.
2. **In order** between two matched neighbours: the unmatched rules of a gap keep their order, so they are
   aligned as bitext aligners align sentences (:mod:`kb.align.bitext`): reworded (1–1, ``reworded``), split in two
   (1–2) or two merged (2–1), by a cheap similarity of their texts (rapidfuzz); leaving a rule alone costs a
   percentile of what unrelated rules of the two editions cost, so no threshold is tuned.
3. **The rest** (rewritten, added, removed rules: a few per edition) goes to the full
   cross-edition aligner; its links below :data:`REST_MIN` count as no counterpart.

Cost: linear in the rules plus the small rest, so a chain of ~110 editions aligns in seconds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from rapidfuzz import fuzz

from . import bitext
from .crossedition import align_cross_edition
from .views import Alignment, AlignRule

#: a gap with more unmatched rules than this on one side is left to the full aligner
MAX_GAP = 60
#: links of the full aligner below this score are no counterpart
REST_MIN = 0.3


def _key(v: AlignRule) -> tuple:
    return v.identity


def _text(v: AlignRule) -> str:
    return " ".join(v.text.split()) or (v.title or "").strip()


@dataclass
class _Match:
    """Source index -> [(target index, score, how)]; target index -> source indexes."""

    links: dict[int, list[tuple[int, float, str]]] = field(default_factory=dict)
    sources: dict[int, list[int]] = field(default_factory=dict)

    def add(self, i: int, d: int, score: float, how: str) -> None:
        self.links.setdefault(i, []).append((d, score, how))
        self.sources.setdefault(d, []).append(i)


#: each rule's (level, title, text) in two editions as keys, equal where those are equal (small ints, say)
Keys = tuple[list, list]


def identical_share(src: list[AlignRule], tgt: list[AlignRule], keys: Keys | None = None) -> float:
    """Share of the source rules whose (level, title, text) the target prints too (``keys``: those of
    ``src`` and ``tgt`` when the caller has them)."""
    if not src:
        return 0.0
    a, b = keys or ([_key(v) for v in src], [_key(v) for v in tgt])
    found = set(b)
    return sum(1 for k in a if k in found) / len(src)


def align_consecutive(src: list[AlignRule], tgt: list[AlignRule], terms=None,
                      method: str = "chain", keys: Keys | None = None) -> list[Alignment]:
    """Alignments of every source rule (see the module doc); target rules nobody pairs stay unmatched.
    ``keys``: as for :func:`identical_share`."""
    m = _Match()
    _identical(src, tgt, m, keys)
    _in_order(src, tgt, m)
    rest = _rest(src, tgt, m, terms)
    out: list[Alignment] = []
    # links of one method and of one score share the method's name and the evidence (most links are alike):
    # fewer objects to make, to send back from a worker and to read there
    names: dict[str, str] = {}
    evidence: dict[float, dict] = {}
    for i, v in enumerate(src):
        if i not in m.links:
            out += rest.get(i, [Alignment(v, None, 0.0, "no counterpart", f"{method}-rest", {})])
            continue
        targets = m.links[i]
        for d, score, how in targets:
            t = tgt[d]
            if len(targets) > 1:
                rel = "split"
            elif len(m.sources[d]) > 1:
                rel = "merged"
            elif score >= 1.0:
                rel = "equivalent" if t.norm == v.norm else "renumbered"
            else:
                rel = "reworded"
            s = round(score, 3)
            ev = evidence.get(s)
            if ev is None:
                ev = evidence[s] = {"similarity": s}
            out.append(Alignment(v, t, s, rel, names.get(how) or names.setdefault(how, f"{method}-{how}"), ev))
    return out


def _identical(src: list[AlignRule], tgt: list[AlignRule], m: _Match, keys: Keys | None) -> None:
    if keys is None:
        # each distinct key as a small int: the matcher hashes and compares ints faster than tuples of texts
        ids: dict[tuple, int] = {}
        keys = [ids.setdefault(_key(v), len(ids)) for v in src], [ids.setdefault(_key(v), len(ids)) for v in tgt]
    a, b = keys
    for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for n in range(block.size):
            m.add(block.a + n, block.b + n, 1.0, "same")
    left_a: dict[int, list[int]] = {}
    left_b: dict[int, list[int]] = {}
    for i, k in enumerate(a):
        if i not in m.links:
            left_a.setdefault(k, []).append(i)
    for d, k in enumerate(b):
        if d not in m.sources:
            left_b.setdefault(k, []).append(d)
    for k, at in left_a.items():
        if len(at) == 1 and len(left_b.get(k, ())) == 1 and (_key(src[at[0]])[1] or _key(src[at[0]])[2]):
            m.add(at[0], left_b[k][0], 1.0, "moved")


def _gaps(n_src: int, n_tgt: int, m: _Match) -> list[tuple[list[int], list[int], tuple[int, int], tuple[int, int]]]:
    """Unmatched source and target indexes between consecutive monotone anchors, with the anchors."""
    mono: list[tuple[int, int]] = []
    for i in sorted(m.links):
        d = m.links[i][0][0]
        if not mono or d > mono[-1][1]:
            mono.append((i, d))
    out = []
    prev = (-1, -1)
    for i, d in [*mono, (n_src, n_tgt)]:
        if i == prev[0] + 1 and d == prev[1] + 1:   # neighbouring anchors: no gap (most of them)
            prev = (i, d)
            continue
        gs = [x for x in range(prev[0] + 1, i) if x not in m.links]
        gt = [y for y in range(prev[1] + 1, d) if y not in m.sources]
        if gs or gt:
            out.append((gs, gt, prev, (i, d)))
        prev = (i, d)
    return out


def _in_order(src: list[AlignRule], tgt: list[AlignRule], m: _Match) -> None:
    """The rules of each gap between matched neighbours, aligned in order as bitext aligners align sentences
    (:func:`kb.align.bitext.align`): a rule reworded (1–1), split in two (1–2) or two merged (2–1), scored by the
    similarity of their texts (of a split or a merge: how much of each part the whole holds); rules left alone go to
    the full aligner.  Leaving a rule alone costs a percentile of what pairs of unrelated rules of the two editions
    cost (:func:`_unrelated_costs`), so a bead is taken only when its rules are more alike than most unrelated ones.
    A similarity too low for its bead to beat leaving the rules alone is not computed exactly (it counts as 0)."""
    gaps = [g for g in _gaps(len(src), len(tgt), m) if g[0] and g[1] and len(g[0]) <= MAX_GAP and len(g[1]) <= MAX_GAP]
    if not gaps:
        return
    skip = bitext.skip_cost(_unrelated_costs(src, tgt, gaps))
    one = 1 - 2 * skip   # (a 1–1 bead beats two rules left alone only above this)
    for gs, gt, _, _ in gaps:
        known: dict[tuple, float | None] = {}

        def similarity(xs: tuple[int, ...], ys: tuple[int, ...], gs=gs, gt=gt, known=known) -> float | None:
            if (xs, ys) not in known:
                if len(xs) == len(ys):
                    a, b = src[gs[xs[0]]], tgt[gt[ys[0]]]
                    known[xs, ys] = _alike(_text(a), _text(b), one) if a.level == b.level else None
                else:   # a split or a merge (a rule and its new subrule, say): each part is found in the whole
                    parts, whole = ([src[gs[x]] for x in xs], tgt[gt[ys[0]]]) if len(xs) > 1 else (
                        [tgt[gt[y]] for y in ys], src[gs[xs[0]]])
                    known[xs, ys] = min(_found_in(_text(v), _text(whole)) for v in parts)
            return known[xs, ys]

        for xs, ys in bitext.align(len(gs), len(gt), similarity, skip):
            if xs and ys:
                score = min(similarity(xs, ys) or 0.0, 0.999)
                for x in xs:
                    for y in ys:
                        m.add(gs[x], gt[y], score, "near" if len(xs) == len(ys) else "part")


def _alike(a: str, b: str, cutoff: float = 0.0) -> float:
    """Similarity of two texts (0–1); 0 below ``cutoff``."""
    return fuzz.ratio(a, b, score_cutoff=100 * max(0.0, cutoff)) / 100


def _found_in(part: str, whole: str) -> float:
    """How much of ``part`` the longer ``whole`` holds: the share of its words that the whole prints (0 when ``part``
    is not the shorter one)."""
    if not part or len(part) >= len(whole):
        return 0.0
    words = _words(part)
    return len(words & _words(whole)) / len(words) if words else 0.0


@lru_cache(maxsize=1 << 14)
def _words(text: str) -> frozenset[str]:
    return frozenset(text.lower().split())


def _unrelated_costs(src: list[AlignRule], tgt: list[AlignRule], gaps) -> list[float]:
    """The costs (1 - similarity) of pairs of unrelated rules of the two editions, as Vecalign samples random
    sentence pairs: each rule of a gap with the rules of the same level half an edition away from the gap's rules of
    the other edition (a rule in another place, which the order says is not its counterpart)."""
    half = len(tgt) // 2
    return [1 - _alike(_text(src[i]), _text(tgt[e])) for gs, gt, _, _ in gaps for i in gs
            for e in ((d + half) % len(tgt) for d in gt) if src[i].level == tgt[e].level]


def _rest(src: list[AlignRule], tgt: list[AlignRule], m: _Match, terms) -> dict[int, list[Alignment]]:
    """The full aligner on the rules left over; its links for each left-over source index."""
    rs = [i for i in range(len(src)) if i not in m.links]
    rt = [d for d in range(len(tgt)) if d not in m.sources]
    if not rs or not rt:
        return {}
    index = {src[i].key: i for i in rs}
    found: dict[int, list[Alignment]] = {}
    for link in align_cross_edition([src[i] for i in rs], [tgt[d] for d in rt], terms):
        link.method = f"chain-rest-{link.method}"
        found.setdefault(index[link.source.key], []).append(link)
    out = {}
    for i, links in found.items():
        kept = [lk for lk in links if lk.target is not None and lk.score >= REST_MIN]
        out[i] = kept or [Alignment(src[i], None, 0.0, "no counterpart", links[0].method, {})]
    return out
