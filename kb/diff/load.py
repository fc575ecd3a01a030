"""From the KB to a :class:`Report`: :func:`compare` loads two editions and their alignment rows,
:func:`build_report` refines the pairs, classifies, diffs every group word by word and counts
the terminology."""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import sqlite_utils

from ingest import UnknownParser, get_parser

from ..align.ondemand import FLIP
from ..terminology import Term
from .classes import classify, refine_and_settle, settled_pairs
from .model import EditionInfo, Pair, Report, Rule, full_text
from .terminology import TERMINOLOGY, load_terms, term_index, terminology_table
from .tokens import seed_lemmas
from .words import changed, group_diff


def connection(db):
    """The sqlite3 connection of a connection or of a ``sqlite_utils.Database``."""
    return getattr(db, "conn", db)


def _rows(conn, sql: str, params: Sequence = ()) -> list[dict]:
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def _table_exists(conn, name: str) -> bool:
    return conn.execute("select 1 from sqlite_master where type in ('table','view') and name = ?",
                        (name,)).fetchone() is not None


def load_edition(conn, edition_id: str) -> EditionInfo:
    rows = _rows(conn, "select * from editions where id = ?", (edition_id,))
    if not rows:
        known = ", ".join(r["id"] for r in _rows(conn, "select id from editions order by id"))
        raise LookupError(f"no edition {edition_id!r} in the KB (editions: {known})")
    e = rows[0]
    return EditionInfo(e["id"], e["language"], str(e["date"] or ""), e["title"] or "", e["kind"] or "",
                       _scheme(e.get("parser") or ""), tuple((e.get("covers") or "").split()))


def _scheme(parser_name: str) -> str:
    try:
        return get_parser(parser_name).symbols
    except UnknownParser:
        return "none"


def load_rules(conn, edition_id: str) -> list[Rule]:
    return rules_of(rule_rows(conn, edition_id))


def rule_rows(conn, edition_id: str) -> list[tuple]:
    """The ``rules`` rows of an edition in reading order, ``id`` first, as :func:`rules_of` takes them."""
    return conn.execute("select id, key, edition_id, number, norm, text, text_norm, title, lemmas, level, chapter, "
                        "section, seq from rules where edition_id = ? order by seq", (edition_id,)).fetchall()


def rules_of(rows: list[tuple]) -> list[Rule]:
    """The rules of :func:`rule_rows`, made without the dataclass's ``__init__``: a frozen dataclass sets each
    field through ``object.__setattr__``, three times slower (the diffs stage of an archive makes some 260,000)."""
    make = object.__new__
    out = []
    for id_, key, ed, number, norm, text, text_norm, title, lemmas, level, chapter, section, seq in rows:
        r = make(Rule)
        text = text or ""
        r.__dict__.update(key=key, edition=ed, number=number or "", norm=norm or "", text=text,
                          text_norm=text_norm or text, title=title, lemmas=lemmas or "", level=level,
                          chapter=chapter, section=section, seq=seq or 0, id=id_,
                          full_text=full_text(title, text))
        out.append(r)
    return out


def load_pairs(conn, old_edition: str, new_edition: str, keys: Mapping[int, str] | None = None) -> list[Pair]:
    """Aligned pairs of two editions, oriented old → new (rows stored new → old are turned round).

    ``keys``: rule id -> key of the two editions' rules, when the caller has them (the alignment rows are then
    read without joining the rules)."""
    if not _table_exists(conn, "alignments"):
        raise LookupError("the KB has no alignments table: build it with the alignment stage (`kb build`)")
    rows = _alignment_rows(conn, old_edition, new_edition, keys)
    if rows:
        new = tuple.__new__   # the named tuple's own constructor is a Python function, twice as slow
        return [new(Pair, (s, t, relation or "", score, method or "")) for s, t, relation, score, method in rows]
    rows = _alignment_rows(conn, new_edition, old_edition, keys)
    return [Pair(t, s, FLIP.get(relation, relation or ""), score, method or "")
            for s, t, relation, score, method in rows]


def _alignment_rows(conn, source: str, target: str, keys: Mapping[int, str] | None) -> list[tuple]:
    """(source key, target key, relation, score, method) of the rule-to-rule alignment rows, in stored order."""
    if keys is not None:
        rows = conn.execute("select source_rule_id, target_rule_id, relation, score, method from alignments "
                            "where source_edition = ? and target_edition = ? order by id", (source, target)).fetchall()
        try:
            return [(keys[s], keys[t], relation, score, method) for s, t, relation, score, method in rows]
        except KeyError:
            pass    # a rule of another edition: read the keys through the rules
    sql = ("select s.key s_key, t.key t_key, a.relation, a.score, a.method from alignments a "
           "join rules s on s.id = a.source_rule_id join rules t on t.id = a.target_rule_id "
           "where a.source_edition = ? and a.target_edition = ? order by a.id")
    return conn.execute(sql, (source, target)).fetchall()


def lineage_pairs(conn, old_edition: str, new_edition: str) -> list[Pair]:
    """The pairs of two editions as the lineage links them (:func:`kb.lineage.pair`, what every view reads): stored
    by the build, else composed along stored pairs or aligned now."""
    from ..lineage import pair

    answer = pair(sqlite_utils.Database(conn), old_edition, new_edition)
    return [Pair(lk.source.key, lk.target.key, lk.relation, lk.score, lk.method)
            for lk in answer.links if lk.target is not None]


def widest_pair(conn) -> tuple[str, str] | None:
    """The two editions of one language, aligned with each other, whose dates lie furthest apart (older
    first): the default pair of the benchmarks (with the seeds, German 1999 -> 2024)."""
    if not _table_exists(conn, "edition_pairs"):
        return None
    row = conn.execute("""select p.source_edition, p.target_edition from edition_pairs p
                          join editions a on a.id = p.source_edition join editions b on b.id = p.target_edition
                          where p.kind = 'cross-edition' and a.language = b.language
                          order by abs(julianday(substr(b.date || '-01-01', 1, 10))
                                       - julianday(substr(a.date || '-01-01', 1, 10))) desc,
                                   p.source_edition, p.target_edition limit 1""").fetchone()
    return (row[0], row[1]) if row else None


def aligned_edition_pairs(conn) -> list[tuple[str, str]]:
    """EditionInfo pairs (old, new) with rule-to-rule alignment rows, older edition first."""
    if not _table_exists(conn, "alignments"):
        return []
    # each pair of editions once (from the index), kept when one of its rows links two rules
    rows = _rows(conn, "select p.s, p.t from (select distinct source_edition s, target_edition t from alignments) p "
                       "where exists (select 1 from alignments a join rules r1 on r1.id = a.source_rule_id "
                       "join rules r2 on r2.id = a.target_rule_id where a.source_edition = p.s "
                       "and a.target_edition = p.t)")
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


def compare(db, old_edition: str, new_edition: str, terms: Sequence[Term] | None = None,
            pairs: Sequence[Pair] | None = None, tables: bool = True) -> Report:
    """Load two editions and their alignment from the KB and compute the whole change report.

    ``tables=False`` leaves out the terminology table and its candidates."""
    conn = connection(db)
    old_e, new_e = load_edition(conn, old_edition), load_edition(conn, new_edition)
    old, new = load_rules(conn, old_edition), load_rules(conn, new_edition)
    # the lineage's pairs were refined when the build stored them (:mod:`kb.lineage`): a view does not refine again;
    # pairs given by the caller (a gold file) are
    given = pairs is not None
    if pairs is None:
        pairs = lineage_pairs(conn, old_edition, new_edition)
    if terms is None:
        terms = pair_terms(old_e, new_e)
    rep = build_report(old_e, new_e, old, new, pairs, terms, tables, refine=given)
    rep.in_play = in_play_by_rule(conn, (old_edition, new_edition))
    return rep


def stored_or_on_demand_pairs(conn, old_edition: str, new_edition: str, keys: Mapping[int, str] | None = None
                              ) -> list[Pair]:
    """The aligned pairs of two editions as the build's diffs stage reads them, before it completes the stored
    links (``keys``: see :func:`load_pairs`): the stored rows themselves, else :func:`lineage_pairs`.  A view reads
    :func:`lineage_pairs`, which for a stored pair gives these rows with what the diffs stage added."""
    return load_pairs(conn, old_edition, new_edition, keys) or lineage_pairs(conn, old_edition, new_edition)


def pair_terms(old_e: EditionInfo, new_e: EditionInfo) -> list[Term]:
    """The terminology table for a diff from ``old_e`` to ``new_e`` (the newer edition's language)."""
    terms = load_terms(TERMINOLOGY, new_e.language)
    if old_e.date > new_e.date:
        # the table goes from older to newer wording: read it backwards for a backwards diff
        terms = [Term(t.new, t.old, t.note) for t in terms if t.new]
    return terms


def in_play_by_rule(conn, editions: tuple[str, ...]) -> dict[str, list[dict]]:
    """Rule key -> the comparison scenarios whose games diverge because of it, for the rules of ``editions``
    (empty without the table ``rule_divergences`` that ``kb build`` writes)."""
    if not conn.execute("select 1 from sqlite_master where name = 'rule_divergences'").fetchone():
        return {}
    marks = ", ".join("?" for _ in editions)
    cur = conn.execute(f"select * from rule_divergences where edition_id in ({marks}) order by scenario, line",
                       editions)
    names = [d[0] for d in cur.description]
    out: dict[str, list[dict]] = {}
    for values in cur.fetchall():
        d = dict(zip(names, values))
        out.setdefault(d["rule"], []).append(d)
    return out


#: (language, id of a rule list) -> the list and its length when it was seeded (the list is kept, so no other list
#: takes its id)
_SEEDED_LISTS: dict[tuple[str, int], tuple[list[Rule], int]] = {}


def _seed(lang: str, rules: list[Rule]) -> None:
    """Seed the lemmas of these rules (:func:`seed_lemmas`), unless this very list was seeded lately for the language
    (a pair's old edition is the newer edition of the pair before it: seeding its texts again would add nothing)."""
    seen = _SEEDED_LISTS.get((lang, id(rules)))
    if seen is not None and seen[0] is rules and seen[1] == len(rules):
        return
    seed_lemmas(lang, ((r.full_text, r.lemmas) for r in rules if r.lemmas))
    if len(_SEEDED_LISTS) >= 4:
        del _SEEDED_LISTS[next(iter(_SEEDED_LISTS))]
    _SEEDED_LISTS[lang, id(rules)] = rules, len(rules)


def build_report(old_e: EditionInfo, new_e: EditionInfo, old: list[Rule], new: list[Rule], pairs: Iterable,
                 terms: Sequence[Term] = (), tables: bool = True, settle: bool = False, refine: bool = True) -> Report:
    """``settle`` (the ``diffs`` stage, without ``tables``): the pairs of :func:`settled_pairs` are no groups,
    the classification lists them apart (``Classification.settled``).  ``refine``: complete splits and merges from
    word evidence first (:func:`refine_pairs`; the pairs it adds are in ``Report.refined``)."""
    cross = old_e.language != new_e.language
    pairs = [p if isinstance(p, Pair) else Pair(*p) for p in pairs]
    if cross:
        # across languages: structure only, no word diff and no terminology
        return Report(old_e, new_e, classify(old, new, pairs, cross_language=True, old_covers=old_e.covers,
                                             new_covers=new_e.covers), True, [], [])
    terms = list(terms)
    _seed(new_e.language, old)
    _seed(new_e.language, new)
    settle = settle and old_e.scheme == new_e.scheme
    if refine:
        refined, settled = refine_and_settle(old, new, pairs, old_e, new_e, terms, settle=settle)
    else:
        refined, settled = pairs, (settled_pairs(old, new, pairs) if settle else [])
    added = refined[len(pairs):]
    if settled:
        old_keys, new_keys = {o.key for o, _, _ in settled}, {n.key for _, n, _ in settled}
        old, new = [r for r in old if r.key not in old_keys], [r for r in new if r.key not in new_keys]
        refined = [p for p in refined if p.old not in old_keys and p.new not in new_keys]
    cls = classify(old, new, refined, old_covers=old_e.covers, new_covers=new_e.covers, settled=settled)
    index = term_index(terms, new_e.language)
    for g in cls.groups:
        if g.old and g.new:
            g.diff = group_diff(g, old_e, new_e, terms, index)
            if g.text_changed and not changed(g.diff, fold=True) and g.change_class not in ("split", "merged"):
                g.terminology_only = True
    terminology, candidates = terminology_table(cls.groups, terms, new_e.language) if tables else ([], [])
    return Report(old_e, new_e, cls, False, terminology, candidates, refined=added)
