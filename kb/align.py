"""Align rules across languages and editions; give aligned rule versions one concept id.

Two aligners, both pure functions from lists of :class:`RuleView` to lists of :class:`Link`:

* :func:`align_cross_language` — same numbering scheme, different languages (Italian wiki ↔
  German 2024, English ↔ German Morph excerpt).  Numbers are evidence, not proof: a banded,
  monotone dynamic program (Gale–Church / Bertalign style, moves 1–1, 1–0, 0–1, 2–1, 1–2)
  scores pairs by evidence that survives translation — a translation lexicon learnt from the
  documents themselves, cross-reference targets, digits, shared tokens (card names, keywords),
  symbols, length ratio — and the number only as one weak feature.  A repair pass then finds
  what a monotone path cannot express: swapped rules, duplicates and misplaced rules.
* :func:`align_cross_edition` — same language, different numbering (German 1999 → 2024).
  Candidates come from an inverted lemma index (blocking, never all pairs); similarity is
  TF-IDF over lemmas after rewriting old terminology (``data/terminology.tsv``), plus
  character n-grams for German compounds, matched examples and learnt section/chapter
  priors; sentences of a source rule find their own targets, which yields 1→n splits, and
  several sources choosing one target yield n→1 merges.  Below a threshold: no counterpart.

:func:`store` runs every alignment of the KB and writes ``concepts`` and ``alignments``
and ``rules.concept_id`` (concept = the German 2024 rule a version aligns to, like
Akoma Ntoso's wId beside the printed eId).  Rule texts never appear in this code: every
word list comes from the documents or from ``data/``.
"""
from __future__ import annotations

import bisect
import csv
import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
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

    def similarity(self, a: frozenset, b: frozenset) -> float | None:
        """Share of translatable words of each side whose translation occurs on the other side."""
        scores = []
        for words, other, table in ((a, b, self.fwd), (b, a, self.bwd)):
            known = [w for w in words if w in table]
            if not known:
                continue
            hit = sum(max((d for t, d in table[w].items() if t in other), default=0.0) > 0 for w in known)
            scores.append(hit / len(known))
        return sum(scores) / len(scores) if scores else None


# --------------------------------------------------------------------------- cross-language aligner

#: weights of the evidence in the cross-language score; missing evidence is left out of the average
XLANG_WEIGHTS = {"lexicon": 0.40, "number": 0.12, "refs": 0.14, "digits": 0.06, "symbols": 0.05,
                 "tokens": 0.10, "length": 0.13}


class PairScorer:
    """Scores source/target pairs of two editions that share a numbering scheme."""

    def __init__(self, src: list[RuleView], tgt: list[RuleView], lexicon_pairs: int = 400):
        self.src, self.tgt = src, tgt
        self.fs = [features(v) for v in src]
        self.ft = [features(v) for v in tgt]
        by_norm = {v.norm: j for j, v in enumerate(tgt) if v.norm}
        anchors = [(i, by_norm[v.norm]) for i, v in enumerate(src) if v.norm in by_norm]
        step = max(1, len(anchors) // lexicon_pairs)
        sample = anchors[::step]
        self.lexicon = Lexicon([(self.fs[i].content, self.ft[j].content) for i, j in sample])
        ratios = sorted(self.ft[j].length / self.fs[i].length for i, j in sample
                        if self.fs[i].length > 20 and self.ft[j].length > 20)
        self.c = ratios[len(ratios) // 2] if ratios else 1.0
        self.s2 = 6.8 * self.c
        self.cache: dict = {}

    def feat(self, side: str, idx: tuple[int, ...]) -> Feat:
        base = self.fs if side == "s" else self.ft
        return base[idx[0]] if len(idx) == 1 else merge_feats([base[i] for i in idx])

    def score(self, si: tuple[int, ...], tj: tuple[int, ...]) -> tuple[float, dict]:
        key = (si, tj)
        if key in self.cache:
            return self.cache[key]
        a, b = self.feat("s", si), self.feat("t", tj)
        sv, tv = self.src[si[0]], self.tgt[tj[0]]
        ev = {
            "lexicon": self.lexicon.similarity(a.content, b.content),
            "number": max(number_affinity(self.src[i].norm, self.tgt[j].norm) for i in si for j in tj),
            "refs": _ref_agreement(a.refs, b.refs),
            "digits": _jaccard(a.digits, b.digits),
            "symbols": _jaccard(a.symbols, b.symbols),
            "tokens": _overlap(a.tokens, b.tokens) if a.tokens and b.tokens else None,
            "length": _gale_church(a.length, b.length, self.c, self.s2),
        }
        num = den = 0.0
        for name, w in XLANG_WEIGHTS.items():
            if ev[name] is not None:
                num += w * ev[name]
                den += w
        s = num / den if den else 0.0
        if sv.level != tv.level:
            s *= 0.5
        result = (s, {k: round(v, 3) for k, v in ev.items() if v is not None})
        self.cache[key] = result
        return result


def _expected_positions(src: list[RuleView], tgt: list[RuleView]) -> list[float]:
    """For every source index, where its counterpart should be: interpolated between equal numbers."""
    by_norm: dict[str, int] = {}
    for j, v in enumerate(tgt):
        by_norm.setdefault(v.norm, j)
    anchors = [(i, by_norm[v.norm]) for i, v in enumerate(src) if v.norm in by_norm]
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


def align_cross_language(src: list[RuleView], tgt: list[RuleView], *, band: int = 12, threshold: float = 0.38,
                         many_penalty: float = 0.06, method: str = "xlang-dp") -> list[Link]:
    """Align two editions with the same numbering scheme (in document order)."""
    if not src:
        return []
    sc = PairScorer(src, tgt)
    expected = _expected_positions(src, tgt)
    n, m = len(src), len(tgt)

    def window(i: int, width: int) -> range:
        e = int(round(expected[i])) if i < n else m
        return range(max(0, e - width), min(m, e + width + 1))

    # --- banded monotone DP: best[(i, j)] = best total for the first i sources and j targets
    best: dict[tuple[int, int], tuple[float, tuple | None]] = {(0, 0): (0.0, None)}

    moves = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2))
    lo, hi = [0] * (n + 1), [0] * (n + 1)
    for i in range(n + 1):
        e = expected[min(i, n - 1)] + (1 if i == n else 0)
        lo[i] = 0 if i == 0 else max(0, min(int(e) - band - 2, hi[i - 1]))
        hi[i] = m if i == n else max(lo[i], min(m, int(e) + band + 3))
    for i in range(n + 1):
        for j in range(lo[i], hi[i] + 1):
            if (i, j) == (0, 0):
                continue
            cand = None
            for di, dj in moves:
                pi, pj = i - di, j - dj
                if pi < 0 or pj < 0 or (pi, pj) not in best:
                    continue
                if di and dj:
                    s, _ = sc.score(tuple(range(pi, i)), tuple(range(pj, j)))
                    gain = s - threshold - (many_penalty if di + dj > 2 else 0.0)
                else:
                    gain = 0.0
                total = best[pi, pj][0] + gain
                if cand is None or total > cand[0]:
                    cand = (total, (pi, pj))
            if cand is not None:
                best[i, j] = cand
    if (n, m) not in best:  # band too narrow for the tail: close with skips
        best[n, m] = (float("-inf"), None)
    # --- trace back
    assigned: dict[int, list[int]] = defaultdict(list)   # source -> targets
    cell, steps = (n, m), []
    while cell != (0, 0) and best[cell][1] is not None:
        prev = best[cell][1]
        steps.append((prev, cell))
        cell = prev
    for (pi, pj), (i, j) in steps:
        if i - pi and j - pj:
            for a in range(pi, i):
                assigned[a].extend(range(pj, j))

    # --- repair: what a monotone path cannot express (swaps, duplicates, misplaced rules)
    pair_score = {}
    for a, ts in assigned.items():
        for t in ts:
            pair_score[a, t] = sc.score((a,), (t,))[0]
    taken: dict[int, list[int]] = defaultdict(list)
    for a, ts in assigned.items():
        for t in ts:
            taken[t].append(a)
    for a in range(n):
        current = max((pair_score[a, t] for t in assigned.get(a, [])), default=0.0)
        if current >= 0.6:
            continue
        options = sorted(((sc.score((a,), (t,))[0], t) for t in window(a, band)), reverse=True)
        if not options:
            continue
        s, t = options[0]
        if s < max(threshold + 0.12, current + 0.1) or t in assigned.get(a, []):
            continue
        others = taken.get(t, [])
        other_best = max((pair_score[o, t] for o in others), default=0.0)
        if others and other_best >= s and s < 0.6:
            continue
        for old in assigned.get(a, []):
            taken[old].remove(a)
        assigned[a] = [t]
        pair_score[a, t] = s
        taken[t].append(a)
        # a weak former partner of t loses it when we are clearly better
        for o in list(taken[t]):
            if o != a and pair_score[o, t] + 0.1 < s and pair_score[o, t] < 0.5:
                assigned[o].remove(t)
                taken[t].remove(o)

    # --- rows
    links = []
    for a, v in enumerate(src):
        ts = sorted(set(assigned.get(a, [])))
        if not ts:
            links.append(Link(v, None, 0.0, "no counterpart", method, {}))
            continue
        for t in ts:
            s, ev = sc.score((a,), (t,))
            if len(ts) > 1:
                rel = "split"
            elif len(taken[t]) > 1:
                rel = "merged"
            elif v.norm == tgt[t].norm:
                rel = "reworded" if ev.get("length", 1.0) < 0.02 else "equivalent"
            else:
                rel = "renumbered"
            links.append(Link(v, tgt[t], round(s, 3), rel, method, ev))
    return links


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
    """TF-IDF vectors over lemmas and character 4-grams of lemmas, with an inverted index for blocking."""

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
        vec = {w: (1 + math.log(c)) * self.idf.get(w, math.log(1 + self.n) + 1) for w, c in tf.items()}
        norm = math.sqrt(sum(x * x for x in vec.values())) or 1.0
        return {w: x / norm for w, x in vec.items()}

    def search(self, tf: Counter, k: int, max_df: float = 0.2) -> list[tuple[float, int]]:
        """Top-k documents by cosine, reading only postings of words rarer than ``max_df``."""
        q = self.vector(tf)
        acc: dict[int, float] = defaultdict(float)
        limit = max(5, int(max_df * self.n))
        for w, x in q.items():
            post = self.postings.get(w)
            if post and len(post) <= limit:
                for d, y in post:
                    acc[d] += x * y
        return sorted(((s, d) for d, s in acc.items()), reverse=True)[:k]

    def cosine(self, tf: Counter, k: int) -> float:
        q = self.vector(tf)
        v = self.vecs[k]
        return sum(x * v.get(w, 0.0) for w, x in q.items())


def _grams(words, n: int = 4) -> Counter:
    out = Counter()
    for w in words:
        w = f"_{w}_"
        out.update(w[i:i + n] for i in range(max(1, len(w) - n + 1)))
    return out


def _sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENT.split(text) if p.strip()]
    return parts if len(parts) > 1 else []


def _section_of(v: RuleView) -> str:
    if not v.norm or not numbers.is_number(v.norm):
        return ""
    head = numbers.split(v.norm)[0]
    return str(head) if head >= 100 else ""


def align_cross_edition(src: list[RuleView], tgt: list[RuleView], terms: list[tuple[str, str]] | None = None, *,
                        candidates: int = 15, threshold: float = 0.30, split_ratio: float = 0.75,
                        sentence_threshold: float = 0.42, method: str = "xedition-lex") -> list[Link]:
    """Align an older edition to a newer one in the same language but another numbering."""
    if not src or not tgt:
        return [Link(v, None, 0.0, "no counterpart", method, {}) for v in src]
    lang = tgt[0].lang
    stop = stop_words(lang)
    terms = terms or []

    def content(words) -> list[str]:
        return [w for w in words if w not in stop and len(w) > 2]

    src_lemmas = lemmas_mod.lemmatize_many([rewrite(f"{v.title or ''} {v.text}", terms) for v in src], lang)
    s_words = [content(x.split()) for x in src_lemmas]
    t_words = [content(v.lemmas) for v in tgt]
    words_idx = LexicalIndex([Counter(w) for w in t_words])
    grams_idx = LexicalIndex([_grams(w) for w in t_words])
    ex_idx = LexicalIndex([Counter(content(v.examples.split())) for v in tgt])
    src_ex = [Counter(content(lemmas_mod.lemmatize(rewrite(v.examples, terms), lang).split())) if v.examples
              else Counter() for v in src]
    titles_t = [Counter(content(lemmas_mod.lemmatize(v.title or "", lang).split())) for v in tgt]

    def sim(words: list[str], k: int, ex: Counter | None = None) -> float:
        s = 0.5 * words_idx.cosine(Counter(words), k) + 0.5 * grams_idx.cosine(_grams(words), k)
        if ex and tgt[k].examples:
            s = 0.8 * s + 0.2 * ex_idx.cosine(ex, k)
        return s

    # blocking: candidates from the inverted indexes only
    cand: list[dict[int, float]] = []
    for i, words in enumerate(s_words):
        pool = {d for _, d in words_idx.search(Counter(words), candidates)}
        pool |= {d for _, d in grams_idx.search(_grams(words), candidates, max_df=0.1)}
        cand.append({d: sim(words, d, src_ex[i]) for d in pool})

    # learnt priors: which target section / chapter each source section feeds (sum of best matches)
    sec_aff: dict[str, Counter] = defaultdict(Counter)
    chap_aff: dict[int, Counter] = defaultdict(Counter)
    for i, c in enumerate(cand):
        if not c:
            continue
        d, s = max(c.items(), key=lambda x: x[1])
        sec_aff[_section_of(src[i])][_section_of(tgt[d])] += s
        chap_aff[_chapter(src[i])][_chapter(tgt[d])] += s
    src_per_chapter = Counter(_chapter(v) for v in src)

    def prior(i: int, d: int) -> float:
        sa = sec_aff.get(_section_of(src[i]))
        sp = sa[_section_of(tgt[d])] / max(sa.values()) if sa else 0.0
        ca = chap_aff.get(_chapter(src[i]))
        # a chapter whose rules find good matches only rarely is not a counterpart chapter
        cp = (ca[_chapter(tgt[d])] / max(1, src_per_chapter[_chapter(src[i])])) if ca else 0.0
        return 0.5 * sp + 0.5 * min(1.0, cp / 0.25)

    links: list[Link] = []
    chosen: dict[int, list[int]] = {}
    for i, v in enumerate(src):
        c = cand[i]
        scored = sorted(((s * (0.55 + 0.45 * prior(i, d)), d, s) for d, s in c.items()), reverse=True)
        if not scored or scored[0][0] < threshold:
            chosen[i] = []
            continue
        top, d0, _ = scored[0]
        picked = [d0]
        # split: each sentence finds its own best target among the candidates
        for sent in _sentences(rewrite(v.text, terms)):
            words = content(lemmas_mod.lemmatize(sent, lang).split())
            if len(words) < 3:
                continue
            ranked = sorted(((sim(words, d) * (0.55 + 0.45 * prior(i, d)), d) for d in c), reverse=True)
            if ranked and ranked[0][0] >= sentence_threshold and ranked[0][1] not in picked:
                d = ranked[0][1]
                whole = next(x for x in scored if x[1] == d)[0]
                if whole >= split_ratio * top * 0.6:
                    picked.append(d)
        for s, d, _ in scored[1:]:
            if s >= split_ratio * top and s >= threshold + 0.1 and d not in picked:
                picked.append(d)
        chosen[i] = picked

    # headings without text: match their title against section titles
    for i, v in enumerate(src):
        if v.text.strip() or not v.title or chosen[i]:
            continue
        words = Counter(content(lemmas_mod.lemmatize(rewrite(v.title, terms), lang).split()))
        best = max(((_cos(words, titles_t[d]), d) for d in range(len(tgt)) if titles_t[d]), default=(0.0, None))
        if best[0] >= 0.6:
            chosen[i] = [best[1]]

    incoming = Counter(d for ds in chosen.values() for d in ds)
    for i, v in enumerate(src):
        ds = chosen[i]
        if not ds:
            links.append(Link(v, None, 0.0, "no counterpart", method, {}))
            continue
        for d in ds:
            s = cand[i].get(d, 0.0)
            ev = {"lexical": round(s, 3), "prior": round(prior(i, d), 3)}
            if len(ds) > 1:
                rel = "split"
            elif incoming[d] > 1:
                rel = "merged"
            elif v.norm == tgt[d].norm:
                rel = "equivalent"
            else:
                rel = "renumbered" if s >= 0.6 else "reworded"
            links.append(Link(v, tgt[d], round(s * (0.55 + 0.45 * ev["prior"]), 3), rel, method, ev))
    return links


def _chapter(v: RuleView) -> int:
    return numbers.chapter(v.norm) if v.norm and numbers.is_number(v.norm) else -1


def _cos(a: Counter, b: Counter) -> float:
    num = sum(a[w] * b[w] for w in a.keys() & b.keys())
    den = math.sqrt(sum(x * x for x in a.values()) * sum(x * x for x in b.values()))
    return num / den if den else 0.0


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
    stop = stop_words(lang)
    terms = terms or []

    def content(words) -> list[str]:
        return [w for w in words if w not in stop and len(w) > 2]

    r_words = [content(v.lemmas) for v in rules]
    words_idx = LexicalIndex([Counter(w) for w in r_words])
    grams_idx = LexicalIndex([_grams(w) for w in r_words])
    i_words = [content(x.split()) for x in
               lemmas_mod.lemmatize_many([rewrite(f"{v.title or ''} {v.text}", terms) for v in items], lang)]
    sims = [[0.5 * words_idx.cosine(Counter(w), k) + 0.5 * grams_idx.cosine(_grams(w), k) for k in range(len(rules))]
            for w in i_words]
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
        if s < threshold:
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
