"""A small schema language for card files, and finding the line a value was written on.

A schema is built from :class:`Spec` objects — :class:`Table` (known keys, required keys),
:class:`ListOf`, :class:`Int` (with bounds), :class:`Str`, :class:`Word` (one of a known list),
:class:`Bool`, :class:`Either` and :class:`Check` (a function).  ``spec.check(value, path)``
raises :class:`SchemaError` with the path of the offending value, e.g.
``("abilities", 1, "effects", 0, "amount")``; :func:`locate` finds the line of that path in the
TOML text, so that a bad card file is reported as ``file:line: message`` (tomllib keeps no positions).
"""
from __future__ import annotations

import difflib
import re
from typing import Callable, Iterable

Path = tuple  # of str (keys) and int (list positions)


class SchemaError(ValueError):
    def __init__(self, path: Path, message: str):
        super().__init__(message)
        self.path = tuple(path)
        self.message = message


def show(path: Path) -> str:
    """``("abilities", 1, "cost")`` -> ``abilities[1].cost``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def hint(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), 1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Spec:
    describe = "a value"

    def check(self, value, path: Path) -> None:
        raise NotImplementedError

    def fail(self, path: Path, value) -> SchemaError:
        return SchemaError(path, f"expected {self.describe}, got {value!r}")


class Int(Spec):
    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi
        self.describe = f"a whole number from {lo} to {hi}"

    def check(self, value, path: Path) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise self.fail(path, value)


class Str(Spec):
    def __init__(self, max_len: int = 2000, pattern: str | None = None, describe: str = "a text"):
        self.max_len, self.pattern = max_len, re.compile(pattern) if pattern else None
        self.describe = describe

    def check(self, value, path: Path) -> None:
        if not isinstance(value, str) or len(value) > self.max_len or (
                self.pattern is not None and not self.pattern.fullmatch(value)):
            raise self.fail(path, value)


class Word(Spec):
    """One of a known list of words."""

    def __init__(self, words: Iterable[str], what: str = "value"):
        self.words = tuple(words)
        self.what = what
        self.describe = f"one of {', '.join(self.words)}"

    def check(self, value, path: Path) -> None:
        if not isinstance(value, str) or value not in self.words:
            shown = repr(value) if not isinstance(value, str) else f"{value!r}{hint(value, self.words)}"
            raise SchemaError(path, f"unknown {self.what} {shown}; known: {', '.join(self.words)}")


class Bool(Spec):
    describe = "true or false"

    def check(self, value, path: Path) -> None:
        if not isinstance(value, bool):
            raise self.fail(path, value)


class ListOf(Spec):
    def __init__(self, item: Spec, max_items: int = 100, one_or_more: bool = False):
        self.item, self.max_items, self.one_or_more = item, max_items, one_or_more
        self.describe = f"a list of {item.describe}"

    def check(self, value, path: Path) -> None:
        if self.one_or_more and not isinstance(value, list):
            value = [value]
            self.item.check(value[0], path)
            return
        if not isinstance(value, list) or len(value) > self.max_items:
            raise self.fail(path, value)
        for i, item in enumerate(value):
            self.item.check(item, (*path, i))


class Table(Spec):
    """A TOML table with known keys (``fields``), some of them required."""

    def __init__(self, fields: dict[str, Spec] | Callable[[], dict[str, Spec]], required: Iterable[str] = (),
                 describe: str = "a table"):
        self._fields = fields
        self.required = tuple(required)
        self.describe = describe

    @property
    def fields(self) -> dict[str, Spec]:
        if callable(self._fields):  # a schema may refer to itself (effects inside effects)
            self._fields = self._fields()
        return self._fields

    def check(self, value, path: Path) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, value)
        fields = self.fields
        for key in value:
            if key not in fields:
                raise SchemaError((*path, key), f"unknown key {key!r}{hint(key, fields)} "
                                                f"(allowed here: {', '.join(sorted(fields))})")
        for key in self.required:
            if key not in value:
                raise SchemaError(path, f"missing {key!r}")
        for key, item in value.items():
            fields[key].check(item, (*path, key))


class Either(Spec):
    """The first spec whose kind of value fits (``kinds``: the Python types it takes)."""

    def __init__(self, *options: tuple[tuple[type, ...], Spec], describe: str):
        self.options = options
        self.describe = describe

    def check(self, value, path: Path) -> None:
        for kinds, spec in self.options:
            if isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds):
                spec.check(value, path)
                return
        raise self.fail(path, value)


class Check(Spec):
    """A value checked by a function that raises ValueError with the reason."""

    def __init__(self, fn: Callable[[object], None], describe: str):
        self.fn = fn
        self.describe = describe

    def check(self, value, path: Path) -> None:
        try:
            self.fn(value)
        except ValueError as e:
            raise SchemaError(path, f"{e}") from None


class Const(Spec):
    def __init__(self, value):
        self.value = value
        self.describe = repr(value)

    def check(self, value, path: Path) -> None:
        if value != self.value:
            raise self.fail(path, value)


# -- where was it written? ------------------------------------------------------------------------------------------

_HEADER = re.compile(r"^[ \t]*\[(\[?)[ \t]*([^\[\]]+?)[ \t]*\]\]?[ \t]*(?:#.*)?$", re.M)


#: how deeply lists and tables may nest in a card file (the deepest real card needs 6); deeper is refused before
#: the TOML parser sees it, whose recursion a few thousand levels would exhaust
MAX_DEPTH = 32


def too_deep(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The 1-based line on which lists and tables (``[``, ``{``) first nest deeper than ``limit``, or None."""
    depth = 0
    for i, c in _scan_all(text, 0):
        if c in "[{":
            depth += 1
            if depth > limit:
                return text.count("\n", 0, i) + 1
        else:
            depth = max(depth - 1, 0)
    return None


def deep_value(data, limit: int = MAX_DEPTH) -> Path | None:
    """The path of a value nested more than ``limit`` deep in parsed data (dotted keys nest without brackets), or
    None; iterative, so that any depth is safe to look at."""
    todo: list[tuple[object, Path]] = [(data, ())]
    while todo:
        value, path = todo.pop()
        if len(path) > limit:
            return path
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        todo.extend((v, (*path, k)) for k, v in items)
    return None


def locate(text: str, path: Path) -> int:
    """The 1-based line on which the value at ``path`` was written (or the nearest enclosing one found)."""
    headers = [(m.start(), m.end(), m.group(2), bool(m.group(1))) for m in _HEADER.finditer(text)]
    first_header = headers[0][0] if headers else len(text)
    pos, start, end, rest = 0, 0, first_header, tuple(path)
    if rest and isinstance(rest[0], str):
        found = _section(headers, text, rest)
        if found is not None:
            pos, start, end, rest = found
    while rest:
        part, rest = rest[0], rest[1:]
        got = _find_key(text, start, end, part) if isinstance(part, str) else _find_item(text, start, end, part)
        if got is None:
            break
        pos = got
        start, end = _value_span(text, got, part if isinstance(part, str) else None)
    return text.count("\n", 0, pos) + 1


def _section(headers, text: str, path: Path):
    """A path beginning with an array of tables (``[[abilities]]``) or a table (``[token]``)."""
    key = path[0]
    arrays = [h for h in headers if h[2] == key and h[3]]
    if arrays and len(path) > 1 and isinstance(path[1], int) and path[1] < len(arrays):
        h = arrays[path[1]]
        return h[0], h[1], _next_header(headers, h[1], len(text)), path[2:]
    tables = [h for h in headers if h[2] == key and not h[3]]
    if tables:
        h = tables[0]
        return h[0], h[1], _next_header(headers, h[1], len(text)), path[1:]
    return None


def _next_header(headers, after: int, default: int) -> int:
    return next((h[0] for h in headers if h[0] >= after), default)


def _skip(text: str, i: int) -> int:
    """The position after the string or comment that starts at ``text[i]`` (the end of the text if unclosed)."""
    c = text[i]
    if c == "#":
        nl = text.find("\n", i)
        return nl if nl >= 0 else len(text)
    triple = text[i:i + 3] == c * 3
    close = text.find(c * 3 if triple else c, i + (3 if triple else 1))
    while not triple and close > 0 and c == '"' and text[close - 1] == "\\":
        close = text.find(c, close + 1)
    return (close + (3 if triple else 1)) if close >= 0 else len(text)


def _scan(text: str, start: int, end: int):
    """(position, character) at nesting depth 0 of the region, skipping strings and comments."""
    depth, i = 0, start
    while i < end:
        c = text[i]
        if c in "\"'#":
            if c != "#" and depth == 0:
                yield i, c
            i = min(_skip(text, i), end)
            continue
        if c in "[{":
            if depth == 0:
                yield i, c
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth < 0:
                return
        elif depth == 0:
            yield i, c
        i += 1


def _find_key(text: str, start: int, end: int, key: str) -> int | None:
    pattern = re.compile(rf"(?:{re.escape(key)}|\"{re.escape(key)}\")[ \t]*[=.]")  # "key =" or a dotted "key.sub ="
    expect_key = True
    for i, c in _scan(text, start, end):
        if expect_key and not c.isspace() and c not in ",{":
            if pattern.match(text, i):
                return i
            expect_key = False
        if c in ",\n{":
            expect_key = True
    return None


def _value_span(text: str, key_pos: int, key: str | None) -> tuple[int, int]:
    """The region of the value written after ``key =`` (for a list item: the item itself)."""
    i = key_pos
    if key is not None:
        i = text.index("=", key_pos) + 1
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] in "[{":
        close = _closing(text, i)
        return i + 1, close
    line_end = text.find("\n", i)
    return i, line_end if line_end >= 0 else len(text)


def _closing(text: str, open_pos: int) -> int:
    """The position of the bracket that closes the one at ``open_pos``."""
    depth = 0
    for i, c in _scan_all(text, open_pos + 1):
        if c in "[{":
            depth += 1
        elif c in "]}":
            if depth == 0:
                return i
            depth -= 1
    return len(text)


def _scan_all(text: str, start: int):
    """Every bracket position from ``start``, skipping strings and comments."""
    i = start
    while i < len(text):
        c = text[i]
        if c in "\"'#":
            i = _skip(text, i)
            continue
        if c in "[]{}":
            yield i, c
        i += 1


def _find_item(text: str, start: int, end: int, n: int) -> int | None:
    """The start of the ``n``-th item of the list whose content is ``text[start:end]``."""
    index, expect = 0, True
    for i, c in _scan(text, start, end):
        if c == ",":
            index += 1
            expect = True
        elif expect and not c.isspace():
            if index == n:
                return i
            expect = False
    return None
