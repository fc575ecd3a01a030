"""What the aligners see of a rule or item (:class:`AlignRule`), what they produce (:class:`Alignment`),
and the adapters that read views from the KB."""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from .. import lemmas as lemmas_mod

RELATIONS = ("equivalent", "reworded", "renumbered", "split", "merged", "no counterpart")
#: the method of the links the target-side coverage pass adds (:mod:`kb.align.crossedition`): a newer rule that
#: restates one sentence of an older rule (the evidence holds it: ``evidence``)
COVERAGE_METHOD = "xedition-coverage"


# --------------------------------------------------------------------------- views


@dataclass(eq=True, unsafe_hash=True, slots=True)
class AlignRule:
    """What the aligners see of a rule (or of an item such as an article step or FAQ bullet).  Treated as
    immutable (hashable by value); not a frozen dataclass only because a build makes ~300,000 of them and
    a frozen one takes three times as long to create."""

    key: str                    # "de-2024/601.2c"; unique within its edition
    edition: str
    lang: str
    norm: str                   # normalised number, "" for items
    text: str                   # text with canonical symbols (text_norm), title included for headings
    seq: int                    # document order
    level: str | None = None    # chapter, section, rule, subrule
    title: str | None = None
    lemmas: tuple[str, ...] = ()  # lower-cased lemmas of title and text (stop words included)
    examples: str = ""          # lemmas of the examples that hang off the rule
    line: int | None = None     # first source line
    id: int | None = None       # rules.id or items.id in the KB
    kind: str = "rule"          # "rule" or the item kind

    @property
    def identity(self) -> tuple[str | None, str, str]:
        """(level, title, text with whitespace collapsed): equal for a rule printed identically."""
        return _identity(self.level, self.title, self.text)


@dataclass
class Alignment:
    """One alignment row: ``target`` None means the source has no counterpart."""

    source: AlignRule
    target: AlignRule | None
    score: float
    relation: str
    method: str
    evidence: dict = field(default_factory=dict)

    def pair(self) -> tuple[str, str | None]:
        return self.source.key, (self.target.key if self.target else None)


def make_view(key: str, edition: str, lang: str, norm: str, text: str, seq: int, **kw) -> AlignRule:
    """A view whose lemmas are computed here (tests, synthetic editions, parsed documents)."""
    if "lemmas" not in kw:
        title = kw.get("title") or ""
        kw["lemmas"] = tuple(lemmas_mod.lemmatize(f"{title} {text}".strip(), lang).split())
    return AlignRule(key=key, edition=edition, lang=lang, norm=norm, text=text, seq=seq, **kw)


def views_from_db(db, edition_id: str) -> list[AlignRule]:
    """The rules of one edition of the KB (``sqlite_utils.Database``), in document order.

    Texts and lemma tuples that other editions print too are shared, not copied: consecutive editions
    repeat most rules word for word, and a build holds the views of every edition at once."""
    lang = _edition_lang(db, edition_id)
    conn = getattr(db, "conn", db)
    examples: dict[int, list[str]] = defaultdict(list)
    for rule_id, lems in conn.execute("select rule_id, lemmas from items where edition_id = ? and kind = 'example' "
                                      "and rule_id is not null order by seq", [edition_id]):
        examples[rule_id].append(lems or "")
    return _views(edition_id, lang, conn.execute(
        "select id, key, norm, level, title, text_norm, lemmas, seq, line_start from rules "
        "where edition_id = ? order by seq", [edition_id]), examples)


def views_from_rows(rules: dict[str, list], items: dict[str, list] | None, base: dict[str, int]
                    ) -> dict[str, list[AlignRule]]:
    """The views of the rules of one document's rows as the build writes them (``rules`` and ``items``: lists of
    values per column, lemmas included; ``base``: what the build adds to their ids, :func:`kb.schema.insert_document`),
    per edition: what :func:`views_from_db` reads back once they are written, without reading it back."""
    rule_base = base.get("rules", 0)
    examples: dict[int, list[str]] = defaultdict(list)
    if items:
        found = sorted((seq, rule_id, lems) for seq, kind, rule_id, lems
                       in zip(items["seq"], items["kind"], items["rule_id"], items["lemmas"])
                       if kind == "example" and rule_id is not None)
        for _, rule_id, lems in found:
            examples[rule_id + rule_base].append(lems or "")
    seqs = rules["seq"]
    rows = list(zip([i + rule_base for i in rules["id"]], rules["key"], rules["norm"], rules["level"], rules["title"],
                    rules["text_norm"], rules["lemmas"], seqs, rules["line_start"]))
    ends = list(zip(rules["edition_id"], rules["language"]))
    if not all(a < b for a, b in pairwise(seqs)):   # (rows come in document order, as a rule)
        order = sorted(range(len(rows)), key=seqs.__getitem__)
        rows, ends = [rows[n] for n in order], [ends[n] for n in order]
    by_edition: dict[tuple[str, str], list[tuple]] = {}
    if len(set(ends)) == 1:   # one edition in the document, as a rule
        by_edition[ends[0]] = rows
    else:
        for end, row in zip(ends, rows):
            by_edition.setdefault(end, []).append(row)
    return {edition: _views(edition, lang, found, examples) for (edition, lang), found in by_edition.items()}


def _views(edition_id: str, lang: str, rows, examples: dict[int, list[str]]) -> list[AlignRule]:
    """Views of ``rows`` (id, key, norm, level, title, text_norm, lemmas, seq, line_start), in their order."""
    intern = sys.intern
    # positional arguments (the field order of AlignRule): a third faster than keywords for ~200,000 views
    return [AlignRule(key, edition_id, lang, norm or "", intern(text or ""), seq, level, title,
                      _lemma_tuple(lems or ""), intern(" ".join(examples[rid])) if rid in examples else "", line, rid)
            for rid, key, norm, level, title, text, lems, seq, line in rows]


#: typography that editions print differently without changing a word, left out of a rule's identity: quote marks
#: and apostrophes, curly or straight or printed as "?" (the English editions of 2005-10, 2008-05 and 2019-01 each
#: changed them throughout), italics marked with underscores ("_Magic_", 2008-07), trademark signs ("(r)", "®")
_TYPOGRAPHY = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2026": "..."}
                            | dict.fromkeys("'\"\u2018\u2019\u201c\u201d?_\u00ae\u2122"))
_SIGNS = re.compile(r"\((?:r|tm)\)", re.IGNORECASE)


@lru_cache(maxsize=1 << 18)
def _identity(level: str | None, title: str | None, text: str) -> tuple[str | None, str, str]:
    """Consecutive editions print most rules identically: one tuple per distinct rule, not per view.  Whitespace and
    typography (:data:`_TYPOGRAPHY`) do not count: a rule whose words did not change is the same rule."""
    return (level, _SIGNS.sub("", (title or "").strip().translate(_TYPOGRAPHY)),
            " ".join(_SIGNS.sub("", text.translate(_TYPOGRAPHY)).split()))


@lru_cache(maxsize=1 << 18)
def _lemma_tuple(lemmas: str) -> tuple[str, ...]:
    return tuple(map(sys.intern, lemmas.split()))


def items_from_db(db, edition_id: str, kinds: tuple[str, ...]) -> list[AlignRule]:
    """Items of one edition (article steps and examples, FAQ bullets) as views, in document order."""
    lang = _edition_lang(db, edition_id)
    marks = ",".join("?" for _ in kinds)
    return [AlignRule(key=f"{edition_id}/{r['kind']}@{r['line_start']}", edition=edition_id, lang=lang, norm="",
                     text=r["text_norm"] or r["text"] or "", seq=r["seq"], title=r["title"],
                     lemmas=tuple((r["lemmas"] or "").split()), line=r["line_start"], id=r["id"], kind=r["kind"])
            for r in db.query(f"select id, kind, title, text, text_norm, lemmas, seq, line_start from items "
                              f"where edition_id = ? and kind in ({marks}) order by seq", [edition_id, *kinds])]


def _edition_lang(db, edition_id: str) -> str:
    row = next(db.query("select language from editions where id = ?", [edition_id]), None)
    return row["language"] if row else "de"
