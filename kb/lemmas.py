"""Lemmatised text for search: spaCy's rule-based tokenizer + simplemma's dictionaries.

No statistical model is needed (none can be downloaded at run time): ``spacy.blank(lang)``
gives a language-aware tokenizer, and simplemma maps inflected forms to lemmas
("Zaubersprüche" -> "zauberspruch", "gewirkt" -> "wirken", "magie" -> "magia").
The ``lemmas`` column of rules and items holds the lower-cased lemmas, space-separated,
and is indexed by FTS5 beside the printed text.

The words are those spaCy's tokenizer cuts, found without running (or importing) spaCy: the few rules of
its tokenizer that can cut a run of letters (the special cases "cannot", "can't", ...) and the affix
patterns that decide where they apply are kept in a small file per spaCy version (:func:`words`).
"""
from __future__ import annotations

import hashlib
import marshal
import os
import re
import sqlite3
import sys
import threading
from collections.abc import Iterator
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import (
    DATA_FOLDER,
    DecodedStrMapping,
    DefaultDictionaryFactory,
)

SUPPORTED = ("de", "it", "en")
_WORD = re.compile(r"[^\W\d_]{2,}")


@lru_cache(maxsize=None)
def _tokenizer(lang: str):
    import spacy  # imported on first use: half a second that lemma() alone does not need

    return spacy.blank(lang).tokenizer


#: copies of simplemma's dictionaries, beside the installed packages, that lookups read entry by entry
#: (``scripts/setup.sh`` writes them)
DECODED_DIR = Path(sys.prefix) / "share" / "mtg-rules-kb" / "simplemma"
#: the rules of spaCy's tokenizers that :func:`words` needs, one file per language and spaCy version
RULES_DIR = Path(sys.prefix) / "share" / "mtg-rules-kb" / "spacy"


def _decoded_path(lang: str) -> Path:
    """Where the copy of a shipped dictionary lives, named after the compressed file's SHA-256 (so a simplemma
    upgrade that changes the dictionary never reads a stale copy)."""
    digest = hashlib.sha256((DATA_FOLDER / f"{lang}.plzma").read_bytes()).hexdigest()[:16]
    return DECODED_DIR / f"{lang}-{digest}.sqlite"


class _StoredEntries(DecodedStrMapping):
    """A shipped dictionary read from its SQLite copy (:func:`prepare`) one entry at a time: the same entries as
    simplemma's ``dict`` (keys and values as the same UTF-8 bytes), without loading a million of them into memory
    first (German: a third of a second, for the few thousand words a build looks up).  Each process and thread
    opens a connection of its own."""

    __slots__ = ("_path", "_cursors")

    def __init__(self, path: Path):
        self._path = path
        #: per process and thread, a cursor of its own connection (the site looks words up from several threads)
        self._cursors: dict[tuple[int, int], sqlite3.Cursor] = {}
        self._db().execute("select value from entries limit 1").fetchall()   # a damaged copy fails here

    def _db(self) -> sqlite3.Cursor:
        key = os.getpid(), threading.get_ident()
        cursor = self._cursors.get(key)
        if cursor is None:
            # read-only and immutable: a copy is replaced by a rename, never written in place
            cursor = self._cursors[key] = sqlite3.connect(f"file:{self._path}?mode=ro&immutable=1", uri=True).cursor()
        return cursor

    def _lookup(self, key: str) -> str | None:
        row = self._db().execute("select value from entries where key = ?", (key.encode(),)).fetchone()
        return row[0].decode() if row is not None else None

    def __iter__(self) -> Iterator[str]:
        for (key,) in self._db().connection.execute("select key from entries"):
            yield key.decode()

    def __len__(self) -> int:
        return self._db().execute("select count(*) from entries").fetchone()[0]


class _Dictionaries(DefaultDictionaryFactory):
    """simplemma's shipped dictionaries, read from their copies when there are (:class:`_StoredEntries`).

    simplemma decodes its lzma-compressed, front-coded dictionaries in Python on first use (German: 1.1
    million entries, over a second).  Without a copy (or with an unreadable one) the shipped file is decoded as
    usual: same entries either way.
    """

    __slots__ = ()

    def _get_dictionary_uncached(self, lang: str):
        try:
            return _StoredEntries(_decoded_path(lang))
        except (OSError, sqlite3.Error):
            return super()._get_dictionary_uncached(lang)


def _write_copy(path: Path, entries: dict[bytes, bytes]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp)
    try:
        conn.execute("create table entries (key blob primary key, value blob not null) without rowid")
        with conn:
            conn.executemany("insert into entries values (?, ?)", entries.items())
    finally:
        conn.close()
    tmp.replace(path)


_DICTIONARIES = _Dictionaries()
_LEMMATIZER = simplemma.Lemmatizer(
    lemmatization_strategy=simplemma.strategies.DefaultStrategy(dictionary_factory=_DICTIONARIES))


def prepare(langs: tuple[str, ...] = SUPPORTED) -> list[Path]:
    """Write the copies of the dictionaries of ``langs`` and their tokenizer rules that are missing (run
    once at setup)."""
    from simplemma.strategies.dictionaries.dictionary_factory import _load_dictionary_from_disk

    written = []
    for lang in langs:
        path = _decoded_path(lang)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_copy(path, _load_dictionary_from_disk(lang))
            written.append(path)
        if not _rules_path(lang).exists():
            written.append(_save_rules(lang, _extract_rules(lang)))
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
    """Load the tokenizer rules and the lemma dictionary of ``lang`` now (before worker processes are forked,
    which inherit them instead of loading them again each)."""
    if lang in SUPPORTED:
        _rules(lang)
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

    spaCy's tokenizer first splits on whitespace and then handles each piece on its own: it cuts prefixes and
    suffixes off, applies its special cases and splits at infixes.  None of its prefix, suffix or infix rules
    cuts between two letters, only some special cases do ("cannot" -> "can" "not", "don't" -> "do" "n't"), so
    the words of a piece are its runs of letters unless one of those special cases applies (:func:`_piece_words`).
    """
    cuts = _rules(lang).cuts
    out: list[str] = []
    for piece in text.split():
        if piece.isalpha() and piece not in cuts:
            if len(piece) > 1:
                out.append(piece)
        else:
            out.extend(_piece_words(piece, lang))
    return out


class _Rules(NamedTuple):
    """What :func:`words` needs of a language's spaCy tokenizer."""

    #: every special case
    specials: frozenset[str]
    #: the special cases whose tokens cut a run of letters -> their tokens
    cuts: dict[str, tuple[str, ...]]
    prefix: re.Pattern
    suffix: re.Pattern
    #: a special case of ``cuts`` applies only where :func:`_core` says (else: ask spaCy for such pieces)
    exact: bool


def _rules_path(lang: str) -> Path:
    return RULES_DIR / f"{lang}-spacy-{version('spacy')}.marshal"


@lru_cache(maxsize=None)
def _rules(lang: str) -> _Rules:
    """The tokenizer rules of ``lang``: from the file of this spaCy version, else taken from spaCy (and saved)."""
    try:
        specials, cuts, prefix, suffix, exact = marshal.loads(_rules_path(lang).read_bytes())
        return _Rules(frozenset(specials), cuts, re.compile(*prefix), re.compile(*suffix), exact)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    rules = _extract_rules(lang)
    try:
        _save_rules(lang, rules)
    except OSError:
        pass
    return rules


def _extract_rules(lang: str) -> _Rules:
    tokenizer = _tokenizer(lang)
    cuts = {}
    for special in tokenizer.rules or ():
        doc = tokenizer(special)
        if any(_LETTER.match(special, tok.idx - 1) and _LETTER.match(special, tok.idx) for tok in doc[1:]):
            cuts[special] = tuple(tok.text for tok in doc)
    # spaCy applies a special case also where a later pass finds its tokens (Tokenizer.add_special_case): for one
    # of ``cuts`` that could be anywhere in a piece, not only where the affix loop leaves it
    anywhere = not tokenizer.faster_heuristics or any(
        tokenizer.find_prefix(s) or tokenizer.find_infix(s) or tokenizer.find_suffix(s) or " " in s for s in cuts)
    prefix, suffix = tokenizer.prefix_search.__self__, tokenizer.suffix_search.__self__
    return _Rules(frozenset(tokenizer.rules or ()), cuts, prefix, suffix,
                  exact=tokenizer.token_match is None and not anywhere)


def _save_rules(lang: str, rules: _Rules) -> Path:
    path = _rules_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")   # builds running at once write a file each
    tmp.write_bytes(marshal.dumps((sorted(rules.specials), rules.cuts, (rules.prefix.pattern, rules.prefix.flags),
                                   (rules.suffix.pattern, rules.suffix.flags), rules.exact)))
    tmp.replace(path)
    return path


_LETTER = re.compile(r"[^\W\d_]")


@lru_cache(maxsize=1 << 17)
def _piece_words(piece: str, lang: str) -> tuple[str, ...]:
    """The words of a piece (no whitespace): its runs of letters, cut where a special case of
    :attr:`_Rules.cuts` applies."""
    cutting = _cutting(lang)
    if cutting is None or not cutting.search(piece):
        return tuple(_WORD.findall(piece))
    rules = _rules(lang)
    if not rules.exact:
        return tuple(w for tok in _tokenizer(lang)(piece) for w in _WORD.findall(tok.text))
    start, end = _core(piece, rules)
    tokens = rules.cuts.get(piece[start:end], (piece[start:end],))
    return tuple(w for part in (piece[:start], *tokens, piece[end:]) for w in _WORD.findall(part))


@lru_cache(maxsize=None)
def _cutting(lang: str) -> re.Pattern | None:
    """Finds a special case of :attr:`_Rules.cuts` in a piece."""
    cuts = _rules(lang).cuts
    return re.compile("|".join(map(re.escape, sorted(cuts)))) if cuts else None


def _core(piece: str, rules: _Rules) -> tuple[int, int]:
    """Where the core of ``piece`` starts and ends once spaCy has cut its prefixes and suffixes off, a special
    case stopping it (the loop of ``Tokenizer._split_affixes``)."""
    start, end, last = 0, len(piece), 0
    while start < end and end - start != last:
        string = piece[start:end]
        if string in rules.specials:
            break
        last = len(string)
        pre = _length(rules.prefix, string)
        if pre and string[pre:] in rules.specials:
            start += pre
            break
        suf = _length(rules.suffix, string[pre:])
        if suf and string[:-suf] in rules.specials:
            end -= suf
            break
        if pre and suf and pre + suf <= len(string):
            start, end = start + pre, end - suf
        elif pre:
            start += pre
        elif suf:
            end -= suf
    return start, end


def _length(pattern: re.Pattern, string: str) -> int:
    found = pattern.search(string)
    return found.end() - found.start() if found else 0


def fts_query(query: str, lang: str) -> str:
    """An FTS5 query that matches the lemmas of every word of ``query`` (AND)."""
    words = lemmatize(query, lang).split() or _WORD.findall(query.lower())
    return " ".join('"' + w.replace('"', "") + '"' for w in words)


if __name__ == "__main__":   # python -m kb.lemmas: prepare the decoded dictionaries and tokenizer rules (setup.sh)
    for written in prepare():
        print(f"setup: wrote {written}")
