"""Concepts: aligned versions of a rule share one stable identity, whatever their numbers."""
from __future__ import annotations

from collections import defaultdict
from itertools import chain

from .views import Alignment


class _Groups:
    """Union-find over rule keys (kept in the order they are first seen)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        root = parent.setdefault(x, x)
        while parent[root] != root:
            root = parent[root]
        while x != root:   # the path walked now points at the root
            parent[x], x = root, parent[x]
        return root

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
    seen = groups.parent
    for link in chain(links, translations or ()):
        for v in (link.source, link.target):
            if v is not None and v.kind == "rule":
                seen.setdefault(v.key, v.key)
                edition_of[v.key] = v.edition
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
