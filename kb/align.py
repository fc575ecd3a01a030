"""Align rules across languages and editions; give aligned rule versions one concept id.

Two aligners, both pure functions from lists of :class:`RuleView` to lists of :class:`Link`:

* :func:`align_cross_language` — same numbering scheme, different languages (Italian wiki ↔
  German 2024, English ↔ German Morph excerpt).  Numbers are evidence, not proof: a banded,
  monotone dynamic program (Gale–Church / Bertalign style, moves 1–1, 1–0, 0–1, 2–1, 1–2)
  scores pairs by evidence that survives translation — a translation lexicon learnt from the
  documents themselves, cross-reference targets, digits, shared tokens (card names, keywords),
  symbols, length ratio — and the number only as one weak feature.  Competitive linking in the
  band then finds what a monotone path cannot express: swapped rules, duplicates (merges),
  misplaced and misprinted rules, and splits.
* :func:`align_cross_edition` — same language, different numbering (German 1999 → 2024).
  Candidates come from an inverted index (blocking, never all pairs); similarity is TF-IDF over
  lemmas after rewriting old terminology (``data/terminology.tsv``), with compound heads and
  bigrams, plus matched examples; learnt priors (mutual best matches and alike titles tie
  sections, weak chapters have no counterparts) weight it.  A target that explains what the
  best one leaves unexplained makes a 1→n split; several sources choosing one target an n→1
  merge; below a threshold: no counterpart.  Headings follow their children.

:func:`align_items` links article steps and examples and FAQ bullets to the rules they explain.
:func:`store` runs every alignment of the KB and writes ``concepts``, ``alignments`` and
``rules.concept_id`` (concept = the German 2024 rule a version aligns to, like Akoma Ntoso's
wId beside the printed eId).  Rule texts never appear in this code: every word list comes from
the documents or from ``data/``.
"""
from __future__ import annotations

import bisect
import csv
import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ingest import numbers
from ingest import refs as refs_mod

from . import lemmas as lemmas_mod
from . import paths

RELATIONS = ("equivalent", "reworded", "renumbered", "split", "merged", "no counterpart")
TERMINOLOGY = paths.DATA / "terminology.tsv"

# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class RuleView:
    """What the aligners see of a rule (or of an item such as an article step or FAQ bullet)."""

    key: str                    # "de-2024/601.2c"; unique within its edition
    edition: str
    lang: str
    norm: str                   # normalised number, "" for items
    text: str                   # text with canonical symbols (text_norm), title included for headings
    seq: int                    # document order
    level: str | None = None    # chapter, section, rule, subrule
    title: str | None = None
    lemmas: tuple[str, ...] = ()  # lower-cased lemmas of title and text (stop words included)
    examples: str = ""          # lemmas of the examples that hang off the rule
    line: int | None = None     # first source line
    id: int | None = None       # rules.id or items.id in the KB
    kind: str = "rule"          # "rule" or the item kind


@dataclass
class Link:
    """One alignment row: ``target`` None means the source has no counterpart."""

    source: RuleView
    target: RuleView | None
    score: float
    relation: str
    method: str
    evidence: dict = field(default_factory=dict)

    def pair(self) -> tuple[str, str | None]:
        return self.source.key, (self.target.key if self.target else None)


def make_view(key: str, edition: str, lang: str, norm: str, text: str, seq: int, **kw) -> RuleView:
    """A view whose lemmas are computed here (tests, synthetic editions, parsed documents)."""
    if "lemmas" not in kw:
        title = kw.get("title") or ""
        kw["lemmas"] = tuple(lemmas_mod.lemmatize(f"{title} {text}".strip(), lang).split())
    return RuleView(key=key, edition=edition, lang=lang, norm=norm, text=text, seq=seq, **kw)


def views_from_db(db, edition_id: str) -> list[RuleView]:
    """The rules of one edition of the KB (``sqlite_utils.Database``), in document order."""
    lang = _edition_lang(db, edition_id)
    examples: dict[int, list[str]] = defaultdict(list)
    for row in db.query("select rule_id, lemmas from items where edition_id = ? and kind = 'example' "
                        "and rule_id is not null order by seq", [edition_id]):
        examples[row["rule_id"]].append(row["lemmas"] or "")
    out = []
    for r in db.query("select id, key, norm, level, title, text_norm, lemmas, seq, line_start from rules "
                      "where edition_id = ? order by seq", [edition_id]):
        out.append(RuleView(key=r["key"], edition=edition_id, lang=lang, norm=r["norm"] or "",
                            text=r["text_norm"] or "", seq=r["seq"], level=r["level"], title=r["title"],
                            lemmas=tuple((r["lemmas"] or "").split()), examples=" ".join(examples[r["id"]]),
                            line=r["line_start"], id=r["id"]))
    return out


def items_from_db(db, edition_id: str, kinds: tuple[str, ...]) -> list[RuleView]:
    """Items of one edition (article steps and examples, FAQ bullets) as views, in document order."""
    lang = _edition_lang(db, edition_id)
    marks = ",".join("?" for _ in kinds)
    return [RuleView(key=f"{edition_id}/{r['kind']}@{r['line_start']}", edition=edition_id, lang=lang, norm="",
                     text=r["text_norm"] or r["text"] or "", seq=r["seq"], title=r["title"],
                     lemmas=tuple((r["lemmas"] or "").split()), line=r["line_start"], id=r["id"], kind=r["kind"])
            for r in db.query(f"select id, kind, title, text, text_norm, lemmas, seq, line_start from items "
                              f"where edition_id = ? and kind in ({marks}) order by seq", [edition_id, *kinds])]


def _edition_lang(db, edition_id: str) -> str:
    row = next(db.query("select language from editions where id = ?", [edition_id]), None)
    return row["language"] if row else "de"


# --------------------------------------------------------------------------- features

_WORD = re.compile(r"[^\W\d_]{2,}")
_DIGITS = re.compile(r"(?<![\w.])\d+(?![\w.]*\d)")
_SYMBOL = re.compile(r"\{[^{}\s]{1,8}\}")
_SENT = re.compile(r"(?<=[.!?])[\"“”„»«)]*\s+(?=[A-ZÄÖÜ„\"(])")


@lru_cache(maxsize=None)
def stop_words(lang: str) -> frozenset[str]:
    try:
        module = __import__(f"spacy.lang.{lang}.stop_words", fromlist=["STOP_WORDS"])
    except ImportError:
        return frozenset()
    return frozenset(w.lower() for w in module.STOP_WORDS)


@dataclass(frozen=True)
class Feat:
    """Evidence extracted once per view."""

    content: frozenset[str]     # content lemmas (stop words removed)
    tf: Counter                 # content lemma counts
    refs: frozenset[str]        # cited rule numbers
    digits: frozenset[str]      # other numbers in the text
    symbols: frozenset[str]     # {T}, {X}, ...
    tokens: frozenset[str]      # surface words of 4+ letters, lower-cased (names, keywords, cognates)
    length: int


def features(v: RuleView, lemma_list: tuple[str, ...] | None = None) -> Feat:
    stop = stop_words(v.lang)
    lem = [w for w in (lemma_list if lemma_list is not None else v.lemmas) if w not in stop and len(w) > 2]
    found = refs_mod.find_refs(v.text)
    cited = set()
    for r in found:
        cited.add(r.target)
        if r.range_end:
            cited.add(r.target + "-" + r.range_end)
    masked = v.text
    for r in reversed(found):
        masked = masked[:r.start] + " " + masked[r.end:]
    text = f"{v.title or ''} {masked}"
    return Feat(
        content=frozenset(lem), tf=Counter(lem), refs=frozenset(cited),
        digits=frozenset(_DIGITS.findall(_SYMBOL.sub(" ", masked))),
        symbols=frozenset(_SYMBOL.findall(v.text)),
        tokens=frozenset(w.lower() for w in _WORD.findall(text) if len(w) >= 4),
        length=len(v.text) + len(v.title or ""),
    )


def merge_feats(feats: list[Feat]) -> Feat:
    tf = Counter()
    for f in feats:
        tf.update(f.tf)
    return Feat(frozenset().union(*(f.content for f in feats)), tf, frozenset().union(*(f.refs for f in feats)),
                frozenset().union(*(f.digits for f in feats)), frozenset().union(*(f.symbols for f in feats)),
                frozenset().union(*(f.tokens for f in feats)), sum(f.length for f in feats))


def _jaccard(a: frozenset, b: frozenset) -> float | None:
    """None when neither side has the evidence (uninformative, not a mismatch)."""
    if not a and not b:
        return None
    return len(a & b) / len(a | b)


def _overlap(a: frozenset, b: frozenset) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def _ref_agreement(a: frozenset, b: frozenset) -> float | None:
    """Cross-reference targets; a target renumbered by one step still counts half (stale references)."""
    if not a and not b:
        return None
    if not a or not b:
        return 0.0
    exact = len(a & b)
    near = sum(1 for x in a - b if any(_near_number(x, y) for y in b - a))
    return (exact + 0.5 * near) / max(len(a), len(b))


def _near_number(x: str, y: str) -> bool:
    px, py = x.split("-")[0], y.split("-")[0]
    if not (numbers.is_number(px) and numbers.is_number(py)):
        return False
    hx, rx, lx = numbers.split(px)
    hy, ry, ly = numbers.split(py)
    if (rx is None) != (ry is None) or (lx is None) != (ly is None):
        return False
    if hx != hy:
        return abs(hx - hy) <= 2 and rx == ry and lx == ly
    if rx != ry:
        return abs((rx or 0) - (ry or 0)) <= 1 and lx == ly
    return lx is not None and abs(_letter(lx) - _letter(ly)) <= 2


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
    ha, ra, la = numbers.split(a)
    hb, rb, lb = numbers.split(b)
    if (ra is None) != (rb is None) or (la is None) != (lb is None):
        return 0.0
    if ha == hb and ra == rb and la and lb:
        return {1: 0.6, 2: 0.4, 3: 0.2}.get(abs(_letter(la) - _letter(lb)), 0.0)
    if ha == hb and la == lb and ra is not None:
        return {1: 0.5, 2: 0.3}.get(abs(ra - rb), 0.0)
    if ra == rb and la == lb and abs(ha - hb) == 1:
        return 0.3  # a mistyped section ("613.13c" printed inside 614)
    return 0.0


def _gale_church(l1: int, l2: int, c: float, s2: float) -> float:
    """Probability that texts of lengths l1 and l2 are mutual translations (two-sided normal tail)."""
    if l1 == 0 and l2 == 0:
        return 1.0
    mean = (l1 + l2 / c) / 2
    delta = (l2 - l1 * c) / math.sqrt(max(mean, 1.0) * s2)
    return math.erfc(abs(delta) / math.sqrt(2))


# --------------------------------------------------------------------------- translation lexicon


class Lexicon:
    """Word translations learnt from likely-parallel rule pairs (Dice coefficient of co-occurrence).

    Unsupervised: the training pairs are the rules that carry the same number in both
    editions, most of which are translations of each other; the few that are not add noise
    that the co-occurrence counts wash out.
    """

    def __init__(self, pairs: list[tuple[frozenset, frozenset]], top: int = 3, min_dice: float = 0.25):
        ca, cb, cab = Counter(), Counter(), Counter()
        for a, b in pairs:
            ca.update(a)
            cb.update(b)
            for x in a:
                for y in b:
                    cab[x, y] += 1
        fwd: dict[str, list] = defaultdict(list)
        bwd: dict[str, list] = defaultdict(list)
        for (x, y), n in cab.items():
            if n < 2:
                continue
            d = 2 * n / (ca[x] + cb[y])
            if d >= min_dice:
                fwd[x].append((d, y))
                bwd[y].append((d, x))
        self.fwd = {x: dict((y, d) for d, y in sorted(v, reverse=True)[:top]) for x, v in fwd.items()}
        self.bwd = {y: dict((x, d) for d, x in sorted(v, reverse=True)[:top]) for y, v in bwd.items()}
        self._cache: dict = {}

    def similarity(self, a: frozenset, b: frozenset) -> float | None:
        """Share of translatable words of each side whose translation occurs on the other side."""
        scores = []
        for known, other in ((self._known(a, True), b), (self._known(b, False), a)):
            if known:
                scores.append(sum(1 for t in known if not t.isdisjoint(other)) / len(known))
        return sum(scores) / len(scores) if scores else None

    def _known(self, words: frozenset, forward: bool) -> tuple[frozenset, ...]:
        """Translation sets of the words that have any (cached per word set)."""
        key = (words, forward)
        if key not in self._cache:
            table = self.fwd if forward else self.bwd
            self._cache[key] = tuple(frozenset(table[w]) for w in words if w in table)
        return self._cache[key]


# --------------------------------------------------------------------------- cross-language aligner

#: weights of the translation-surviving evidence; missing evidence is left out of the average
XLANG_WEIGHTS = {"lexicon": 0.50, "refs": 0.15, "digits": 0.07, "symbols": 0.06, "tokens": 0.10, "length": 0.12}
#: weight of the rule number beside that evidence: numbers are strong evidence, not proof
NUMBER_WEIGHT = 0.2


class PairScorer:
    """Scores source/target pairs of two editions that share a numbering scheme.

    ``content`` is the evidence that survives translation, ``total`` adds the number.
    """

    def __init__(self, src: list[RuleView], tgt: list[RuleView], lexicon_pairs: int = 400):
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
            "number": max(number_affinity(self.src[i].norm, self.tgt[j].norm) for i in si for j in tj),
        }

    def score(self, si: tuple[int, ...], tj: tuple[int, ...]) -> tuple[float, float, dict]:
        """(total, content, evidence) of aligning source rules ``si`` with target rules ``tj``."""
        key = (si, tj)
        if key in self.cache:
            return self.cache[key]
        ev = self.evidence(si, tj)
        num = den = 0.0
        for name, w in XLANG_WEIGHTS.items():
            if ev[name] is not None:
                num += w * ev[name]
                den += w
        content = num / den if den else 0.0
        if self.src[si[0]].level != self.tgt[tj[0]].level:
            content *= 0.5
        total = (1 - NUMBER_WEIGHT) * content + NUMBER_WEIGHT * ev["number"]
        result = (total, content, {k: round(v, 3) for k, v in ev.items() if v is not None})
        self.cache[key] = result
        return result


def _number_anchors(src: list[RuleView], tgt: list[RuleView]) -> list[tuple[int, int]]:
    """(source index, target index) of rules printed with the same number."""
    by_norm: dict[str, int] = {}
    for j, v in enumerate(tgt):
        if v.norm:
            by_norm.setdefault(v.norm, j)
    return [(i, by_norm[v.norm]) for i, v in enumerate(src) if v.norm in by_norm]


def _proportional_anchors(src: list[RuleView], tgt: list[RuleView]) -> list[tuple[int, int]]:
    """Unnumbered parallel lists (FAQ bullets in two languages): position is the only prior."""
    if not src or not tgt or abs(len(src) - len(tgt)) > 0.2 * max(len(src), len(tgt)):
        return []
    return [(i, min(len(tgt) - 1, round(i * len(tgt) / len(src)))) for i in range(len(src))]


def _expected_positions(src: list[RuleView], tgt: list[RuleView]) -> list[float]:
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


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of pairs increasing in both coordinates (pairs sorted by the first)."""
    tails, tails_idx, prev = [], [], [-1] * len(pairs)
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


def align_cross_language(src: list[RuleView], tgt: list[RuleView], *, band: int = 12, threshold: float = 0.35,
                         many_penalty: float = 0.05, method: str = "xlang-dp") -> list[Link]:
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
    incoming = Counter(t for ts in assigned.values() for t in ts)
    links = []
    for a, v in enumerate(src):
        ts = sorted(assigned.get(a, ()))
        if not ts:
            links.append(Link(v, None, 0.0, "no counterpart", method, {}))
            continue
        for t in ts:
            total, content, ev = sc.score((a,), (t,))
            if len(ts) > 1:
                rel = "split"
            elif incoming[t] > 1:
                rel = "merged"
            elif v.norm == tgt[t].norm:
                rel = "reworded" if ev.get("length", 1.0) < 0.02 else "equivalent"
            else:
                rel = "renumbered"
            links.append(Link(v, tgt[t], round(total, 3), rel, method, {**ev, "content": round(content, 3)}))
    return links


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
    moves = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2))
    for i in range(n + 1):
        for j in range(lo[i], hi[i] + 1):
            if i == 0 and j == 0:
                continue
            cand = None
            for di, dj in moves:
                prev = best.get((i - di, j - dj))
                if prev is None:
                    continue
                gain = 0.0
                if di and dj:
                    total = sc.score(tuple(range(i - di, i)), tuple(range(j - dj, j)))[0]
                    gain = total - threshold - (many_penalty if di + dj > 2 else 0.0)
                if cand is None or prev[0] + gain > cand[0]:
                    cand = (prev[0] + gain, (i - di, j - dj))
            if cand is not None:
                best[i, j] = cand
    out: dict[int, list[int]] = defaultdict(list)
    cell = (n, m)
    while cell in best and best[cell][1] is not None:
        (pi, pj), (i, j) = best[cell][1], cell
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


def _parent_index(views: list[RuleView]) -> list[int | None]:
    """Index of each view's nearest existing ancestor in the same list."""
    where = {v.norm: k for k, v in enumerate(views) if v.norm}
    out = []
    for v in views:
        p = numbers.parent(v.norm) if v.norm and numbers.is_number(v.norm) else None
        while p is not None and p not in where:
            p = numbers.parent(p)
        out.append(where.get(p) if p else None)
    return out


def _link(sc: PairScorer, path: dict[int, list[int]], expected: list[float], band: int, threshold: float,
          parents_from: dict[int, list[int]] | None = None) -> dict[int, list[int]]:
    """Competitive linking inside the band: best pairs first, each target once unless evidence says merge."""
    n, m = len(sc.src), len(sc.tgt)
    sp, tp = _parent_index(sc.src), _parent_index(sc.tgt)
    parents = parents_from if parents_from is not None else path
    on_path = {(a, t) for a, ts in path.items() for t in ts}

    def value(a: int, t: int) -> float:
        total = sc.score((a,), (t,))[0]
        bonus = PATH_BONUS if (a, t) in on_path else 0.0
        if sp[a] is not None and tp[t] is not None and tp[t] in parents.get(sp[a], ()):
            bonus += PARENT_BONUS
        return total + bonus

    cands = []
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
    for a, (v, t) in merge.items():
        if a not in assigned:
            assigned[a] = [t]
    # a free target next to a source's target that, joined to it, explains the source better is a split
    for t in range(m):
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
    return assigned


# --------------------------------------------------------------------------- terminology


def load_terminology(path: Path = TERMINOLOGY, lang: str = "de") -> list[tuple[str, str]]:
    """(old, new) pairs of the curated table, longest old term first; identity rows are skipped."""
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    for row in csv.DictReader(lines, delimiter="\t"):
        if row["lang"] == lang and row["old_term"] != row["new_term"]:
            rows.append((row["old_term"], row["new_term"] or ""))
    return sorted(rows, key=lambda r: -len(r[0]))


def rewrite(text: str, terms: list[tuple[str, str]]) -> str:
    """Replace old terms by new ones (case-insensitive, whole words)."""
    for old, new in terms:
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text, flags=re.IGNORECASE)
    return text


# --------------------------------------------------------------------------- cross-edition aligner


class LexicalIndex:
    """TF-IDF vectors with an inverted index: cosine similarity and top-k search (blocking)."""

    def __init__(self, docs: list[Counter]):
        self.n = len(docs)
        df = Counter()
        for d in docs:
            df.update(d.keys())
        self.idf = {w: math.log((1 + self.n) / (1 + c)) + 1 for w, c in df.items()}
        self.vecs = [self.vector(d) for d in docs]
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for k, vec in enumerate(self.vecs):
            for w, x in vec.items():
                self.postings[w].append((k, x))

    def vector(self, tf: Counter) -> dict[str, float]:
        idf, unseen = self.idf, math.log(1 + self.n) + 1
        vec = {w: (1.0 + (math.log(c) if c > 1 else 0.0)) * idf.get(w, unseen) for w, c in tf.items() if c > 0}
        norm = math.sqrt(sum(x * x for x in vec.values())) or 1.0
        return {w: x / norm for w, x in vec.items()}

    def search(self, tf: Counter, k: int, max_df: float = 0.25, max_postings: int = 400,
               terms: int = 24) -> list[tuple[float, int]]:
        """Top-k documents by the dot product over the query's rarest words (blocking).

        Only the ``terms`` highest-weighted words with postings no longer than ``max_postings``
        (and rarer than ``max_df``) are read, so a query costs the same in any collection size.
        """
        q = self.vector(tf)
        acc: dict[int, float] = defaultdict(float)
        limit = max(5, min(max_postings, int(max_df * self.n)))
        read = 0
        for w, x in sorted(q.items(), key=lambda wx: -wx[1]):
            post = self.postings.get(w)
            if not post or len(post) > limit:
                continue
            for d, y in post:
                acc[d] += x * y
            read += 1
            if read >= terms:
                break
        return sorted(((s, d) for d, s in acc.items()), reverse=True)[:k]

    def cosine(self, tf: Counter, k: int) -> float:
        return self.dot(self.vector(tf), k)

    def dot(self, q: dict[str, float], k: int) -> float:
        """Cosine of an already weighted query vector (:meth:`vector`) with document ``k``."""
        v = self.vecs[k]
        if len(q) > len(v):
            return sum(x * q.get(w, 0.0) for w, x in v.items())
        return sum(x * v.get(w, 0.0) for w, x in q.items())


class Vectoriser:
    """Bag of content lemmas, their compound heads and lemma bigrams.

    German compounds share their last part with simpler words ("Gesamtkosten" → "kosten",
    "Manafähigkeit" → "fähigkeit"): the longest suffix of a lemma that is itself a lemma of
    the vocabulary is added as a feature.  Bigrams keep phrases ("zeit zurück").
    """

    def __init__(self, lang: str, vocabulary: set[str]):
        self.stop = stop_words(lang)
        self.lang = lang
        self.vocab = {self.stem(w) for w in vocabulary if len(w) >= 4}
        self._heads: dict[str, str | None] = {}

    def content(self, lemma_list) -> list[str]:
        return [self.stem(w) for w in lemma_list if w not in self.stop and len(w) > 2]

    def stem(self, w: str) -> str:
        """Inflection the lemmatiser leaves (capitalised adjectives, unknown compounds): strip one ending."""
        if self.lang != "de":
            return w
        for suffix in ("em", "en", "er", "es", "e", "s", "n"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 4:
                return w[: -len(suffix)]
        return w

    def head(self, w: str) -> str | None:
        if w not in self._heads:
            self._heads[w] = next((w[k:] for k in range(3, len(w) - 3) if w[k:] in self.vocab), None)
        return self._heads[w]

    def bag(self, words: list[str]) -> Counter:
        out = Counter(words)
        out.update(h for h in map(self.head, words) if h)
        out.update(f"{x}_{y}" for x, y in zip(words, words[1:]))
        return out


def _sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENT.split(text) if p.strip()]
    return parts if len(parts) > 1 else []


def _section_of(v: RuleView) -> str:
    if not v.norm or not numbers.is_number(v.norm):
        return ""
    head = numbers.split(v.norm)[0]
    return str(head) if head >= 100 else ""


def _chapter(v: RuleView) -> int:
    return numbers.chapter(v.norm) if v.norm and numbers.is_number(v.norm) else -1


def _ancestors(norm: str) -> list[str]:
    out, p = [], norm
    while p:
        out.append(p)
        p = numbers.parent(p) if numbers.is_number(p) else None
    return out


#: parameters of the cross-edition aligner
XEDITION = {
    "candidates": 20,          # blocking: targets read per source from the inverted index
    "threshold": 0.13,         # below: no counterpart
    "anchor_min": 0.2,         # a mutual best match from this similarity on ties its two sections
    "untied": 0.4,             # prior factor for a section pair no anchor ties
    "title_min": 0.6,          # section titles this alike tie their sections like anchors do
    "anchor_density": 0.1,     # share of a section's rules that are anchors into a target section for a full tie
    "split_ratio": 0.9,        # another target this close to the best is a split target too
    "split_gain": 0.06,        # another target that raises the explained share of the rule this much is a split
    "confident": 0.2,          # a sibling's link this strong frames the gap for its neighbours
    "gap_min": 0.05,           # inside a framed gap, a target needs only this score
    "position_window": 0.25,   # extra candidates: targets this close in relative position within tied sections
    "strong_chapter": 0.8,     # a chapter matching this well (relative to the best) can keep title-only links
    "heading_cover": 0.6,      # a heading maps to the deepest target node covering this share of its children
    "heading_share": 0.3,      # ... or, if none, to every section receiving this share (a split)
}


def align_cross_edition(src: list[RuleView], tgt: list[RuleView], terms: list[tuple[str, str]] | None = None, *,
                        params: dict | None = None, method: str = "xedition-lex") -> list[Link]:
    """Align an older edition to a newer one in the same language but another numbering.

    1. Old terminology is rewritten (``terms``); texts become bags of lemmas, compound heads and
       bigrams (:class:`EditionMatcher`); candidates come from an inverted index (blocking,
       never all pairs), plus the targets at the same relative position inside tied sections.
    2. Priors are learnt: mutual best matches ("anchors") tie a source section to target
       sections; a chapter whose rules find only weak matches is unlikely to have counterparts.
    3. A rule takes its best target if the prior-weighted score passes the threshold; another
       target joins (a split) when it explains enough of what the first leaves unexplained or
       scores nearly as well.  Several rules choosing one target is a merge.
    4. Siblings linked with confidence frame the gap for a weakly linked rule between them;
       headings (no text of their own) take the target nodes covering their children's targets.
    """
    p = {**XEDITION, **(params or {})}
    if not src or not tgt:
        return [Link(v, None, 0.0, "no counterpart", method, {}) for v in src]
    mt = EditionMatcher(src, tgt, terms or [])
    cand = mt.candidates(p["candidates"])
    prior, anchors, strength = _learn_priors(mt, cand, p)
    mt.add_position_candidates(cand, anchors, p["position_window"])
    chosen, scores = _choose(mt, cand, prior, p)
    _fill_gaps(src, tgt, chosen, scores, mt.has_text, p, lambda i, d: mt.sim(i, d) * prior(i, d))
    _map_headings(src, tgt, chosen, mt.has_text, p, mt.vec, mt.terms, lambda i: strength(i) >= p["strong_chapter"])

    incoming = Counter(d for ds in chosen.values() for d in ds)
    links: list[Link] = []
    for i, v in enumerate(src):
        ds = chosen[i]
        if not ds:
            links.append(Link(v, None, 0.0, "no counterpart", method, {}))
            continue
        for d in ds:
            s = scores.get((i, d))
            ev = {"lexical": round(cand[i].get(d, 0.0), 3), "prior": round(prior(i, d), 3)} if s is not None \
                else {"children": True}
            if len(ds) > 1:
                rel = "split"
            elif incoming[d] > 1:
                rel = "merged"
            elif v.norm == tgt[d].norm:
                rel = "equivalent"
            else:
                rel = "renumbered" if (s or 1.0) >= 0.5 else "reworded"
            links.append(Link(v, tgt[d], round(s if s is not None else 1.0, 3), rel, method, ev))
    return links


class EditionMatcher:
    """Lexical similarity between the rules of two editions in one language."""

    def __init__(self, src: list[RuleView], tgt: list[RuleView], terms: list[tuple[str, str]]):
        self.src, self.tgt, self.terms = src, tgt, terms
        lang = tgt[0].lang
        # old wording rewritten into new terminology needs fresh lemmas; without terms the stored ones do
        s_lem = (lemmas_mod.lemmatize_many([rewrite(f"{v.title or ''} {v.text}", terms) for v in src], lang)
                 if terms else [" ".join(v.lemmas) for v in src])
        s_ex = (lemmas_mod.lemmatize_many([rewrite(v.examples, terms) for v in src], lang) if terms
                else [v.examples for v in src])
        self.vec = vec = Vectoriser(lang, {w for x in s_lem for w in x.split()} | {w for v in tgt for w in v.lemmas})
        self.t_bags = [vec.bag(vec.content(v.lemmas)) for v in tgt]
        self.s_bags = [vec.bag(vec.content(x.split())) for x in s_lem]
        self.index = LexicalIndex(self.t_bags)
        self.ex_index = LexicalIndex([vec.bag(vec.content(v.examples.split())) for v in tgt])
        self.s_vecs = [self.index.vector(b) for b in self.s_bags]
        self.s_ex_vecs = [self.ex_index.vector(vec.bag(vec.content(x.split()))) if x else None for x in s_ex]
        self.has_text = [bool(v.text.strip()) for v in src]
        self.t_text = [bool(v.text.strip()) for v in tgt]

    def sim(self, i: int, d: int) -> float:
        """Cosine of the bags; matching examples count for a fifth when both rules have some."""
        s = self.index.dot(self.s_vecs[i], d)
        if self.s_ex_vecs[i] and self.tgt[d].examples:
            s = 0.8 * s + 0.2 * self.ex_index.dot(self.s_ex_vecs[i], d)
        return s

    def candidates(self, k: int) -> list[dict[int, float]]:
        """Blocking: the top ``k`` targets with text of every source rule with text, from the index."""
        out = []
        for i in range(len(self.src)):
            pool = [d for _, d in self.index.search(self.s_bags[i], k) if self.t_text[d]] if self.has_text[i] else []
            out.append({d: self.sim(i, d) for d in pool})
        return out

    def add_position_candidates(self, cand: list[dict[int, float]], anchors: dict[str, Counter],
                                window: float) -> None:
        """Targets at about the same relative position inside the section pairs that anchors tie
        (the index misses the counterparts whose wording changed most)."""
        src, tgt = self.src, self.tgt
        s_pos: dict[int, float] = {}
        for members in _group(range(len(src)), lambda i: _section_of(src[i]) if self.has_text[i] else None).values():
            for k, i in enumerate(members):
                s_pos[i] = (k + 0.5) / len(members)
        t_groups = _group(range(len(tgt)), lambda d: _section_of(tgt[d]) if self.t_text[d] else None)
        rows: dict[str, list[tuple[float, int]]] = {}
        for sec, targets in anchors.items():
            union = sorted(d for t_sec in targets if t_sec for d in t_groups.get(t_sec, []))
            rows[sec] = [((k + 0.5) / len(union), d) for k, d in enumerate(union)]
        for i, pos in s_pos.items():
            row = rows.get(_section_of(src[i]), [])
            for q, d in row[bisect.bisect_left(row, (pos - window, -1)):]:
                if q > pos + window:
                    break
                if d not in cand[i]:
                    cand[i][d] = self.sim(i, d)

    def explained(self, i: int, targets: Counter) -> float:
        """How much of source ``i`` the joined bags of some targets explain (cosine)."""
        vb = self.index.vector(targets)
        return sum(x * vb.get(w, 0.0) for w, x in self.s_vecs[i].items())


def _learn_priors(mt: EditionMatcher, cand: list[dict[int, float]], p: dict):
    """Anchors (mutual best matches) tie section pairs; weak chapters have no counterparts.

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
    for sec, t_sec in _title_ties(mt, p["title_min"]):
        anchors[sec][t_sec] = max(anchors[sec][t_sec], p["anchor_density"] * max(1, size[sec]))
    means = {ch: sum(x) / len(x) for ch, x in chapter_best.items()}
    top_mean = max(means.values(), default=1.0) or 1.0

    def strength(i: int) -> float:
        return means.get(_chapter(src[i]), 0.0) / top_mean

    def prior(i: int, d: int) -> float:
        sec = _section_of(src[i])
        tied = min(1.0, anchors[sec][_section_of(tgt[d])] / max(1, size[sec]) / p["anchor_density"])
        return (p["untied"] + (1 - p["untied"]) * tied) * strength(i)

    return prior, anchors, strength


def _title_ties(mt: EditionMatcher, title_min: float) -> list[tuple[str, str]]:
    """(source section, target section) pairs whose titles are alike (cosine of title bags)."""
    def sections(views, lemma_lists):
        return [(v.norm, b) for v, b in zip(views, lemma_lists) if v.level == "section" and v.title and b]

    vec = mt.vec
    s_titles = sections(mt.src, [vec.bag(vec.content(lemmas_mod.lemmatize(rewrite(v.title or "", mt.terms),
                                                                          vec.lang).split())) for v in mt.src])
    t_titles = sections(mt.tgt, [vec.bag(vec.content(v.lemmas)) for v in mt.tgt])
    if not s_titles or not t_titles:
        return []
    index = LexicalIndex([b for _, b in t_titles])
    return [(norm, t_titles[k][0]) for norm, bag in s_titles
            for score, k in index.search(bag, 5, max_df=1.0) if score >= title_min]


def _choose(mt: EditionMatcher, cand: list[dict[int, float]], prior, p: dict):
    """Best target above the threshold, then split targets that explain what it leaves unexplained."""
    chosen: dict[int, list[int]] = {}
    scores: dict[tuple[int, int], float] = {}
    for i in range(len(mt.src)):
        ranked = sorted(((s * prior(i, d), d) for d, s in cand[i].items()), reverse=True)
        for s, d in ranked:
            scores[i, d] = s
        if not ranked or ranked[0][0] < p["threshold"]:
            chosen[i] = []
            continue
        top, d0 = ranked[0]
        picked = [d0]
        covered = Counter(mt.t_bags[d0])
        base = mt.explained(i, covered)
        for _ in range(3):
            gains = [(mt.explained(i, covered + mt.t_bags[d]) - base, s2, d) for s2, d in ranked[1:]
                     if d not in picked and s2 >= p["threshold"]]
            if not gains:
                break
            gain, s2, d = max(gains)
            if gain < p["split_gain"] and s2 < p["split_ratio"] * top:
                break
            picked.append(d)
            covered += mt.t_bags[d]
            base += max(gain, 0.0)
        chosen[i] = picked
    return chosen, scores


def _group(indexes, key) -> dict:
    out: dict = defaultdict(list)
    for i in indexes:
        k = key(i)
        if k:
            out[k].append(i)
    return out


def _fill_gaps(src: list[RuleView], tgt: list[RuleView], chosen: dict[int, list[int]],
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


def _map_headings(src: list[RuleView], tgt: list[RuleView], chosen: dict[int, list[int]], has_text: list[bool],
                  p: dict, vec: Vectoriser, terms, strong) -> None:
    """Headings take the target nodes that cover their descendants' targets (in place).

    The deepest target node whose subtree holds ``heading_cover`` of the links is the
    counterpart; if the links spread, every target section holding ``heading_share`` of them is
    (a split).  A heading whose descendants found nothing keeps a counterpart only for an
    identical title, and only in a chapter that ``strong(i)`` says has counterparts at all.
    """
    cover_min, share = p["heading_cover"], p["heading_share"]
    t_index = {v.norm: d for d, v in enumerate(tgt) if v.norm}
    s_index = {v.norm: i for i, v in enumerate(src) if v.norm}
    titles: dict[tuple, int] = {}
    for d, t in enumerate(tgt):
        if not t.text.strip() and t.title:
            titles.setdefault((t.level, tuple(vec.content(t.lemmas))), d)
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
            cover: Counter = Counter()
            for d in targets:
                for anc in _ancestors(tgt[d].norm):
                    if anc in t_index and tgt[t_index[anc]].level != "chapter":
                        cover[anc] += 1
            deep = [n for n, c in cover.items() if c >= cover_min * len(targets)]
            if deep and not (v.level == "section" and tgt[t_index[max(deep, key=len)]].level != "section"):
                picked = [t_index[max(deep, key=len)]]
            else:
                picked = [t_index[n] for n, c in sorted(cover.items()) if tgt[t_index[n]].level == "section"
                          and c >= share * len(targets)]
        if not picked and v.title and strong(h):
            title = tuple(vec.content(lemmas_mod.lemmatize(rewrite(v.title, terms), vec.lang).split()))
            d = titles.get((v.level, title))
            picked = [d] if title and d is not None else []
        chosen[h] = picked


# --------------------------------------------------------------------------- items → rules


def align_items(items: list[RuleView], rules: list[RuleView], terms: list[tuple[str, str]] | None = None, *,
                threshold: float = 0.12, method: str = "item-lex") -> list[Link]:
    """Link items (article steps and examples, FAQ bullets) to the rules they explain.

    Each item takes the rule with the most similar lemmas (words and character 4-grams, old
    terminology rewritten).  A run of consecutive ``step`` items is a step list in rule order,
    so it is aligned with a monotone dynamic program (a step may share its rule with the next).
    """
    if not items or not rules:
        return [Link(v, None, 0.0, "no counterpart", method, {}) for v in items]
    lang = rules[0].lang
    terms = terms or []
    i_lem = lemmas_mod.lemmatize_many([rewrite(f"{v.title or ''} {v.text}", terms) for v in items], lang)
    vec = Vectoriser(lang, {w for x in i_lem for w in x.split()} | {w for v in rules for w in v.lemmas})
    index = LexicalIndex([vec.bag(vec.content(v.lemmas)) for v in rules])
    qs = [index.vector(vec.bag(vec.content(x.split()))) for x in i_lem]
    sims = [[index.dot(q, k) for k in range(len(rules))] for q in qs]
    choice: dict[int, int] = {}
    k = 0
    while k < len(items):
        if items[k].kind != "step":
            best = max(range(len(rules)), key=lambda r: sims[k][r])
            choice[k] = best
            k += 1
            continue
        end = k
        while end < len(items) and items[end].kind == "step":
            end += 1
        for offset, r in enumerate(_monotone(sims[k:end])):
            choice[k + offset] = r
        k = end
    links = []
    for k, v in enumerate(items):
        r = choice[k]
        s = sims[k][r]
        if s < (threshold if v.kind != "step" else 1e-9):
            links.append(Link(v, None, round(s, 3), "no counterpart", method, {}))
        else:
            links.append(Link(v, rules[r], round(s, 3), "equivalent", method, {"lexical": round(s, 3)}))
    return links


def _monotone(sims: list[list[float]]) -> list[int]:
    """Targets for a run of rows with non-decreasing target index maximising the summed similarity."""
    n, m = len(sims), len(sims[0])
    best = [row[:] for row in sims]
    back = [[0] * m for _ in range(n)]
    for i in range(1, n):
        run, arg = float("-inf"), 0
        for j in range(m):
            if best[i - 1][j] > run:
                run, arg = best[i - 1][j], j
            best[i][j] = sims[i][j] + run
            back[i][j] = arg
    j = max(range(m), key=lambda x: best[-1][x])
    out = [j]
    for i in range(n - 1, 0, -1):
        j = back[i][j]
        out.append(j)
    return out[::-1]


# --------------------------------------------------------------------------- the KB's alignments

#: (source edition, target edition, kind) of every alignment the build computes
PAIRS = (
    ("it-wiki", "de-2024", "cross-language"),
    ("de-1999", "de-2024", "cross-edition"),
    ("en-morph-2007", "de-morph-2007", "cross-language"),
    ("de-article-2009", "de-2024", "items"),
    ("de-morph-2007", "de-morph-2007", "faq"),
    ("en-morph-2007", "en-morph-2007", "faq"),
    ("en-morph-2007", "de-morph-2007", "faq-translation"),
)


def run_all(db) -> dict[tuple[str, str, str], list[Link]]:
    """Compute every alignment of the KB (pairs whose editions are missing are skipped)."""
    present = {r["id"] for r in db.query("select id from editions")}
    terms = load_terminology() if TERMINOLOGY.exists() else []
    out = {}
    for src_ed, tgt_ed, kind in PAIRS:
        if src_ed not in present or tgt_ed not in present:
            continue
        if kind == "cross-language":
            out[src_ed, tgt_ed, kind] = align_cross_language(views_from_db(db, src_ed), views_from_db(db, tgt_ed))
        elif kind == "cross-edition":
            out[src_ed, tgt_ed, kind] = align_cross_edition(views_from_db(db, src_ed), views_from_db(db, tgt_ed),
                                                            terms)
        elif kind == "items":
            items = items_from_db(db, src_ed, ("step", "example", "paragraph"))
            out[src_ed, tgt_ed, kind] = align_items(items, _cited_subtree(db, src_ed, tgt_ed), terms,
                                                    method="item-lex")
        elif kind == "faq":
            rules = [v for v in views_from_db(db, tgt_ed) if v.level in ("rule", "subrule")]
            out[src_ed, tgt_ed, kind] = align_items(items_from_db(db, src_ed, ("faq",)), rules, terms,
                                                    method="faq-lex")
        elif kind == "faq-translation":
            out[src_ed, tgt_ed, kind] = align_cross_language(items_from_db(db, src_ed, ("faq",)),
                                                             items_from_db(db, tgt_ed, ("faq",)),
                                                             method="xlang-dp-items")
    return out


def _cited_subtree(db, src_ed: str, tgt_ed: str) -> list[RuleView]:
    """Rules of ``tgt_ed`` under the numbers ``src_ed`` cites (the article cites 601); all rules if none."""
    rules = views_from_db(db, tgt_ed)
    cited = {r["target"] for r in db.query("select distinct target from refs where edition_id = ?", [src_ed])}
    inside = [v for v in rules if v.level in ("rule", "subrule") and any(
        v.norm == c or v.norm.startswith(c + ".") or (len(c) > 3 and v.norm.startswith(c)) for c in cited)]
    return inside or rules


def assign_concepts(links: list[Link], anchor_editions: tuple[str, ...] = ("de-2024",)) -> dict[str, str]:
    """Concept anchor key for every rule key: rules joined by their best link share one concept.

    A rule's best link (highest score) joins it to its target's concept; secondary targets of a
    split stay separate concepts (the alignment rows keep them).  The anchor of a concept is its
    member in one of ``anchor_editions`` if any, else its earliest target.
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    best: dict[str, Link] = {}
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
        a, b = find(link.source.key), find(link.target.key)
        if a != b:
            # the target side stays the root, so anchors are targets
            parent[a] = b
    groups: dict[str, list[str]] = defaultdict(list)
    for key in parent:
        groups[find(key)].append(key)
    out = {}
    for root, members in groups.items():
        anchored = [k for k in members if edition_of.get(k) in anchor_editions]
        anchor = anchored[0] if anchored else root
        for k in members:
            out[k] = anchor
    return out


# --------------------------------------------------------------------------- storing in the KB

#: Datasette canned queries over the stored alignments (kb/serve.py merges them into its metadata)
CANNED_QUERIES = {
    "rule_across_editions": {
        "title": "A rule across editions",
        "description": "Give a number and an edition (e.g. 601.2c and it-wiki, or 409.2c and de-1999): every "
                       "aligned version of that rule side by side, with score and relation.",
        "sql": """with q as (select id, concept_id from rules
                   where edition_id = :edition and norm = trim(:number, '. ')),
members as (
  select r.id from rules r join q on r.concept_id = q.concept_id
  union select a.target_rule_id from alignments a join q on a.source_rule_id = q.id where a.target_rule_id is not null
  union select a.source_rule_id from alignments a join q on a.target_rule_id = q.id where a.source_rule_id is not null
  union select q.id from q
)
select r.edition_id, e.language, e.date, r.number, r.title, r.text,
  (select group_concat(a.relation || ' ' || printf('%.2f', a.score) || ' ' || a.method, '; ') from alignments a
    where (a.source_rule_id = r.id and a.target_rule_id in (select id from members))
       or (a.target_rule_id = r.id and a.source_rule_id in (select id from members))) as alignment,
  r.concept_id, r.key
from members m join rules r on r.id = m.id join editions e on e.id = r.edition_id
order by e.date desc, r.edition_id, r.seq""",
    },
    "rules_without_counterpart": {
        "title": "Rules without counterpart",
        "description": "Rules the aligners found no counterpart for, per edition pair (optionally one :edition).",
        "sql": """select a.pair, r.edition_id, r.number, r.title, r.text, r.key
from alignments a join rules r on r.id = a.source_rule_id
where a.relation = 'no counterpart' and (:edition = '' or a.source_edition = :edition)
order by a.pair, r.seq""",
    },
    "target_rules_without_counterpart": {
        "title": "Newer rules nothing older aligns to",
        "description": "Rules of a target edition (e.g. de-2024) that no rule of :source_edition aligns to.",
        "sql": """select r.edition_id, r.number, r.title, r.text, r.key from rules r
where r.edition_id = (select distinct target_edition from alignments where source_edition = :source_edition
                      and source_rule_id is not null limit 1)
  and r.id not in (select target_rule_id from alignments where source_edition = :source_edition
                   and target_rule_id is not null)
order by r.seq""",
    },
}

#: Datasette table metadata for the tables :func:`store` writes
TABLE_METADATA = {
    "alignments": {
        "description": "One row per aligned pair: source and target rule (or item), score, relation (equivalent, "
                       "reworded, renumbered, split, merged, no counterpart), method and the evidence used (JSON).",
        "facets": ["pair", "relation", "method"], "sort_desc": "score",
    },
    "concepts": {
        "description": "Stable rule identity: aligned versions of a rule share a concept id, separate from the "
                       "printed numbers (like Akoma Ntoso's wId beside eId). Anchored on the German 2024 rule.",
    },
}


def store(db, progress=None) -> dict[str, int]:
    """Compute every alignment of the KB and write ``concepts``, ``alignments`` and ``rules.concept_id``.

    ``db`` is a ``sqlite_utils.Database`` whose ``rules``, ``items`` and ``refs`` are written.
    Returns row counts per edition pair.
    """
    runs = run_all(db)
    for name in ("alignments", "concepts"):
        if name in db.table_names():
            db[name].drop()
    all_links = [link for links in runs.values() for link in links]
    concept_of = assign_concepts([lk for lk in all_links if lk.method.startswith(("xlang-dp", "xedition"))])
    rule_ids = {r["key"]: r["id"] for r in db.query("select id, key from rules")}
    # every rule gets a concept: anchors first, then singletons
    anchors = sorted(set(concept_of.values()), key=lambda k: rule_ids.get(k, 0))
    for key in rule_ids:
        if key not in concept_of:
            concept_of[key] = key
            anchors.append(key)
    concept_id = {anchor: n for n, anchor in enumerate(dict.fromkeys(anchors), 1)}
    info = {r["id"]: r for r in db.query("select id, key, edition_id, number, title, text from rules")}
    members: dict[str, set] = defaultdict(set)
    for key, anchor in concept_of.items():
        members[anchor].add(key.split("/")[0])
    db["concepts"].insert_all(({
        "id": cid, "label": _label(info[rule_ids[anchor]]), "anchor_rule_id": rule_ids[anchor],
        "editions": ", ".join(sorted(members[anchor])),
    } for anchor, cid in concept_id.items()), pk="id", foreign_keys=[("anchor_rule_id", "rules", "id")])
    db["alignments"].create({
        "id": int, "pair": str, "source_edition": str, "target_edition": str, "source_rule_id": int,
        "source_item_id": int, "target_rule_id": int, "target_item_id": int, "source_number": str,
        "target_number": str, "score": float, "relation": str, "method": str, "evidence": str,
    }, pk="id", foreign_keys=[("source_rule_id", "rules", "id"), ("target_rule_id", "rules", "id"),
                              ("source_item_id", "items", "id"), ("target_item_id", "items", "id")])
    rows, counts = [], Counter()
    for (src_ed, tgt_ed, _kind), links in runs.items():
        for link in links:
            s, t = link.source, link.target
            rows.append({
                "id": len(rows) + 1, "pair": f"{src_ed} → {tgt_ed}", "source_edition": src_ed, "target_edition": tgt_ed,
                "source_rule_id": s.id if s.kind == "rule" else None,
                "source_item_id": s.id if s.kind != "rule" else None,
                "target_rule_id": t.id if t is not None and t.kind == "rule" else None,
                "target_item_id": t.id if t is not None and t.kind != "rule" else None,
                "source_number": s.norm or s.key.split("/")[-1], "target_number": (t.norm or t.key.split("/")[-1])
                if t is not None else None, "score": link.score, "relation": link.relation,
                "method": link.method, "evidence": json.dumps(link.evidence, ensure_ascii=False, sort_keys=True),
            })
            counts[f"{src_ed} → {tgt_ed}"] += 1
    db["alignments"].insert_all(rows)
    for cols in (["source_rule_id"], ["target_rule_id"], ["source_item_id"], ["pair", "relation"]):
        db["alignments"].create_index(cols)
    if "concept_id" not in db["rules"].columns_dict:
        db["rules"].add_column("concept_id", int)
    with db.conn:
        db.conn.executemany("update rules set concept_id = ? where id = ?",
                            [(concept_id[concept_of[k]], rid) for k, rid in rule_ids.items()])
    if not any(fk.column == "concept_id" for fk in db["rules"].foreign_keys):
        db["rules"].add_foreign_key("concept_id", "concepts", "id")
    db["rules"].create_index(["concept_id"], if_not_exists=True)
    _create_views(db)
    if progress:
        progress(", ".join(f"{k}: {v}" for k, v in counts.items()))
    return dict(counts)


def _label(rule: dict) -> str:
    words = (rule.get("title") or rule.get("text") or "").split()
    head = " ".join(words[:8]) + (" …" if len(words) > 8 else "")
    return f"{rule['edition_id']} {rule['number']}: {head}".strip()


def _create_views(db) -> None:
    """SQL views that work in plain Datasette too (filter them by column: ?query_number=601.2c)."""
    db.execute("drop view if exists aligned_versions")
    db.execute("""create view aligned_versions as
select q.edition_id as query_edition, q.norm as query_number, r.edition_id as edition, r.number, r.text,
  a.relation, a.score, a.method, r.concept_id, r.key
from rules q join rules r on r.concept_id = q.concept_id
left join alignments a on (a.source_rule_id = r.id and a.target_rule_id = q.id)
                       or (a.source_rule_id = q.id and a.target_rule_id = r.id)""")
    db.execute("drop view if exists no_counterpart")
    db.execute("""create view no_counterpart as
select a.pair, r.edition_id, r.number, r.title, r.text, r.key from alignments a
join rules r on r.id = a.source_rule_id where a.relation = 'no counterpart'""")
