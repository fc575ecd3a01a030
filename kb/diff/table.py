"""The ``diffs`` table: the build stage that writes it (:func:`start`, which the build calls once the alignments' rows
are written, then :meth:`Pending.write`; :func:`store` does both) and
the Datasette pieces that show it (:func:`metadata`, :func:`canned_queries`, :func:`render_cell`)."""
from __future__ import annotations

import gc
import hashlib
import html
import io
import json
import multiprocessing
import os
import pickle
import sqlite3
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cached_property, lru_cache
from html.parser import HTMLParser
from operator import add, itemgetter
from pathlib import Path
from typing import Iterator

from markupsafe import Markup, escape

from ..align.ondemand import FLIP
from ..cache import code_version, write_atomic
from ..gcpause import collector_paused
from . import CLASSES
from .classes import place_class, settled_places
from .load import (
    aligned_edition_pairs,
    build_report,
    connection,
    load_edition,
    pair_terms,
    rule_rows,
    rules_of,
    stored_or_on_demand_pairs,
)
from .model import EditionInfo, Group, Pair, Report, Rule
from .words import diff_stats, inline_html, kept_text, tag

DIFFS_COLUMNS = {
    "id": int, "old_rule_id": int, "new_rule_id": int, "old_edition": str, "new_edition": str,
    "old_number": str, "new_number": str, "chapter": int, "old_chapter": int, "new_chapter": int,
    "change_class": str, "old_class": str, "new_class": str, "relation": str, "score": float, "note": str,
    "text_changed": int, "terminology_only": int, "cross_language": int, "group_old": str, "group_new": str,
    "words_deleted": int, "words_inserted": int, "words_folded": int,
    "diff_html": str, "diff_html_folded": str,
}


def diff_rows(rep: Report) -> list[tuple]:
    """Rows of the ``diffs`` table for one edition pair, one per aligned pair, added or removed rule, in table
    order: their values in the order of :data:`_VALUES` (``id`` is numbered on insert)."""
    return [ids + rest for _, ids, rest in _keyed_rows(rep)]


def _keyed_rows(rep: Report) -> list[tuple[tuple[int, int], tuple, tuple]]:
    """The rows of :func:`diff_rows`, in table order, each as its sort key, its two rule ids and its other values."""
    cls = rep.cls
    old_ed, new_ed = rep.old.id, rep.new.id
    split_of = {g.old[0].key: g for g in cls.groups if g.change_class == "split"}
    merged_of = {g.new[0].key: g for g in cls.groups if g.change_class == "merged"}
    one = {(g.old[0].key, g.new[0].key): g for g in cls.groups if len(g.old) == 1 and len(g.new) == 1}
    old_by_key = {r.key: r for r in cls.old}
    new_by_key = {r.key: r for r in cls.new}

    def row(o: Rule | None, n: Rule | None, g: Group, cls_name: str) -> tuple[tuple[int, int], tuple, tuple]:
        # a row of two rules names their own link of the lineage (a split's parts have one each)
        link = cls.pair_info.get((o.key, n.key)) if o is not None and n is not None else None
        relation, score = (link.relation, link.score) if link is not None else (g.relation, g.score)
        return (n.seq if n else 10 ** 6, o.seq if o else 0), (o.id if o else None, n.id if n else None), (
            old_ed, new_ed,
            o.label if o else None, n.label if n else None,
            o.chapter if o else n.chapter if n else None, o.chapter if o else None, n.chapter if n else None,
            cls_name, cls.old_class[o.key] if o else None, cls.new_class[n.key] if n else None,
            relation or None, score, g.note or None, None if g.text_changed is None else int(g.text_changed),
            int(g.terminology_only), int(rep.cross_language), _numbers(g.old), _numbers(g.new),
            *_diff_cells(g, rep.cross_language))

    rows = []
    for g in cls.groups:
        if g.change_class == "added":
            rows.append(row(None, g.new[0], g, "added"))
        elif g.change_class == "removed":
            rows.append(row(g.old[0], None, g, "removed"))
        elif g.change_class == "outside":
            rows.append(row(g.old[0], None, g, "outside") if g.old else row(None, g.new[0], g, "outside"))
    for ok, nk in cls.pair_info:
        o, n = old_by_key[ok], new_by_key[nk]
        if (ok, nk) in one:
            g = one[ok, nk]
            rows.append(row(o, n, g, g.change_class))
        elif ok in split_of:
            rows.append(row(o, n, split_of[ok], "split"))
        else:
            rows.append(row(o, n, merged_of[nk], "merged"))
    rows.extend(_settled_rows(rep))
    rows.sort(key=itemgetter(0))
    return rows


def _settled_rows(rep: Report) -> Iterator[tuple[tuple[int, int], tuple, tuple]]:
    """The rows of the classification's settled pairs (one-to-one, the same words), with their sort keys."""
    old_ed, new_ed, cls = rep.old.id, rep.new.id, rep.cls
    section_map, chapter_map = cls.section_map, cls.chapter_map
    places = settled_places(section_map, chapter_map)
    for o, n, p in cls.settled:
        # what place_class reads of the two rules: consecutive pairs repeat it, and mostly their maps too
        place = (o.norm, o.level, o.section, o.chapter, n.norm, n.section, n.chapter)
        c_note = places.get(place)
        if c_note is None:
            c, why, _ = place_class(o, n, section_map, chapter_map, False)
            c_note = places[place] = (c, why or None)
        c, note = c_note
        html = _kept_html(o.full_text)
        o_label, n_label = o.label, n.label
        yield (n.seq, o.seq), (o.id, n.id), (old_ed, new_ed, o_label, n_label, o.chapter, o.chapter, n.chapter,
                                             c, c, c, p.relation or None, p.score, note, 0, 0, 0, o_label, n_label,
                                             None, None, None, html, html)


@lru_cache(maxsize=1 << 15)
def _kept_html(text: str) -> str:
    """The cells of a text kept word for word (cached: consecutive editions repeat most texts)."""
    return _escaped(kept_text(text))


@lru_cache(maxsize=1 << 15)
def _escaped(text: str) -> str:
    """A kept text as its cells show it (cached: consecutive editions repeat most texts)."""
    return str(escape(text))


def _numbers(rules: list[Rule]) -> str:
    return rules[0].label if len(rules) == 1 else ", ".join(r.label for r in rules)


def _diff_cells(g: Group, cross_language: bool) -> tuple:
    """words_deleted, words_inserted, words_folded, diff_html and diff_html_folded of a group's rows."""
    if cross_language:
        html = _xlang_html(g)
        return None, None, None, html, html
    if g.diff is None:
        html = str(tag("del" if g.old else "ins", (g.old or g.new)[0].full_text))
        return None, None, None, html, html
    if len(g.diff) == 1 and g.diff[0].op == "equal":   # most rules of consecutive editions
        html = _escaped(g.diff[0].new)
        return None, None, None, html, html
    stats = diff_stats(g.diff, kept=False)
    return (stats.get("deleted"), stats.get("inserted"), stats.get("folded"),
            str(inline_html(g.diff, fold=False)), str(inline_html(g.diff, fold=True)))


def _xlang_html(g: Group) -> str:
    """Across languages: both texts, no word diff (structure only)."""
    parts = []
    for side, rules in (("old", g.old), ("new", g.new)):
        for r in rules:
            parts.append(f'<span class="part">{escape(r.label)}</span> {escape(r.full_text)}')
        if side == "old" and g.old and g.new:
            parts.append(' <span class="sep">⇒</span> ')
    return "".join(parts)


def _code_version() -> str:
    return code_version(Path(__file__).parent)


#: the columns of a row as the workers hand it over and the cache keeps it (``id`` is numbered on insert):
#: the two rule ids first (:data:`PairRows`)
_VALUES = list(DIFFS_COLUMNS)[1:]
assert _VALUES[:2] == ["old_rule_id", "new_rule_id"]
_DB_PATH: list[str] = []
#: how long a worker's read and the build's write wait for each other's lock
BUSY_TIMEOUT_S = 120
#: pairs handed to a worker at a time: consecutive pairs, so that each edition is read about once
CHUNK = 4


@dataclass
class _Edition:
    """An edition as a pair's diff reads it: its record, its ``rules`` rows (``id`` first) and their digest."""

    info: EditionInfo
    rows: list[tuple]
    digest: str

    @cached_property
    def rules(self) -> list[Rule]:
        """Made only for a pair that is not in the cache."""
        return rules_of(self.rows)

    @cached_property
    def keys(self) -> dict[int, str]:
        """Rule id -> key."""
        return {r[0]: r[1] for r in self.rows}


#: a worker's editions of its last pair (consecutive pairs share an edition)
_LOADED: dict[str, _Edition] = {}


def _edition(conn, edition_id: str, loaded: dict[str, _Edition]) -> _Edition:
    if edition_id not in loaded:
        info, rows = load_edition(conn, edition_id), rule_rows(conn, edition_id)
        h = hashlib.sha256(repr(info).encode())
        h.update(_unmemoised_pickle([r[1:] for r in rows]))   # ids change, keys do not
        loaded[edition_id] = _Edition(info, rows, h.hexdigest())
    return loaded[edition_id]


def _unmemoised_pickle(value) -> memoryview:
    """``value`` pickled without the memo (a digest's input: it never reads back, and its objects are not shared),
    twice as fast."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dump(value)
    return out.getbuffer()


def _pair_key(old: _Edition, new: _Edition, pairs: list[Pair], terms: list) -> str:
    """Everything a pair's diff rows depend on: the diff code, both editions (their digests), the aligned
    pairs between them and the terminology."""
    h = hashlib.sha256(_code_version().encode())
    h.update(f"{old.digest} {new.digest} {terms!r}".encode())
    h.update(_unmemoised_pickle([(p.old, p.new, p.relation, p.score, p.method) for p in pairs]))
    return h.hexdigest()[:40]


#: a pair's rows as a worker hands them over: its cache key, the two rule ids of each row and the other
#: values of each row, pickled (the cache file holds the same bytes, with rule keys for the ids: see :func:`rows_of`),
#: and the links the refinement added (old rule id, new rule id, relation, score: the build adds them to the lineage)
PairRows = tuple[str, list[tuple[int | None, int | None]], bytes, list[tuple]]


def _values(conn, pair: tuple[str, str], cache: Path | None, loaded: dict[str, _Edition]) -> PairRows:
    """One pair's rows (:data:`PairRows`): from the ``cache`` folder when it holds them, else computed (and
    stored there with rule keys for rule ids).  The rows are pickled once, for both: unpickled only to be
    inserted."""
    for ed in [e for e in loaded if e not in pair]:
        del loaded[ed]
    old, new = (_edition(conn, ed, loaded) for ed in pair)
    keys = old.keys | new.keys
    pairs, terms = stored_or_on_demand_pairs(conn, *pair, keys), pair_terms(old.info, new.info)
    key = _pair_key(old, new, pairs, terms)
    path = cache / f"{key}.pickle" if cache is not None else None
    if path is not None and (cached := _cached(path, keys)) is not None:
        return key, *cached
    rep = build_report(old.info, new.info, old.rules, new.rules, pairs, terms, tables=False, settle=True)
    rows = _keyed_rows(rep)
    ids = [r[1] for r in rows]
    rest = pickle.dumps([r[2] for r in rows], protocol=pickle.HIGHEST_PROTOCOL)
    added = [(p.old, p.new, p.relation, p.score) for p in rep.refined if p.old and p.new]   # (by rule key)
    if path is not None:
        rule_keys = [(keys.get(o), keys.get(n)) for o, n in ids]
        write_atomic(path, pickle.dumps((rule_keys, rest, added), protocol=pickle.HIGHEST_PROTOCOL))
    ids_of: dict[str | None, int] = {k: i for i, k in keys.items()}
    return key, ids, rest, [(ids_of[o], ids_of[n], rel, score) for o, n, rel, score in added]


def _cached(path: Path, keys: dict[int, str]) -> tuple[list[tuple[int | None, int | None]], bytes, list] | None:
    """A pair's rule ids, pickled other values and refined links from its cache file (``keys``: rule id -> key), or
    None."""
    try:
        rule_keys, rest, added = pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, TypeError, ValueError):
        return None
    ids = {key: id_ for id_, key in keys.items()}
    if any(o not in ids or n not in ids for o, n, _, _ in added):
        return None
    return [(ids.get(o), ids.get(n)) for o, n in rule_keys], rest, [(ids[o], ids[n], r, s) for o, n, r, s in added]


def rows_of(ids: list[tuple[int | None, int | None]], rest: bytes) -> Iterator[tuple]:
    """A pair's rows as value tuples in the order of :data:`_VALUES` (without ``id``) from :data:`PairRows`."""
    return map(add, ids, pickle.loads(rest))


def _pair_job(job: tuple[tuple[str, str], Path | None]) -> PairRows:
    # the build writes the rows of finished pairs meanwhile: wait for its short write locks
    conn = sqlite3.connect(f"file:{_DB_PATH[0]}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    try:
        return _values(conn, *job, _LOADED)
    finally:
        conn.close()


class Pending:
    """The diffs stage begun (:func:`start`): forked workers compute the rows of every aligned pair, reading the
    database file, while the build writes other tables; :meth:`write` inserts the rows as they are done (only the
    rows not yet written are held in memory) and :meth:`close` stops the workers of a build that failed first.

    A pair's rows depend on the rules, the alignments and the editions only, which the stages after the
    alignments' rows leave as they are: what the workers read does not depend on when they read it."""

    def __init__(self, db, cache_dir: Path | None, workers: int):
        self.db = db
        self.conn = connection(db)
        # the workers read while the build writes (here or in the stages before :meth:`write`)
        self.conn.execute(f"pragma busy_timeout = {BUSY_TIMEOUT_S * 1000}")
        self.pairs = aligned_edition_pairs(self.conn)
        self.cache = Path(cache_dir) / "diffs" if cache_dir else None
        if self.cache is not None:
            self.cache.mkdir(parents=True, exist_ok=True)
        self.pool: ProcessPoolExecutor | None = None
        path = self.conn.execute("pragma database_list").fetchone()[2]
        if workers > 1 and len(self.pairs) > 1 and path:
            _DB_PATH[:] = [path]
            # a pair makes many objects and no garbage cycles: the workers free them by reference counting alone
            # (the cyclic collector would only scan the caches they keep, again and again)
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                            initializer=gc.disable)
            self.values: Iterator[PairRows] = self.pool.map(_pair_job, [(p, self.cache) for p in self.pairs],
                                                            chunksize=CHUNK)
        else:
            loaded: dict = {}
            self.values = (_values(self.conn, pair, self.cache, loaded) for pair in self.pairs)

    def write(self) -> None:
        """Write the ``diffs`` table, its indexes and views."""
        try:
            self._write()
        finally:
            self.close()

    def _write(self) -> None:
        db = self.db
        if not hasattr(db, "table_names"):
            import sqlite_utils

            db = sqlite_utils.Database(self.conn)
        table = db["diffs"]
        if table.exists():
            table.drop()
        table.create(DIFFS_COLUMNS, pk="id", foreign_keys=[("old_rule_id", "rules", "id"),
                                                           ("new_rule_id", "rules", "id")])
        # ``id`` is left out: the new table numbers the rows 1, 2, ... in insertion order
        sql = f"insert into diffs ({', '.join(_VALUES)}) values ({', '.join('?' * len(_VALUES))})"
        current = set()
        refined: list[tuple] = []
        with collector_paused():   # the rows it unpickles and inserts make no cycles
            for key, ids, rest, added in self.values:
                with db.conn:
                    db.conn.executemany(sql, rows_of(ids, rest))
                current.add(key)
                refined += added
        add_refined(db.conn, refined)
        if self.cache is not None:
            for path in self.cache.glob("*.pickle"):
                if path.stem not in current:
                    path.unlink(missing_ok=True)
        for cols in (["old_rule_id"], ["new_rule_id"], ["old_edition", "new_edition", "change_class"]):
            table.create_index(cols)
        db.execute("drop view if exists concept_changes")
        db.execute("""create view concept_changes as
select r.concept_id, c.label as concept, d.old_edition, d.old_number, d.new_edition, d.new_number,
  d.change_class, d.words_deleted, d.words_inserted, d.diff_html
from diffs d join rules r on r.id = coalesce(d.old_rule_id, d.new_rule_id)
left join concepts c on c.id = r.concept_id
where d.change_class != 'unchanged'""")

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None
        _DB_PATH.clear()


def add_refined(conn, links: list[tuple]) -> None:
    """The links the refinement added (old rule id, new rule id, relation, score) joined to the lineage: stored with
    the alignments of their pair, in the direction the pair is stored (``method`` "diff-refine")."""
    if not links:
        return
    eds = dict(conn.execute("select id, edition_id from rules where id in (select value from json_each(?))",
                            [json.dumps(sorted({i for o, n, _, _ in links for i in (o, n)}))]).fetchall())
    stored = {(s, t) for s, t in conn.execute("select distinct source_edition, target_edition from alignments")}
    nums = dict(conn.execute("select id, norm from rules where id in (select value from json_each(?))",
                             [json.dumps(sorted({i for o, n, _, _ in links for i in (o, n)}))]).fetchall())
    rejected = {(s, t) for s, t in conn.execute("select source_rule_id, target_rule_id from alignment_reviews "
                                                  "where verdict = 'reject'")} \
        if conn.execute("select 1 from sqlite_master where name = 'alignment_reviews'").fetchone() else set()
    rows = []
    for o, n, rel, score in links:
        if (o, n) in rejected or (n, o) in rejected:   # a person said no: the refinement does not bring it back
            continue
        a, b = eds[o], eds[n]
        s_id, t_id, s_ed, t_ed, rel = (o, n, a, b, rel) if (a, b) in stored or (b, a) not in stored else \
            (n, o, b, a, FLIP.get(rel, rel))
        rows.append((f"{s_ed} → {t_ed}", s_ed, t_ed, s_id, t_id, nums[s_id], nums[t_id], score, rel, "diff-refine",
                     "{}"))
    with conn:
        conn.executemany("""insert into alignments (pair, source_edition, target_edition, source_rule_id,
                            target_rule_id, source_number, target_number, score, relation, method, evidence)
                            values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows)


def start(db, cache_dir: Path | None = None, workers: int | None = None) -> Pending:
    """Begin the diffs stage once the alignments' rows are written (:class:`Pending`); ``workers`` (default: the
    CPUs, at most 2) compute the pairs, a pair whose editions, alignment and terminology did not change since an
    earlier build comes from the ``cache_dir``."""
    return Pending(db, cache_dir, workers or min(2, os.cpu_count() or 1))


def store(db, cache_dir: Path | None = None, workers: int | None = None) -> None:
    """Build stage (after the alignments): write the precomputed ``diffs`` table for every aligned pair
    (:func:`start`, then :meth:`Pending.write`)."""
    start(db, cache_dir, workers).write()


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
    whose content did not come from :func:`kb.diff.inline_html` cannot inject markup.
    """

    def __init__(self) -> None:
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

    def _close(self) -> str:
        """Close the innermost open element (dropped ones leave no end tag); its tag, or ""."""
        top = self.stack.pop()
        if top:
            self.out.append(f"</{top}>")
        return top

    def handle_endtag(self, tag):
        while self.stack:
            top = self._close()
            if top == tag or (not top and tag not in ("ins", "del", "span")):
                break

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        while self.stack:
            self._close()
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
            from ..links import rule_path

            return Markup('<a href="{}">{}</a>').format(rule_path(str(edition), value, prefix), value)
    return None
