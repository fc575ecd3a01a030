"""Cards as data: one TOML file per card in ``data/cards/`` (format: ``data/cards/README.md``).

Loading checks every file against the card file schema (:mod:`engine.cardfile`: known keys,
the known keyword list, typed and bounded values) and the references between its parts
(:mod:`engine.cardread`), and reports the first problem as ``file:line: CARD: field: message``.
The result is a :class:`CardDB` of immutable :class:`CardDef` objects shared by all game states.
Users bring their own cards with :meth:`CardDB.load` of several directories; a name defined twice
is an error.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

from .carddefs import PERMANENT_TYPES, AbilityDef, CardDef, Mode, NamedCost, StaticDef, TargetSlot  # noqa: F401 (re-exported)
from .cardfile import CARD
from .cardread import read_card
from .cardschema import MAX_DEPTH, SchemaError, deep_value, locate, show, too_deep
from .paths import CARDS_DIR, ROOT

#: a card file larger than this is refused before it is parsed
MAX_CARD_FILE = 200_000


class CardError(ValueError):
    """A card file that cannot be used; the message is ``file:line: card: field: message``."""


class CardDB:
    def __init__(self, cards: dict[str, CardDef] | None = None):
        self.cards: dict[str, CardDef] = dict(cards or {})

    def __getitem__(self, name: str) -> CardDef:
        return self.cards[name]

    def __contains__(self, name: str) -> bool:
        return name in self.cards

    def names(self) -> list[str]:
        return sorted(n for n, c in self.cards.items() if not c.token)

    def add(self, card: CardDef) -> None:
        if card.name in self.cards:
            other = self.cards[card.name]
            if card.token and other.token and replace(card, file=other.file) == other:
                return  # the same token, made by two cards
            raise CardError(f"{card.file}: card {card.name!r} is also defined in {other.file}")
        self.cards[card.name] = card

    @staticmethod
    def load(*directories: Path | str) -> "CardDB":
        """The cards of ``directories`` (default: ``data/cards``); a name defined twice is an error."""
        db = CardDB()
        for directory in directories or (CARDS_DIR,):
            if not Path(directory).is_dir():
                raise CardError(f"{directory}: not a directory of card files")
            for path in sorted(Path(directory).glob("*.toml")):
                for card in load_file(path):
                    db.add(card)
        return db


_DEFAULT_DB: CardDB | None = None


def default_db() -> CardDB:
    global _DEFAULT_DB
    if _DEFAULT_DB is None:
        _DEFAULT_DB = CardDB.load()
    return _DEFAULT_DB


def display_path(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


_TOML_LINE = re.compile(r"\(at (?:line (\d+), column \d+|end of document)\)")


def load_file(path: Path) -> list[CardDef]:
    """The card of one file and the tokens it creates; any problem is a :class:`CardError` with file:line."""
    rel = display_path(path)
    try:
        if path.stat().st_size > MAX_CARD_FILE:
            raise CardError(f"{rel}: larger than {MAX_CARD_FILE} bytes; not a card file")
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CardError(f"{rel}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise CardError(f"{rel}: not UTF-8 text ({e.reason})") from None
    deep = too_deep(text)
    if deep is not None:
        raise CardError(f"{rel}:{deep}: lists and tables nested more than {MAX_DEPTH} deep; not a card file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_LINE.search(str(e))
        line = (m.group(1) or text.count("\n") + (not text.endswith("\n"))) if m else None
        where = f"{rel}:{line}" if line else rel
        raise CardError(f"{where}: TOML syntax: {_TOML_LINE.sub('', str(e)).strip()}") from None
    name = data.get("name") if isinstance(data.get("name"), str) else "?"
    deep_path = deep_value(data)
    if deep_path is not None:
        raise CardError(f"{rel}:{locate(text, deep_path[:2])}: {name}: {show(deep_path[:2])}: values nested more than "
                        f"{MAX_DEPTH} deep; not a card file")
    try:
        CARD.check(data, ())
        card, tokens = read_card(data, rel)
    except SchemaError as e:
        field_ = f"{show(e.path)}: " if e.path else ""
        raise CardError(f"{rel}:{locate(text, e.path)}: {name}: {field_}{e.message}") from None
    return [card, *tokens]


def parse_card(data: dict, file: str = "<table>") -> CardDef:
    """A card from a table already in memory (checked like a file; tokens it creates are not returned)."""
    try:
        CARD.check(data, ())
        return read_card(data, file)[0]
    except SchemaError as e:
        field_ = f"{show(e.path)}: " if e.path else ""
        raise CardError(f"{file}: {data.get('name', '?')}: {field_}{e.message}") from None
