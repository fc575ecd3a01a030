"""Same-language lexical similarity: the terminology rewrite, TF-IDF vectors with an inverted index
(blocking), and bags of content lemmas with German compound heads and bigrams."""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from .. import terminology
from ..terminology import TERMINOLOGY
from .features import stop_words

# --------------------------------------------------------------------------- terminology


def load_terminology(path: Path = TERMINOLOGY, lang: str = "de") -> list[tuple[str, str]]:
    """(old, new) pairs of the curated table (:mod:`kb.terminology`), longest old term first."""
    return sorted(((t.old, t.new) for t in terminology.load(path, lang)), key=lambda r: -len(r[0]))


def rewrite(text: str, terms: list[tuple[str, str]]) -> str:
    """Replace old terms by new ones (case-insensitive, whole words)."""
    for old, new in terms:
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text, flags=re.IGNORECASE)
    return text


# --------------------------------------------------------------------------- cross-edition aligner


class LexicalIndex:
    """TF-IDF vectors with an inverted index: cosine similarity and top-k search (blocking).

    The postings are two flat arrays (document, weight) sorted by word, so a search adds up the
    postings of its words with one ``numpy.bincount`` instead of a loop over them in Python; the
    sums are the same, term by term in the same order."""

    def __init__(self, docs: list[Counter]):
        self.n = len(docs)
        df: Counter[str] = Counter()
        for d in docs:
            df.update(d.keys())
        self.idf = {w: math.log((1 + self.n) / (1 + c)) + 1 for w, c in df.items()}
        self.vecs = [self.vector(d) for d in docs]
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for k, vec in enumerate(self.vecs):
            for w, x in vec.items():
                postings[w].append((k, x))
        self.span: dict[str, tuple[int, int]] = {}
        flat: list[tuple[int, float]] = []
        for w, post in postings.items():
            self.span[w] = (len(flat), len(flat) + len(post))
            flat += post
        self.p_doc = np.array([d for d, _ in flat], dtype=np.int64)
        self.p_weight = np.array([x for _, x in flat], dtype=np.float64)

    def vector(self, tf: Counter) -> dict[str, float]:
        idf, unseen = self.idf, math.log(1 + self.n) + 1
        vec = {w: (1.0 + (math.log(c) if c > 1 else 0.0)) * idf.get(w, unseen) for w, c in tf.items() if c > 0}
        norm = math.sqrt(sum(x * x for x in vec.values())) or 1.0
        return {w: x / norm for w, x in vec.items()}

    def search(self, tf: Counter, k: int, max_df: float = 0.25, max_postings: int = 400,
               terms: int = 24) -> list[tuple[float, int]]:
        """Top-k documents by the dot product over the query's rarest words (blocking), best first
        (equal scores: the later document first).

        Only the ``terms`` highest-weighted words with postings no longer than ``max_postings``
        (and rarer than ``max_df``) are read, so a query costs the same in any collection size.
        """
        q = self.vector(tf)
        limit = max(5, min(max_postings, int(max_df * self.n)))
        spans, weights = [], []
        for w, x in sorted(q.items(), key=lambda wx: -wx[1]):
            span = self.span.get(w)
            if span is None or span[1] - span[0] > limit:
                continue
            spans.append(span)
            weights.append(x)
            if len(spans) >= terms:
                break
        if not spans:
            return []
        docs = np.concatenate([self.p_doc[a:b] for a, b in spans])
        contrib = np.concatenate([self.p_weight[a:b] * x for (a, b), x in zip(spans, weights)])
        acc = np.bincount(docs, weights=contrib, minlength=self.n)
        hit = np.flatnonzero(acc)   # every posting weighs more than nothing
        order = np.lexsort((hit, acc[hit]))[::-1][:k]
        top = hit[order]
        return list(zip(acc[top].tolist(), top.tolist()))

    def dots(self, q: dict[str, float]) -> np.ndarray:
        """Cosine of an already weighted query vector (:meth:`vector`) with every document."""
        spans = [(self.span[w], x) for w, x in q.items() if w in self.span]
        if not spans:
            return np.zeros(self.n)
        docs = np.concatenate([self.p_doc[a:b] for (a, b), _ in spans])
        contrib = np.concatenate([self.p_weight[a:b] * x for (a, b), x in spans])
        return np.bincount(docs, weights=contrib, minlength=self.n)

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
