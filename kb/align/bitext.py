"""Two sequences aligned in order, as bitext aligners align sentences (Gale–Church, Vecalign, Bertalign).

Inside a pair of matched sections the rules of two editions keep their order far more often than not.  A dynamic
programme over the two sequences finds the cheapest monotone path of *beads*: one source rule with one target rule
(1–1), with two consecutive target rules (1–2, a split), two consecutive source rules with one target rule (2–1, a
merge), or one rule of either side left alone (1–0, 0–1).  A bead costs ``1 - similarity`` of its two sides taken
together, times the rules it joins beyond one on each side (Vecalign's cost grows with the number of sentences, so a
split pays for its second target); leaving a rule alone costs :func:`skip_cost`, Vecalign's one threshold: a
percentile of what unrelated rules of the pair cost, so it needs no tuning.

The similarity is whatever the caller computes already (:func:`align` takes it as a function); nothing here knows
about rules, words or languages.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

#: the beads: (source rules, target rules) of one step of the path
STEPS = ((1, 1), (1, 2), (2, 1), (1, 0), (0, 1))
#: Vecalign's ``del_percentile_frac``: leaving a rule alone costs this percentile of the pair's own bead costs
SKIP_PERCENTILE = 0.2

#: a bead: the source indexes and the target indexes it joins (one side empty: a rule left alone)
Bead = tuple[tuple[int, ...], tuple[int, ...]]


def skip_cost(costs: Sequence[float], percentile: float = SKIP_PERCENTILE) -> float:
    """The cost of leaving a rule unaligned, from ``costs``, the 1–1 costs of pairs of unrelated rules of the pair
    (Vecalign samples random sentence pairs): their ``percentile``, halved.  A 1–1 bead is then taken rather than two
    rules left alone when its rules are more alike than all but that share of unrelated pairs."""
    if not costs:
        return 0.5
    ranked = sorted(costs)
    return ranked[min(len(ranked) - 1, int(percentile * len(ranked)))] / 2


def align(n_src: int, n_tgt: int, similarity: Callable[[tuple[int, ...], tuple[int, ...]], float | None],
          skip: float) -> list[Bead]:
    """The cheapest monotone path of beads over ``n_src`` source and ``n_tgt`` target items (see the module doc).

    ``similarity(sources, targets)`` gives the similarity (0–1) of one bead's two sides taken together, or None for
    a bead that may not be taken (no evidence at all).  Returns the beads in order, rules left alone included; of
    paths of equal cost, the one with fewer beads."""
    inf = float("inf")
    cost = [[inf] * (n_tgt + 1) for _ in range(n_src + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (n_tgt + 1) for _ in range(n_src + 1)]
    cost[0][0] = 0.0
    for i in range(n_src + 1):
        row = cost[i]
        for j in range(n_tgt + 1):
            here = row[j]
            if here == inf:
                continue
            for a, b in STEPS:
                x, y = i + a, j + b
                if x > n_src or y > n_tgt:
                    continue
                if a and b:
                    s = similarity(tuple(range(i, x)), tuple(range(j, y)))
                    if s is None:
                        continue
                    step = (1.0 - s) * (a * b if a * b > 1 else 1)
                else:
                    step = skip
                if here + step < cost[x][y] - 1e-12:
                    cost[x][y] = here + step
                    back[x][y] = (a, b)
    beads: list[Bead] = []
    i, j = n_src, n_tgt
    while i or j:
        move = back[i][j]
        assert move is not None
        a, b = move
        beads.append((tuple(range(i - a, i)), tuple(range(j - b, j))))
        i, j = i - a, j - b
    beads.reverse()
    return beads
