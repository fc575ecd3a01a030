"""Concepts: aligned versions of a rule share one stable identity, whatever their numbers."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from .views import Alignment


class _Groups:
    """Union-find over rule keys (kept in the order they are first seen)."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        self.parent: dict[str, str] = {k: k for k in keys}

    def find(self, x: str) -> str:
        parent = self.parent
        root = parent.setdefault(x, x)
        if parent[root] == root:   # most keys are a root or point at one
            return root
        while parent[root] != root:
            root = parent[root]
        while x != root:   # the path walked now points at the root
            parent[x], x = root, parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb  # the target side stays the root


def rank(link: Alignment) -> float:
    """How strongly a link ties its source's concept to its target.  A link of the rule as a whole: its score.  A
    link that restates one sentence of the source (its evidence is that sentence: the coverage pass) is weighted by
    that sentence's share of the source's words (a newer rule that took over one sentence of an older rule, however
    exactly, is not where the older rule went when another newer rule carries the rest of it)."""
    return rank_of(link.score, link.evidence, link.source.text)


def rank_of(score: float, evidence: dict | None, source_text: str | None) -> float:
    """:func:`rank` of a link given as its score, its evidence and its source's text (a stored row)."""
    sentence = evidence.get("evidence") if evidence else None
    if not isinstance(sentence, str):
        return score
    return score * min(1.0, _words(sentence) / max(1, _words(source_text or "")))


def _words(text: str) -> int:
    return len(_WORD.findall(text))


_WORD = re.compile(r"\w+")


def reduce_links(links: Iterable[Alignment]) -> tuple[dict[str, str], dict[str, tuple[str, float]]]:
    """What :class:`Concepts` keeps of a list of links: the rules in the order they are first seen (key -> edition)
    and the best link to a rule of each source rule (key -> (target key, :func:`rank`); the first of equal ranks)."""
    seen: dict[str, str] = {}
    best: dict[str, tuple[str, float]] = {}
    for link in links:
        s, t = link.source, link.target
        if s.kind != "rule":
            if t is not None and t.kind == "rule":
                seen[t.key] = t.edition
            continue
        seen[s.key] = s.edition
        if t is None or t.kind != "rule":
            continue
        seen[t.key] = t.edition
        cur = best.get(s.key)
        r = rank(link)
        if cur is None or r > cur[1]:
            best[s.key] = (t.key, r)
    return seen, best


class Concepts:
    """What :func:`assign_concepts` reads of the links, gathered one list at a time (a build adds each
    pair's links as soon as it is aligned): the rules in the order they are first seen, their editions,
    and the best link of each source rule."""

    def __init__(self) -> None:
        self._editions: dict[str, str] = {}              # rule key -> edition, in the order first seen
        self._translated: dict[str, str] = {}            # the same for the translations
        self._best: dict[str, tuple[str, float]] = {}    # source rule key -> its best edition link (target, rank)
        self._best_translation: dict[str, tuple[str, float]] = {}

    def add(self, links: Iterable[Alignment], translations: bool = False) -> None:
        """Links across editions, or across languages (``translations``)."""
        self.merge(*reduce_links(links), translations=translations)

    def merge(self, seen: dict[str, str], best: dict[str, tuple[str, float]], translations: bool = False) -> None:
        """The :func:`reduce_links` of one list of links (made where the list was aligned)."""
        (self._translated if translations else self._editions).update(seen)
        into = self._best_translation if translations else self._best
        for key, link in best.items():
            cur = into.get(key)
            if cur is None or link[1] > cur[1]:
                into[key] = link

    def reread(self, conn, rule_ids: Iterable[int], kinds: Mapping[tuple[str, str], str]) -> None:
        """The best links of the rules ``rule_ids`` read again from the stored lineage (the ``alignments`` rows once
        the reviews are applied: :func:`kb.align.reviews.store`), so that the concepts follow a reviewed link, and
        never a rejected one.  ``kinds``: the kind of each stored pair (source edition, target edition)."""
        for rule_id in sorted(set(rule_ids)):
            got = conn.execute("select key from rules where id = ?", [rule_id]).fetchone()
            if got is None:
                continue
            rows = conn.execute("""select t.key, a.score, a.evidence, s.text, a.source_edition, a.target_edition
                                   from alignments a join rules s on s.id = a.source_rule_id
                                   join rules t on t.id = a.target_rule_id
                                   where a.source_rule_id = ? order by a.id""", [rule_id]).fetchall()
            for translations, into in ((False, self._best), (True, self._best_translation)):
                best: tuple[str, float] | None = None
                for target, score, evidence, text, s_ed, t_ed in rows:
                    kind = kinds.get((s_ed, t_ed))
                    if kind != ("cross-language" if translations else "cross-edition"):
                        continue
                    r = rank_of(score, json.loads(evidence) if evidence else None, text)
                    if best is None or r > best[1]:
                        best = (target, r)
                if best is None:
                    into.pop(got[0], None)
                else:
                    into[got[0]] = best

    def assign(self, anchor_rank: dict[str, int] | None = None) -> dict[str, str]:
        """Concept anchor key for every rule key of the links added (see :func:`assign_concepts`)."""
        rank = anchor_rank or {}
        # edition links first, in the order seen; the last sighting names the edition
        edition_of = self._editions | self._translated
        groups = _Groups(edition_of)
        for key, (other, _) in self._best_translation.items():
            groups.union(key, other)
        find, parent = groups.find, groups.parent
        strongest: dict[str, tuple[str, str, float]] = {}
        for key, (other, score) in self._best.items():
            root = parent[key]
            if root != key:
                root = find(key)
            cur = strongest.get(root)
            if cur is None or score > cur[2]:
                strongest[root] = (key, other, score)
        for a, b, _ in strongest.values():   # groups.union, inlined: one call per rule of the KB
            ra, rb = parent[a], parent[b]
            if parent[ra] != ra:
                ra = find(a)
            if parent[rb] != rb:
                rb = find(b)
            if ra != rb:
                parent[ra] = rb
        keys = list(parent)
        roots = [parent[k] if parent[parent[k]] == parent[k] else find(k) for k in keys]
        # the anchor of each root: the member of the edition ranked first, the first seen among equals
        anchors: dict[str, tuple[int, str]] = {}
        for key, root in zip(keys, roots):
            r = rank.get(edition_of[key])
            if r is not None:
                first = anchors.get(root)
                if first is None or r < first[0]:
                    anchors[root] = (r, key)
        anchor = {root: key for root, (_, key) in anchors.items()}
        return {key: anchor.get(root, root) for key, root in zip(keys, roots)}


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
    concepts = Concepts()
    concepts.add(links)
    concepts.add(translations or (), translations=True)
    return concepts.assign(anchor_rank)
