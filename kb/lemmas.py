"""Lemmatised text for search: spaCy's rule-based tokenizer + simplemma's dictionaries.

No statistical model is needed (none can be downloaded at run time): ``spacy.blank(lang)``
gives a language-aware tokenizer, and simplemma maps inflected forms to lemmas
("Zaubersprüche" -> "zauberspruch", "gewirkt" -> "wirken", "magie" -> "magia").
The ``lemmas`` column of rules and items holds the lower-cased lemmas, space-separated,
and is indexed by FTS5 beside the printed text.
"""
from __future__ import annotations

import re
from functools import lru_cache

import simplemma

SUPPORTED = ("de", "it", "en")
_WORD = re.compile(r"[^\W\d_]{2,}")


@lru_cache(maxsize=None)
def _tokenizer(lang: str):
    import spacy  # imported on first use: half a second that lemma() alone does not need

    return spacy.blank(lang).tokenizer


@lru_cache(maxsize=200_000)
def lemma(word: str, lang: str) -> str:
    """Lower-cased lemma of one word; a language simplemma does not cover gives the word itself."""
    if lang not in SUPPORTED:
        return word.lower()
    try:
        return simplemma.lemmatize(word, lang=lang).lower()
    except ValueError:
        return word.lower()


def warm(lang: str) -> None:
    """Load the tokenizer and the lemma dictionary of ``lang`` now (before worker processes are forked,
    which inherit them instead of loading them again each)."""
    if lang in SUPPORTED:
        _tokenizer(lang)
        lemma("warm", lang)


def lemmatize(text: str, lang: str) -> str:
    """Space-separated lemmas of the words of ``text`` (numbers and punctuation dropped)."""
    if lang not in SUPPORTED or not text:
        return ""
    out = []
    for tok in _tokenizer(lang)(text):
        for word in _WORD.findall(tok.text):
            out.append(lemma(word, lang))
    return " ".join(out)


def lemmatize_many(texts: list[str], lang: str) -> list[str]:
    if lang not in SUPPORTED:
        return ["" for _ in texts]
    tok = _tokenizer(lang)
    return [" ".join(lemma(w, lang) for t in doc for w in _WORD.findall(t.text)) for doc in tok.pipe(texts)]


def fts_query(query: str, lang: str) -> str:
    """An FTS5 query that matches the lemmas of every word of ``query`` (AND)."""
    words = lemmatize(query, lang).split() or _WORD.findall(query.lower())
    return " ".join('"' + w.replace('"', "") + '"' for w in words)
