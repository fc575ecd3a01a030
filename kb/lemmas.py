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
    return " ".join(lemma(w, lang) for w in words(text, lang))


def lemmatize_many(texts: list[str], lang: str) -> list[str]:
    if lang not in SUPPORTED:
        return ["" for _ in texts]
    return [" ".join(lemma(w, lang) for w in words(text, lang)) for text in texts]


def words(text: str, lang: str) -> list[str]:
    """The words of ``text`` as spaCy's tokenizer cuts them, letters only, two or more.

    spaCy's tokenizer first splits on spaces and then handles each piece on its own, so a piece of
    letters only that is not one of the tokenizer's special cases ("Cannot") stays one token; only
    the other pieces go through spaCy, each distinct piece once.
    """
    special = _special(lang)
    out: list[str] = []
    for piece in text.split(" "):
        if piece.isalpha() and piece not in special:
            if len(piece) > 1:
                out.append(piece)
        elif piece:
            out.extend(_piece_words(piece, lang))
    return out


@lru_cache(maxsize=None)
def _special(lang: str) -> frozenset[str]:
    return frozenset(_tokenizer(lang).rules or ())


@lru_cache(maxsize=1 << 17)
def _piece_words(piece: str, lang: str) -> tuple[str, ...]:
    return tuple(w for tok in _tokenizer(lang)(piece) for w in _WORD.findall(tok.text))


def fts_query(query: str, lang: str) -> str:
    """An FTS5 query that matches the lemmas of every word of ``query`` (AND)."""
    words = lemmatize(query, lang).split() or _WORD.findall(query.lower())
    return " ".join('"' + w.replace('"', "") + '"' for w in words)
