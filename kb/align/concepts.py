"""Concepts: aligned versions of a rule share one stable identity, whatever their numbers."""
from __future__ import annotations

from collections import defaultdict

from .views import Alignment


class _Groups:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb  # the target side stays the root


def _best_per_source(links: list[Alignment]) -> dict[str, Alignment]:
    best: dict[str, Alignment] = {}
    for link in links:
        if link.source.kind != "rule" or link.target is None or link.target.kind != "rule":
            continue
        cur = best.get(link.source.key)
        if cur is None or link.score > cur.score:
            best[link.source.key] = link
    return best


def assign_concepts(links: list[Alignment], anchor_rank: dict[str, int] | None = None,
                    translations: list[Alignment] | None = None) -> dict[str, str]:
    """Concept anchor key for every rule key that appears in ``links`` or ``translations``.

    First, every rule joins its best translation (``translations``: pairs across languages, which
    share a numbering and align reliably): a rule and its translations form a group.  Then each
    group follows the strongest edition link (``links``: pairs across editions) any of its members
    has: the evidence of all its languages decides where the group goes.  Secondary targets of a
    split stay separate concepts (the alignment rows keep them).  The anchor of a concept is its
    member of the edition ranked first in ``anchor_rank`` (edition -> rank, lower first), else its
    root (the last target of its chain).
    """
    rank = anchor_rank or {}
    groups = _Groups()
    edition_of: dict[str, str] = {}
    for link in (*links, *(translations or ())):
        if link.source.kind == "rule":
            groups.find(link.source.key)
            edition_of[link.source.key] = link.source.edition
        if link.target is not None and link.target.kind == "rule":
            groups.find(link.target.key)
            edition_of[link.target.key] = link.target.edition
    for link in _best_per_source(translations or []).values():
        assert link.target is not None
        groups.union(link.source.key, link.target.key)
    strongest: dict[str, Alignment] = {}
    for link in _best_per_source(links).values():
        root = groups.find(link.source.key)
        cur = strongest.get(root)
        if cur is None or link.score > cur.score:
            strongest[root] = link
    for link in strongest.values():
        assert link.target is not None
        groups.union(link.source.key, link.target.key)
    members: dict[str, list[str]] = defaultdict(list)
    for key in groups.parent:
        members[groups.find(key)].append(key)
    out = {}
    for root, keys in members.items():
        ranked = sorted((rank[edition_of[k]], i, k) for i, k in enumerate(keys) if edition_of.get(k) in rank)
        anchor = ranked[0][2] if ranked else root
        for k in keys:
            out[k] = anchor
    return out
