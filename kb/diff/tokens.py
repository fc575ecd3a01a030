"""Tokens of a rule text and their folded keys: lemmas, canonical mana symbols, straight quotes,
and the old edition's terms rewritten by the terminology table (:func:`units`)."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain
from typing import TYPE_CHECKING, Iterable, NamedTuple, Sequence

from .. import lemmas

if TYPE_CHECKING:
    from ..terminology import Term

@dataclass
class TermIndex:
    """The lemmatised terminology table the units fold by (made by :func:`kb.diff.terminology.term_index`)."""

    #: old lemma tuple -> (new lemma tuple, term), longest first
    old: list[tuple[tuple[str, ...], tuple[str, ...], Term]]
    #: multi-word new lemma tuples (grouped into one unit on the new side)
    new_phrases: list[tuple[str, ...]]
    by_first: dict = field(default_factory=dict)
    new_by_first: dict = field(default_factory=dict)

    def __post_init__(self):
        for e in self.old:
            self.by_first.setdefault(e[0][0], []).append(e)
        for n in self.new_phrases:
            self.new_by_first.setdefault(n[0], []).append(n)


_TOKEN = re.compile(
    r"\{[^{}\s]{1,8}\}"                        # canonical or web mana symbol
    r"|\d{1,3}\.\d+[a-z]?"                     # rule number
    r"|[^\W_]+(?:[-'’][^\W_]+)*"               # word, hyphenated compound, elision
    r"|\.\.\."                                 # ellipsis written with dots
    r"|\S"                                     # punctuation, one character
)
#: a token and the whitespace after it (only whitespace lies between tokens: ``\S`` matches any other character)
_TOKEN_WS = re.compile(rf"({_TOKEN.pattern})(\s*)")
_QUOTES = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‚": "'", "‘": "'", "’": "'",
                         "–": "-", "—": "-", "…": "...", "\u00a0": " "})


class Token(NamedTuple):
    text: str
    ws: str          # whitespace that follows the token in the printed text


#: a token from (text, ws): the named tuple's own constructor is a Python function, twice as slow
_token = partial(tuple.__new__, Token)


@lru_cache(maxsize=1 << 15)
def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of a text (cached: a changed rule is tokenised for its refinement and its word diff,
    and consecutive editions repeat texts)."""
    return tuple([_token((tok, " " if ws else "")) for tok, ws in _TOKEN_WS.findall(text or "")])


def join_tokens(tokens: Sequence[Token]) -> str:
    # a token is the tuple (text, ws): the text is their fields in order
    return "".join(chain.from_iterable(tokens))


def is_word(tok: str) -> bool:
    return bool(tok) and (tok[0].isalpha() or tok[0].isdigit()) and not tok.startswith("{")


def words(text: str) -> list[str]:
    return [tok for tok in _TOKEN.findall(text) if is_word(tok)]


# --------------------------------------------------------------------------- lemmas and symbols

_LETTERS = re.compile(r"[^\W\d_]{2,}")
#: lemmas already known per language: seeded from the KB's ``lemmas`` column (which holds
#: simplemma's output for every word), so a report over the KB never loads simplemma's dictionaries
_KNOWN: dict[str, dict[str, str]] = defaultdict(dict)


#: language -> texts already seeded: consecutive editions repeat most texts, a worker diffs many pairs
_SEEDED: dict[str, set[str]] = defaultdict(set)


def seed_lemmas(lang: str, texts_and_lemmas: Iterable[tuple[str, str]]) -> None:
    """Remember word -> lemma pairs of texts lemmatised by the build (``kb.lemmas``: same words)."""
    known, seeded = _KNOWN[lang], _SEEDED[lang]
    for text, lem in texts_and_lemmas:
        if text in seeded:
            continue
        seeded.add(text)
        words_, lemmas = _LETTERS.findall(text or ""), (lem or "").split()
        if len(words_) == len(lemmas):
            known.update(zip(words_, lemmas))
            _UNIT_OF.pop(lang, None)      # the lemma of a word may have changed


def lemma(word: str, lang: str, base_form: bool = False) -> str:
    """Lower-cased lemma; a hyphenated compound is the hyphenated lemmas of its parts.

    ``base_form``: the word comes from the terminology table, where words are written in their
    base form; when the KB's lemmas are seeded and do not know the word (it occurs in no text of
    the two editions) it is taken as its own lemma instead of loading simplemma's dictionaries.
    """
    parts = _LETTERS.findall(word)
    if not parts:
        return word.lower()
    known = _KNOWN[lang]
    if base_form and known:
        return "-".join(known.get(p, p.lower()) for p in parts)
    return "-".join(known[p] if p in known else lemmas.lemma(p, lang) for p in parts)


@lru_cache(maxsize=100_000)
def _symbol(tok: str, scheme: str) -> str | None:
    """Canonical form of a mana/tap symbol token ("{tap}" -> "{T}", "o2oW" -> "{2}{W}"), else None."""
    from ingest import symbols

    if scheme not in symbols.SCHEMES:
        return None
    norm = symbols.normalize(tok, scheme)
    if norm != tok and re.fullmatch(r"(?:\{[^{}]+\})+", norm):
        return norm
    if re.fullmatch(r"(?:\{[^{}]+\})+", tok):
        return norm
    return None


# --------------------------------------------------------------------------- folded units


class Unit(NamedTuple):
    start: int       # token index
    end: int         # exclusive
    key: str
    kind: str        # word, symbol, punct, term
    term: Term | None = None


def units(tokens: Sequence[Token], lang: str, scheme: str, terms: TermIndex | None, side: str,
          prefer: frozenset[str] = frozenset()) -> list[Unit]:
    """Folded units of a token list; on the old side terms become their new wording (``prefer``: the
    keys of the new text, to pick among several new words of one old word)."""
    seen = _UNIT_OF.setdefault(lang, {}).setdefault(scheme, {})
    base: list[Unit] = []
    for i, t in enumerate(tokens):
        key_kind = seen.get(t.text)
        if key_kind is None:
            key_kind = seen[t.text] = _unit_of(t.text, lang, scheme)
        key, kind = key_kind
        if kind == "symbol" and base and base[-1].kind == "symbol":
            # a run of symbols is one unit: "o3 oU oU", "{3}{u}{u}" and "o3oUoU" all read {3}{U}{U}
            base[-1] = Unit(base[-1].start, i + 1, base[-1].key + key, "symbol")
        else:
            base.append(_unit((i, i + 1, key, kind, None)))
    if terms is None or (terms.by_first if side == "old" else terms.new_by_first).keys().isdisjoint(
            [u.key for u in base]):
        return base    # no term starts here (most texts)
    out: list[Unit] = []
    k = 0
    while k < len(base):
        hit = None
        if base[k].kind == "word":
            if side == "old":
                found = [(o, n, term) for o, n, term in terms.by_first.get(base[k].key, ()) if _match(base, k, o)]
                if found:
                    size = len(found[0][0])
                    found = [f for f in found if len(f[0]) == size]
                    o, n, term = next((f for f in found if " ".join(f[1]) in prefer), found[0])
                    hit = Unit(base[k].start, base[k + len(o) - 1].end, " ".join(n), "term", term)
            else:
                for n in terms.new_by_first.get(base[k].key, ()):
                    if _match(base, k, n):
                        hit = Unit(base[k].start, base[k + len(n) - 1].end, " ".join(n), "word")
                        break
        if hit is not None:
            out.append(hit)
            k += hit.end - hit.start
        else:
            out.append(base[k])
            k += 1
    return out


#: a unit from all its fields (see :data:`_token`)
_unit = partial(tuple.__new__, Unit)
#: language -> symbol scheme -> token -> (key, kind) of its unit; a language's entries go when lemmas are seeded
_UNIT_OF: dict[str, dict[str, dict[str, tuple[str, str]]]] = {}


def _unit_of(tok: str, lang: str, scheme: str) -> tuple[str, str]:
    """Key and kind of the unit of one token: a canonical symbol, a word's lemma, or punctuation (straight)."""
    sym = _symbol(tok, scheme)
    if sym is not None:
        return sym, "symbol"
    if is_word(tok):
        return lemma(tok, lang), "word"
    return tok.translate(_QUOTES), "punct"


def _match(units_: list[Unit], k: int, lemmas: tuple[str, ...]) -> bool:
    if k + len(lemmas) > len(units_):
        return False
    return all(units_[k + j].kind == "word" and units_[k + j].key == lemmas[j] for j in range(len(lemmas)))


def folded_keys(text: str, lang: str, scheme: str, terms: TermIndex | None, side: str, kinds: tuple[str, ...],
                min_len: int) -> Counter:
    """The folded keys of a text's units of these kinds and at least ``min_len`` characters (a bag of words)."""
    return Counter(u.key for u in units(tokenize(text), lang, scheme, terms, side)
                   if u.kind in kinds and len(u.key) >= min_len)
