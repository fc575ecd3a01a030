"""Which editions get aligned with which: a plan that follows from the editions, not from code.

* **Chains.** The ``cr`` editions of one family (by default its language and kind: ``en-cr``,
  ``de-cr``; the manifest may name another ``family``), sorted by date, align each to the next:
  en-1999 → en-2003 → … → en-2026, de-1999 → de-2024.
* **Translations.** An edition aligns to its original: the manifest's ``translation_of``, or else
  the edition of the original language (:data:`ORIGINAL_LANGUAGE`) closest in date whose coverage
  overlaps.
* **Extra pairs.** An edition's ``align_with`` names more targets (the Italian wiki is curated
  against the German 2024 rules; an article explains one edition's rules).
* **Items.** FAQ bullets align to the rules of their own edition (and to the FAQ of the edition
  they translate); an article's steps and examples align to the rules of its ``align_with``.

Every other pair is computed on demand (:mod:`kb.align.ondemand`).  Nothing here names an edition.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ingest import numbers

#: the language the Comprehensive Rules are written in; other languages are translations of it
ORIGINAL_LANGUAGE = "en"


@dataclass(frozen=True)
class EditionSpec:
    """What the plan needs to know of an edition (from the ``editions`` table)."""

    id: str
    language: str
    date: str
    kind: str = "cr"
    family: str = ""
    translation_of: str = ""
    covers: tuple[str, ...] = ()
    align_with: tuple[str, ...] = ()
    #: record kinds the edition has (rule, faq, step, ...)
    has: frozenset[str] = field(default_factory=frozenset)

    @property
    def family_key(self) -> str:
        return self.family or f"{self.language}-{self.kind}"


@dataclass(frozen=True)
class PlannedPair:
    source: str
    target: str
    #: cross-edition, cross-language, items, faq, faq-translation
    kind: str
    #: chain, translation, extra, faq: why the pair is in the plan
    reason: str


def when(d: str) -> date:
    """An edition date ("2024-11-08", "2024-11", "2024") as a day; a bare year is its middle."""
    parts = [int(p) for p in d.split("-") if p.isdigit()]
    if not parts:
        return date(1, 1, 1)
    if len(parts) == 1:
        return date(parts[0], 7, 1)
    return date(parts[0], parts[1], parts[2] if len(parts) > 2 else 15)


def overlaps(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Do two coverages share a rule? A coverage is a set of number prefixes ("6", "702.34"); empty = all."""
    if not a or not b:
        return True
    return any(numbers.within(x, y) or numbers.within(y, x) for x in a for y in b)


def rule_pair_kind(a: EditionSpec, b: EditionSpec) -> str:
    """How the rules of two editions are aligned: ``cross-edition`` in one language, else ``cross-language``."""
    return "cross-edition" if a.language == b.language else "cross-language"


def plan(editions: list[EditionSpec]) -> list[PlannedPair]:
    """Every pair the build aligns, in a stable order (chains, translations, extras, items)."""
    by_id = {e.id: e for e in editions}
    out: list[PlannedPair] = []
    out += _chains(editions)
    for e in editions:
        original = _original(e, editions, by_id)
        if original is not None:
            out.append(PlannedPair(e.id, original.id, "cross-language", "translation"))
            if "faq" in e.has and "faq" in original.has:
                out.append(PlannedPair(e.id, original.id, "faq-translation", "translation"))
    for e in editions:
        for target in e.align_with:
            if target not in by_id:
                continue
            t = by_id[target]
            kind = "items" if e.kind == "article" else rule_pair_kind(e, t)
            out.append(PlannedPair(e.id, target, kind, "extra"))
    for e in editions:
        if "faq" in e.has and "rule" in e.has:
            out.append(PlannedPair(e.id, e.id, "faq", "faq"))
    return list(dict.fromkeys(out))


def _chains(editions: list[EditionSpec]) -> list[PlannedPair]:
    families: dict[str, list[EditionSpec]] = {}
    for e in editions:
        if e.kind == "cr" and "rule" in e.has:
            families.setdefault(e.family_key, []).append(e)
    out = []
    for members in families.values():
        members.sort(key=lambda e: (when(e.date), e.id))
        out += [PlannedPair(a.id, b.id, "cross-edition", "chain") for a, b in zip(members, members[1:])]
    return out


def _original(e: EditionSpec, editions: list[EditionSpec], by_id: dict[str, EditionSpec]) -> EditionSpec | None:
    """The edition ``e`` is a translation of: named in the manifest, or the closest original."""
    if e.translation_of:
        return by_id.get(e.translation_of)
    if e.language == ORIGINAL_LANGUAGE or e.kind == "article" or "rule" not in e.has:
        return None
    candidates = [o for o in editions if o.language == ORIGINAL_LANGUAGE and o.kind == e.kind and "rule" in o.has
                  and overlaps(e.covers, o.covers)]
    if not candidates:
        return None
    return min(candidates, key=lambda o: (abs((when(o.date) - when(e.date)).days), o.id))
