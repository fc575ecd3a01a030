"""Same-language lexical similarity: the terminology rewrite, TF-IDF vectors with an inverted index
(blocking), and bags of content lemmas with German compound heads and bigrams."""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from pathlib import Path

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
    """TF-IDF vectors with an inverted index: cosine similarity and top-k search (blocking)."""

    def __init__(self, docs: list[Counter]):
        self.n = len(docs)
        df: Counter[str] = Counter()
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
