"""Lemmatised text for search: spaCy's rule-based tokenizer + simplemma's dictionaries.

No statistical model is needed (none can be downloaded at run time): ``spacy.blank(lang)``
gives a language-aware tokenizer, and simplemma maps inflected forms to lemmas
("Zaubersprüche" -> "zauberspruch", "gewirkt" -> "wirken", "magie" -> "magia").
The ``lemmas`` column of rules and items holds the lower-cased lemmas, space-separated,
and is indexed by FTS5 beside the printed text.
"""
from __future__ import annotations

import hashlib
import marshal
import re
import sys
from functools import lru_cache
from pathlib import Path

import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import (
    DATA_FOLDER,
    DefaultDictionaryFactory,
    MappingStrToByteString,
)

SUPPORTED = ("de", "it", "en")
_WORD = re.compile(r"[^\W\d_]{2,}")


@lru_cache(maxsize=None)
def _tokenizer(lang: str):
    import spacy  # imported on first use: half a second that lemma() alone does not need

    return spacy.blank(lang).tokenizer


#: decoded copies of simplemma's dictionaries, beside the installed packages (``scripts/setup.sh`` writes them)
DECODED_DIR = Path(sys.prefix) / "share" / "mtg-rules-kb" / "simplemma"


def _decoded_path(lang: str) -> Path:
    """Where the decoded copy of a shipped dictionary lives, named after the compressed file's SHA-256 (so a
    simplemma upgrade that changes the dictionary never reads a stale copy)."""
    digest = hashlib.sha256((DATA_FOLDER / f"{lang}.plzma").read_bytes()).hexdigest()[:16]
    return DECODED_DIR / f"{lang}-{digest}.marshal"


class _Dictionaries(DefaultDictionaryFactory):
    """simplemma's shipped dictionaries, read from a decoded copy when there is one.

    simplemma decodes its lzma-compressed, front-coded dictionaries in Python on first use (German: 1.1
    million entries, over a second); the same dict written with ``marshal`` loads in a third of that.
    Without a copy (or with an unreadable one) the shipped file is decoded as usual: same entries either way.
    """

    __slots__ = ()

    def _get_dictionary_uncached(self, lang: str):
        try:
            data = marshal.loads(_decoded_path(lang).read_bytes())
            if isinstance(data, dict):
                return MappingStrToByteString(data)
        except (OSError, ValueError, EOFError, TypeError):
            pass
        return super()._get_dictionary_uncached(lang)


_DICTIONARIES = _Dictionaries()
_LEMMATIZER = simplemma.Lemmatizer(
    lemmatization_strategy=simplemma.strategies.DefaultStrategy(dictionary_factory=_DICTIONARIES))


def prepare(langs: tuple[str, ...] = SUPPORTED) -> list[Path]:
    """Write the decoded copies of the dictionaries of ``langs`` that are missing (run once at setup)."""
    from simplemma.strategies.dictionaries.dictionary_factory import _load_dictionary_from_disk

    written = []
    for lang in langs:
        path = _decoded_path(lang)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(marshal.dumps(_load_dictionary_from_disk(lang)))
            tmp.replace(path)
            written.append(path)
    return written


def release() -> None:
    """Drop the loaded dictionaries and cached lemmas (hundreds of MB for German) once a build has lemmatised
    its texts; a later call of :func:`lemma` loads them again."""
    _DICTIONARIES._get_dictionary.cache_clear()
    _LEMMATIZER._cached_lemmatize.cache_clear()
    lemma.cache_clear()


@lru_cache(maxsize=200_000)
def lemma(word: str, lang: str) -> str:
    """Lower-cased lemma of one word; a language simplemma does not cover gives the word itself."""
    if lang not in SUPPORTED:
        return word.lower()
    try:
        return _LEMMATIZER.lemmatize(word, lang=lang).lower()
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


#: a word with at most one bracket or quote before it and one punctuation mark after it: "(Karte", "Spieler,"
_AFFIXED = re.compile(r"[(\"'„“«]?([^\W\d_]+)[.,;:)!?\"'“”»]?")


@lru_cache(maxsize=1 << 17)
def _piece_words(piece: str, lang: str) -> tuple[str, ...]:
    """The words of a piece that is not letters only.  spaCy's tokens cut the piece without changing it and
    :data:`_WORD` takes runs of letters from each token, so a piece without such a run has no words, and a
    word whose only neighbours are one bracket or quote and one punctuation mark (which spaCy cuts off as
    affixes) is the word itself unless it or the piece is one of the tokenizer's special cases ("cannot")."""
    if not _WORD.search(piece):
        return ()
    affixed = _AFFIXED.fullmatch(piece)
    if affixed and affixed[1] not in _special(lang) and piece not in _special(lang):
        return (affixed[1],)
    return tuple(w for tok in _tokenizer(lang)(piece) for w in _WORD.findall(tok.text))


def fts_query(query: str, lang: str) -> str:
    """An FTS5 query that matches the lemmas of every word of ``query`` (AND)."""
    words = lemmatize(query, lang).split() or _WORD.findall(query.lower())
    return " ".join('"' + w.replace('"', "") + '"' for w in words)


if __name__ == "__main__":   # python -m kb.lemmas: prepare the decoded dictionaries (scripts/setup.sh)
    for written in prepare():
        print(f"setup: decoded simplemma's dictionary into {written}")
