"""Shared text normalisers: decoding, line splitting, whitespace and wrapped lines."""
from __future__ import annotations

import codecs
import re
import unicodedata

from .model import SourceError

_ODD_SPACE = re.compile(r"[\u00a0\u2007\u202f\u2009\t]")
_SPACE_RUN = re.compile(r" {2,}")


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1 if b"\n" in data else data.count(b"\r", 0, offset) + 1


def decode(data: bytes, path: str, encoding: str = "auto") -> str:
    """Decode a source document, or raise :class:`SourceError` naming file and line.

    ``auto`` honours a byte-order mark (UTF-8, UTF-16 LE/BE), then tries UTF-8 and
    cp1252 (the two encodings the official plain-text rules have been published in).
    A multi-byte character cut off at the end of the file is reported as truncation.
    """
    if not data:
        raise SourceError(path, 1, "file is empty (truncated download?)")
    if encoding != "auto":
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise SourceError(path, None, f"unknown encoding {encoding!r} in the manifest") from None
        return _strict(data, path, encoding)
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data[len(codecs.BOM_UTF8):], path, "utf-8", offset=len(codecs.BOM_UTF8), whole=data)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, path, "utf-16")
    if b"\x00" in data:
        # UTF-16 without BOM: (nearly) every other byte of Latin text is NUL, and (nearly) none of the others; any
        # other NUL byte, however far in the file, is no text
        even, odd = data[0::2].count(0) / len(data[0::2]), data[1::2].count(0) / max(1, len(data[1::2]))
        if odd >= 0.9 and even <= 0.1:
            return _strict(data, path, "utf-16-le")
        if even >= 0.9 and odd <= 0.1:
            return _strict(data, path, "utf-16-be")
        raise SourceError(path, _line_of(data, data.index(0)),
                          "not a text file: NUL bytes that are not UTF-16 text (binary data?)")
    try:
        return _strict(data, path, "utf-8")
    except SourceError as utf8_error:
        if "truncated" in utf8_error.message:
            raise
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as e:
            raise SourceError(
                path, _line_of(data, e.start),
                f"unknown encoding: byte 0x{data[e.start]:02x} is neither UTF-8 nor cp1252 "
                f"(set `encoding` for this document in data/manifest.toml)",
            ) from None
        bad = re.search(r"[\x00-\x08\x0b\x0e-\x1f\x7f]", text)
        if bad:
            raise SourceError(path, text.count("\n", 0, bad.start()) + 1,
                              f"unknown encoding: control character U+{ord(bad.group()):04X} in text") from None
        return text


def _strict(data: bytes, path: str, encoding: str, offset: int = 0, whole: bytes | None = None) -> str:
    whole = data if whole is None else whole
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = _line_of(whole, offset + e.start)
        if e.end >= len(data) and ("unexpected end" in e.reason or "truncated" in e.reason):
            raise SourceError(path, line, f"truncated file: it ends inside a multi-byte {encoding} character") from None
        raise SourceError(
            path, line, f"not valid {encoding} (byte 0x{data[e.start]:02x}: {e.reason}); unknown encoding?"
        ) from None
    if encoding.startswith("utf-16"):
        text = text.lstrip("\ufeff")
    return text


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF only (never on form feeds or U+2028), dropping the final empty piece."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def clean(text: str) -> str:
    """Canonical spacing: NFC, non-breaking and other spaces as ' ', runs collapsed, trimmed."""
    if text.isascii():  # ASCII is NFC already, and its only odd space is the tab (the common case, made cheap)
        if "\t" in text:
            text = text.replace("\t", " ")
    else:
        text = unicodedata.normalize("NFC", text)
        # ``in`` finds a character many times faster than the regex: replace only where there is one
        if "\u00a0" in text or "\u2007" in text or "\u202f" in text or "\u2009" in text or "\t" in text:
            text = _ODD_SPACE.sub(" ", text)
    if "  " in text:
        text = _SPACE_RUN.sub(" ", text)
    return text.strip()


def join_wrapped(lines: list[str]) -> str:
    """Join hard-wrapped lines of one paragraph, undoing end-of-line hyphenation.

    ``"Regelun-" + "klarheiten"`` -> ``"Regelunklarheiten"``; ``"Copyright-" +
    "Information"`` keeps its hyphen (a capital follows); ``"Ersatz-" + "und"``
    keeps hyphen and space (a suspended compound).
    """
    out = ""
    for raw in lines:
        piece = clean(raw)
        if not piece:
            continue
        if not out:
            out = piece
        elif re.search(r"[a-zäöüß]-$", out) and re.match(r"[a-zäöüß]", piece) and not re.match(
            r"(und|oder|bzw\.|sowie|e|o|and|or)(?!\w)", piece
        ):
            out = out[:-1] + piece
        elif out.endswith("-") and re.match(r"[A-ZÄÖÜ]", piece):
            out += piece
        else:
            out += " " + piece
    return out
