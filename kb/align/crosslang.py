"""The cross-language aligner: same numbering scheme, different languages (banded DP + linking)."""
from __future__ import annotations

import bisect
from collections import Counter, defaultdict

from ingest import numbers

from .features import Feat, Lexicon, _gale_church, _jaccard, _overlap, _ref_agreement, features, merge_feats
from .numbering import _lis, _parent_index, number_affinity
from .views import Alignment, AlignRule

# --------------------------------------------------------------------------- cross-language aligner

#: weights of the translation-surviving evidence; missing evidence is left out of the average
XLANG_WEIGHTS = {"lexicon": 0.50, "refs": 0.15, "digits": 0.07, "symbols": 0.06, "tokens": 0.10, "length": 0.12}
#: weight of the rule number beside that evidence: numbers are strong evidence, not proof
NUMBER_WEIGHT = 0.2


class PairScorer:
    """Scores source/target pairs of two editions that share a numbering scheme.

    ``content`` is the evidence that survives translation, ``total`` adds the number.
    """

    def __init__(self, src: list[AlignRule], tgt: list[AlignRule], lexicon_pairs: int = 400):
        self.src, self.tgt = src, tgt
        self.fs = [features(v) for v in src]
        self.ft = [features(v) for v in tgt]
        anchors = _number_anchors(src, tgt) or _proportional_anchors(src, tgt)
        step = max(1, len(anchors) // lexicon_pairs)
        sample = anchors[::step]
        self.lexicon = Lexicon([(self.fs[i].content, self.ft[j].content) for i, j in sample])
        ratios = sorted(self.ft[j].length / self.fs[i].length for i, j in sample
                        if self.fs[i].length > 20 and self.ft[j].length > 20)
        self.c = ratios[len(ratios) // 2] if ratios else 1.0
        self.s2 = 6.8 * self.c
        self.cache: dict = {}
        self._merged: dict = {}
        self._numbers: dict[tuple[int, int], float] = {}
        self._weights = tuple(XLANG_WEIGHTS[k] for k in ("lexicon", "refs", "digits", "symbols", "tokens", "length"))
        self._prepared: dict[tuple[str, tuple[int, ...]], tuple] = {}
        # levels and numbers for the level check of :func:`_split_off`
        self._s_level = [v.level for v in src]
        self._t_level = [v.level for v in tgt]
        self._s_norm = [v.norm for v in src]
        self._t_parent = [numbers.parent(v.norm) if numbers.is_number(v.norm) else None for v in tgt]

    def feat(self, side: str, idx: tuple[int, ...]) -> Feat:
        base = self.fs if side == "s" else self.ft
        if len(idx) == 1:
            return base[idx[0]]
        key = (side, idx)
        if key not in self._merged:
            self._merged[key] = merge_feats([base[i] for i in idx])
        return self._merged[key]

    def evidence(self, si: tuple[int, ...], tj: tuple[int, ...]) -> dict:
        a, b = self.feat("s", si), self.feat("t", tj)
        shared = _overlap(a.tokens, b.tokens)
        return {
            "lexicon": self.lexicon.similarity(a.content, b.content) if a.content and b.content else None,
            "refs": _ref_agreement(a.refs, b.refs),
            "digits": _jaccard(a.digits, b.digits),
            "symbols": _jaccard(a.symbols, b.symbols),
            "tokens": shared if shared > 0 else None,   # shared names and keywords: only ever a bonus
            "length": _gale_church(a.length, b.length, self.c, self.s2),
            "number": max(self._number(i, j) for i in si for j in tj),
        }

    def _number(self, i: int, j: int) -> float:
        key = (i, j)
        got = self._numbers.get(key)
        if got is None:
            got = self._numbers[key] = number_affinity(self.src[i].norm, self.tgt[j].norm)
        return got

    def _side(self, side: str, idx: tuple[int, ...]) -> tuple:
        """What :meth:`score` reads of one side, prepared once per feature: (content, translatable
        words, words the other side's translations reach, refs, digits, symbols, tokens, length)."""
        key = (side, idx)
        got = self._prepared.get(key)
        if got is None:
            f, lex, forward = self.feat(side, idx), self.lexicon, side == "s"
            known = lex._known(f.content, forward) if f.content else frozenset()
            reach = lex._reach(f.content, not forward) if f.content else frozenset()
            got = self._prepared[key] = (bool(f.content), known, reach, f.refs, f.digits, f.symbols, f.tokens,
                                         f.length)
        return got

    def score(self, si: tuple[int, ...], tj: tuple[int, ...]) -> tuple[float, float]:
        """(total, content) of aligning source rules ``si`` with target rules ``tj`` (:meth:`explain`
        gives the evidence behind them).  The weighted mean of :meth:`evidence`, inlined (the same
        sums in the same order): the DP asks for tens of thousands of pairs."""
        key = (si, tj)
        got = self.cache.get(key)
        if got is not None:
            return got
        a_content, known_a, reach_a, a_refs, a_digits, a_symbols, a_tokens, a_length = self._side("s", si)
        b_content, known_b, reach_b, b_refs, b_digits, b_symbols, b_tokens, b_length = self._side("t", tj)
        w_lex, w_refs, w_digits, w_symbols, w_tokens, w_length = self._weights
        num = den = 0.0
        if a_content and b_content:
            # Lexicon.similarity: translatable words of each side that the other side reaches
            if known_a and known_b:
                x: float | None = (len(known_a & reach_b) / len(known_a) + len(known_b & reach_a) / len(known_b)) / 2
            elif known_a:
                x = len(known_a & reach_b) / len(known_a)
            elif known_b:
                x = len(known_b & reach_a) / len(known_b)
            else:
                x = None
            if x is not None:
                num += w_lex * x
                den += w_lex
        if a_refs or b_refs:
            num += w_refs * _ref_agreement(a_refs, b_refs)  # type: ignore[operator]
            den += w_refs
        if a_digits or b_digits:
            num += w_digits * (len(a_digits & b_digits) / len(a_digits | b_digits))
            den += w_digits
        if a_symbols or b_symbols:
            num += w_symbols * (len(a_symbols & b_symbols) / len(a_symbols | b_symbols))
            den += w_symbols
        if a_tokens and b_tokens:
            shared = len(a_tokens & b_tokens) / min(len(a_tokens), len(b_tokens))
            if shared > 0:
                num += w_tokens * shared
                den += w_tokens
        num += w_length * _gale_church(a_length, b_length, self.c, self.s2)
        den += w_length
        content = num / den
        if self._other_level(si[0], tj[0]):
            content *= 0.5
        got = self.cache[key] = ((1 - NUMBER_WEIGHT) * content + NUMBER_WEIGHT * self._numbers_of(si, tj), content)
        return got

    def ceiling(self, si: tuple[int, ...], tj: tuple[int, ...]) -> float:
        """Above the total of :meth:`score` (its content at most 1, or half), without the evidence."""
        content = 0.5 if self._other_level(si[0], tj[0]) else 1.0
        return (1 - NUMBER_WEIGHT) * content + NUMBER_WEIGHT * self._numbers_of(si, tj) + 1e-9

    def _other_level(self, i0: int, j0: int) -> bool:
        """The first rules of the two sides are of other levels and the target is not split off the source."""
        return self._s_level[i0] != self._t_level[j0] and not (self._s_norm[i0]
                                                                and self._t_parent[j0] == self._s_norm[i0])

    def _numbers_of(self, si: tuple[int, ...], tj: tuple[int, ...]) -> float:
        """The number affinity of two sides: the best of their rules' numbers."""
        if len(si) > 1 or len(tj) > 1:
            return max([self._number(i, j) for i in si for j in tj])
        return self._number(si[0], tj[0])

    def explain(self, si: tuple[int, ...], tj: tuple[int, ...]) -> tuple[float, float, dict]:
        """(total, content, evidence rounded for the alignment row)."""
        total, content = self.score(si, tj)
        return total, content, {k: round(v, 3) for k, v in self.evidence(si, tj).items() if v is not None}


def _split_off(source: AlignRule, target: AlignRule) -> bool:
    """The target is a subrule numbered under the source's number (``612.1`` -> ``612.1a``): the part
    of a rule split off into a new child keeps its evidence despite the other level."""
    return bool(source.norm) and numbers.is_number(target.norm) and numbers.parent(target.norm) == source.norm


def _number_anchors(src: list[AlignRule], tgt: list[AlignRule]) -> list[tuple[int, int]]:
    """(source index, target index) of rules printed with the same number."""
    by_norm: dict[str, int] = {}
    for j, v in enumerate(tgt):
        if v.norm:
            by_norm.setdefault(v.norm, j)
    return [(i, by_norm[v.norm]) for i, v in enumerate(src) if v.norm in by_norm]


def _proportional_anchors(src: list[AlignRule], tgt: list[AlignRule]) -> list[tuple[int, int]]:
    """Unnumbered parallel lists (FAQ bullets in two languages): position is the only prior."""
    if not src or not tgt or abs(len(src) - len(tgt)) > 0.2 * max(len(src), len(tgt)):
        return []
    return [(i, min(len(tgt) - 1, round(i * len(tgt) / len(src)))) for i in range(len(src))]


def _expected_positions(src: list[AlignRule], tgt: list[AlignRule]) -> list[float]:
    """For every source index, where its counterpart should be: interpolated between equal numbers."""
    anchors = _number_anchors(src, tgt)
    # keep a monotone chain of anchors (longest increasing subsequence on target index)
    chain = _lis(anchors)
    if not chain:
        scale = len(tgt) / max(1, len(src))
        return [i * scale for i in range(len(src))]
    xs = [i for i, _ in chain]
    out = []
    for i in range(len(src)):
        k = bisect.bisect_left(xs, i)
        if k < len(xs) and xs[k] == i:
            out.append(float(chain[k][1]))
        elif k == 0:
            out.append(float(chain[0][1] - (xs[0] - i)))
        elif k == len(xs):
            out.append(float(chain[-1][1] + (i - xs[-1])))
        else:
            (i0, j0), (i1, j1) = chain[k - 1], chain[k]
            out.append(j0 + (j1 - j0) * (i - i0) / (i1 - i0))
    return out


def align_cross_language(src: list[AlignRule], tgt: list[AlignRule], *, band: int = 12, threshold: float = 0.35,
                         many_penalty: float = 0.05, method: str = "xlang-dp") -> list[Alignment]:
    """Align two editions with the same numbering scheme (both lists in document order).

    1. A monotone dynamic program inside a band around the positions that equal numbers
       suggest; each aligned pair gains ``total - threshold``, skips gain nothing, 2–1 and 1–2
       steps pay ``many_penalty``.
    2. Competitive linking inside the band (:func:`_link`): best pairs first, each target once,
       with the path and the parents' links as small bonuses.  It finds what a monotone path
       cannot express: swapped rules, misplaced duplicates (two sources, one target: a merge)
       and misprinted numbers.  A source with two neighbouring targets that together explain
       it better than either alone competes as one candidate (a split).  Run twice: the second
       round takes the parents' links from the first.
    """
    if not src:
        return []
    sc = PairScorer(src, tgt)
    expected = _expected_positions(src, tgt)
    path = _dp_path(sc, expected, band, threshold, many_penalty)
    assigned = _link(sc, path, expected, band, threshold)
    assigned = _link(sc, path, expected, band, threshold, parents_from=assigned)
    _fill_gaps(sc, assigned)
    incoming = Counter(t for ts in assigned.values() for t in ts)
    links = []
    for a, v in enumerate(src):
        ts = sorted(assigned.get(a, ()))
        if not ts:
            links.append(Alignment(v, None, 0.0, "no counterpart", method, {}))
            continue
        for t in ts:
            total, content, ev = sc.explain((a,), (t,))
            if len(ts) > 1:
                rel = "split"
            elif incoming[t] > 1:
                rel = "merged"
            elif v.norm == tgt[t].norm:
                rel = "reworded" if ev.get("length", 1.0) < 0.02 else "equivalent"
            else:
                rel = "renumbered"
            links.append(Alignment(v, tgt[t], round(total, 3), rel, method, {**ev, "content": round(content, 3)}))
    return links


#: in a gap framed by linked neighbours, a lone source and a lone target pair from this content score
GAP_CONTENT = 0.3


def _fill_gaps(sc: PairScorer, assigned: dict[int, list[int]]) -> None:
    """A source left without target between two linked neighbours takes the free target between their
    targets when that is the only free one and their content agrees: a misnumbered translation
    (German 1999 prints 409.2g where the English original has 409.3)."""
    owner = {t: a for a, ts in assigned.items() for t in ts}
    linked = sorted(a for a, ts in assigned.items() if ts)
    for prev, nxt in zip(linked, linked[1:]):
        free_s = [a for a in range(prev + 1, nxt) if not assigned.get(a)]
        lo, hi = max(assigned[prev]), min(assigned[nxt])
        free_t = [t for t in range(lo + 1, hi) if t not in owner]
        if len(free_s) == 1 and len(free_t) == 1 and sc.score((free_s[0],), (free_t[0],))[1] >= GAP_CONTENT:
            assigned[free_s[0]] = [free_t[0]]
            owner[free_t[0]] = free_s[0]


def _dp_path(sc: PairScorer, expected: list[float], band: int, threshold: float,
             many_penalty: float) -> dict[int, list[int]]:
    """Banded monotone DP with moves 1–1, 1–0, 0–1, 2–1, 1–2; returns source index -> target indexes."""
    n, m = len(sc.src), len(sc.tgt)
    lo, hi = [0] * (n + 1), [0] * (n + 1)
    for i in range(n + 1):
        e = expected[min(i, n - 1)] + (1 if i == n else 0)
        lo[i] = 0 if i == 0 else max(0, min(int(e) - band - 2, hi[i - 1]))
        hi[i] = m if i == n else max(lo[i], min(m, int(e) + band + 3))
    best: dict[tuple[int, int], tuple[float, tuple | None]] = {(0, 0): (0.0, None)}
    score = sc.score
    for i in range(n + 1):
        for j in range(lo[i], hi[i] + 1):
            if i == 0 and j == 0:
                continue
            # the moves in a fixed order, the first of equal values wins: 1-1, 1-0, 0-1, 2-1, 1-2
            cand: tuple[float, tuple] | None = None
            prev = best.get((i - 1, j - 1))
            if prev is not None:
                cand = (prev[0] + (score((i - 1,), (j - 1,))[0] - threshold), (i - 1, j - 1))
            for back in ((i - 1, j), (i, j - 1)):
                prev = best.get(back)
                if prev is not None and (cand is None or prev[0] + 0.0 > cand[0]):
                    cand = (prev[0] + 0.0, back)
            merges = (((i - 2, i - 1), (j - 1,), (i - 2, j - 1)), ((i - 1,), (j - 2, j - 1), (i - 1, j - 2)))
            for si, tj, back in merges:
                prev = best.get(back)
                # a merge that could not win with the best score it can have is not scored (most cells of the band)
                if prev is not None and (cand is None
                                         or prev[0] + (sc.ceiling(si, tj) - threshold - many_penalty) > cand[0]):
                    v = prev[0] + (score(si, tj)[0] - threshold - many_penalty)
                    if cand is None or v > cand[0]:
                        cand = (v, back)
            if cand is not None:
                best[i, j] = cand
    out: dict[int, list[int]] = defaultdict(list)
    cell = (n, m)
    while cell in best and (step := best[cell][1]) is not None:
        (pi, pj), (i, j) = step, cell
        if i > pi and j > pj:
            for a in range(pi, i):
                out[a].extend(range(pj, j))
        cell = (pi, pj)
    return out


#: bonuses in competitive linking: pair on the monotone path, parents already linked to each other
PATH_BONUS, PARENT_BONUS = 0.03, 0.10
#: a source takes a target another source already holds (a merge) only with this much evidence ...
MERGE_MIN = 0.6
#: ... not much less than the holder's own evidence ...
MERGE_SLACK = 0.2
#: ... and when that beats its best free target by this margin
MERGE_GAP = 0.05
#: a free neighbour of a source's target joins it (a split) when the two together explain the source
#: this much better and the neighbour alone has this much evidence
SPLIT_GAIN, SPLIT_MIN = 0.05, 0.4
#: a split candidate (one source, two neighbouring targets) pays this against a single link
SPLIT_PENALTY = 0.05


def _link(sc: PairScorer, path: dict[int, list[int]], expected: list[float], band: int, threshold: float,
          parents_from: dict[int, list[int]] | None = None) -> dict[int, list[int]]:
    """Competitive linking inside the band: best pairs first, each target once unless evidence says merge."""
    cands = _candidates(sc, path, expected, band, threshold, parents_from)
    owner, assigned = _assign(sc, cands)
    _join_free_neighbours(sc, owner, assigned)
    return assigned


def _candidates(sc: PairScorer, path: dict[int, list[int]], expected: list[float], band: int, threshold: float,
                parents_from: dict[int, list[int]] | None) -> list[tuple]:
    """(value, source, target or pair of neighbouring targets) above ``threshold``, best first."""
    n, m = len(sc.src), len(sc.tgt)
    sp, tp = _parent_index(sc.src), _parent_index(sc.tgt)
    parents = parents_from if parents_from is not None else path
    on_path = {(a, t) for a, ts in path.items() for t in ts}

    def value(a: int, t: int) -> float:
        total = sc.score((a,), (t,))[0]
        bonus = PATH_BONUS if (a, t) in on_path else 0.0
        pa, pt = sp[a], tp[t]
        if pa is not None and pt is not None and pt in parents.get(pa, ()):
            bonus += PARENT_BONUS
        return total + bonus

    cands: list[tuple] = []
    for a in range(n):
        e = int(round(expected[a]))
        for t in range(max(0, e - band), min(m, e + band + 1)):
            v = value(a, t)
            if v >= threshold:
                cands.append((v, a, t))
                # one source, two neighbouring targets (a split) competes as one candidate
                if t + 1 < m and sc.score((a,), (t, t + 1))[0] - SPLIT_PENALTY > sc.score((a,), (t,))[0]:
                    cands.append((v - sc.score((a,), (t,))[0] + sc.score((a,), (t, t + 1))[0] - SPLIT_PENALTY,
                                  a, (t, t + 1)))
    cands.sort(key=lambda c: (-c[0], c[1], str(c[2])))
    return cands


def _assign(sc: PairScorer, cands: list[tuple]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Greedy assignment of the candidates: (target -> source, source -> targets), merges included."""
    owner: dict[int, int] = {}
    assigned: dict[int, list[int]] = {}
    merge: dict[int, tuple[float, int]] = {}
    for v, a, t in cands:
        if a in assigned:
            continue
        if isinstance(t, tuple):
            if not any(x in owner for x in t) and min(sc.score((a,), (x,))[1] for x in t) >= SPLIT_MIN:
                assigned[a] = list(t)
                for x in t:
                    owner[x] = a
            continue
        if t in owner:
            c = sc.score((a,), (t,))[1]
            if a not in merge and c >= MERGE_MIN and c >= sc.score((owner[t],), (t,))[1] - MERGE_SLACK:
                merge[a] = (v, t)
            continue
        if a in merge and merge[a][0] >= v + MERGE_GAP:
            assigned[a] = [merge[a][1]]
            continue
        owner[t] = a
        assigned[a] = [t]
    for a, (_, t) in merge.items():
        if a not in assigned:
            assigned[a] = [t]
    return owner, assigned


def _join_free_neighbours(sc: PairScorer, owner: dict[int, int], assigned: dict[int, list[int]]) -> None:
    """A free target next to a source's target that, joined to it, explains the source better is a split."""
    for t in range(len(sc.tgt)):
        if t in owner:
            continue
        best = None
        for t0 in (t - 1, t + 1):
            a = owner.get(t0)
            if a is None or len(assigned[a]) > 1:
                continue
            alone = sc.score((a,), (t0,))[1]
            joined = sc.score((a,), tuple(sorted((t0, t))))[1]
            if joined >= alone + SPLIT_GAIN and sc.score((a,), (t,))[1] >= SPLIT_MIN:
                if best is None or joined - alone > best[0]:
                    best = (joined - alone, a)
        if best:
            assigned[best[1]].append(t)
            owner[t] = best[1]
