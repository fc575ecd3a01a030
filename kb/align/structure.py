"""Structure of the older edition as evidence for the cross-edition aligner: learnt section priors
(mutual best matches and alike titles tie sections; weak chapters have no counterparts), order
(confident siblings frame a gap), and headings (they follow their children)."""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import NamedTuple

from .lexical import LexicalIndex, Vectoriser
from .matcher import EditionMatcher
from .numbering import _ancestors, _chapter, _parent_index, _section_of
from .views import AlignRule


def _learn_priors(mt: EditionMatcher, cand: list[dict[int, float]], p: dict):
    """Anchors (mutual best matches) tie section pairs; weak chapters and sections that no target
    section restates (:func:`section_fit` below ``section_lo``) have no counterparts.

    Returns ``prior(i, d)``, the anchors per source section and ``strength(i)``, how well the
    chapter of source ``i`` matches compared with the best chapter (0..1).
    """
    src, tgt = mt.src, mt.tgt
    best_of_src = {i: max(c.items(), key=lambda x: x[1]) for i, c in enumerate(cand) if c}
    best_of_tgt: dict[int, tuple[int, float]] = {}
    for i, (d, s) in best_of_src.items():
        if d not in best_of_tgt or s > best_of_tgt[d][1]:
            best_of_tgt[d] = (i, s)
    anchors: dict[str, Counter] = defaultdict(Counter)
    chapter_best: dict[int, list[float]] = defaultdict(list)
    size = Counter(_section_of(src[i]) for i in best_of_src)
    for i, (d, s) in best_of_src.items():
        chapter_best[_chapter(src[i])].append(s)
        if s >= p["anchor_min"] and best_of_tgt[d][0] == i:
            anchors[_section_of(src[i])][_section_of(tgt[d])] += 1
    # section titles are evidence too ("Effekte" / "Effekte", "Einmalige Effekte" / "Einmalige Effekte")
    for sec, tied in _title_ties(mt, p["title_min"]):
        anchors[sec][tied] = max(anchors[sec][tied], p["anchor_density"] * max(1, size[sec]))
    means = {ch: sum(x) / len(x) for ch, x in chapter_best.items()}
    top_mean = max(means.values(), default=1.0) or 1.0
    fit = section_fit(mt, cand)
    lo, hi = p["section_lo"], p["section_hi"]
    # a section none of whose target sections restates it well has no counterpart at all
    alive = {sec: min(1.0, max(0.0, (max(row.values(), default=0.0) - lo) / (hi - lo))) for sec, row in fit.items()}
    t_sec = [_section_of(v) for v in tgt]
    # the prior depends on the source's section and chapter and the target's section only: kept per pair of them
    groups: dict[tuple[str, int], int] = {}
    s_group = [groups.setdefault((_section_of(v), _chapter(v)), len(groups)) for v in src]
    s_sec = [_section_of(v) for v in src]
    t_ids: dict[str, int] = {}
    t_group = [t_ids.setdefault(sec, len(t_ids)) for sec in t_sec]
    width = len(t_ids) + 1
    s_strength = [means.get(_chapter(v), 0.0) / top_mean for v in src]
    cache: dict[int, float] = {}

    def strength(i: int) -> float:
        return s_strength[i]

    def prior(i: int, d: int) -> float:
        key = s_group[i] * width + t_group[d]
        got = cache.get(key)
        if got is None:
            sec = s_sec[i]
            tied = min(1.0, anchors[sec][t_sec[d]] / max(1, size[sec]) / p["anchor_density"])
            got = cache[key] = (p["untied"] + (1 - p["untied"]) * tied) * s_strength[i] * alive.get(sec, 0.0)
        return got

    return prior, anchors, strength


def section_fit(mt: EditionMatcher, cand: list[dict[int, float]]) -> dict[str, dict[str, float]]:
    """How well each target section restates each source section: the mean over the source
    section's rules of their best similarity inside the target section (candidates only)."""
    src, tgt = mt.src, mt.tgt
    t_sec = [_section_of(v) for v in tgt]
    total: dict[str, Counter] = defaultdict(Counter)
    size: Counter = Counter()
    for i, c in enumerate(cand):
        if not mt.has_text[i]:
            continue
        sec = _section_of(src[i])
        size[sec] += 1
        best: dict[str, float] = {}
        for d, s in c.items():
            if s > best.get(t_sec[d], 0.0):
                best[t_sec[d]] = s
        total[sec].update(best)
    return {sec: {t: x / size[sec] for t, x in row.items()} for sec, row in total.items()}


def _title_ties(mt: EditionMatcher, title_min: float) -> list[tuple[str, str]]:
    """(source section, target section) pairs whose titles are alike (cosine of title bags)."""
    def sections(views, lemmas):
        bags = ((v.norm, vec.bag(vec.content(lemmas(k)))) for k, v in enumerate(views)
                if v.level == "section" and v.title)
        return [(norm, b) for norm, b in bags if b]

    vec = mt.vec
    s_titles = sections(mt.src, mt.title_lemmas)
    t_titles = sections(mt.tgt, lambda d: mt.tgt[d].lemmas)
    if not s_titles or not t_titles:
        return []
    index = LexicalIndex([b for _, b in t_titles])
    return [(norm, t_titles[k][0]) for norm, bag in s_titles
            for score, k in index.search(bag, 5, max_df=1.0) if score >= title_min]


def _fill_gaps(src: list[AlignRule], tgt: list[AlignRule], chosen: dict[int, list[int]],
               scores: dict[tuple[int, int], float], has_text: list[bool], p: dict, score) -> None:
    """Order evidence (Bertalign's second pass): siblings linked with confidence frame a gap.

    When the previous and the next sibling of a rule are confidently linked to targets ``a``
    and ``b`` with ``a`` before ``b``, the rule's counterpart is most likely between them: the
    best target strictly inside the gap replaces a weak or missing link (in place).
    """
    parent = _parent_index(src)
    groups: dict[int | None, list[int]] = defaultdict(list)
    for i in range(len(src)):
        if has_text[i]:
            groups[parent[i]].append(i)
    t_text = [bool(v.text.strip()) for v in tgt]

    def confident(i: int) -> int | None:
        ds = chosen.get(i)
        return ds[0] if ds and scores.get((i, ds[0]), 0.0) >= p["confident"] else None

    for members in groups.values():
        for k, i in enumerate(members):
            if confident(i) is not None:
                continue
            prev = next((confident(j) for j in reversed(members[:k]) if confident(j) is not None), None)
            nxt = next((confident(j) for j in members[k + 1:] if confident(j) is not None), None)
            if prev is None or nxt is None or nxt - prev < 2 or nxt - prev > 12:
                continue
            inside = [d for d in range(prev + 1, nxt) if t_text[d]]
            best = max(((score(i, d), d) for d in inside), default=(0.0, None))
            if best[1] is not None and best[0] >= p["gap_min"]:
                scores[i, best[1]] = best[0]
                chosen[i] = [best[1]] + [d for d in chosen.get(i, [])[1:] if prev < d < nxt]


def _covering_nodes(v: AlignRule, targets: list[int], tgt: list[AlignRule], t_index: dict[str, int],
                    cover_min: float, share: float) -> list[int]:
    """The deepest target node covering ``cover_min`` of a heading's targets, else the sections sharing them;
    a section heading always takes the sections sharing them (a section can become several)."""
    cover: Counter = Counter()
    for d in targets:
        for anc in _ancestors(tgt[d].norm):
            if anc in t_index and tgt[t_index[anc]].level != "chapter":
                cover[anc] += 1
    deep = [n for n, c in cover.items() if c >= cover_min * len(targets)]
    if deep and v.level != "section":
        return [t_index[max(deep, key=len)]]
    return [t_index[n] for n, c in sorted(cover.items()) if tgt[t_index[n]].level == "section"
            and c >= share * len(targets)]


class HeadingTitles(NamedTuple):
    """The titles of both editions' headings (:func:`heading_titles`), computed once per pair: what the title tie
    (:func:`title_tied`) and the headings' mapping (:func:`_map_headings`) read."""

    titles: dict[tuple, int]   # target title -> the first target heading printing it
    own: dict[int, tuple]      # source heading -> its title
    paired: dict[int, int]     # source heading -> the target heading it pairs with by title


def heading_titles(src: list[AlignRule], tgt: list[AlignRule], has_text: list[bool], vec: Vectoriser, title_lemmas,
                   alike: float = 0.0) -> HeadingTitles:
    """The titles of the headings (``title_lemmas(h)``: the lemmas of a source title, old terminology rewritten).  A
    source heading pairs with a target heading when each of the two is the only heading of its edition printing that
    title (a chapter's title among chapters, any other among sections and subheadings), or, with ``alike`` > 0, when
    the two titles, each printed once, are each other's most alike from that cosine on."""
    titles: dict[tuple, int] = {}
    new_printed: Counter = Counter()   # how many headings of each edition print a title
    for d, t in enumerate(tgt):
        if not t.text.strip() and t.title:
            key = (t.level == "chapter", tuple(vec.content(t.lemmas)))
            titles.setdefault(key, d)
            new_printed[key] += 1
    own = {h: (v.level == "chapter", tuple(vec.content(title_lemmas(h)))) for h, v in enumerate(src)
           if not has_text[h] and v.norm and v.title}
    old_printed = Counter(own.values())
    unique = {h: titles[t] for h, t in own.items() if t[1] and old_printed[t] == 1 and new_printed[t] == 1}
    if alike:   # titles printed once on both sides and alike: 1999 "Permanent Type", 2024 "Permanents"
        taken = set(unique.values())
        unique.update(_alike_titles(
            {h: t for h, t in own.items() if h not in unique and not t[0] and t[1] and old_printed[t] == 1},
            {d: t for t, d in titles.items() if not t[0] and t[1] and new_printed[t] == 1 and d not in taken},
            alike))
    return HeadingTitles(titles, own, unique)


def _alike_titles(old: dict[int, tuple], new: dict[int, tuple], min_cos: float) -> dict[int, int]:
    """Headings whose titles are each other's most alike (IDF-weighted cosine of their words, at least ``min_cos``):
    1999 "Permanent Type" and 2024 "Permanents"."""
    df = Counter(w for t in [*old.values(), *new.values()] for w in set(t[1]))
    n = len(old) + len(new)
    idf = {w: math.log(1 + n / c) for w, c in df.items()}

    def vec(words):
        v = {w: idf[w] for w in sorted(set(words))}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {w: x / norm for w, x in v.items()}

    ov = {h: vec(t[1]) for h, t in old.items()}
    nv = {d: vec(t[1]) for d, t in new.items()}
    by_word: dict[str, list[int]] = defaultdict(list)
    for d, v in nv.items():
        for w in v:
            by_word[w].append(d)
    best_old: dict[int, tuple[float, int]] = {}
    best_new: dict[int, tuple[float, int]] = {}
    for h, v in ov.items():
        for d in sorted({d for w in v for d in by_word[w]}):
            c = sum(x * nv[d].get(w, 0.0) for w, x in v.items())
            if c > best_old.get(h, (0.0, -1))[0]:
                best_old[h] = (c, d)
            if c > best_new.get(d, (0.0, -1))[0]:
                best_new[d] = (c, h)
    return {h: d for h, (c, d) in best_old.items() if c >= min_cos and best_new[d][1] == h}


def title_tied(prior, src: list[AlignRule], tgt: list[AlignRule], has_text: list[bool], heads: HeadingTitles,
               tie: float):
    """``prior`` raised to ``tie`` for a rule and the targets below the section or subheading that its nearest
    heading pairs with by title (:func:`heading_titles`: 1999 214.6a under "Artifacts" and 2024 301.x under
    "Artifacts")."""
    unique = heads.paired
    s_index = {v.norm: i for i, v in enumerate(src) if v.norm}
    under: dict[int, str] = {}
    for i, v in enumerate(src):
        if v.norm and has_text[i]:
            h = next((s_index[a] for a in _ancestors(v.norm)[1:] if s_index.get(a) in unique), None)
            if h is not None and tgt[unique[h]].level != "chapter":
                under[i] = tgt[unique[h]].norm
    t_above = [set(_ancestors(v.norm)[1:]) if v.norm else set() for v in tgt]

    def tied(i: int, d: int) -> float:
        p = prior(i, d)
        return max(p, tie) if i in under and under[i] in t_above[d] else p

    return tied


def _map_headings(src: list[AlignRule], tgt: list[AlignRule], chosen: dict[int, list[int]], has_text: list[bool],
                  p: dict, heads: HeadingTitles, strong) -> None:
    """Headings take the target nodes that cover their descendants' targets (in place).

    The deepest target node whose subtree holds ``heading_cover`` of the links is the
    counterpart; if the links spread, every target section holding ``heading_share`` of them is
    (a split).  A heading that pairs with a heading of the other edition by title (``heads``, :func:`heading_titles`:
    1999's subheading 214.6 "Artifacts" became section 301) takes it (``heading_title_first``): descendants with
    wrong links would take it elsewhere; a split of its descendants that already holds it stays.  A heading whose
    descendants found nothing keeps a counterpart only for an identical title, and only in a chapter that
    ``strong(i)`` says has counterparts at all.
    """
    cover_min, share = p["heading_cover"], p["heading_share"]
    t_index = {v.norm: d for d, v in enumerate(tgt) if v.norm}
    s_index = {v.norm: i for i, v in enumerate(src) if v.norm}
    titles, own_titles, unique = heads
    below: dict[int, list[int]] = defaultdict(list)
    texts: Counter = Counter()
    for i, v in enumerate(src):
        if not v.norm or not has_text[i]:
            continue
        for anc in _ancestors(v.norm)[1:]:
            h = s_index.get(anc)
            if h is not None and not has_text[h]:
                texts[h] += 1
                if chosen.get(i):
                    below[h].append(chosen[i][0])
    for h, v in enumerate(src):
        if has_text[h] or not v.norm:
            continue
        targets = below.get(h, [])
        picked: list[int] = []
        if targets and len(targets) >= 0.5 * texts[h]:
            picked = _covering_nodes(v, targets, tgt, t_index, cover_min, share)
        own = own_titles.get(h)
        if p["heading_title_first"] and h in unique and unique[h] not in picked:
            picked = [unique[h]]   # (a split that holds the title's heading stays a split)
        if not picked and own and own[1] and strong(h):
            found = titles.get(own)
            picked = [found] if found is not None else []
        chosen[h] = picked
