"""Rule numbers as evidence: affinity of two numbers, parents, sections, chapters, monotone chains."""
from __future__ import annotations

import bisect
from collections import defaultdict

from ingest import numbers

from .views import AlignRule


def _near_number(x: str, y: str) -> bool:
    px, py = x.split("-")[0], y.split("-")[0]
    if not (numbers.is_number(px) and numbers.is_number(py)):
        return False
    hx, rx, lx = numbers.parts(px)
    hy, ry, ly = numbers.parts(py)
    if (rx is None) != (ry is None) or (lx is None) != (ly is None):
        return False
    if hx != hy:
        return abs(hx - hy) <= 2 and rx == ry and lx == ly
    if rx != ry:
        return abs((rx or 0) - (ry or 0)) <= 1 and lx == ly
    return lx is not None and ly is not None and abs(_letter(lx) - _letter(ly)) <= 2


def _letter(c: str) -> int:
    return ord(c) - ord("a")


def number_affinity(a: str, b: str) -> float:
    """1 for the same number, less for a neighbour (letter or rule moved by one or two), 0 otherwise."""
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    if not (numbers.is_number(a) and numbers.is_number(b)):
        return 0.0
    ha, ra, la = numbers.parts(a)
    hb, rb, lb = numbers.parts(b)
    if (ra is None) != (rb is None) or (la is None) != (lb is None):
        return 0.0
    if ha == hb and ra == rb and la and lb:
        return {1: 0.6, 2: 0.4, 3: 0.2}.get(abs(_letter(la) - _letter(lb)), 0.0)
    if ha == hb and la == lb and ra is not None and rb is not None:
        return {1: 0.5, 2: 0.3}.get(abs(ra - rb), 0.0)
    if ra == rb and la == lb and abs(ha - hb) == 1:
        return 0.3  # a mistyped section ("613.13c" printed inside 614)
    return 0.0


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of pairs increasing in both coordinates (pairs sorted by the first)."""
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(k)
        else:
            tails[pos] = j
            tails_idx[pos] = k
        prev[k] = tails_idx[pos - 1] if pos else -1
    out, k = [], tails_idx[-1] if tails_idx else -1
    while k >= 0:
        out.append(pairs[k])
        k = prev[k]
    return out[::-1]


def _parent_index(views: list[AlignRule]) -> list[int | None]:
    """Index of each view's nearest existing ancestor in the same list."""
    where = {v.norm: k for k, v in enumerate(views) if v.norm}
    out = []
    for v in views:
        p = numbers.parent(v.norm) if v.norm and numbers.is_number(v.norm) else None
        while p is not None and p not in where:
            p = numbers.parent(p)
        out.append(where.get(p) if p else None)
    return out


def _section_of(v: AlignRule) -> str:
    if not v.norm or not numbers.is_number(v.norm):
        return ""
    head = numbers.parts(v.norm)[0]
    return str(head) if head >= 100 else ""


def _chapter(v: AlignRule) -> int:
    return numbers.chapter(v.norm) if v.norm and numbers.is_number(v.norm) else -1


def _ancestors(norm: str) -> list[str]:
    out: list[str] = []
    p: str | None = norm
    while p:
        out.append(p)
        p = numbers.parent(p) if numbers.is_number(p) else None
    return out


def _group(indexes, key) -> dict:
    out: dict = defaultdict(list)
    for i in indexes:
        k = key(i)
        if k:
            out[k].append(i)
    return out
