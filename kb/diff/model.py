"""The records every part of :mod:`kb.diff` passes around: rules, pairs, groups, editions, terms,
diff segments, the classification and the whole report."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from ingest import numbers

from . import CLASSES


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
    #: title and text, as the word diff compares them (made once: every pair of the rule's edition reads it)
    full_text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "full_text", full_text(self.title, self.text))

    @property
    def label(self) -> str:
        return self.norm or self.number


def full_text(title: str | None, text: str) -> str:
    """:attr:`Rule.full_text`: the title and the text, each if there is one."""
    return f"{title} {text}" if title and text else title or text


def make_rule(edition: str, number: str, text: str = "", title: str | None = None, seq: int = 0,
              key: str | None = None, text_norm: str | None = None) -> Rule:
    """A rule built from a number and a text (tests, synthetic editions)."""
    norm = numbers.normalize(number)
    valid = numbers.is_number(norm)
    head = numbers.parts(norm)[0] if valid else 0
    return Rule(key=key or f"{edition}/{norm}", edition=edition, number=number, norm=norm, text=text,
                text_norm=text if text_norm is None else text_norm, title=title,
                level=numbers.level(norm) if valid else None, chapter=numbers.chapter(norm) if valid else None,
                section=head if valid and head >= 100 else None, seq=seq)


class Pair(NamedTuple):
    """One aligned pair, oriented old → new: the tiny interface :func:`kb.diff.classify` works on.

    ``old`` and ``new`` name a rule by key or by normalised number; ``None`` means no counterpart
    (such rows may be given but are not needed: a rule without pairs is added or removed).  A named
    tuple: the diffs stage makes one per aligned pair of every edition pair.
    """

    old: str | None
    new: str | None
    relation: str = ""
    score: float | None = None
    method: str = ""


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
    diff: list[Seg] | None = None          # word diff segments (same language only)
    terminology_only: bool = False         # every change folds into a terminology shift
    #: the lineage's links of the group: (old number, new number, relation, score), one per aligned pair
    links: list[tuple[str, str, str, float | None]] = field(default_factory=list)

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
    #: one-to-one pairs with the same words left out of the rest (``classify(settled=...)``): (old, new, pair)
    settled: list[tuple[Rule, Rule, Pair]] = field(default_factory=list)

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


@dataclass
class EditionInfo:
    id: str
    language: str
    date: str
    title: str
    kind: str
    scheme: str
    #: the parts of the rules the edition covers (number prefixes); empty: the whole rules
    covers: tuple[str, ...] = ()


@dataclass
class Report:
    old: EditionInfo
    new: EditionInfo
    cls: Classification
    cross_language: bool
    terminology: list[dict]
    candidates: list[dict]
    #: rule key -> the comparison scenarios whose games diverge because of the rule (kb.rulesets, the table
    #: rule_divergences): dicts with scenario, scenario_id, title, rule_set, line, step, differs
    in_play: dict[str, list[dict]] = field(default_factory=dict)
    #: the split and merge parts the refinement added to the aligned pairs (:func:`kb.diff.classes.refine_pairs`);
    #: the build stores them with the alignments, so that every view of the lineage has them
    refined: list[Pair] = field(default_factory=list)

    @property
    def groups(self) -> list[Group]:
        return self.cls.groups

    def story(self, number: str) -> list[Group]:
        """Groups that involve a rule with this number (old or new edition)."""
        norm = numbers.normalize(number)
        return [g for g in self.groups if any(r.norm == norm for r in g.old + g.new)]
