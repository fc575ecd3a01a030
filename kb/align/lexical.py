"""Same-language lexical similarity: the terminology rewrite, TF-IDF vectors with an inverted index
(blocking), and bags of content lemmas with German compound heads and bigrams."""
from __future__ import annotations

import math
import operator
import re
from collections import Counter
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
        # postings sorted by word (in order of first use), each word's in document order
        ids: dict[str, int] = {}
        words: list[int] = []
        docs_of: list[int] = []
        weights: list[float] = []
        for k, vec in enumerate(self.vecs):
            words += [ids.setdefault(w, len(ids)) for w in vec]
            docs_of += [k] * len(vec)
            weights += vec.values()
        word = np.array(words, dtype=np.int64)
        order = np.argsort(word, kind="stable")
        self.p_doc = np.array(docs_of, dtype=np.int64)[order]
        self.p_weight = np.array(weights, dtype=np.float64)[order]
        ends = np.cumsum(np.bincount(word, minlength=len(ids))).tolist()
        self.span: dict[str, tuple[int, int]] = {w: (ends[t - 1] if t else 0, ends[t]) for w, t in ids.items()}

    def vector(self, tf: Counter) -> dict[str, float]:
        idf, unseen, log = self.idf, math.log(1 + self.n) + 1, math.log
        vec = {w: (1.0 + log(c) if c > 1 else 1.0) * idf.get(w, unseen) for w, c in tf.items() if c > 0}
        values = vec.values()
        norm = math.sqrt(sum(map(operator.mul, values, values))) or 1.0
        return {w: x / norm for w, x in vec.items()}

    def search(self, tf: Counter, k: int, max_df: float = 0.25, max_postings: int = 400,
               terms: int = 24) -> list[tuple[float, int]]:
        """Top-k documents by the dot product over the query's rarest words (blocking), best first
        (equal scores: the later document first).

        Only the ``terms`` highest-weighted words with postings no longer than ``max_postings``
        (and rarer than ``max_df``) are read, so a query costs the same in any collection size.
        """
        return self.search_many([tf], k, max_df, max_postings, terms)[0]

    #: queries x documents added up at once by :meth:`search_many` (memory: eight bytes each)
    BATCH_CELLS = 2_000_000

    def search_many(self, tfs: list[Counter], k: int, max_df: float = 0.25, max_postings: int = 400,
                    terms: int = 24) -> list[list[tuple[float, int]]]:
        """:meth:`search` for many queries: their postings are added up in batches (one ``bincount``
        over query x document cells), term by term in the same order as one query at a time."""
        limit = max(5, min(max_postings, int(max_df * self.n)))
        per = max(1, self.BATCH_CELLS // max(1, self.n))
        out: list[list[tuple[float, int]]] = []
        for lo in range(0, len(tfs), per):
            out += self._search_batch(tfs[lo:lo + per], k, limit, terms)
        return out

    def _search_batch(self, tfs: list[Counter], k: int, limit: int, terms: int) -> list[list[tuple[float, int]]]:
        rows, starts, ends, weights = [], [], [], []
        span_of = self.span
        for r, tf in enumerate(tfs):
            # the readable words, highest weight first (a stable sort: equal weights in the vector's order)
            read = [(span, x) for w, x in self.vector(tf).items()
                    if (span := span_of.get(w)) is not None and span[1] - span[0] <= limit]
            read.sort(key=operator.itemgetter(1), reverse=True)
            for (start, end), x in read[:terms]:
                rows.append(r)
                starts.append(start)
                ends.append(end)
                weights.append(x)
        if not rows:
            return [[] for _ in tfs]
        a, b = np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)
        lengths = b - a
        first = np.cumsum(lengths) - lengths
        pos = np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(a - first, lengths)
        cell = np.repeat(np.array(rows, dtype=np.int64) * self.n, lengths) + self.p_doc[pos]
        contrib = self.p_weight[pos] * np.repeat(np.array(weights), lengths)
        acc = np.bincount(cell, weights=contrib, minlength=len(tfs) * self.n).reshape(len(tfs), self.n)
        out = []
        for row in acc:
            hit = np.flatnonzero(row)   # every posting weighs more than nothing
            if len(hit) > 4 * k:        # only the k best and their equals can come first
                kth = np.partition(row[hit], len(hit) - k)[len(hit) - k]
                hit = hit[row[hit] >= kth]
            order = np.lexsort((hit, row[hit]))[::-1][:k]
            top = hit[order]
            out.append(list(zip(row[top].tolist(), top.tolist())))
        return out

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
        self._content: dict[str, str | None] = {}   # lemma -> its stem, None for a stop word (kept)

    def content(self, lemma_list) -> list[str]:
        known = self._content
        out = []
        for w in lemma_list:
            got = known.get(w, "")
            if got == "":
                got = known[w] = self.stem(w) if w not in self.stop and len(w) > 2 else None
            if got is not None:
                out.append(got)
        return out

    def stem(self, w: str) -> str:
        """Inflection the lemmatiser leaves (capitalised adjectives, unknown compounds): strip one ending."""
        if self.lang != "de":
            return w
        for suffix in ("em", "en", "er", "es", "e", "s", "n"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 4:
                return w[: -len(suffix)]
        return w

    def head(self, w: str) -> str | None:
        got = self._heads.get(w, "")
        if got == "":
            got = self._heads[w] = next((w[k:] for k in range(3, len(w) - 3) if w[k:] in self.vocab), None)
        return got

    def bag(self, words: list[str]) -> Counter:
        out = Counter(words)
        out.update(h for h in map(self.head, words) if h)
        out.update(f"{x}_{y}" for x, y in zip(words, words[1:]))
        return out
