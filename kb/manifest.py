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

import hashlib
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from ingest import get_parser

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


def save(manifest: Manifest, path: Path = paths.MANIFEST) -> None:
    def doc(d: Document) -> dict:
        out = {k: v for k, v in vars(d).items() if k != "editions" and v != ""}
        out["edition"] = [{k: v for k, v in vars(e).items() if v != ""} for e in d.editions]
        return out

    header = "# Source documents of the knowledge base. Managed by `kb add`; see kb/manifest.py.\n\n"
    path.write_text(header + tomli_w.dumps({"document": [doc(d) for d in manifest.documents]}), encoding="utf-8")


def add(src: Path, parser: str, edition_id: str, language: str, date: str, kind: str = "cr",
        title: str = "", source: str = "", encoding: str = "auto", data_dir: Path = paths.DATA) -> Document:
    """Copy ``src`` byte-for-byte into ``data/sources/`` and register it in the manifest."""
    get_parser(parser)  # unknown parser -> UnknownParser with the list of known ones
    manifest_path = Path(data_dir) / "manifest.toml"
    manifest = load(manifest_path)
    if any(e.id == edition_id for _, e in manifest.editions):
        raise ManifestError(f"edition {edition_id!r} is already in the manifest")
    dest = Path(data_dir) / "sources" / Path(src).name
    if dest.exists() and sha256_of(dest) != sha256_of(src):
        raise ManifestError(f"{dest} exists with other content; rename the file to add it")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    document = Document(
        id=edition_id, path=dest.relative_to(data_dir).as_posix(), sha256=sha256_of(dest), parser=parser,
        encoding=encoding, source=source,
        editions=[EditionEntry(edition_id, language, date, kind, title)],
    )
    manifest.documents.append(document)
    validate(manifest, manifest_path)
    save(manifest, manifest_path)
    return document
