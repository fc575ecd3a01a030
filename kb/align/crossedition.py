"""The cross-edition aligner: same language, different numbering (German 1999 -> 2024).

1. Old terminology is rewritten; rules and their sentences become TF-IDF bags
   (:class:`~kb.align.matcher.EditionMatcher`); candidates come from the inverted index for the
   rule and for each of its sentences (blocking, never all pairs), plus the targets at the same
   relative position inside tied sections.
2. Priors are learnt (:mod:`kb.align.structure`): mutual best matches tie a source section to
   target sections; a chapter whose rules find only weak matches is unlikely to have counterparts.
3. Primary targets by competitive linking: best pairs first, each target once, unless no free
   target comes close (then several sources share one target: a merge).  Below the threshold: no
   counterpart.
4. Sentence votes: every sentence of a rule names the target that restates it best; a target that
   restates a sentence clearly better than the targets already chosen joins them (a 1→n split).
   Twins: the newer edition often restates one older rule for two cases in two rules (replacement /
   prevention 614.x / 615.x, spell / ability 601.2x / 602.2x).  A near-duplicate of a chosen target
   that scores like it joins; so does a twin (a near-duplicate, or a rule numbered in parallel and
   alike in either language, or the mutually closest subrules of such rules) when the older rule
   names what tells the two apart on both sides, in either language.  A rule whose text a chosen
   target restates completely gets no secondary target: an edition aligned with itself comes out 1:1.
5. Siblings linked with confidence frame the gap for a weakly linked rule between them.
6. Target-side coverage: a newer rule still without counterpart looks for the older sentence that
   restates it best (IDF-weighted, word-order aware, over a sentence index); from a section the priors
   tie to its own and clearly above what sources the priors rule out reach, it becomes a (split)
   target of that rule (method ``xedition-coverage``, the sentence as evidence).
7. Neighbours: a free target next to a chosen one (the rule before or after it, its parent) joins
   when the chosen targets together with it restate the rule clearly better (consecutive rules).
   Pointers: a free target that ends with a bare pointer to a chosen one ("See rule 502.3.") and is
   about as close to the rule joins it (the newer edition marks a restatement this way).
8. Headings (no text of their own) take the target nodes covering their children's targets; a
   section takes every section that a good share of its rules went to.  A subheading (a rule whose text
   is a bare title over its subrules, 214.6 "Artifacts") is a heading too.

With a companion (the same two editions in another language, :class:`CompanionPair`), the
translations are a second path of evidence: their similarity counts in every pair score, their
index adds candidates, and twins and the sides that tell twins apart are read in both languages.
Words come from the KB's lemmas (:mod:`kb.align.tokens`); nothing is lemmatised again.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ingest import numbers

from .matcher import Companion, EditionMatcher
from .numbering import _section_of
from .structure import _fill_gaps, _learn_priors, _map_headings, heading_titles, title_tied
from .views import COVERAGE_METHOD, Alignment, AlignRule

#: parameters of the cross-edition aligner (tuned on the even sections of the 1999 gold only)
XEDITION = {
    "candidates": 20,          # blocking: targets read per source rule from the inverted index
    "sentence_candidates": 6,  # ... and per sentence of a rule with several sentences
    "sentence_weight": 0.0,    # share of the pair score that comes from the sentences' wording
    "companion_weight": 0.5,   # share of the rule similarity that comes from the translations (the companion)
    "wording_floor": 0.3,      # word-order similarity below this is what unrelated sentences share
    "threshold": 0.13,         # below: no counterpart
    "anchor_min": 0.2,         # a mutual best match from this similarity on ties its two sections
    "section_lo": 0.14,        # a source section whose best target section restates it less (mean best
    "section_hi": 0.16,        # similarity of its rules) has no counterpart; full weight from section_hi
    "untied": 0.4,             # prior factor for a section pair no anchor ties
    "title_min": 0.6,          # section titles this alike tie their sections like anchors do
    "anchor_density": 0.1,     # share of a section's rules that are anchors into a target section for a full tie
    "merge_slack": 0.02,       # a source whose best target is taken moves to a free one scoring this close
    "vote_floor": 0.05,        # a sentence votes among the candidates with this pair score ...
    "vote_score": 0.2,         # weight of the pair score beside the wording in a vote
    "vote_min": 0.55,          # ... for the target whose sentence keeps this much of its wording ...
    "vote_margin": 0.15,       # ... clearly more than any other candidate and any chosen target
    "demote": True,            # a primary target keeping no sentence's wording yields to voted targets
    "twin_min": 0.55,          # two rules of the newer edition this alike are twins ...
    "twin_ratio": 0.8,         # ... and a twin scoring this close to a chosen target joins it
    "twin_parallel": 0.4,      # rules numbered in parallel (614.1 / 615.1) this alike in either language are twins,
                               # and so are the rules numbered alike below them (601.2a / 602.2a) ...
    "twin_step": 2,            # ... when their sections or rules are numbered at most this far apart
    "twin_floor": 0.13,        # ... a twin of a chosen target joins from this score (the threshold) ...
    "twin_sides": 2.0,         # ... when the source names what tells the twins apart on both sides (IDF mass)
    "twin_untaken": True,      # ... and no other source rule has the twin as its primary target (``confident``ly)
    "complete": 0.9,           # a target restating the rule this well leaves nothing for a split
    "neighbours": True,        # a free neighbour of a chosen target joins when both restate the rule better:
    "neighbour_floor": 0.13,   # ... from this score of its own (the threshold) ...
    "neighbour_gain": 0.05,    # ... and this gain in the cosine of the source with the chosen targets together
    "confident": 0.2,          # a sibling's link this strong frames the gap for its neighbours
    "gap_min": 0.05,           # inside a framed gap, a target needs only this score
    "position_window": 0.25,   # extra candidates: targets this close in relative position within tied sections
    "strong_chapter": 0.8,     # a chapter matching this well (relative to the best) can keep title-only links
    "heading_cover": 0.6,      # a heading maps to the deepest target node covering this share of its children
    "heading_share": 0.3,      # ... or, if none, to every section receiving this share (a split)
    "heading_title_first": True,  # a heading whose title one heading of the other edition prints alone takes it
    "title_alike": 0.65,       # ... or the most alike title, each printed once, from this cosine (0: equal only)
    "title_tie": 1.0,          # the prior below a heading and the one heading printing its title (0: none)
    "subheading_words": 6,     # a rule with subrules whose text is a bare title this short is a heading (0: none)
    "pointer_ratio": 0.6,      # a free target pointing to a chosen one ("See rule 514.1.") this close to the source
                               # (share of the pointed target's similarity) joins it (0: none)
    "coverage": True,          # target-side coverage pass (below); False for an ablation
    "cover_candidates": 10,    # coverage: source sentences read per sentence of an unclaimed target (blocking)
    "cover_words": 4,          # ... sentences with fewer content lemmas (cross-references) carry no evidence
    "cover_prior": 0.5,        # ... the source's section must be tied to the target's (learnt prior from here)
    "cover_quantile": 0.95,    # ... and restate it better than this share of targets are restated from
    "cover_floor": 0.5,        #     sections the priors rule out; this floor when no such pair exists
}


@dataclass
class CompanionPair:
    """The two editions' translations and which rule translates which (keys), for :class:`Companion`."""

    src: list[AlignRule]
    tgt: list[AlignRule]
    terms: list
    s_map: dict[str, str]   # source rule key -> key of its translation
    t_map: dict[str, str]   # target rule key -> key of its translation
    editions: tuple[str, str] = ("", "")   # the translations' editions (source, target)


def align_cross_edition(src: list[AlignRule], tgt: list[AlignRule], terms: list[tuple[str, str]] | None = None, *,
                        params: dict | None = None, method: str = "xedition-lex",
                        companion: CompanionPair | None = None) -> list[Alignment]:
    """Align an older edition to a newer one in the same language but another numbering (see the module doc).

    With a ``companion`` (the same two editions in another language, e.g. the English originals of
    two German editions), the similarity of the translations is a second path of evidence."""
    p = {**XEDITION, **(params or {})}
    if not src or not tgt:
        return [Alignment(v, None, 0.0, "no counterpart", method, {}) for v in src]
    comp = _companion(src, tgt, companion, p) if companion is not None else None
    mt = EditionMatcher(src, tgt, terms or [], p["sentence_weight"], p["wording_floor"], comp)
    cand = mt.candidates(p["candidates"], p["sentence_candidates"])
    prior, anchors, strength = _learn_priors(mt, cand, p)
    h_src, h_tgt = as_headings(src, p["subheading_words"]), as_headings(tgt, p["subheading_words"])
    h_text = [bool(v.text.strip()) for v in h_src]
    heads = heading_titles(h_src, h_tgt, h_text, mt.vec, mt.title_lemmas, p["title_alike"])
    if p["title_tie"]:
        prior = title_tied(prior, h_src, h_tgt, h_text, heads, p["title_tie"])
    mt.add_position_candidates(cand, anchors, p["position_window"])
    scores = {(i, d): s * prior(i, d) for i, c in enumerate(cand) for d, s in c.items()}
    chosen = _primary(mt, cand, scores, p)
    votes = _add_secondary(mt, cand, scores, chosen, prior, p)
    _fill_gaps(src, tgt, chosen, scores, mt.has_text, p, lambda i, d: mt.sim(i, d) * prior(i, d))
    covered = _cover_targets(mt, chosen, scores, prior, p) if p["coverage"] else {}
    if p["neighbours"]:
        _join_neighbours(mt, chosen, scores, prior, p)
    pointed = _join_pointers(mt, chosen, scores, p) if p["pointer_ratio"] else {}
    # subheadings (rules printing a bare title over their subrules) are mapped like headings: by title and subrules
    for i, v in enumerate(h_src):
        if v is not src[i]:
            chosen[i] = []
    _map_headings(h_src, h_tgt, chosen, h_text, p, heads, lambda i: strength(i) >= p["strong_chapter"])

    incoming = Counter(d for ds in chosen.values() for d in ds)
    links: list[Alignment] = []
    for i, v in enumerate(src):
        ds = chosen[i]
        if not ds:
            links.append(Alignment(v, None, 0.0, "no counterpart", method, {}))
            continue
        for d in ds:
            s = scores.get((i, d)) if mt.has_text[i] else None
            ev: dict[str, object] = ({"lexical": round(cand[i].get(d, 0.0), 3), "prior": round(prior(i, d), 3)}
                                     if s is not None else {"children": True})
            if (i, d) in votes:
                ev["sentences"] = votes[i, d]
            if (i, d) in covered:
                ev = covered[i, d]
            if (i, d) in pointed:
                ev = pointed[i, d]
            if len(ds) > 1:
                rel = "split"
            elif incoming[d] > 1:
                rel = "merged"
            elif v.norm == tgt[d].norm:
                rel = "equivalent"
            else:
                rel = "renumbered" if (s or 1.0) >= 0.5 else "reworded"
            links.append(Alignment(v, tgt[d], round(s if s is not None else 1.0, 3), rel,
                              COVERAGE_METHOD if (i, d) in covered else method, ev))
    return links


#: the end of a sentence: a text without one is a bare title
_SENTENCE_END = re.compile(r"[.:;!?][\"')\]]*\s*$")


def as_headings(views: list[AlignRule], max_words: int) -> list[AlignRule]:
    """``views`` with every subheading turned into a heading: a rule that has subrules and whose text is a bare
    title of at most ``max_words`` words, no sentence (1999 214.6 "Artifacts", 702.7 "First Strike"), prints the
    heading of its subrules.  It restates nothing, so it is aligned like a section: by its title and its subrules."""
    if not max_words:
        return views
    parents = {numbers.parent(v.norm) for v in views if v.norm and numbers.is_number(v.norm)}
    return [replace(v, title=v.text.strip(), text="")
            if (v.level in ("rule", "subrule") and not v.title and v.norm in parents and v.text.strip()
                and len(v.text.split()) <= max_words and not _SENTENCE_END.search(v.text)) else v
            for v in views]


def _companion(src: list[AlignRule], tgt: list[AlignRule], c: CompanionPair, p: dict) -> Companion | None:
    """The companion matcher over the translations of the rules of the main pair."""
    c_src = [v for v in c.src if v.key in set(c.s_map.values())]
    c_tgt = [v for v in c.tgt if v.key in set(c.t_map.values())]
    if not c_src or not c_tgt:
        return None
    s_pos = {v.key: n for n, v in enumerate(c_src)}
    t_pos = {v.key: n for n, v in enumerate(c_tgt)}
    s_map = {i: s_pos[c.s_map[v.key]] for i, v in enumerate(src) if c.s_map.get(v.key) in s_pos}
    t_map = {d: t_pos[c.t_map[v.key]] for d, v in enumerate(tgt) if c.t_map.get(v.key) in t_pos}
    matcher = EditionMatcher(c_src, c_tgt, c.terms, p["sentence_weight"], p["wording_floor"])
    return Companion(matcher, s_map, t_map, p["companion_weight"])


def _primary(mt: EditionMatcher, cand: list[dict[int, float]], scores: dict, p: dict) -> dict[int, list[int]]:
    """Competitive linking: best pairs first, each target once; a source whose best target is taken
    moves to its best free target if that scores within ``merge_slack``, else shares (a merge)."""
    ranked = {i: sorted(((scores[i, d], d) for d in c), reverse=True) for i, c in enumerate(cand)}
    order = sorted(((r[0][0], i) for i, r in ranked.items() if r and r[0][0] >= p["threshold"]), reverse=True)
    owner: dict[int, int] = {}
    chosen: dict[int, list[int]] = {i: [] for i in range(len(mt.src))}
    for top, i in order:
        pick = ranked[i][0][1]
        if pick in owner:
            free = next(((s, d) for s, d in ranked[i] if d not in owner), None)
            if free is not None and free[0] >= p["threshold"] and free[0] >= top - p["merge_slack"]:
                pick = free[1]
        owner.setdefault(pick, i)
        chosen[i] = [pick]
    return chosen


def _add_secondary(mt: EditionMatcher, cand: list[dict[int, float]], scores: dict, chosen: dict[int, list[int]],
                   prior, p: dict) -> dict[tuple[int, int], list[int]]:
    """Split targets from sentence votes and twins (in place); returns the sentences behind each vote."""
    votes: dict[tuple[int, int], list[int]] = {}
    for i, picked in chosen.items():
        if picked and len(mt.s_sent_words[i]) > 1:
            _vote(mt, i, cand[i], scores, picked, prior, p, votes)
    # twins of the chosen targets (searched at once), unless one of them restates the source fully
    mt.find_twins([d for ds in chosen.values() for d in ds], p["twin_min"])
    # a twin that another source rule has as its primary target is that rule's counterpart: the older edition stated
    # the two cases apart already
    primary_of = ({ds[0]: i for i, ds in chosen.items() if ds and scores[i, ds[0]] >= p["confident"]}
                  if p["twin_untaken"] else {})
    for i, picked in chosen.items():
        if picked and mt.rule_sim(i, picked[0]) < p["complete"]:
            _add_twins(mt, i, picked, scores, prior, p, primary_of)
    return votes


def _vote(mt: EditionMatcher, i: int, cand: dict[int, float], scores: dict, picked: list[int], prior, p: dict,
          votes: dict) -> None:
    """Sentence votes (in place): a sentence whose wording survived in a target not chosen yet adds it."""
    first = picked[0]
    # wording weighted by the section prior; the pair score breaks near ties (copies of one sentence in several rules)
    w = {d: tuple(x * prior(i, d) + p["vote_score"] * scores[i, d] for x in mt.wording_sims(i, d))
         for d in cand if scores[i, d] >= p["vote_floor"]}
    for k in range(len(mt.s_sent_words[i])):
        ranked = sorted(((x[k], d) for d, x in w.items()), reverse=True)
        if not ranked:
            break
        best, d = ranked[0]
        second = ranked[1][0] if len(ranked) > 1 else 0.0
        have = max((w[x][k] for x in picked if x in w), default=0.0)
        if (d not in picked and best >= p["vote_min"] and best - second >= p["vote_margin"]
                and best - have >= p["vote_margin"]):
            picked.append(d)
            votes.setdefault((i, d), []).append(k)
    # a primary target that keeps the wording of none of the sentences yields to the voted ones
    if len(picked) > 1 and first in w and p["demote"]:
        voted = min(max(w[d]) for d in picked[1:])
        if max(w[first]) < voted - p["vote_margin"]:
            picked.remove(first)


def _add_twins(mt: EditionMatcher, i: int, picked: list[int], scores: dict, prior, p: dict,
               primary_of: dict[int, int]) -> None:
    """Twins of the chosen targets join them (in place): the newer edition restates one older rule for
    two cases (spell / ability, replacement / prevention) in two rules.  A near-duplicate rule
    (:meth:`EditionMatcher.twins`) joins when the source restates it about as well; a near-duplicate or
    parallel twin (:meth:`EditionMatcher.parallel_twins`) also joins when the source names what tells
    the two apart on both sides (:meth:`EditionMatcher.covers_both`, in either language).  A twin that is another
    source's primary target, linked with confidence (``primary_of``: target -> source), stays that source's."""
    for d0 in list(picked):
        lexical = mt.twins(d0, p["twin_min"])
        parallel = mt.parallel_twins(d0, p["twin_parallel"], p["twin_step"])
        for d in dict.fromkeys(lexical + parallel):
            if d in picked or primary_of.get(d, i) != i:   # (another source's primary target)
                continue
            # a parallel twin of a target in a section tied to the source's is as good as tied (614 / 615)
            tie = max(prior(i, d), prior(i, d0)) if d in parallel else prior(i, d)
            s = scores[i, d] = max(scores.get((i, d), 0.0), mt.sim(i, d) * tie)
            if s < max(p["threshold"], p["twin_floor"]):
                continue
            if (d in lexical and s >= p["twin_ratio"] * scores[i, d0]) or mt.covers_both(i, d0, d) >= p["twin_sides"]:
                picked.append(d)


def _join_neighbours(mt: EditionMatcher, chosen: dict[int, list[int]], scores: dict, prior, p: dict) -> None:
    """A free target next to a chosen one (the rule before or after it, its parent) joins when the two
    together restate the source clearly better than the chosen targets alone (in place): a rule split
    into consecutive rules of the newer edition."""
    claimed = {d for ds in chosen.values() for d in ds}
    for i, picked in chosen.items():
        if not picked or not mt.has_text[i]:
            continue
        base = mt.joint_sim(i, picked)
        best: tuple[float, int] | None = None
        for d in dict.fromkeys(x for d0 in picked for x in mt.neighbours(d0)):
            if d in claimed or d in picked:
                continue
            s = scores.get((i, d))
            if s is None:
                s = scores[i, d] = mt.sim(i, d) * prior(i, d)
            if s < p["neighbour_floor"]:
                continue
            gain = mt.joint_sim(i, picked + [d]) - base
            if gain >= p["neighbour_gain"] and (best is None or gain > best[0]):
                best = (gain, d)
        if best is not None:
            picked.append(best[1])
            claimed.add(best[1])


def _join_pointers(mt: EditionMatcher, chosen: dict[int, list[int]], scores: dict, p: dict
                   ) -> dict[tuple[int, int], dict]:
    """Restatements marked as such (in place): a target that no source claimed and that ends with a bare pointer to
    a target chosen for a source (:meth:`EditionMatcher.pointing_to`: 703.4c "... See rule 502.3.") joins that
    source when it is about as close to the source as the target it points to (``pointer_ratio`` of its
    similarity, and at least the threshold); pointed to from several sources, it joins the closest.  The newer
    edition says the rule restates the other one, so the section priors do not apply; the link is no stronger
    than the one it points to.  Returns the evidence of every added pair."""
    claimed = {d for ds in chosen.values() for d in ds}
    best: dict[int, tuple[float, int, int, float]] = {}   # target -> (similarity share, source, pointed, similarity)
    for i, picked in chosen.items():
        if not mt.has_text[i]:
            continue
        for d in picked:
            base = mt.sim(i, d)
            for e in mt.pointing_to(d):
                s = mt.sim(i, e)
                if e in claimed or base <= 0.0 or s < max(p["threshold"], p["pointer_ratio"] * base):
                    continue
                if e not in best or s / base > best[e][0]:
                    best[e] = (s / base, i, d, s)
    added: dict[tuple[int, int], dict] = {}
    for e, (_, i, d, s) in best.items():
        chosen[i].append(e)
        scores[i, e] = min(s, scores.get((i, d), 0.0))
        added[i, e] = {"lexical": round(s, 3), "points_to": mt.tgt[d].norm}
    return added


def _cover_targets(mt: EditionMatcher, chosen: dict[int, list[int]], scores: dict, prior,
                   p: dict) -> dict[tuple[int, int], dict]:
    """Target-side coverage (in place): a newer rule that no older rule claimed looks for the older
    sentence that restates it best (:meth:`EditionMatcher.restatement`, over the sentence index).

    Only sources whose section the learnt priors tie to the target's section compete (``cover_prior``).
    The threshold is calibrated on the same scores: the ``cover_quantile`` of the best restatement that
    each unclaimed target finds among sources the priors rule out altogether (sections and chapters
    without counterpart: unrelated by the learnt structure), ``cover_floor`` when there is no such pair.
    A sentence that a target already chosen for its rule restates at least as well adds nothing;
    otherwise the pair joins the source's targets (a split target when the source has others).
    Returns the evidence of every added pair.
    """
    claimed = {d for ds in chosen.values() for d in ds}
    found: list[tuple[int, tuple[float, int, int, int]]] = []
    null: list[float] = []
    sources = [i for i in range(len(mt.src)) if mt.has_text[i]]
    relevant: dict[str, bool] = {}   # target section -> has sources tied to it or ruled out (the prior is per section)
    todo = []
    for d in range(len(mt.tgt)):
        if not mt.t_text[d] or d in claimed:
            continue
        sec = _section_of(mt.tgt[d])
        if sec not in relevant:
            relevant[sec] = any(not 0.0 < prior(i, d) < p["cover_prior"] for i in sources)
        if relevant[sec]:
            todo.append(d)
    mt.find_restating(todo, p["cover_candidates"], p["cover_words"])
    for d in todo:
        # only sources the priors tie to the target (candidates) or rule out (the null) are scored
        near = mt.restating_sentences(d, p["cover_candidates"], p["cover_words"],
                                      lambda i, d=d: not 0.0 < prior(i, d) < p["cover_prior"])
        tied = [x for x in near if prior(x[1], d) >= p["cover_prior"]]
        apart = [x[0] for x in near if prior(x[1], d) <= 0.0]
        if apart:
            null.append(max(apart))
        if tied:
            found.append((d, tied[0]))
    null.sort()
    level = null[min(len(null) - 1, int(p["cover_quantile"] * len(null)))] if null else p["cover_floor"]
    added: dict[tuple[int, int], dict] = {}
    before = {i: list(ds) for i, ds in chosen.items()}
    for d, (r, i, q, u) in found:
        if r < level:
            continue
        # a sentence that a target already chosen for its rule restates as well needs no other target
        words = mt.s_sent_words[i][q]
        if any(mt.restatement(words, x) >= r for e in before[i] for x in mt.t_sent_words[e]):
            continue
        chosen[i].append(d)
        scores[i, d] = r
        added[i, d] = {"coverage": round(r, 3), "threshold": round(level, 3), "prior": round(prior(i, d), 3),
                       "sentence": q, "target_sentence": u,
                       "evidence": mt.s_tokens[i].texts[q]}
    return added
