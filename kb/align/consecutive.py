"""Consecutive editions of one family: most rules are unchanged, so align cheaply first.

1. **Identical text**, in order: the longest monotone matching of the (level, title, text) keys
   (difflib on the key sequences), then keys left over that are unique on both sides (a rule
   that moved elsewhere).  Same number: ``equivalent``; another number: ``renumbered``.
2. **Near-identical text** between two matched neighbours: the unmatched rules of a gap are
   paired by a cheap similarity (rapidfuzz), best first, from :data:`NEAR`: ``reworded``.
3. **Splits and merges** in a gap: an unmatched rule whose text is contained in a paired rule
   of the other edition next to it (:data:`CONTAINED`) joins that pair.
4. **The rest** (rewritten, added, removed rules: a few per edition) goes to the full
   cross-edition aligner; its links below :data:`REST_MIN` count as no counterpart.

Cost: linear in the rules plus the small rest, so a chain of ~110 editions aligns in seconds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher

from rapidfuzz import fuzz

from .crossedition import align_cross_edition
from .views import Alignment, AlignRule

#: similarity (0–1) from which two rules of the same gap are one rule reworded
NEAR = 0.72
#: share of a rule's text found in a neighbour from which it is part of that neighbour (split/merge)
CONTAINED = 0.9
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
    _near(src, tgt, m)
    _contained(src, tgt, m)
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


def _near(src: list[AlignRule], tgt: list[AlignRule], m: _Match) -> None:
    for gs, gt, _, _ in _gaps(len(src), len(tgt), m):
        if not gs or not gt or len(gs) > MAX_GAP or len(gt) > MAX_GAP:
            continue
        scored = []
        for x, i in enumerate(gs):
            for y, d in enumerate(gt):
                if src[i].level == tgt[d].level:
                    s = fuzz.ratio(_text(src[i]), _text(tgt[d])) / 100
                    if s >= NEAR:
                        scored.append((s, -abs(x - y), i, d))
        used_s: set[int] = set()
        used_t: set[int] = set()
        for s, _, i, d in sorted(scored, reverse=True):
            if i not in used_s and d not in used_t:
                used_s.add(i)
                used_t.add(d)
                m.add(i, d, min(s, 0.999), "near")


def _part_of(part: str, whole: str) -> float:
    """Share of ``part`` found in ``whole`` (0 when ``part`` is not the shorter one or below :data:`CONTAINED`)."""
    if not part or len(part) >= len(whole):
        return 0.0
    # below the cutoff the share is 0: only shares from CONTAINED on count, and they come out the same
    return fuzz.partial_ratio(part, whole, score_cutoff=CONTAINED * 100) / 100


def _contained(src: list[AlignRule], tgt: list[AlignRule], m: _Match) -> None:
    """Unmatched rules that are a part of a paired neighbour: merges (source side) and splits (target side)."""
    for gs, gt, before, after in _gaps(len(src), len(tgt), m):
        near_t = [d for d in range(max(0, before[1]), min(len(tgt), after[1] + 1)) if d in m.sources]
        for i in gs:
            best = max(((_part_of(_text(src[i]), _text(tgt[d])), d) for d in near_t), default=(0.0, -1))
            if best[0] >= CONTAINED:
                m.add(i, best[1], best[0], "part")
        near_s = [i for i in range(max(0, before[0]), min(len(src), after[0] + 1)) if i in m.links]
        for d in gt:
            best = max(((_part_of(_text(tgt[d]), _text(src[i])), i) for i in near_s), default=(0.0, -1))
            if best[0] >= CONTAINED:
                m.add(best[1], d, best[0], "part")


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
