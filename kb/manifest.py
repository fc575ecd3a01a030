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

import codecs
import dataclasses
import datetime
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
    """Read and check the manifest: every value the build reads is checked here, and a bad one is reported as
    ``file:line: what is wrong`` (:class:`ManifestError`)."""
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except FileNotFoundError:
        raise ManifestError(f"{path}: manifest not found") from None
    except UnicodeDecodeError as e:
        raise ManifestError(f"{path}:{text_line(path.read_bytes(), e.start)}: not UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: {e}") from None
    where = _Lines(path, text)
    documents = raw.get("document", [])
    if not isinstance(documents, list) or set(raw) - {"document"}:
        # the first key that is no [[document]] (keys before the first table are of document -1)
        key = min(set(raw) - {"document"}, key=lambda k: where.line(-1, None, k), default="document")
        raise ManifestError(f"{path}:{where.line(-1, None, key)}: "
                            "a manifest holds [[document]] tables only")
    docs = [_document(d, i, where) for i, d in enumerate(documents)]
    manifest = Manifest(docs)
    validate(manifest, path, where)
    return manifest


def text_line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


class _Lines:
    """Where a value of the manifest is: (document index, edition index or None, key) -> line number."""

    def __init__(self, path: Path | str, text: str = ""):
        self.path = path
        self.lines: dict[tuple, int] = {}
        doc, ed = -1, None
        for no, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.replace(" ", "") == "[[document]]":
                doc, ed = doc + 1, None
                self.lines.setdefault((doc, None, None), no)
            elif stripped.replace(" ", "") == "[[document.edition]]":
                ed = -1 if ed is None else ed
                ed += 1
                self.lines.setdefault((doc, ed, None), no)
            elif "=" in stripped and not stripped.startswith("#"):
                self.lines.setdefault((doc, ed, stripped.split("=", 1)[0].strip().strip('"')), no)

    def line(self, doc: int | None, ed: int | None, key: str | None) -> int:
        for k in ((doc, ed, key), (doc, ed, None), (doc, None, None)):
            if k in self.lines:
                return self.lines[k]
        return 1

    def error(self, doc: int | None, ed: int | None, key: str | None, message: str) -> ManifestError:
        return ManifestError(f"{self.path}:{self.line(doc, ed, key)}: {message}")


#: how a field's declared type is checked
_TYPES = {"str": (lambda v: isinstance(v, str), "a string"),
          "bool": (lambda v: isinstance(v, bool), "true or false"),
          "list[str]": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings")}


def _fields(cls, raw, doc: int, ed: int | None, where: _Lines, skip: tuple[str, ...] = ()) -> dict:
    """``raw`` checked against the fields of the dataclass ``cls``: known keys, required ones, declared types."""
    what = "[[document.edition]]" if ed is not None else "[[document]]"
    if not isinstance(raw, dict):
        raise where.error(doc, ed, None, f"{what} must be a table")
    known = {f.name: f for f in dataclasses.fields(cls) if f.name != "editions"}   # (read from "edition")
    for key, value in raw.items():
        if key in skip:
            continue
        if key not in known:
            raise where.error(doc, ed, key, f"{what}: unknown key {key!r} (known: {', '.join(sorted(known))})")
        check, expected = _TYPES.get(str(known[key].type), (None, ""))
        if check is not None and not check(value):
            raise where.error(doc, ed, key, f"{what}: {key} = {value!r} must be {expected}")
    missing = [f.name for f in known.values() if f.name not in raw and f.name not in skip
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        raise where.error(doc, ed, None, f"{what}: missing {', '.join(missing)}")
    return {k: v for k, v in raw.items() if k not in skip}


def _document(raw, i: int, where: _Lines) -> Document:
    fields = _fields(Document, raw, i, None, where, skip=("edition",))
    editions = raw.get("edition") if isinstance(raw, dict) else None
    if not isinstance(editions, list) or not editions:
        raise where.error(i, None, None, "[[document]] without a [[document.edition]]")
    return Document(editions=[EditionEntry(**_fields(EditionEntry, e, i, j, where)) for j, e in enumerate(editions)],
                    **fields)


LANGUAGE_RE = re.compile(r"^[a-z]{2}$")
DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


def date_problem(value: str) -> str | None:
    """Why ``value`` is not a date of the form YYYY, YYYY-MM or YYYY-MM-DD (a real one), or None."""
    m = DATE_RE.match(value)
    if not m:
        return f"bad date {value!r}: YYYY-MM-DD (or YYYY-MM, YYYY)"
    year, month, day = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
    try:
        datetime.date(year, month, day)
    except ValueError as e:
        return f"bad date {value!r}: {e}"
    return None


def encoding_problem(value: str) -> str | None:
    if value == "auto":
        return None
    try:
        codecs.lookup(value)
    except LookupError:
        return f"unknown encoding {value!r} (\"auto\" or a Python codec name such as utf-8, cp1252)"
    return None


def validate(manifest: Manifest, where: Path | str = "manifest", lines: _Lines | None = None) -> None:
    """Check every value the build reads; :class:`ManifestError` with ``file:line`` (when read from a file)."""
    from ingest import PARSERS

    at = lines or _Lines(where)
    seen: set[str] = set()
    for i, d in enumerate(manifest.documents):
        problems = [("id", None if ID_RE.match(d.id) else f"bad id {d.id!r} (lower-case letters, digits and '-')"),
                    ("path", _path_problem(d.path)),
                    ("sha256", None if SHA256_RE.match(d.sha256) else f"bad sha256 {d.sha256!r}: 64 hex digits"),
                    ("parser", None if d.parser in PARSERS else
                     f"unknown parser {d.parser!r} (known: {', '.join(sorted(PARSERS))})"),
                    ("encoding", encoding_problem(d.encoding))]
        for key, problem in problems:
            if problem:
                raise at.error(i, None, key, f"document {d.id}: {problem}")
        for j, e in enumerate(d.editions):
            for key, problem in _edition_problems(e, seen):
                if problem:
                    raise at.error(i, j, key, f"edition {e.id}: {problem}")
            seen.add(e.id)
    for i, d in enumerate(manifest.documents):
        for j, e in enumerate(d.editions):
            for key, named in (("translation_of", [e.translation_of] if e.translation_of else []),
                               ("align_with", e.align_with)):
                unknown = [n for n in named if n not in seen]
                if unknown:
                    raise at.error(i, j, key, f"edition {e.id}: {key} names no edition of the manifest: "
                                              f"{', '.join(unknown)}")


def _edition_problems(e: EditionEntry, seen: set[str]) -> list[tuple[str, str | None]]:
    return [("id", f"edition id {e.id!r} used twice" if e.id in seen else
             None if ID_RE.match(e.id) else f"bad id {e.id!r} (lower-case letters, digits and '-')"),
            ("language", None if LANGUAGE_RE.match(e.language) else
             f"bad language {e.language!r}: a two-letter ISO 639-1 code such as en, de, it"),
            ("date", date_problem(e.date)),
            ("kind", None if e.kind in KINDS else f"kind {e.kind!r} not one of {', '.join(KINDS)}")]


def _path_problem(value: str) -> str | None:
    p = Path(value)
    if not value or p.is_absolute() or ".." in p.parts:
        return f"bad path {value!r}: a file under the data folder (e.g. sources/en-2024-11-08.txt)"
    return None


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
