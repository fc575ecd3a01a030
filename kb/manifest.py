"""The manifest of source documents: ``data/manifest.toml``.

Each ``[[document]]`` names a file under ``data/``, its SHA-256, the parser and
the editions it holds.  A document usually holds one edition; the Morph page
holds two (German and English), told apart by the records' language::

    [[document]]
    id = "morph-wiki"
    path = "sources/004_04f47a11a442ed7b.txt"
    sha256 = "5341f5..."
    parser = "morph-wiki"
    encoding = "auto"
    source = "MTG-Forum wiki page regeln:morph"

    [[document.edition]]
    id = "de-morph-2007"
    language = "de"
    date = "2007"
    kind = "excerpt"
    title = "Morph (Regelauszug, deutsch)"
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from . import paths

KINDS = ("cr", "article", "excerpt")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class ManifestError(Exception):
    pass


@dataclass
class EditionEntry:
    id: str
    language: str
    date: str
    kind: str
    title: str = ""
    #: editions of one family form a chain by date (default: language and kind, e.g. "en-cr")
    family: str = ""
    #: the edition this one translates (default: the closest edition in the original language)
    translation_of: str = ""
    #: the parts of the rules the edition covers, as number prefixes ("6", "702.34"); empty: what it has
    covers: list[str] = field(default_factory=list)
    #: more editions to align this one with (beside its chain and its original)
    align_with: list[str] = field(default_factory=list)


@dataclass
class Document:
    id: str
    path: str
    sha256: str
    parser: str
    editions: list[EditionEntry]
    encoding: str = "auto"
    source: str = ""
    notes: str = ""
    #: added with --allow-partial: incomplete by its format's standard, ingested with a warning
    partial: bool = False

    def file(self, data_dir: Path) -> Path:
        return data_dir / self.path

    def edition_for(self, lang: str | None) -> EditionEntry:
        if lang is None or len(self.editions) == 1:
            return self.editions[0]
        for e in self.editions:
            if e.language == lang:
                return e
        raise ManifestError(f"document {self.id}: no edition for language {lang!r}")


@dataclass
class Manifest:
    documents: list[Document] = field(default_factory=list)

    @property
    def editions(self) -> list[tuple[Document, EditionEntry]]:
        return [(d, e) for d in self.documents for e in d.editions]

    def edition(self, edition_id: str) -> tuple[Document, EditionEntry]:
        for d, e in self.editions:
            if e.id == edition_id:
                return d, e
        raise ManifestError(f"unknown edition {edition_id!r}; known: {', '.join(e.id for _, e in self.editions)}")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(path: Path = paths.MANIFEST) -> Manifest:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"{path}: manifest not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: {e}") from None
    docs = []
    for i, d in enumerate(raw.get("document", []), 1):
        try:
            eds = [EditionEntry(**e) for e in d.pop("edition")]
            docs.append(Document(editions=eds, **d))
        except (TypeError, KeyError) as e:
            raise ManifestError(f"{path}: document #{i}: {e}") from None
    manifest = Manifest(docs)
    validate(manifest, path)
    return manifest


def validate(manifest: Manifest, where: Path | str = "manifest") -> None:
    seen: set[str] = set()
    for d in manifest.documents:
        for ident in [d.id] + [e.id for e in d.editions]:
            if not ID_RE.match(ident):
                raise ManifestError(f"{where}: bad id {ident!r} (lower-case letters, digits and '-')")
        for e in d.editions:
            if e.id in seen:
                raise ManifestError(f"{where}: edition id {e.id!r} used twice")
            seen.add(e.id)
            if e.kind not in KINDS:
                raise ManifestError(f"{where}: edition {e.id}: kind {e.kind!r} not one of {', '.join(KINDS)}")


HEADER = "# Source documents of the knowledge base. Managed by `kb add`; see kb/manifest.py.\n"


def save(manifest: Manifest, path: Path = paths.MANIFEST) -> None:
    """Write the manifest atomically (temporary file, then rename), keeping the file's header comments."""
    def doc(d: Document) -> dict:
        out = {k: v for k, v in vars(d).items() if k != "editions" and v not in ("", False)}
        out["edition"] = [{k: v for k, v in vars(e).items() if v not in ("", [])} for e in d.editions]
        return out

    header = _header(path) or HEADER
    text = header + "".join(_toml_document(doc(d)) for d in manifest.documents)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _toml_value(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return tomli_w.dumps({"v": value}).split(" = ", 1)[1].strip()


def _toml_document(d: dict) -> str:
    """One ``[[document]]`` with its ``[[document.edition]]`` tables, in the style of the hand-written file."""
    lines = ["", "[[document]]"] + [f"{k} = {_toml_value(v)}" for k, v in d.items() if k != "edition"]
    for e in d["edition"]:
        lines += ["", "[[document.edition]]"] + [f"{k} = {_toml_value(v)}" for k, v in e.items()]
    return "\n".join(lines) + "\n"


def _header(path: Path) -> str:
    """The comment lines at the top of an existing manifest (they survive every `kb add`)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except OSError:
        return ""
    out = []
    for line in lines:
        if not line.startswith("#"):
            break
        out.append(line)
    return "".join(out)


@contextmanager
def locked(data_dir: Path):
    """An exclusive lock on the manifest of ``data_dir`` (concurrent `kb add` runs wait for each other)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / ".manifest.lock", "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
