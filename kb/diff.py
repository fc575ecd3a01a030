"""What changed between two editions of the rules, rule by rule: built on the alignment rows.

Three layers, all pure functions over rows (no database access below :func:`compare`):

1. :func:`classify` turns the aligned pairs of two editions into *change classes*.  Every rule
   of the old edition and every rule of the new edition gets exactly one class:

   ``removed``
       an old rule without any aligned counterpart.
   ``added``
       a new rule that no old rule is aligned to.
   ``split``
       an old rule aligned to several new rules (1→n), and each of those new rules when it has
       no other source.
   ``merged``
       a new rule that several old rules are aligned to (n→1), and each of those old rules when
       this is its only target.  Many-to-many clusters follow the same degree rule: an old rule
       with several targets is ``split``, a new rule with several sources is ``merged``.
   ``moved``
       a one-to-one pair whose new rule lies outside the place its siblings went to.  The
       *expected place* of an old section is computed from the alignment itself: the new
       sections its heading is aligned to, plus every new section that receives at least a
       quarter of the pairs of its rules and subrules (``SECTION_SHARE``).  So the 1999 section
       409 maps to 601 *and* 602 (casting and activating became two sections) and 418 to 611
       and 613; a 1999 rule 419.7c whose counterpart is in 609 has *moved*, while 413.2a → 608.2b
       has not (413 → 608 is where the whole section went).  For a section the expected place is
       the chapter(s) its chapter maps to, computed the same way (1999 chapter 4 → 2024 chapter
       6 is the systematic shift, not a move); chapters never move.
   ``renumbered``
       a one-to-one pair in the expected place whose number is not the systematic one: the old
       number with its section replaced by the mapped section (413.2a → 608.2a expected, 608.2b
       found), or, for editions with the same numbering, simply a different number.
   ``unchanged``
       a one-to-one pair in the expected place, with the expected number and the same text
       (whitespace and mana-symbol notation aside).
   ``reworded``
       the same, with other words.  Across languages the words cannot be compared: a pair is
       ``reworded`` when the aligner said so (relation ``reworded``), otherwise ``unchanged``.

   ``moved`` and ``renumbered`` win over the text classes; the group keeps ``text_changed`` so a
   report can say "renumbered, and reworded".

2. :func:`word_diff` compares two texts word by word in two passes.  Pass one matches the
   printed tokens exactly.  Pass two re-aligns only what pass one found different, on *folded*
   keys: lemmas (simplemma), canonical mana symbols, straight quotes, and the old edition's terms
   rewritten by the curated terminology table (``data/terminology.tsv``: "spielen" → "wirken",
   "Vorrang" → "Priorität", "daß" → "dass" ...).  What pass two finds equal is a ``term``
   segment: a pure terminology, spelling, case, inflection or symbol-notation shift.  Renderers
   show it either as a change (``fold=False``) or as the new word, marked (``fold=True``), so the
   real changes of meaning stand out.

3. :func:`terminology_table` counts, for the whole edition pair, each old → new term: how often the
   shift happened and in which rules, how often the old term survives in the new edition, and
   frequent one-word substitutions that the curated table does not list yet (candidates).

:func:`compare` loads two editions and their alignment rows from the KB and runs all three;
:func:`store` is the build stage that writes the precomputed ``diffs`` table; :func:`metadata`
and :func:`render_cell` are the Datasette pieces.  Rule texts never appear in this code.
"""
from __future__ import annotations

import csv
import html
import re
import sqlite3
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable, Sequence

from markupsafe import Markup, escape

from ingest import numbers

from . import paths

CLASSES = ("unchanged", "reworded", "renumbered", "moved", "split", "merged", "added", "removed")
#: a new section receiving at least this share of an old section's pairs is one of its expected places
SECTION_SHARE = 0.25
TERMINOLOGY = paths.DATA / "terminology.tsv"

# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Rule:
    """The part of a ``rules`` row the diff needs."""

    key: str                 # unique within the edition ("de-2024/601.2f", "it-wiki/616.1f#301")
    edition: str
    number: str              # as printed
    norm: str                # normalised number
    text: str = ""
    text_norm: str = ""      # canonical mana symbols
    title: str | None = None
    lemmas: str = ""         # lemmas of title and text as the build stored them (may be empty)
    level: str | None = None
    chapter: int | None = None
    section: int | None = None
    seq: int = 0
    id: int | None = None

    @property
    def label(self) -> str:
        return self.norm or self.number


def rule_from_row(row: dict) -> Rule:
    return Rule(key=row["key"], edition=row["edition_id"], number=row["number"] or "", norm=row["norm"] or "",
                text=row["text"] or "", text_norm=row["text_norm"] or row["text"] or "", title=row["title"],
                level=row["level"], chapter=row["chapter"], section=row["section"], seq=row["seq"] or 0,
                id=row["id"], lemmas=row.get("lemmas") or "")


def make_rule(edition: str, number: str, text: str = "", title: str | None = None, seq: int = 0,
              key: str | None = None, text_norm: str | None = None) -> Rule:
    """A rule built from a number and a text (tests, synthetic editions)."""
    norm = numbers.normalize(number)
    valid = numbers.is_number(norm)
    head = numbers.split(norm)[0] if valid else None
    return Rule(key=key or f"{edition}/{norm}", edition=edition, number=number, norm=norm, text=text,
                text_norm=text if text_norm is None else text_norm, title=title,
                level=numbers.level(norm) if valid else None, chapter=numbers.chapter(norm) if valid else None,
                section=head if valid and head >= 100 else None, seq=seq)


@dataclass(frozen=True)
class Pair:
    """One aligned pair, oriented old → new: the tiny interface :func:`classify` works on.

    ``old`` and ``new`` name a rule by key or by normalised number; ``None`` means no counterpart
    (such rows may be given but are not needed: a rule without pairs is added or removed).
    """

    old: str | None
    new: str | None
    relation: str = ""
    score: float | None = None
    method: str = ""


# --------------------------------------------------------------------------- classification


@dataclass
class Group:
    """One story of the change report: a pair, a split, a merge, an added or a removed rule."""

    change_class: str
    old: list[Rule]
    new: list[Rule]
    score: float | None = None
    relation: str = ""
    method: str = ""
    text_changed: bool | None = None      # None: not comparable (other language)
    expected: list[str] = field(default_factory=list)   # systematic number(s) for a 1:1 pair
    note: str = ""
    diff: list | None = None               # word diff segments (same language only)
    terminology_only: bool = False         # every change folds into a terminology shift

    @property
    def old_numbers(self) -> list[str]:
        return [r.label for r in self.old]

    @property
    def new_numbers(self) -> list[str]:
        return [r.label for r in self.new]

    @property
    def sort_key(self) -> tuple:
        if self.new:
            return (0, self.new[0].seq, self.old[0].seq if self.old else 0)
        return (1, self.old[0].seq, 0)


@dataclass
class Classification:
    old: list[Rule]
    new: list[Rule]
    groups: list[Group]
    old_class: dict[str, str]              # old rule key -> class
    new_class: dict[str, str]              # new rule key -> class
    section_map: dict[int, list[int]]      # old section -> expected new sections
    chapter_map: dict[int, list[int]]      # old chapter -> expected new chapters
    targets: dict[str, list[Rule]]         # old key -> new rules
    sources: dict[str, list[Rule]]         # new key -> old rules
    pair_info: dict[tuple[str, str], Pair]

    def counts(self) -> dict[str, dict[str, int]]:
        """Class -> {"old": n, "new": n}: rules per class on each side."""
        out = {c: {"old": 0, "new": 0} for c in CLASSES}
        for c in self.old_class.values():
            out[c]["old"] += 1
        for c in self.new_class.values():
            out[c]["new"] += 1
        return out

    def by_chapter(self) -> list[dict]:
        """Rows (side, edition, chapter, counts per class, total) for the summary table."""
        rows = []
        for side, rules, classes in (("old", self.old, self.old_class), ("new", self.new, self.new_class)):
            per: dict[int | None, Counter] = defaultdict(Counter)
            for r in rules:
                per[r.chapter][classes[r.key]] += 1
            for ch in sorted(per, key=lambda c: (c is None, c or 0)):
                rows.append({"side": side, "edition": rules[0].edition if rules else "", "chapter": ch,
                             "counts": {c: per[ch][c] for c in CLASSES}, "total": sum(per[ch].values())})
        return rows


def _index(rules: Sequence[Rule]) -> dict[str, Rule]:
    idx: dict[str, Rule] = {}
    for r in rules:
        idx.setdefault(r.norm, r)
        idx.setdefault(r.number, r)
    for r in rules:
        idx[r.key] = r
    return idx


def _same_text(a: Rule, b: Rule) -> bool:
    def norm(r: Rule) -> str:
        return " ".join(f"{r.title or ''} {r.text_norm or r.text}".split())
    return norm(a) == norm(b)


def classify(old: Sequence[Rule], new: Sequence[Rule], pairs: Iterable[Pair | tuple], *,
             cross_language: bool = False) -> Classification:
    """Change classes of every rule of two editions from their aligned pairs (see the module doc).

    ``pairs`` are :class:`Pair` or plain tuples ``(old, new, relation, score)``; rules are named by
    key or normalised number.  Unknown names raise ``KeyError`` (a pair must point at real rules).
    """
    old, new = list(old), list(new)
    oi, ni = _index(old), _index(new)
    targets: dict[str, list[Rule]] = defaultdict(list)
    sources: dict[str, list[Rule]] = defaultdict(list)
    info: dict[tuple[str, str], Pair] = {}
    for p in pairs:
        p = p if isinstance(p, Pair) else Pair(*p)
        if p.old is None or p.new is None:
            continue
        o, n = oi[p.old], ni[p.new]
        if (o.key, n.key) in info:
            continue
        info[o.key, n.key] = p
        targets[o.key].append(n)
        sources[n.key].append(o)
    for k in targets:
        targets[k].sort(key=lambda r: r.seq)
    for k in sources:
        sources[k].sort(key=lambda r: r.seq)

    section_map, chapter_map = _place_maps(old, targets)
    old_class: dict[str, str] = {}
    new_class: dict[str, str] = {}
    groups: list[Group] = []

    def agg(o_rules, n_rules) -> tuple[float | None, str, str]:
        ps = [info[o.key, n.key] for o in o_rules for n in n_rules if (o.key, n.key) in info]
        scores = [p.score for p in ps if p.score is not None]
        rels = sorted({p.relation for p in ps if p.relation})
        methods = sorted({p.method for p in ps if p.method})
        return (min(scores) if scores else None), ",".join(rels), ",".join(methods)

    kept_sections = {r.section for r in old if targets.get(r.key)}
    kept_chapters = {r.chapter for r in old if targets.get(r.key)}
    for o in old:
        ts = targets.get(o.key, [])
        if not ts:
            old_class[o.key] = "removed"
            groups.append(Group("removed", [o], [], note=_removed_note(o, kept_sections, kept_chapters)))
        elif len(ts) > 1:
            old_class[o.key] = "split"
            score, rel, method = agg([o], ts)
            groups.append(Group("split", [o], list(ts), score, rel, method,
                                text_changed=None if cross_language else True))
            for n in ts:
                if len(sources[n.key]) == 1:
                    new_class[n.key] = "split"
        elif len(sources[ts[0].key]) > 1:
            old_class[o.key] = "merged"
        else:
            n = ts[0]
            score, rel, method = agg([o], [n])
            g = _one_to_one(o, n, section_map, chapter_map, cross_language, rel)
            g.score, g.relation, g.method = score, rel, method
            old_class[o.key] = new_class[n.key] = g.change_class
            groups.append(g)
    for n in new:
        ss = sources.get(n.key, [])
        if not ss:
            new_class[n.key] = "added"
            groups.append(Group("added", [], [n]))
        elif len(ss) > 1:
            new_class[n.key] = "merged"
            score, rel, method = agg(ss, [n])
            groups.append(Group("merged", list(ss), [n], score, rel, method,
                                text_changed=None if cross_language else True))
    groups.sort(key=lambda g: g.sort_key)
    return Classification(old, new, groups, old_class, new_class, section_map, chapter_map,
                          dict(targets), dict(sources), info)


def _removed_note(o: Rule, kept_sections: set, kept_chapters: set) -> str:
    """Say when the whole section (or chapter) of a removed rule has no counterpart at all."""
    if o.chapter is not None and o.chapter not in kept_chapters:
        return f"no rule of chapter {o.chapter} has a counterpart"
    if o.level in ("rule", "subrule") and o.section is not None and o.section not in kept_sections:
        return f"no rule of section {o.section} has a counterpart"
    return ""


def _place_maps(old: list[Rule], targets: dict[str, list[Rule]]) -> tuple[dict, dict]:
    """Expected new sections of every old section, expected new chapters of every old chapter."""
    sec_votes: dict[int, Counter] = defaultdict(Counter)
    chap_votes: dict[int, Counter] = defaultdict(Counter)
    sec_heading: dict[int, set] = defaultdict(set)
    chap_heading: dict[int, set] = defaultdict(set)
    for o in old:
        for n in targets.get(o.key, []):
            if o.level == "section" and o.section is not None:
                if n.section is not None:
                    sec_heading[o.section].add(n.section)
            elif o.level in ("rule", "subrule") and o.section is not None and n.section is not None:
                sec_votes[o.section][n.section] += 1
            if o.level == "chapter" and o.chapter is not None and n.chapter is not None:
                chap_heading[o.chapter].add(n.chapter)
            elif o.chapter is not None and n.chapter is not None:
                chap_votes[o.chapter][n.chapter] += 1

    def combine(votes, heading) -> dict[int, list[int]]:
        out = {}
        for key in set(votes) | set(heading):
            v = votes.get(key, Counter())
            total = sum(v.values())
            keep = {s for s, c in v.items() if c >= SECTION_SHARE * total}
            out[key] = sorted(keep | heading.get(key, set()))
        return out

    return combine(sec_votes, sec_heading), combine(chap_votes, chap_heading)


def expected_numbers(o: Rule, section_map: dict, chapter_map: dict) -> list[str]:
    """The numbers a rule would carry if only its section (or chapter) had been renumbered."""
    if not o.norm or not numbers.is_number(o.norm) or o.level is None:
        return [o.norm]
    if o.level in ("rule", "subrule") and o.section is not None:
        rest = o.norm[len(str(o.section)):]
        return [f"{s}{rest}" for s in section_map.get(o.section, [o.section])]
    if o.level == "section":
        return [str(c * 100 + o.section % 100) for c in chapter_map.get(o.chapter, [o.chapter])]
    return [o.norm]


def is_moved(o: Rule, n: Rule, section_map: dict, chapter_map: dict) -> bool:
    if o.level in ("rule", "subrule") and o.section is not None and n.section is not None:
        return n.section not in section_map.get(o.section, [o.section])
    if o.level == "section" and o.chapter is not None and n.chapter is not None:
        return n.chapter not in chapter_map.get(o.chapter, [o.chapter])
    return False


def _one_to_one(o: Rule, n: Rule, section_map, chapter_map, cross_language: bool, relation: str) -> Group:
    if cross_language:
        changed = "reworded" in relation.split(",")
    else:
        changed = not _same_text(o, n)
    expected = expected_numbers(o, section_map, chapter_map)
    if is_moved(o, n, section_map, chapter_map):
        where = section_map.get(o.section) if o.level in ("rule", "subrule") else chapter_map.get(o.chapter)
        unit = "section" if o.level in ("rule", "subrule") else "chapter"
        cls = "moved"
        note = f"{unit} {o.section if unit == 'section' else o.chapter} went to {', '.join(map(str, where or []))}"
    elif n.norm not in expected:
        cls, note = "renumbered", f"expected {' or '.join(expected)}"
    else:
        cls, note = ("reworded" if changed else "unchanged"), ""
    return Group(cls, [o], [n], text_changed=changed, expected=expected, note=note)


# --------------------------------------------------------------------------- terminology


@dataclass(frozen=True)
class Term:
    old: str
    new: str
    note: str = ""


def load_terms(path: Path | str = TERMINOLOGY, lang: str = "de") -> list[Term]:
    """The curated terminology table (``old_term, new_term, lang, note``; ``#`` lines are comments)."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    out = []
    for row in csv.DictReader(lines, delimiter="\t"):
        if (row.get("lang") or lang) != lang:
            continue
        old, new = (row.get("old_term") or "").strip(), (row.get("new_term") or "").strip()
        if old and old != new:
            out.append(Term(old, new, (row.get("note") or "").strip()))
    return out


# separable verb particles: "ankündigen -> ansagen" also folds "kündigt ... an" -> "sagt ... an"
_PARTICLES = ("zurück", "heraus", "hinzu", "nach", "aus", "auf", "ein", "mit", "vor", "weg", "an", "ab", "zu")


@dataclass
class _TermIndex:
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


@lru_cache(maxsize=64)
def _term_index(terms: tuple[Term, ...], lang: str) -> _TermIndex:
    """Lemmatised term pairs.  Besides the curated pairs, two kinds are derived from them:

    * a phrase pair that differs in one word implies that word pair ("Fähigkeit spielen →
      Fähigkeit aktivieren" gives "spielen → aktivieren"); an old word may thus have several new
      words, and the one found in the new text is used;
    * a verb pair with the same separable particle also folds the split-off verb ("ankündigen →
      ansagen" gives "kündigen → sagen", for "kündigt ... an").
    """
    entries: list[tuple[tuple[str, ...], tuple[str, ...], Term]] = []
    derived: list[tuple[tuple[str, ...], tuple[str, ...], Term]] = []
    new_phrases = set()
    for t in terms:
        if not t.new:
            continue
        o = _term_lemmas(t.old, lang)
        n = _term_lemmas(t.new, lang)
        if not o or not n:
            continue
        entries.append((o, n, t))
        if len(n) > 1:
            new_phrases.add(n)
        if len(o) == len(n) > 1:
            diff_at = [k for k in range(len(o)) if o[k] != n[k]]
            if len(diff_at) == 1:
                derived.append(((o[diff_at[0]],), (n[diff_at[0]],), t))
        if len(o) == 1 and len(n) == 1 and lang == "de":
            for p in _PARTICLES:
                if o[0].startswith(p) and n[0].startswith(p) and len(o[0]) > len(p) + 2 and len(n[0]) > len(p) + 2:
                    derived.append(((o[0][len(p):],), (n[0][len(p):],), t))
                    break
    entries.extend(derived)
    seen, unique = set(), []
    for e in entries:
        if (e[0], e[1]) not in seen:
            seen.add((e[0], e[1]))
            unique.append(e)
    unique.sort(key=lambda e: -len(e[0]))
    return _TermIndex(unique, sorted(new_phrases, key=len, reverse=True))


def _term_lemmas(text: str, lang: str) -> tuple[str, ...]:
    return tuple(_lemma(w, lang, base_form=True) for w in _words(text))


def _words(text: str) -> list[str]:
    return [m.group() for m in _TOKEN.finditer(text) if _is_word(m.group())]


# --------------------------------------------------------------------------- tokens and keys

_TOKEN = re.compile(
    r"\{[^{}\s]{1,8}\}"                        # canonical or web mana symbol
    r"|\d{1,3}\.\d+[a-z]?"                     # rule number
    r"|[^\W_]+(?:[-'’][^\W_]+)*"               # word, hyphenated compound, elision
    r"|\.\.\."                                 # ellipsis written with dots
    r"|\S"                                     # punctuation, one character
)
_QUOTES = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‚": "'", "‘": "'", "’": "'",
                         "–": "-", "—": "-", "…": "...", "\u00a0": " "})


@dataclass(frozen=True)
class Token:
    text: str
    ws: str          # whitespace that follows the token in the printed text


def tokenize(text: str) -> list[Token]:
    text = text or ""
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out = []
    for k, (a, b) in enumerate(spans):
        nxt = spans[k + 1][0] if k + 1 < len(spans) else len(text)
        out.append(Token(text[a:b], " " if text[b:nxt] else ""))
    return out


def _is_word(tok: str) -> bool:
    return bool(tok) and (tok[0].isalpha() or tok[0].isdigit()) and not tok.startswith("{")


_LETTERS = re.compile(r"[^\W\d_]{2,}")
#: lemmas already known per language: seeded from the KB's ``lemmas`` column (which holds
#: simplemma's output for every word), so a report over the KB never loads simplemma's dictionaries
_KNOWN: dict[str, dict[str, str]] = defaultdict(dict)


def seed_lemmas(lang: str, texts_and_lemmas: Iterable[tuple[str, str]]) -> None:
    """Remember word -> lemma pairs of texts lemmatised by the build (``kb.lemmas``: same words)."""
    known = _KNOWN[lang]
    for text, lem in texts_and_lemmas:
        words, lemmas = _LETTERS.findall(text or ""), (lem or "").split()
        if len(words) == len(lemmas):
            known.update(zip(words, lemmas))


def _lemma(word: str, lang: str, base_form: bool = False) -> str:
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
    return "-".join(known[p] if p in known else _simplemma(p, lang) for p in parts)


@lru_cache(maxsize=200_000)
def _simplemma(word: str, lang: str) -> str:
    if lang not in ("de", "it", "en"):
        return word.lower()
    import simplemma

    try:
        return simplemma.lemmatize(word, lang=lang).lower()
    except ValueError:
        return word.lower()


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


@dataclass(frozen=True)
class _Unit:
    start: int       # token index
    end: int         # exclusive
    key: str
    kind: str        # word, symbol, punct, term
    term: Term | None = None


def _units(tokens: list[Token], lang: str, scheme: str, terms: _TermIndex | None, side: str,
           prefer: frozenset[str] = frozenset()) -> list[_Unit]:
    """Folded units of a token list; on the old side terms become their new wording (``prefer``: the
    keys of the new text, to pick among several new words of one old word)."""
    base = []
    for i, t in enumerate(tokens):
        sym = _symbol(t.text, scheme)
        if sym is not None:
            base.append(_Unit(i, i + 1, sym, "symbol"))
        elif _is_word(t.text):
            base.append(_Unit(i, i + 1, _lemma(t.text, lang), "word"))
        else:
            base.append(_Unit(i, i + 1, t.text.translate(_QUOTES), "punct"))
    # a run of symbols is one unit: "o3 oU oU", "{3}{u}{u}" and "o3oUoU" all read {3}{U}{U}
    merged: list[_Unit] = []
    for u in base:
        if u.kind == "symbol" and merged and merged[-1].kind == "symbol" and merged[-1].end == u.start:
            merged[-1] = _Unit(merged[-1].start, u.end, merged[-1].key + u.key, "symbol")
        else:
            merged.append(u)
    base = merged
    if terms is None:
        return base
    out: list[_Unit] = []
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
                    hit = _Unit(base[k].start, base[k + len(o) - 1].end, " ".join(n), "term", term)
            else:
                for n in terms.new_by_first.get(base[k].key, ()):
                    if _match(base, k, n):
                        hit = _Unit(base[k].start, base[k + len(n) - 1].end, " ".join(n), "word")
                        break
        if hit is not None:
            out.append(hit)
            k += hit.end - hit.start
        else:
            out.append(base[k])
            k += 1
    return out


def _match(units: list[_Unit], k: int, lemmas: tuple[str, ...]) -> bool:
    if k + len(lemmas) > len(units):
        return False
    return all(units[k + j].kind == "word" and units[k + j].key == lemmas[j] for j in range(len(lemmas)))


# --------------------------------------------------------------------------- word diff


@dataclass(frozen=True)
class Seg:
    """One piece of a word diff.

    ``op``: ``equal``, ``delete`` (old only), ``insert`` (new only), ``replace``, ``term`` (a folded
    shift: terminology, spelling, case, inflection, symbol notation; ``label`` says which) or
    ``part`` (a part boundary inside a split or merged group: ``label`` is the rule number,
    ``old``/``new`` tells on which side it stands).
    """

    op: str
    old: str = ""
    new: str = ""
    label: str = ""

    def as_list(self) -> list[str]:
        return [self.op, self.old, self.new, self.label]


def _join(tokens: Sequence[Token]) -> str:
    return "".join(t.text + t.ws for t in tokens)


def word_diff(old: str, new: str, *, lang: str = "de", old_scheme: str = "none", new_scheme: str = "none",
              terms: Sequence[Term] = ()) -> list[Seg]:
    """Word diff of two texts in reading order.

    ``term`` segments are the differences that fold away (see :class:`Seg`); everything else that
    differs is ``delete``/``insert``/``replace``.  ``old_scheme``/``new_scheme`` name the symbol
    schemes of :mod:`ingest.symbols` so "ocT" and "{tap}" both read as {T}.
    """
    from difflib import SequenceMatcher

    a, b = tokenize(old), tokenize(new)
    tindex = _term_index(tuple(terms), lang) if terms else None
    ops: list[tuple[str, int, int, int, int, str]] = []
    sm = SequenceMatcher(None, [t.text for t in a], [t.text for t in b], autojunk=False)
    first = [(("equal" if tag == "equal" else "replace"), i1, i2, j1, j2, "")
             for tag, i1, i2, j1, j2 in sm.get_opcodes()]
    for op in _cleanup(first, a, b):
        if op[0] == "equal":
            ops.append(op)
        else:
            ops.extend(_fold_region(a, b, *op[1:5], lang, old_scheme, new_scheme, tindex))
    # a grammatical fold (inflection, case) next to a change is part of that rewrite, not a shift
    change = ("insert", "delete", "replace")
    for k, op in enumerate(ops):
        if op[0] == "term" and op[5] in _GRAMMAR and (
                (k > 0 and ops[k - 1][0] in change) or (k + 1 < len(ops) and ops[k + 1][0] in change)):
            ops[k] = ("replace", *op[1:5], "")
    return _segments(a, b, ops)


_CHANGE = ("delete", "insert", "replace")


def _cleanup(ops: list[tuple], a: list[Token], b: list[Token]) -> list[tuple]:
    """Semantic cleanup (as in diff-match-patch): a short stretch of kept words between two larger
    changes is a coincidence ("das", "ein"), not a correspondence; it joins the changes around it.

    An equality goes when it holds at most two words, none longer than four letters (a content
    word in common is evidence, never a coincidence), and its characters are at most the larger
    side of the change on its left and at most that of the change on its right.
    """
    def short(op) -> bool:
        words = [t.text for t in a[op[1]:op[2]] if _is_word(t.text)]
        return len(words) <= 2 and all(len(w) <= 4 for w in words)

    def size(op) -> int:
        if op[0] == "equal" or op[0] == "term":
            return len(_join(a[op[1]:op[2]]).strip())
        return max(len(_join(a[op[1]:op[2]]).strip()), len(_join(b[op[3]:op[4]]).strip()))

    ops = list(ops)
    k = 1
    while k < len(ops) - 1:
        left, mid, right = ops[k - 1], ops[k], ops[k + 1]
        if mid[0] == "equal" and left[0] in _CHANGE and right[0] in _CHANGE and short(mid) \
                and size(mid) <= size(left) and size(mid) <= size(right):
            ops[k - 1:k + 2] = [("replace", left[1], right[2], left[3], right[4], "")]
            k = max(1, k - 1)
        else:
            k += 1
    return ops


def _fold_region(a, b, i1, i2, j1, j2, lang, old_scheme, new_scheme, tindex):
    """Pass two over a region pass one found different: equal folded keys become ``term`` ops.

    (:func:`word_diff` then turns grammatical folds next to a change back into changes; curated
    terminology, spelling and symbol notation always fold.)
    """
    from difflib import SequenceMatcher

    if i1 == i2 or j1 == j2:
        return [("delete" if i1 < i2 else "insert", i1, i2, j1, j2, "")]
    ub = _units(b[j1:j2], lang, new_scheme, tindex, "new")
    ua = _units(a[i1:i2], lang, old_scheme, tindex, "old", frozenset(u.key for u in ub))
    out = []
    sm = SequenceMatcher(None, [u.key for u in ua], [u.key for u in ub], autojunk=False)
    for tag, p1, p2, q1, q2 in sm.get_opcodes():
        if tag == "equal":
            for u, v in zip(ua[p1:p2], ub[q1:q2]):
                ta = [t.text for t in a[i1 + u.start:i1 + u.end]]
                tb = [t.text for t in b[j1 + v.start:j1 + v.end]]
                span = (i1 + u.start, i1 + u.end, j1 + v.start, j1 + v.end)
                if ta == tb:
                    out.append(("equal", *span, ""))
                else:
                    out.append(("term", *span, _fold_label(u, v, ta, tb)))
        else:
            s1 = i1 + (ua[p1].start if p1 < len(ua) else i2 - i1)
            s2 = i1 + (ua[p2 - 1].end if p2 > p1 else (ua[p1].start if p1 < len(ua) else i2 - i1))
            t1 = j1 + (ub[q1].start if q1 < len(ub) else j2 - j1)
            t2 = j1 + (ub[q2 - 1].end if q2 > q1 else (ub[q1].start if q1 < len(ub) else j2 - j1))
            if s1 == s2:
                out.append(("insert", s1, s1, t1, t2, ""))
            elif t1 == t2:
                out.append(("delete", s1, s2, t1, t1, ""))
            else:
                out.append(("replace", s1, s2, t1, t2, ""))
    return _cleanup(out, a, b)


_GRAMMAR = ("inflection", "case")


def _fold_label(u: _Unit, v: _Unit, ta: list[str], tb: list[str]) -> str:
    if u.term is not None:
        return f"{u.term.old} → {u.term.new}"
    if u.kind == "symbol":
        return "symbol notation"
    if u.kind == "punct":
        return "typography"
    if [t.lower() for t in ta] == [t.lower() for t in tb]:
        return "case"
    if len(ta) == 1 and len(tb) == 1 and _spelling(ta[0]) == _spelling(tb[0]):
        return "spelling"
    return "inflection"


def _spelling(word: str) -> str:
    return word.lower().replace("ß", "ss")


def _segments(a, b, ops) -> list[Seg]:
    """Token-level ops -> segments."""
    segs: list[Seg] = []

    def add(op, old="", new="", label=""):
        if segs and segs[-1].op == op and segs[-1].label == label:
            last = segs.pop()
            segs.append(Seg(op, last.old + old, last.new + new, label))
        else:
            segs.append(Seg(op, old, new, label))

    for op, i1, i2, j1, j2, label in ops:
        if op == "equal":
            add("equal", _join(a[i1:i2]), _join(b[j1:j2]))
        elif op == "term":
            add("term", _join(a[i1:i2]), _join(b[j1:j2]), label)
        else:
            add("delete", _join(a[i1:i2]))
            add("insert", new=_join(b[j1:j2]))
    # consecutive changes read as one replacement
    out: list[Seg] = []
    for s in segs:
        if s.op in ("delete", "insert") and not (s.old or s.new):
            continue
        if s.op in ("delete", "insert", "replace") and out and out[-1].op in ("delete", "insert", "replace"):
            prev = out.pop()
            old, new = prev.old + s.old, prev.new + s.new
            out.append(Seg("replace" if old and new else ("delete" if old else "insert"), old, new))
        else:
            out.append(s)
    return out


def changed(segs: Sequence[Seg], fold: bool = True) -> bool:
    """Does the diff contain a change (a folded shift counts only when ``fold`` is False)?"""
    real = {"delete", "insert", "replace"} | (set() if fold else {"term"})
    return any(s.op in real for s in segs)


def diff_stats(segs: Sequence[Seg]) -> dict[str, int]:
    """Words deleted, inserted and folded."""
    out = Counter()
    for s in segs:
        if s.op in ("delete", "replace"):
            out["deleted"] += len(_words(s.old))
        if s.op in ("insert", "replace"):
            out["inserted"] += len(_words(s.new))
        if s.op == "term":
            out["folded"] += 1
        if s.op == "equal":
            out["kept"] += len(_words(s.new))
    return dict(out)


# --------------------------------------------------------------------------- rendering of one diff


def inline_html(segs: Sequence[Seg] | None, fold: bool = True) -> Markup:
    """One column: kept words as text, changes as ``<del>``/``<ins>``, folded shifts marked; escaped.

    Kept text is printed as in the new edition; a deletion gets the space the old text had.
    """
    if segs is None:
        return Markup("")
    out: list[Markup] = []
    old_ws = new_ws = True      # did the old / new text end with whitespace so far?

    def space(flag: bool) -> None:
        if flag and out and not str(out[-1]).endswith((" ", "> ")):
            out.append(Markup(" "))

    for s in segs:
        if s.op == "equal" or (s.op == "term" and fold):
            if s.op == "equal":
                out.append(escape(s.new))
            else:
                out.append(Markup('<span class="term" title="{}">{}</span>{}').format(
                    f"{s.old.strip()} → {s.new.strip()} ({s.label})", s.new.rstrip(), s.new[len(s.new.rstrip()):]))
            old_ws, new_ws = s.old[-1:].isspace(), s.new[-1:].isspace()
        elif s.op == "part":
            out.append(Markup('<span class="part">{}</span> ').format(s.label))
            old_ws = new_ws = True
        else:
            if s.old.strip():
                space(old_ws)
                out.append(Markup("<del>{}</del>").format(s.old.strip()))
                old_ws = s.old[-1:].isspace()
            if s.new.strip():
                space(True if s.old.strip() else new_ws)
                out.append(Markup("<ins>{}</ins>").format(s.new.strip()))
                new_ws = s.new[-1:].isspace()
            if (s.new[-1:].isspace() if s.new.strip() else s.old[-1:].isspace()):
                out.append(Markup(" "))
    return Markup("").join(out)


def side_html(segs: Sequence[Seg], side: str, fold: bool = True) -> Markup:
    """One side of a side-by-side view: the old text with ``<del>``, or the new text with ``<ins>``."""
    out = []
    tag = "del" if side == "old" else "ins"
    for s in segs:
        text = s.old if side == "old" else s.new
        if s.op == "equal":
            out.append(escape(text))
        elif s.op == "part":
            if text:
                out.append(Markup('<span class="part">{}</span> ').format(s.label))
        elif s.op == "term" and fold:
            other = s.new if side == "old" else s.old
            out.append(Markup('<span class="term" title="{}">{}</span>{}').format(
                f"{'new' if side == 'old' else 'old'}: {other.strip()} ({s.label})", text.rstrip(),
                text[len(text.rstrip()):]))
        elif text:
            trail = " " if text != text.rstrip() else ""
            out.append(Markup("<{0}>{1}</{0}>").format(Markup(tag), text.rstrip()) + trail)
    return Markup("").join(out)


def plain_html(text: str) -> Markup:
    return escape(text or "")


# --------------------------------------------------------------------------- loading from the KB


@dataclass
class Edition:
    id: str
    language: str
    date: str
    title: str
    kind: str
    scheme: str


def _conn(db) -> sqlite3.Connection:
    conn = getattr(db, "conn", db)
    return conn


def _rows(conn, sql: str, params: Sequence = ()) -> list[dict]:
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def _table_exists(conn, name: str) -> bool:
    return conn.execute("select 1 from sqlite_master where type in ('table','view') and name = ?",
                        (name,)).fetchone() is not None


def load_edition(conn, edition_id: str) -> Edition:
    rows = _rows(conn, "select * from editions where id = ?", (edition_id,))
    if not rows:
        known = ", ".join(r["id"] for r in _rows(conn, "select id from editions order by id"))
        raise LookupError(f"no edition {edition_id!r} in the KB (editions: {known})")
    e = rows[0]
    return Edition(e["id"], e["language"], str(e["date"] or ""), e["title"] or "", e["kind"] or "",
                   _scheme(e.get("parser") or ""))


def _scheme(parser_name: str) -> str:
    try:
        from ingest import _load_parsers
        from ingest.registry import get

        _load_parsers()
        return get(parser_name).symbols
    except Exception:
        return "none"


def load_rules(conn, edition_id: str) -> list[Rule]:
    return [rule_from_row(r) for r in _rows(
        conn, "select id, key, edition_id, number, norm, level, chapter, section, title, text, text_norm, seq, "
              "lemmas from rules where edition_id = ? order by seq", (edition_id,))]


def load_pairs(conn, old_edition: str, new_edition: str) -> list[Pair]:
    """Aligned pairs of two editions, oriented old → new (rows stored new → old are turned round)."""
    if not _table_exists(conn, "alignments"):
        raise LookupError("the KB has no alignments table: build it with the alignment stage (`kb build`)")
    sql = ("select s.key s_key, t.key t_key, a.relation, a.score, a.method from alignments a "
           "join rules s on s.id = a.source_rule_id join rules t on t.id = a.target_rule_id "
           "where a.source_edition = ? and a.target_edition = ? order by a.id")
    rows = _rows(conn, sql, (old_edition, new_edition))
    if rows:
        return [Pair(r["s_key"], r["t_key"], r["relation"] or "", r["score"], r["method"] or "") for r in rows]
    flip = {"split": "merged", "merged": "split"}
    rows = _rows(conn, sql, (new_edition, old_edition))
    return [Pair(r["t_key"], r["s_key"], flip.get(r["relation"], r["relation"] or ""), r["score"],
                 r["method"] or "") for r in rows]


def aligned_edition_pairs(conn) -> list[tuple[str, str]]:
    """Edition pairs (old, new) with rule-to-rule alignment rows, older edition first."""
    if not _table_exists(conn, "alignments"):
        return []
    rows = _rows(conn, "select distinct a.source_edition s, a.target_edition t from alignments a "
                       "join rules r1 on r1.id = a.source_rule_id join rules r2 on r2.id = a.target_rule_id")
    dates = {r["id"]: str(r["date"] or "") for r in _rows(conn, "select id, date from editions")}
    out = []
    for r in rows:
        s, t = r["s"], r["t"]
        if s == t:
            continue
        pair = (s, t) if dates.get(s, "") <= dates.get(t, "") else (t, s)
        if pair not in out:
            out.append(pair)
    return sorted(out)


# --------------------------------------------------------------------------- the report


@dataclass
class Report:
    old: Edition
    new: Edition
    cls: Classification
    cross_language: bool
    terms: list[Term]
    terminology: list[dict]
    candidates: list[dict]

    @property
    def groups(self) -> list[Group]:
        return self.cls.groups

    def story(self, number: str) -> list[Group]:
        """Groups that involve a rule with this number (old or new edition)."""
        norm = numbers.normalize(number)
        return [g for g in self.groups if any(r.norm == norm for r in g.old + g.new)]


def compare(db, old_edition: str, new_edition: str, terms: Sequence[Term] | None = None,
            pairs: Sequence[Pair] | None = None) -> Report:
    """Load two editions and their alignment from the KB and compute the whole change report."""
    conn = _conn(db)
    old_e, new_e = load_edition(conn, old_edition), load_edition(conn, new_edition)
    old, new = load_rules(conn, old_edition), load_rules(conn, new_edition)
    if pairs is None:
        pairs = load_pairs(conn, old_edition, new_edition)
        if not pairs:
            known = ", ".join(f"{a} → {b}" for a, b in aligned_edition_pairs(conn)) or "none"
            raise LookupError(f"the KB has no aligned rule pairs between {old_edition} and {new_edition} "
                              f"(aligned editions: {known})")
    if terms is None:
        terms = load_terms(TERMINOLOGY, new_e.language)
        if old_e.date > new_e.date:
            # the table goes from older to newer wording: read it backwards for a backwards diff
            terms = [Term(t.new, t.old, t.note) for t in terms if t.new]
    return build_report(old_e, new_e, old, new, pairs, terms)


def build_report(old_e: Edition, new_e: Edition, old: list[Rule], new: list[Rule], pairs: Iterable,
                 terms: Sequence[Term] = ()) -> Report:
    cross = old_e.language != new_e.language
    terms = list(terms) if not cross else []
    pairs = [p if isinstance(p, Pair) else Pair(*p) for p in pairs]
    if not cross:
        seed_lemmas(new_e.language, ((_full_text(r), r.lemmas) for r in old + new if r.lemmas))
        pairs = refine_pairs(old, new, pairs, old_e, new_e, terms)
    cls = classify(old, new, pairs, cross_language=cross)
    if not cross:
        for g in cls.groups:
            if g.old and g.new:
                g.diff = group_diff(g, old_e, new_e, terms)
                if g.text_changed and not changed(g.diff, fold=True) and g.change_class != "split" \
                        and g.change_class != "merged":
                    g.terminology_only = True
    terminology, candidates = terminology_table(cls.groups, terms, new_e.language) if not cross else ([], [])
    return Report(old_e, new_e, cls, cross, terms, terminology, candidates)


def _full_text(r: Rule) -> str:
    return " ".join(x for x in (r.title, r.text) if x)


#: split/merge completion (same language): the pair alone covers at most COVER_ALONE of the
#: whole's words, with the neighbour at least COVER_WITH, and the neighbour's words come from
#: the whole at least NEIGHBOUR_FROM
COVER_ALONE, COVER_WITH, NEIGHBOUR_FROM = 0.8, 0.9, 0.8


def refine_pairs(old: list[Rule], new: list[Rule], pairs: list[Pair], old_e: Edition, new_e: Edition,
                 terms: Sequence[Term] = ()) -> list[Pair]:
    """Complete splits and merges the alignment missed, from word evidence (same language only).

    An aligner that pairs an old rule with only the first half of its split (and leaves the
    second half "added") is corrected here: for a one-to-one pair (o, m) whose words differ, a
    neighbour N of m (next or previous rule of the new edition) without any source joins the
    pair as a split part when o's words are covered by m alone at most ``COVER_ALONE`` but by m
    and N together at least ``COVER_WITH``, and at least ``NEIGHBOUR_FROM`` of N's words come
    from o.  Merges mirror this with old neighbours without a counterpart.  Added pairs carry
    ``method="diff-refine"`` and their coverage as score.
    """
    lang = new_e.language
    tindex = _term_index(tuple(terms), lang) if terms else None
    cache: dict[tuple[str, str], Counter] = {}

    def keys(r: Rule, side: str) -> Counter:
        k = (r.key, side)
        if k not in cache:
            scheme = old_e.scheme if side == "old" else new_e.scheme
            cache[k] = Counter(u.key for u in _units(tokenize(_full_text(r)), lang, scheme, tindex, side)
                               if u.kind in ("word", "term", "symbol") and len(u.key) >= 3)
        return cache[k]

    def cover(whole: Counter, *parts: Counter) -> float:
        total = sum(whole.values())
        if not total:
            return 0.0
        joined = Counter()
        for p in parts:
            joined.update(p)
        return sum(min(c, joined[w]) for w, c in whole.items()) / total

    oi, ni = _index(old), _index(new)
    targets: dict[str, list[str]] = defaultdict(list)
    sources: dict[str, list[str]] = defaultdict(list)
    for p in pairs:
        if p.old is None or p.new is None:
            continue
        o, n = oi[p.old].key, ni[p.new].key
        targets[o].append(n)
        sources[n].append(o)
    old_pos = {r.key: i for i, r in enumerate(old)}
    new_pos = {r.key: i for i, r in enumerate(new)}
    extra: list[Pair] = []
    for p in pairs:
        if p.old is None or p.new is None:
            continue
        o, m = oi[p.old], ni[p.new]
        if len(targets[o.key]) != 1 or len(sources[m.key]) != 1 or _same_text(o, m):
            continue
        # split: new neighbours without a source complete the old rule
        ko, parts = keys(o, "old"), [keys(m, "new")]
        if cover(ko, *parts) <= COVER_ALONE:
            for step in (1, -1):
                j = new_pos[m.key] + step
                while 0 <= j < len(new):
                    nb = new[j]
                    if sources.get(nb.key) or nb.level != m.level and nb.level not in ("rule", "subrule"):
                        break
                    kn = keys(nb, "new")
                    if not kn or cover(kn, ko) < NEIGHBOUR_FROM or cover(ko, *parts, kn) <= cover(ko, *parts):
                        break
                    parts.append(kn)
                    sources[nb.key].append(o.key)
                    targets[o.key].append(nb.key)
                    extra.append(Pair(o.key, nb.key, "split", round(cover(kn, ko), 3), "diff-refine"))
                    j += step
            if len(parts) > 1 and cover(ko, *parts) < COVER_WITH:
                # not complete after all: take the additions back
                for q in [q for q in extra if q.old == o.key and q.method == "diff-refine"]:
                    extra.remove(q)
                    targets[o.key].remove(q.new)
                    sources[q.new].remove(o.key)
        if len(targets[o.key]) > 1:
            continue
        # merge: old neighbours without a counterpart are part of the new rule
        km, parts = keys(m, "new"), [keys(o, "old")]
        if cover(km, *parts) <= COVER_ALONE:
            added = []
            for step in (1, -1):
                j = old_pos[o.key] + step
                while 0 <= j < len(old):
                    nb = old[j]
                    if targets.get(nb.key) or nb.level != o.level and nb.level not in ("rule", "subrule"):
                        break
                    kn = keys(nb, "old")
                    if not kn or cover(kn, km) < NEIGHBOUR_FROM or cover(km, *parts, kn) <= cover(km, *parts):
                        break
                    parts.append(kn)
                    added.append(nb)
                    j += step
            if added and cover(km, *parts) >= COVER_WITH:
                for nb in added:
                    targets[nb.key].append(m.key)
                    sources[m.key].append(nb.key)
                    extra.append(Pair(nb.key, m.key, "merged", round(cover(keys(nb, "old"), km), 3), "diff-refine"))
    return pairs + extra


_SENTENCE = re.compile(r"(?<=[.!?:])[\"“”)]*\s+(?=[A-ZÄÖÜ„\"(])")


def sentences(text: str) -> list[str]:
    """Sentences of a rule text (a split point is an end mark followed by a capital)."""
    parts, pos = [], 0
    for m in _SENTENCE.finditer(text or ""):
        parts.append(text[pos:m.end()].strip())
        pos = m.end()
    parts.append((text or "")[pos:].strip())
    return [p for p in parts if p]


def group_diff(g: Group, old_e: Edition, new_e: Edition, terms: Sequence[Term]) -> list[Seg]:
    """Word diff of a group.

    A one-to-one pair is one word diff.  A split is one word diff per new part: every sentence of
    the old rule goes to the part it shares most (folded) words with, so each part is compared
    with the old sentences it took over; a merge is the same the other way round.  Each part
    starts with a ``part`` segment (``old``/``new``: the two rule numbers of that row).
    """
    kw = dict(lang=new_e.language, old_scheme=old_e.scheme, new_scheme=new_e.scheme, terms=terms)
    if len(g.old) == 1 and len(g.new) == 1:
        return word_diff(_full_text(g.old[0]), _full_text(g.new[0]), **kw)
    segs: list[Seg] = []
    if len(g.new) > 1:
        whole = g.old[0]
        sents = sentences(_full_text(whole))
        parts = [_full_text(n) for n in g.new]
        assign = _assign(sents, parts, "old", old_e.scheme, new_e.scheme, new_e.language, terms)
        for k, n in enumerate(g.new):
            sub = " ".join(s for s, x in zip(sents, assign) if x == k)
            segs.append(Seg("part", old=whole.label, new=n.label, label=n.label))
            segs.extend(word_diff(sub, parts[k], **kw))
    else:
        whole = g.new[0]
        sents = sentences(_full_text(whole))
        parts = [_full_text(o) for o in g.old]
        assign = _assign(sents, parts, "new", new_e.scheme, old_e.scheme, new_e.language, terms)
        for k, o in enumerate(g.old):
            sub = " ".join(s for s, x in zip(sents, assign) if x == k)
            segs.append(Seg("part", old=o.label, new=whole.label, label=o.label))
            segs.extend(word_diff(parts[k], sub, **kw))
    return segs


def _assign(sents: list[str], parts: list[str], side: str, s_scheme: str, p_scheme: str, lang: str,
            terms: Sequence[Term]) -> list[int]:
    """Index of the part each sentence is most similar to (cosine of folded words of 4+ letters);
    ties and sentences sharing nothing stay with the previous sentence's part."""
    tindex = _term_index(tuple(terms), lang) if terms else None
    other = "new" if side == "old" else "old"

    def keys(text: str, which: str, scheme: str) -> Counter:
        toks = tokenize(text)
        return Counter(u.key for u in _units(toks, lang, scheme, tindex, which)
                       if u.kind in ("word", "term") and len(u.key) >= 4)

    part_keys = [keys(p, other, p_scheme) for p in parts]
    out: list[int] = []
    for s in sents:
        k = keys(s, side, s_scheme)
        scores = [_cosine(k, pk) for pk in part_keys]
        best = max(scores) if scores else 0.0
        prev = out[-1] if out else None
        if best == 0.0 or (prev is not None and scores[prev] == best):
            out.append(prev if prev is not None else 0)
        else:
            out.append(scores.index(best))
    return out


def _cosine(a: Counter, b: Counter) -> float:
    num = sum(c * b[w] for w, c in a.items() if w in b)
    den = (sum(c * c for c in a.values()) * sum(c * c for c in b.values())) ** 0.5
    return num / den if den else 0.0


def terminology_table(groups: Sequence[Group], terms: Sequence[Term], lang: str,
                      min_candidate: int = 2) -> tuple[list[dict], list[dict]]:
    """Each curated old → new term: shifts found in the diffs (and where), survivals of the old term.

    Also *candidates*: one-word substitutions (lemma → lemma) not in the table that recur in at
    least ``min_candidate`` groups, a hint for curating the table.
    """
    # counted per (old rule, new rule) row: a pair inside a many-to-many cluster appears in
    # both its split and its merged group, so each row keeps the larger of the two counts
    shifts: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    forms: dict[tuple[str, str], dict[tuple[str, str], Counter]] = defaultdict(dict)
    cand: dict[tuple[str, str], set[str]] = defaultdict(set)
    known_pairs = set()
    tindex = _term_index(tuple(terms), lang) if terms else _TermIndex([], [])
    for o, n, _ in tindex.old:
        known_pairs.add((" ".join(o), " ".join(n)))
    for g in groups:
        if not g.diff:
            continue
        row = (", ".join(g.old_numbers), ", ".join(g.new_numbers))
        local: dict[tuple[str, str], Counter] = defaultdict(Counter)
        local_forms: dict[tuple[str, str], dict] = defaultdict(lambda: defaultdict(Counter))
        for s in g.diff:
            if s.op == "part":
                row = (g.old_numbers[0], s.label) if len(g.new) > 1 else (s.label, g.new_numbers[0])
            elif s.op == "term" and "→" in s.label:
                old_t, new_t = (x.strip() for x in s.label.split("→", 1))
                where = f"{row[0]} → {row[1]}"
                local[old_t, new_t][where] += 1
                local_forms[old_t, new_t][where][f"{s.old.strip()} → {s.new.strip()}"] += 1
            elif s.op == "replace":
                wo, wn = _words(s.old), _words(s.new)
                if len(wo) == 1 and len(wn) == 1 and not wo[0][0].isdigit() and not wn[0][0].isdigit():
                    lo, ln = _lemma(wo[0], lang), _lemma(wn[0], lang)
                    if lo != ln and (lo, ln) not in known_pairs:
                        cand[lo, ln].add(f"{row[0]} → {row[1]}")
        for k, per_row in local.items():
            for where, c in per_row.items():
                if c > shifts[k].get(where, 0):
                    shifts[k][where] = c
                    forms[k][where] = local_forms[k][where]
    # survivals: the old term still printed in the new edition; vanished terms in the old one
    kept: dict[tuple[str, str], list[str]] = defaultdict(list)
    gone: dict[tuple[str, str], list[str]] = defaultdict(list)
    term_lemmas = [(t, _term_lemmas(t.old, lang)) for t in terms]
    # a term whose old and new wording share their lemmas is a spelling shift: match the spelling
    spelling = {t: re.compile(rf"(?<!\w){re.escape(t.old)}(?!\w)", re.IGNORECASE)
                for t, o in term_lemmas if t.new and o == _term_lemmas(t.new, lang)}
    seen: set[str] = set()
    for g in groups:
        for side, rules in (("new", g.new), ("old", g.old)):
            for r in rules:
                if r.key in seen:
                    continue
                seen.add(r.key)
                lem = [_lemma(w, lang) for w in _words(_full_text(r))]
                lem_set = set(lem)
                for t, o in term_lemmas:
                    if not o or o[0] not in lem_set or not (spelling[t].search(_full_text(r)) if t in spelling else _contains(lem, o)):
                        continue
                    if side == "new":
                        kept[t.old, t.new].append(r.label)
                    elif not t.new and g.new:
                        gone[t.old, t.new].append(f"{r.label} → {', '.join(g.new_numbers)}")
    table = []
    for t in terms:
        k = (t.old, t.new)
        if not (shifts.get(k) or gone.get(k)):
            continue
        all_forms = Counter()
        for c in forms.get(k, {}).values():
            all_forms.update(c)
        rules = list(shifts[k]) if shifts.get(k) else gone.get(k, [])
        table.append({"old": t.old, "new": t.new, "note": t.note,
                      "count": sum(shifts[k].values()) if shifts.get(k) else len(set(gone.get(k, []))),
                      "rules": sorted(set(rules), key=_where_key),
                      "forms": dict(all_forms.most_common()),
                      "kept": len(set(kept.get(k, []))), "kept_in": sorted(set(kept.get(k, [])), key=_num_key),
                      "gone": not t.new})
    table.sort(key=lambda r: (-r["count"], r["old"].lower()))
    # function words (lemmas in more than a quarter of the rules) are grammar, not terminology
    df, n_rules = Counter(), 0
    for g in groups:
        for r in g.old + g.new:
            n_rules += 1
            df.update(set(r.lemmas.split()) if r.lemmas else {_lemma(w, lang) for w in _words(_full_text(r))})
    common = {w for w, c in df.items() if c > n_rules / 4}
    candidates = [{"old": o, "new": n, "count": len(w), "rules": sorted(w, key=_where_key)}
                  for (o, n), w in cand.items() if len(w) >= min_candidate and o not in common and n not in common]
    candidates.sort(key=lambda r: (-r["count"], r["old"]))
    return table, candidates


def _contains(seq: list[str], sub: tuple[str, ...]) -> bool:
    n = len(sub)
    return any(tuple(seq[i:i + n]) == sub for i in range(len(seq) - n + 1))


def _num_key(n: str):
    return numbers.sort_key(n) if numbers.is_number(n) else (99, 0, 0, n)


def _where_key(w: str):
    return _num_key(w.split(" → ")[0].split(",")[0].strip())


def renumbering_map(cls: Classification) -> list[dict]:
    """Every old rule with its new number(s) and class, in old order (the map old → new)."""
    out = []
    for o in cls.old:
        ts = cls.targets.get(o.key, [])
        out.append({"old": o.label, "new": [t.label for t in ts], "class": cls.old_class[o.key],
                    "level": o.level, "chapter": o.chapter, "section": o.section})
    return out


# --------------------------------------------------------------------------- JSON


def rule_json(r: Rule) -> dict:
    return {"id": r.id, "edition": r.edition, "number": r.number, "norm": r.norm, "level": r.level,
            "chapter": r.chapter, "section": r.section, "title": r.title, "text": r.text}


def group_json(g: Group) -> dict:
    return {
        "class": g.change_class, "old": [rule_json(r) for r in g.old], "new": [rule_json(r) for r in g.new],
        "score": g.score, "relation": g.relation, "method": g.method, "text_changed": g.text_changed,
        "terminology_only": g.terminology_only, "expected_numbers": g.expected, "note": g.note,
        "diff": [s.as_list() for s in g.diff] if g.diff is not None else None,
        "diff_stats": diff_stats(g.diff) if g.diff is not None else None,
    }


def report_json(rep: Report, rule: str | None = None) -> dict:
    cls = rep.cls
    groups = rep.story(rule) if rule else cls.groups
    out = {
        "from": vars(rep.old), "to": vars(rep.new), "cross_language": rep.cross_language,
        "classes": list(CLASSES),
        "counts": cls.counts(),
        "by_chapter": cls.by_chapter(),
        "rules": {"old": {r.label if r.key.count("#") == 0 else r.key: cls.old_class[r.key] for r in cls.old},
                  "new": {r.label if r.key.count("#") == 0 else r.key: cls.new_class[r.key] for r in cls.new}},
        "section_map": {str(k): v for k, v in sorted(cls.section_map.items())},
        "chapter_map": {str(k): v for k, v in sorted(cls.chapter_map.items())},
        "renumbering": renumbering_map(cls),
        "terminology": rep.terminology,
        "terminology_candidates": rep.candidates,
        "groups": [group_json(g) for g in groups],
    }
    if rule:
        out["rule"] = rule
    return out


# --------------------------------------------------------------------------- build stage: the diffs table

DIFFS_COLUMNS = {
    "id": int, "old_rule_id": int, "new_rule_id": int, "old_edition": str, "new_edition": str,
    "old_number": str, "new_number": str, "chapter": int, "old_chapter": int, "new_chapter": int,
    "change_class": str, "old_class": str, "new_class": str, "relation": str, "score": float, "note": str,
    "text_changed": int, "terminology_only": int, "cross_language": int, "group_old": str, "group_new": str,
    "words_deleted": int, "words_inserted": int, "words_folded": int,
    "diff_html": str, "diff_html_folded": str,
}


def diff_rows(rep: Report, start_id: int = 1) -> list[dict]:
    """Rows of the ``diffs`` table for one edition pair: one per aligned pair, added or removed rule."""
    rows = []
    cls = rep.cls
    split_of = {g.old[0].key: g for g in cls.groups if g.change_class == "split"}
    merged_of = {g.new[0].key: g for g in cls.groups if g.change_class == "merged"}
    one = {(g.old[0].key, g.new[0].key): g for g in cls.groups if len(g.old) == 1 and len(g.new) == 1}

    def row(o: Rule | None, n: Rule | None, g: Group, cls_name: str) -> dict:
        stats = diff_stats(g.diff) if g.diff is not None else {}
        if rep.cross_language:
            html_plain = _xlang_html(g)
            html_fold = html_plain
        else:
            html_plain = str(inline_html(g.diff, fold=False)) if g.diff is not None else ""
            html_fold = str(inline_html(g.diff, fold=True)) if g.diff is not None else ""
        if g.diff is None and not rep.cross_language:
            html_plain = html_fold = _single_html(g)
        return {
            "_sort": (n.seq if n else 10 ** 6, o.seq if o else 0),
            "old_rule_id": o.id if o else None, "new_rule_id": n.id if n else None,
            "old_edition": rep.old.id, "new_edition": rep.new.id,
            "old_number": o.label if o else None, "new_number": n.label if n else None,
            "chapter": (o or n).chapter, "old_chapter": o.chapter if o else None,
            "new_chapter": n.chapter if n else None, "change_class": cls_name,
            "old_class": cls.old_class[o.key] if o else None, "new_class": cls.new_class[n.key] if n else None,
            "relation": g.relation or None, "score": g.score, "note": g.note or None,
            "text_changed": None if g.text_changed is None else int(g.text_changed),
            "terminology_only": int(g.terminology_only), "cross_language": int(rep.cross_language),
            "group_old": ", ".join(g.old_numbers), "group_new": ", ".join(g.new_numbers),
            "words_deleted": stats.get("deleted"), "words_inserted": stats.get("inserted"),
            "words_folded": stats.get("folded"), "diff_html": html_plain, "diff_html_folded": html_fold,
        }

    for g in cls.groups:
        if g.change_class == "added":
            rows.append(row(None, g.new[0], g, "added"))
        elif g.change_class == "removed":
            rows.append(row(g.old[0], None, g, "removed"))
    for (ok, nk), _ in cls.pair_info.items():
        o = next(r for r in cls.sources[nk] if r.key == ok)
        n = next(r for r in cls.targets[ok] if r.key == nk)
        if (ok, nk) in one:
            g = one[ok, nk]
            rows.append(row(o, n, g, g.change_class))
        elif ok in split_of:
            rows.append(row(o, n, split_of[ok], "split"))
        else:
            rows.append(row(o, n, merged_of[nk], "merged"))
    rows.sort(key=lambda r: r.pop("_sort"))
    for i, r in enumerate(rows, start_id):
        r["id"] = i
    return rows


def _single_html(g: Group) -> str:
    r = (g.old or g.new)[0]
    tag = "del" if g.old else "ins"
    return str(Markup("<{0}>{1}</{0}>").format(Markup(tag), _full_text(r)))


def _xlang_html(g: Group) -> str:
    """Across languages: both texts, no word diff (structure only)."""
    parts = []
    for side, rules in (("old", g.old), ("new", g.new)):
        for r in rules:
            parts.append(Markup('<span class="part">{}</span> {}').format(r.label, _full_text(r)))
        if side == "old" and g.old and g.new:
            parts.append(Markup(" <span class=\"sep\">⇒</span> "))
    return str(Markup("").join(parts))


def store(db) -> None:
    """Build stage (after the alignments): write the precomputed ``diffs`` table for every aligned pair."""
    conn = _conn(db)
    pairs = aligned_edition_pairs(conn)
    table = db["diffs"] if hasattr(db, "table_names") else None
    rows: list[dict] = []
    for old_ed, new_ed in pairs:
        rep = compare(db, old_ed, new_ed)
        rows.extend(diff_rows(rep, start_id=len(rows) + 1))
    if table is None:
        import sqlite_utils

        db = sqlite_utils.Database(conn)
        table = db["diffs"]
    if table.exists():
        table.drop()
    table.create(DIFFS_COLUMNS, pk="id", foreign_keys=[("old_rule_id", "rules", "id"),
                                                       ("new_rule_id", "rules", "id")])
    table.insert_all(rows)
    for cols in (["old_rule_id"], ["new_rule_id"], ["old_edition", "new_edition", "change_class"]):
        table.create_index(cols)


# --------------------------------------------------------------------------- Datasette


def metadata() -> dict:
    """Datasette metadata of the ``diffs`` table (merge under ``databases.kb.tables.diffs``)."""
    return {
        "description_html": (
            "What changed between two editions, rule by rule, computed from the alignments: one row per "
            "aligned pair, added or removed rule. <code>change_class</code> is one of "
            + ", ".join(CLASSES) + ". <code>diff_html</code> is the word diff (<del>deleted</del> "
            "<ins>inserted</ins>); <code>diff_html_folded</code> folds pure terminology, spelling and "
            "symbol-notation shifts (dotted underline). Across languages no word diff is made."),
        "facets": ["change_class", "chapter", "old_edition", "new_edition"],
        "sort": "id",
        "label_column": "group_new",
        "columns": {
            "old_number": "number in the old edition (links to the rule page)",
            "new_number": "number in the new edition (links to the rule page)",
            "chapter": "chapter of the old rule (of the new rule for added rules)",
            "change_class": "class of this pair; a rule's own class is old_class / new_class",
            "old_class": "class of the old rule (each rule has exactly one)",
            "new_class": "class of the new rule (each rule has exactly one)",
            "relation": "the aligner's relation(s) for this pair",
            "score": "the aligner's score (lowest of the group)",
            "note": "why renumbered or moved; removed sections",
            "text_changed": "1 when the words differ (NULL across languages)",
            "terminology_only": "1 when every change folds into terminology, spelling or symbol notation",
            "group_old": "old rules of the group (split/merge parts)",
            "group_new": "new rules of the group",
            "diff_html": "word diff, escaped, with <del>/<ins>",
            "diff_html_folded": "word diff with terminology shifts folded",
        },
    }


def canned_queries() -> dict:
    """Canned queries for Datasette (merge under ``databases.kb.queries``)."""
    return {
        "rule_changes": {
            "title": "What happened to a rule between two editions",
            "description": "Every diff row that involves rule :number (old or new side), e.g. 409.2f or 601.2f.",
            "sql": "select id, old_edition, old_number, change_class, new_edition, new_number, note, "
                   "diff_html_folded from diffs where old_number = trim(:number, '. ') "
                   "or new_number = trim(:number, '. ') order by old_edition, new_edition, id",
        },
        "change_summary": {
            "title": "Change classes per chapter",
            "description": "Rules per change class, per edition pair and chapter.",
            "sql": "select old_edition, new_edition, chapter, change_class, count(*) as pairs, "
                   "count(distinct old_rule_id) as old_rules, count(distinct new_rule_id) as new_rules "
                   "from diffs group by 1, 2, 3, 4 order by 1, 2, 3, 4",
        },
    }


_STYLE = {
    "ins": "background:#d4f7d4;text-decoration:none",
    "del": "background:#f9d0d0;text-decoration:line-through",
    "term": "border-bottom:1px dotted #2a6fb0;background:#eef4fb",
    "part": "font-size:0.8em;background:#eee;border:1px solid #ccc;border-radius:3px;padding:0 3px",
    "sep": "color:#888",
}


class _Sanitizer(HTMLParser):
    """Re-emits only the markup the diff renderer produces: <ins>, <del>, <span class=term|part|sep title>.

    Anything else (tags, attributes, comments) is dropped and all text is escaped again, so a cell
    whose content did not come from :func:`inline_html` cannot inject markup.
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("ins", "del"):
            self.out.append(f'<{tag} style="{_STYLE[tag]}">')
            self.stack.append(tag)
        elif tag == "span" and attrs.get("class") in ("term", "part", "sep"):
            title = attrs.get("title")
            t = f' title="{html.escape(title, quote=True)}"' if title else ""
            self.out.append(f'<span class="{attrs["class"]}" style="{_STYLE[attrs["class"]]}"{t}>')
            self.stack.append("span")
        else:
            self.stack.append("")

    def handle_endtag(self, tag):
        while self.stack:
            top = self.stack.pop()
            if top:
                self.out.append(f"</{top}>")
            if top == tag or (not top and tag not in ("ins", "del", "span")):
                break

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        while self.stack:
            top = self.stack.pop()
            if top:
                self.out.append(f"</{top}>")
        return "".join(self.out)


def sanitize(value: str) -> Markup:
    p = _Sanitizer()
    p.feed(value or "")
    p.close()
    return Markup(p.result())


def render_cell(value, column: str, table: str | None, row=None, prefix: str = "/") -> Markup | None:
    """Datasette ``render_cell`` piece for the ``diffs`` table (None: not ours, let others render).

    ``diff_html``/``diff_html_folded`` are shown as HTML, re-sanitised (:func:`sanitize`);
    ``old_number``/``new_number`` link to the rule pages ``/rule/<edition>/<number>``.
    """
    if table != "diffs" or not isinstance(value, str):
        return None
    if column in ("diff_html", "diff_html_folded"):
        return Markup('<div style="max-width:60em;line-height:1.5">{}</div>').format(sanitize(value))
    if column in ("old_number", "new_number") and row is not None:
        keys = row.keys()
        ed_col = "old_edition" if column == "old_number" else "new_edition"
        if ed_col in keys:
            edition = row[ed_col]
            edition = edition["value"] if isinstance(edition, dict) else edition
            from .links import rule_path

            return Markup('<a href="{}">{}</a>').format(rule_path(str(edition), value, prefix), value)
    return None
