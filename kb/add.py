"""``kb add``: register new source documents, each checked completely before ``data/`` is touched.

For every file: the arguments are validated, the file is read and parsed in memory, its edition
id, language and date are taken from the flags or else from its own text
(:mod:`ingest.metadata`), and only then, under the manifest lock, the file is copied into
``data/sources/`` (as ``<edition>.<ext>``) and the manifest is rewritten atomically.  Each file
is added or refused on its own: a bad file never stops the others, and the manifest is never
half-written.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import ingest
from ingest import SourceError, UnknownParser, metadata

from . import paths
from .manifest import (
    KINDS,
    Document,
    EditionEntry,
    ManifestError,
    date_problem,
    encoding_problem,
    load,
    locked,
    save,
    sha256_of,
    validate,
)

LANGUAGE_RE = re.compile(r"^[a-z]{2}$")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
#: the suffixes a directory given to `kb add` is searched for
SUFFIXES = (".txt",)


@dataclass
class AddOptions:
    parser: str = "cr-text"
    edition: str | None = None
    language: str | None = None
    date: str | None = None
    kind: str = "cr"
    title: str = ""
    source: str = ""
    encoding: str = "auto"
    allow_partial: bool = False


@dataclass
class AddResult:
    path: Path
    ok: bool
    message: str
    edition: str | None = None
    notes: list[str] = field(default_factory=list)


class AddError(Exception):
    """Bad arguments: nothing was read or written."""


def expand(files: list[Path]) -> list[Path]:
    """Files as given; a directory stands for its ``*.txt`` files, sorted by name."""
    out: list[Path] = []
    for f in files:
        if f.is_dir():
            out += sorted(p for p in f.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
        else:
            out.append(f)
    return out


def check_options(opts: AddOptions, n_files: int) -> None:
    """Refuse bad arguments before any file is read (:class:`AddError`)."""
    try:
        ingest.get_parser(opts.parser)
    except UnknownParser as e:
        raise AddError(e.args[0]) from None
    if opts.edition is not None:
        if n_files > 1:
            raise AddError("--edition names one edition: give it with a single file (the others are named "
                           "from their own text)")
        if not ID_RE.match(opts.edition):
            raise AddError(f"bad edition id {opts.edition!r}: lower-case letters, digits and '-', "
                           "starting with a letter or digit (e.g. en-2024-11-08)")
    if opts.language is not None and not LANGUAGE_RE.match(opts.language):
        raise AddError(f"bad language {opts.language!r}: a two-letter ISO 639-1 code such as en, de, it")
    if opts.date is not None and date_problem(opts.date):
        raise AddError(str(date_problem(opts.date)))
    if opts.kind not in KINDS:
        raise AddError(f"bad kind {opts.kind!r}: one of {', '.join(KINDS)}")
    if encoding_problem(opts.encoding):
        raise AddError(str(encoding_problem(opts.encoding)))


def add_files(files: list[Path], opts: AddOptions, data_dir: Path = paths.DATA) -> list[AddResult]:
    """Add each file (see the module doc); one :class:`AddResult` per file, in order."""
    files = expand(files)
    check_options(opts, len(files))
    return [_add_one(f, opts, Path(data_dir)) for f in files]


def _add_one(path: Path, opts: AddOptions, data_dir: Path) -> AddResult:
    try:
        doc, notes = _prepare(path, opts, data_dir)
        with locked(data_dir):
            _commit(path, doc, data_dir)
    except (SourceError, ManifestError, AddError) as e:
        return AddResult(path, False, str(e))
    return AddResult(path, True, f"added as edition {doc.editions[0].id} ({paths.shown(data_dir / doc.path)})",
                     doc.editions[0].id, notes)


def _prepare(path: Path, opts: AddOptions, data_dir: Path) -> tuple[Document, list[str]]:
    """Read and parse ``path`` in memory and name its edition; nothing is written."""
    shown = str(path)
    if not path.is_file():
        raise AddError(f"{shown}: no such file")
    lines = ingest.read_lines(path, opts.encoding, shown)
    found = metadata.effective_date(lines)
    language = opts.language or metadata.guess_language(lines)
    if language is None:
        raise AddError(f"{shown}: cannot tell the document's language; give --language")
    parsed = ingest.parse_lines(lines, shown, opts.parser, language)
    rules = sum(1 for r in parsed.records if r.kind == "rule")
    notes = []
    missing = ingest.incomplete(parsed, lines, opts.parser)
    if missing:
        if not opts.allow_partial:
            raise AddError(f"{shown}:{ingest.last_line(lines)}: {missing} (--allow-partial adds it anyway)")
        notes.append(f"incomplete, added with --allow-partial: {missing}")
    date = opts.date or (found[0] if found else None)
    if date is None:
        raise AddError(f"{shown}: the document does not state its date (\"These rules are effective as of …\"); "
                       "give --date")
    if found and opts.date is None:
        stamp = re.search(r"\d{4}-\d{2}-\d{2}", path.name)
        if stamp and stamp.group() != date:
            notes.append(f"its own text says {date} (line {found[1]}); the file name says {stamp.group()}")
    if date_problem(date):
        raise AddError(f"{shown}:{found[1] if found else 1}: {date_problem(date)}; give --date")
    edition = opts.edition or f"{language}-{date}"
    unparsed = sum(1 for r in parsed.records if r.kind == "unparsed")
    notes.append(f"{len(parsed.records)} records, {rules} rules, {len(parsed.warnings)} warnings"
                 + (f", {unparsed} unparsed lines" if unparsed else ""))
    doc = Document(id=edition, path=f"sources/{edition}{path.suffix.lower() or '.txt'}", sha256=sha256_of(path),
                   parser=opts.parser, encoding=opts.encoding, source=opts.source, partial=bool(missing),
                   editions=[EditionEntry(edition, language, date, opts.kind, opts.title or metadata.title(lines))])
    return doc, notes


def _commit(src: Path, doc: Document, data_dir: Path) -> None:
    """Copy the file and record it in the manifest (the caller holds the manifest lock)."""
    manifest_path = data_dir / "manifest.toml"
    manifest = load(manifest_path) if manifest_path.exists() and manifest_path.read_bytes().strip() else None
    documents = manifest.documents if manifest else []
    for d in documents:
        if d.sha256 == doc.sha256:
            raise AddError(f"{src}: already in the manifest as edition {d.editions[0].id} "
                           f"({paths.shown(data_dir / d.path)})")
        if any(e.id == doc.editions[0].id for e in d.editions) or d.id == doc.id:
            raise AddError(f"{src}: edition {doc.editions[0].id!r} is already in the manifest "
                           "(give another --edition to keep both)")
    dest = data_dir / doc.path
    if dest.exists():
        raise AddError(f"{src}: {dest} exists and is not in the manifest; remove it or give another --edition")
    from .manifest import Manifest

    new = Manifest([*documents, doc])
    validate(new, manifest_path)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(src.read_bytes())
        if sha256_of(tmp) != doc.sha256:
            raise AddError(f"{src}: the file changed while it was being added; try again")
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    try:
        save(new, manifest_path)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise
