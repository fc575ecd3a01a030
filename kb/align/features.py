"""Evidence extracted from one rule view that survives translation: content lemmas, cited rule
numbers, digits, symbols, surface tokens, length; their agreement measures; sentence splitting;
and the translation lexicon learnt from likely-parallel rule pairs."""
from __future__ import annotations

import importlib.util
import itertools
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ingest import refs as refs_mod

from .numbering import _near_number
from .views import AlignRule

# --------------------------------------------------------------------------- features

_WORD = re.compile(r"[^\W\d_]{2,}")
_DIGITS = re.compile(r"(?<![\w.])\d+(?![\w.]*\d)")
_SYMBOL = re.compile(r"\{[^{}\s]{1,8}\}")
_SENT = re.compile(r"(?<=[.!?])[\"“”„»«)]*\s+(?=[A-ZÄÖÜ„\"(])")


@lru_cache(maxsize=None)
def stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of ``lang``, read from its word list without importing spaCy (a second)."""
    spec = importlib.util.find_spec("spacy")
    path = Path(spec.origin).parent / "lang" / lang / "stop_words.py" if spec and spec.origin else None
    if path is None or not path.is_file():
        return frozenset()
    names: dict = {}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), names)  # a set literal, no imports
    return frozenset(w.lower() for w in names.get("STOP_WORDS", ()))


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


def features(v: AlignRule, lemma_list: tuple[str, ...] | None = None) -> Feat:
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
    tf: Counter[str] = Counter()
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
        ca: Counter = Counter()
        cb: Counter = Counter()
        cab: Counter = Counter()
        for a, b in pairs:
            ca.update(a)
            cb.update(b)
            cab.update(itertools.product(a, b))
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
        # who reaches a word: the words whose translations include it
        self._inv: tuple[dict[str, set], dict[str, set]] = (defaultdict(set), defaultdict(set))
        for forward, table in ((True, self.fwd), (False, self.bwd)):
            for x, ys in table.items():
                for y in ys:
                    self._inv[not forward][y].add(x)
        self._cache: dict = {}

    def similarity(self, a: frozenset, b: frozenset) -> float | None:
        """Share of translatable words of each side whose translation occurs on the other side.

        Counted as set intersections: the translatable words of one side that the words of the other
        side reach (:meth:`_known`, :meth:`_reach`, both kept per word set)."""
        scores = []
        for known, reach in ((self._known(a, True), self._reach(b, True)),
                             (self._known(b, False), self._reach(a, False))):
            if known:
                scores.append(len(known & reach) / len(known))
        return sum(scores) / len(scores) if scores else None

    def _known(self, words: frozenset, forward: bool) -> frozenset:
        """The words that have translations (cached per word set)."""
        key = (words, forward, True)
        got = self._cache.get(key)
        if got is None:
            table = self.fwd if forward else self.bwd
            got = self._cache[key] = frozenset(w for w in words if w in table)
        return got

    def _reach(self, words: frozenset, forward: bool) -> frozenset:
        """The words of the other language whose translations (``forward``: source to target) include one
        of ``words`` (cached per word set)."""
        key = (words, forward, False)
        got = self._cache.get(key)
        if got is None:
            inv = self._inv[0] if forward else self._inv[1]
            got = self._cache[key] = frozenset().union(*(inv[w] for w in words if w in inv))
        return got


def sentences(text: str) -> list[str]:
    """The sentences of a text (one element for a single sentence, none for an empty text)."""
    return [p.strip() for p in _SENT.split(text) if p.strip()]
