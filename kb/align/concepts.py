"""Concepts: aligned versions of a rule share one stable identity, whatever their numbers."""
from __future__ import annotations

from collections import defaultdict

from .views import Alignment


def assign_concepts(links: list[Alignment], anchor_rank: dict[str, int] | None = None) -> dict[str, str]:
    """Concept anchor key for every rule key: rules joined by their best link share one concept.

    A rule's best link (highest score) joins it to its target's concept; secondary targets of a
    split stay separate concepts (the alignment rows keep them).  The anchor of a concept is its
    member of the edition ranked first in ``anchor_rank`` (edition -> rank, lower first), else
    its root (the last target of its chain).
    """
    rank = anchor_rank or {}
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    best: dict[str, Alignment] = {}
    for link in links:
        if link.source.kind != "rule":
            continue
        find(link.source.key)
        if link.target is None or link.target.kind != "rule":
            continue
        find(link.target.key)
        cur = best.get(link.source.key)
        if cur is None or link.score > cur.score:
            best[link.source.key] = link
    edition_of = {}
    for link in links:
        edition_of[link.source.key] = link.source.edition
        if link.target:
            edition_of[link.target.key] = link.target.edition
    for link in best.values():
        assert link.target is not None  # only links with a target are kept in best
        a, b = find(link.source.key), find(link.target.key)
        if a != b:
            # the target side stays the root, so anchors are targets
            parent[a] = b
    groups: dict[str, list[str]] = defaultdict(list)
    for key in parent:
        groups[find(key)].append(key)
    out = {}
    for root, members in groups.items():
        ranked = sorted((rank[edition_of[k]], i, k) for i, k in enumerate(members) if edition_of.get(k) in rank)
        anchor = ranked[0][2] if ranked else root
        for k in members:
            out[k] = anchor
    return out
