"""The parser registry: one parser per source format, registered by name.

    @parser("cr-text", symbols="en-braces", description="official plain-text Comprehensive Rules", version=2)
    def parse(lines: list[str], path: str, lang: str) -> Parsed: ...

``kb parsers`` lists this registry; ``kb add --parser NAME`` and the manifest
refer to parsers by these names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .model import Parsed


@dataclass(frozen=True)
class ParserSpec:
    name: str
    parse: Callable[[list[str], str, str], Parsed]
    #: symbol scheme of :mod:`ingest.symbols` used for ``text_norm``
    symbols: str
    description: str
    #: bumped whenever the parser's output for the same input changes (parsed documents are cached by it)
    version: int = 1
    #: record kinds a document of this format yields at least one of (else it is not of this format)
    requires: tuple[str, ...] = ("rule",)
    #: what a complete document of the format has: ``complete(parsed, lines)`` -> None, or what is missing
    complete: Callable[[Parsed, list[str]], str | None] | None = None


PARSERS: dict[str, ParserSpec] = {}


class UnknownParser(LookupError):
    """A parser name that is not registered (the message lists the known ones)."""


def parser(name: str, symbols: str = "none", description: str = "", version: int = 1,
           requires: tuple[str, ...] = ("rule",), complete: Callable[[Parsed, list[str]], str | None] | None = None):
    def register(func):
        if name in PARSERS:
            raise ValueError(f"parser {name!r} registered twice")
        PARSERS[name] = ParserSpec(name, func, symbols, description or (func.__doc__ or "").strip().split("\n")[0],
                                   version, requires, complete)
        return func

    return register


def get(name: str) -> ParserSpec:
    try:
        return PARSERS[name]
    except KeyError:
        raise UnknownParser(f"unknown parser {name!r}; known parsers: {', '.join(sorted(PARSERS))}") from None
