"""Mana and tap symbols in one canonical notation: ``{W}{U}{B}{R}{G}{C}{X}{2}{T}{Q}``.

Each source format encodes symbols its own way; a parser names its scheme and
the build stores ``text_norm`` (canonical) beside the printed ``text``.
"""
from __future__ import annotations

import re

#: German web rules: {s} black, {w} white, {u} blue, {r} red, {g} green, {tap}, {enttap}.
_DE_BRACES = {
    "w": "W", "u": "U", "s": "B", "b": "U", "r": "R", "g": "G", "c": "C", "x": "X",
    "tap": "T", "t": "T", "enttap": "Q", "untap": "Q", "q": "Q",
}
_EN_BRACES = {"w": "W", "u": "U", "b": "B", "r": "R", "g": "G", "c": "C", "x": "X", "t": "T", "q": "Q",
              "tap": "T", "untap": "Q"}


#: a symbol in braces: "{W}", "{2}", "{tap}"
_BRACED = re.compile(r"\{([^{}\s]{1,8})\}")


def _braces(table: dict[str, str]):
    def sub(m: re.Match) -> str:
        inner = m.group(1)
        if inner.isdigit():
            return "{" + inner + "}"
        return "{" + table.get(inner.lower(), inner.upper()) + "}"

    return lambda text: _BRACED.sub(sub, text) if "{" in text else text


# 1999 PDF font encoding: "o2oW" = {2}{W}, "ocT" = {T}, "oX" = {X}, "o3 oU oU".
_FONT_1999 = re.compile(r"(?<![A-Za-zÄÖÜäöüß0-9])(?:o(?:cT|\d+|[WUBRGXYZ]))+(?![a-zäöüß])")
_FONT_PIECE = re.compile(r"o(cT|\d+|[WUBRGXYZ])")


def _font_1999(text: str) -> str:
    return _FONT_1999.sub(
        lambda m: _FONT_PIECE.sub(lambda p: "{T}" if p.group(1) == "cT" else "{" + p.group(1) + "}", m.group()),
        text,
    )


# Italian wiki: bare "1B", "XRR", "G" as mana costs, "T"/"Q" as tap/untap symbols.
_IT_MANA = re.compile(r"(?<![\w{])(X?\d*[WUBRG]{1,5}|\d+[WUBRGC]+)(?![\w}])")
_IT_GENERIC = re.compile(r"(?<![\w{,.])(\d+)(?=,\s*[TQ]\s*:)")
_IT_TAP = re.compile(r"(?<![\w{])([TQ])(?=\s*[:)]|,\s*\d|\s*,\s*[TQ]\b)|(?<=\()([TQ])(?=\))")


def _it_bare(text: str) -> str:
    text = _IT_GENERIC.sub(r"{\1}", text)
    text = _IT_MANA.sub(lambda m: "".join("{" + part + "}" for part in _split_cost(m.group(1))), text)
    return _IT_TAP.sub(lambda m: "{" + (m.group(1) or m.group(2)) + "}", text)


def _split_cost(cost: str) -> list[str]:
    m = re.match(r"(X*)(\d*)(.*)", cost)
    assert m is not None  # every string matches
    xs, digits, letters = m.groups()
    return list(xs) + ([digits] if digits else []) + list(letters)


SCHEMES = {
    "none": lambda text: text,
    "de-braces": _braces(_DE_BRACES),
    "en-braces": _braces(_EN_BRACES),
    "font-1999": _font_1999,
    "it-bare": _it_bare,
}


def normalize(text: str, scheme: str) -> str:
    return SCHEMES[scheme](text)
