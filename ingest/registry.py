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


PARSERS: dict[str, ParserSpec] = {}


def parser(name: str, symbols: str = "none", description: str = "", version: int = 1):
    def register(func):
        if name in PARSERS:
            raise ValueError(f"parser {name!r} registered twice")
        PARSERS[name] = ParserSpec(name, func, symbols, description or (func.__doc__ or "").strip().split("\n")[0],
                                   version)
        return func

    return register


def get(name: str) -> ParserSpec:
    try:
        return PARSERS[name]
    except KeyError:
        raise KeyError(f"unknown parser {name!r}; known parsers: {', '.join(sorted(PARSERS))}") from None
