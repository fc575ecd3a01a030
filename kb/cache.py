"""The build's caches: parsed documents and lemmas, keyed by content, kept next to the database.

* :class:`ParseCache` keeps each document's rows (parsed, numbered from 1, cross-references
  resolved) in one pickle named after the source's SHA-256, the parser and the parser's version
  (``ParserSpec.version``), the document's manifest entry and the code that turns records into
  rows: a document that did not change is not parsed again, and bumping a parser's version
  re-parses exactly the documents of that parser.
* :class:`LemmaStore` maps (language, text) to its lemmas.  Consecutive editions repeat most
  rules word for word, so each distinct text is lemmatised once, whatever the number of
  editions that print it.  The store is keyed by the lemmatiser's version as well.

Cache files are written atomically (temporary file, then rename); a cache file that cannot be
read is treated as missing.  Deleting the cache folder is always safe.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .rows import DocumentRows

#: bump when the pickled layout changes
FORMAT = 2


@lru_cache(maxsize=None)
def code_version(folder: Path) -> str:
    """SHA-256 of the Python files of ``folder``: a cache entry computed by that code is keyed by it."""
    h = hashlib.sha256()
    for path in sorted(Path(folder).glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename (no half-written cache entry)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _read(path: Path):
    try:
        return pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        return None


class ParseCache:
    """Per document (keyed by :meth:`key`): its rows ready to write (:func:`kb.rows.cacheable_rows`) and the
    (language, text) pairs they lemmatise."""

    def __init__(self, root: Path):
        self.dir = Path(root) / "parsed"

    @staticmethod
    def key(sha256: str, parser: str, version: int, context: str = "") -> str:
        """``context``: what else the rows depend on (the document's manifest entry, the code that makes rows)."""
        extra = hashlib.sha256(context.encode("utf-8")).hexdigest()[:16] if context else "none"
        return f"{sha256[:40]}-{parser}-v{version}-{extra}-f{FORMAT}"

    def get(self, key: str) -> DocumentRows | None:
        got = _read(self.dir / f"{key}.pickle")
        return got if isinstance(got, DocumentRows) else None

    def put(self, key: str, rows: DocumentRows, texts: list[tuple[str, str]]) -> None:
        """Store a document's rows and the (language, text) pairs they will lemmatise."""
        write_atomic(self.dir / f"{key}.texts", pickle.dumps(texts, protocol=pickle.HIGHEST_PROTOCOL))
        write_atomic(self.dir / f"{key}.pickle", pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))

    def texts(self, key: str) -> list[tuple[str, str]] | None:
        got = _read(self.dir / f"{key}.texts")
        return got if isinstance(got, list) else None

    def has(self, key: str) -> bool:
        return (self.dir / f"{key}.pickle").exists() and (self.dir / f"{key}.texts").exists()

    def prune(self, keep: Iterable[str]) -> None:
        """Remove the entries of documents that are no longer in the manifest (or were re-parsed)."""
        wanted = {f"{k}{suffix}" for k in keep for suffix in (".pickle", ".texts")}
        if self.dir.exists():
            for path in self.dir.iterdir():
                if path.name not in wanted:
                    path.unlink(missing_ok=True)


def lemmatiser_version() -> str:
    """What the lemmas depend on: the versions of simplemma and spaCy, and of kb/lemmas.py itself."""
    from importlib.metadata import version

    code = hashlib.sha256((Path(__file__).parent / "lemmas.py").read_bytes()).hexdigest()[:16]
    return f"simplemma {version('simplemma')}, spacy {version('spacy')}, lemmas.py {code}"


def text_key(lang: str, text: str) -> bytes:
    return hashlib.blake2b(f"{lang}\0{text}".encode("utf-8"), digest_size=16).digest()


class LemmaStore:
    """(language, text) -> lemmas; loaded once per build and saved when something was added."""

    def __init__(self, root: Path, version: str):
        self.path = Path(root) / "lemmas.pickle"
        self.version = version
        got = _read(self.path)
        self.data: dict[bytes, str] = got[1] if isinstance(got, tuple) and got[0] == (FORMAT, version) else {}
        self.added = 0
        self.used: set[bytes] = set()

    def missing(self, lang: str, texts: Iterable[str]) -> list[str]:
        """The distinct texts not in the store yet, in first-seen order (each distinct text hashed once: the
        editions of an archive repeat most of theirs)."""
        return [text for text in dict.fromkeys(texts) if text_key(lang, text) not in self.data]

    def add(self, lang: str, texts: list[str], lemmas: list[str]) -> None:
        for text, lem in zip(texts, lemmas, strict=True):
            self.data[text_key(lang, text)] = lem
        self.added += len(texts)

    def get(self, lang: str, text: str) -> str:
        k = text_key(lang, text)
        self.used.add(k)
        return self.data[k]

    def save(self) -> None:
        """Write the store if it grew or holds texts this build did not use (of removed documents)."""
        if self.added or len(self.used) < len(self.data):
            kept = {k: v for k, v in self.data.items() if k in self.used}
            write_atomic(self.path, pickle.dumps(((FORMAT, self.version), kept), protocol=pickle.HIGHEST_PROTOCOL))
            self.added = 0
