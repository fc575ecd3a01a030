"""Words and lemmas of a view without lemmatising again: the KB's stored lemmas, cut at sentence
boundaries, with the terminology rewrite applied word by word.

The build lemmatises every text once (spaCy's tokenizer and simplemma, :mod:`kb.lemmas`): one lemma
per run of letters, title first.  The same runs of letters found by a regular expression line up
with those lemmas one to one (spaCy's tokenizer only splits at the edges of letter runs, but for a
few contractions), so the words of each sentence and of the rewritten old terms are found on the
surface text while their lemmas come from the KB.  A view whose words and lemmas do not line up
(a symbol spelt as a word, a contraction) takes its lemmas from what the other views teach
(:class:`LemmaMap`: the lemmatiser maps a word to its lemma whatever its context).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import lemmas as lemmas_mod
from .features import _SENT
from .views import AlignRule

#: a word as the build's lemmatiser sees it (:data:`kb.lemmas._WORD`)
WORD = re.compile(r"[^\W\d_]{2,}")

#: a word: (surface form lower-cased, lemma)
Token = tuple[str, str]


class LemmaMap:
    """Surface word -> lemma, learnt (on first use) from views whose words and stored lemmas line up."""

    def __init__(self, views: list[AlignRule]):
        self.views = views
        self._exact: dict[str, str] | None = None
        self._lower: dict[str, str] = {}

    def _learn(self) -> dict[str, str]:
        # the lemmatiser gives a word the same lemma wherever it stands: the first view that shows it will do
        exact: dict[str, str] = {}
        for v in self.views:
            words = WORD.findall(f"{v.title or ''} {v.text}")
            if len(words) == len(v.lemmas):
                for w, lem in zip(words, v.lemmas):
                    exact.setdefault(w, lem)
        for w, lem in exact.items():
            self._lower.setdefault(w.lower(), lem)
        return exact

    def lemma(self, word: str) -> str:
        """The lemma of a surface word (its lower-cased form when no view taught it)."""
        if self._exact is None:
            self._exact = self._learn()
        got = self._exact.get(word)
        if got is None:
            got = self._lower.get(word.lower(), word.lower())
        return got


@dataclass(frozen=True)
class ViewTokens:
    """A view's title words and its text's words sentence by sentence, each as (surface, lemma)."""

    title: tuple[Token, ...]
    sentences: tuple[tuple[Token, ...], ...]
    texts: tuple[str, ...]          # the sentences as printed

    @property
    def words(self) -> list[Token]:
        return [*self.title, *(t for s in self.sentences for t in s)]


def _split(v: AlignRule, lm: LemmaMap) -> tuple[list[str], list[str], list[list[str]], list[str]]:
    """Title words, sentences as printed, their words, and the lemmas of all words (title first)."""
    title_words = WORD.findall(v.title or "")
    texts = [p.strip() for p in _SENT.split(v.text) if p.strip()]
    sent_words = [WORD.findall(s) for s in texts]
    n = len(title_words) + sum(len(s) for s in sent_words)
    if n == len(v.lemmas):
        lem = list(v.lemmas)
    elif not v.lemmas and n:
        # a view made without lemmas (synthetic input): lemmatise it here
        lem = lemmas_mod.lemmatize(f"{v.title or ''} {v.text}", v.lang).split()
        if len(lem) != n:
            lem = [lm.lemma(w) for ws in (title_words, *sent_words) for w in ws]
    else:
        lem = [lm.lemma(w) for ws in (title_words, *sent_words) for w in ws]
    return title_words, texts, sent_words, lem


def tokens(v: AlignRule, lm: LemmaMap) -> ViewTokens:
    """Title and sentences of a view with the lemmas stored in the KB (see the module doc)."""
    title_words, texts, sent_words, lem = _split(v, lm)
    pos = len(title_words)
    title = tuple(zip((w.lower() for w in title_words), lem[:pos]))
    sents = []
    for ws in sent_words:
        sents.append(tuple(zip((w.lower() for w in ws), lem[pos:pos + len(ws)])))
        pos += len(ws)
    return ViewTokens(title, tuple(sents), tuple(texts))


def sentence_lemmas(v: AlignRule, lm: LemmaMap) -> list[list[str]]:
    """The lemmas of each sentence of a view's text (what :func:`tokens` gives, without the surface words)."""
    title_words, _, sent_words, lem = _split(v, lm)
    pos, out = len(title_words), []
    for ws in sent_words:
        out.append(lem[pos:pos + len(ws)])
        pos += len(ws)
    return out


class Rewriter:
    """The terminology rewrite (:func:`kb.align.lexical.rewrite`) word by word: an old term's words
    (case-insensitive, in a row) become the new term's words with their lemmas."""

    def __init__(self, terms: list[tuple[str, str]], lm: LemmaMap):
        self.rules: list[tuple[tuple[str, ...], tuple[Token, ...]]] = []
        for old, new in terms:
            words = tuple(w.lower() for w in WORD.findall(old))
            if words:
                self.rules.append((words, tuple((w.lower(), lm.lemma(w)) for w in WORD.findall(new))))

    def __call__(self, toks) -> list[Token]:
        out = list(toks)
        if not self.rules or not out:
            return out
        present = {s for s, _ in out}
        for old, new in self.rules:
            if old[0] not in present:
                continue
            k, n, changed = 0, len(old), False
            while k + n <= len(out):
                if out[k][0] == old[0] and tuple(s for s, _ in out[k:k + n]) == old:
                    out[k:k + n] = new
                    k += len(new)
                    changed = True
                else:
                    k += 1
            if changed:
                present = {s for s, _ in out}
        return out


def lemmas_of(toks) -> list[str]:
    return [lem for _, lem in toks]
