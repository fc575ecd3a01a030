"""The KB stage: run every alignment, write ``concepts``, ``alignments`` and ``rules.concept_id``;
the SQL views, Datasette canned queries and table metadata over them."""
from __future__ import annotations

import json
from collections import Counter, defaultdict

from .concepts import assign_concepts
from .crossedition import align_cross_edition
from .crosslang import align_cross_language
from .items import align_items
from .lexical import load_terminology
from .views import Alignment, AlignRule, items_from_db, views_from_db

# --------------------------------------------------------------------------- the KB's alignments

#: (source edition, target edition, kind) of every alignment the build computes
PAIRS = (
    ("it-wiki", "de-2024", "cross-language"),
    ("de-1999", "de-2024", "cross-edition"),
    ("en-morph-2007", "de-morph-2007", "cross-language"),
    ("de-article-2009", "de-2024", "items"),
    ("de-morph-2007", "de-morph-2007", "faq"),
    ("en-morph-2007", "en-morph-2007", "faq"),
    ("en-morph-2007", "de-morph-2007", "faq-translation"),
)


def run_all(db) -> dict[tuple[str, str, str], list[Alignment]]:
    """Compute every alignment of the KB (pairs whose editions are missing are skipped)."""
    present = {r["id"] for r in db.query("select id from editions")}
    terms = load_terminology()
    out = {}
    for src_ed, tgt_ed, kind in PAIRS:
        if src_ed not in present or tgt_ed not in present:
            continue
        if kind == "cross-language":
            out[src_ed, tgt_ed, kind] = align_cross_language(views_from_db(db, src_ed), views_from_db(db, tgt_ed))
        elif kind == "cross-edition":
            out[src_ed, tgt_ed, kind] = align_cross_edition(views_from_db(db, src_ed), views_from_db(db, tgt_ed),
                                                            terms)
        elif kind == "items":
            items = items_from_db(db, src_ed, ("step", "example", "paragraph"))
            out[src_ed, tgt_ed, kind] = align_items(items, _cited_subtree(db, src_ed, tgt_ed), terms,
                                                    method="item-lex")
        elif kind == "faq":
            rules = [v for v in views_from_db(db, tgt_ed) if v.level in ("rule", "subrule")]
            out[src_ed, tgt_ed, kind] = align_items(items_from_db(db, src_ed, ("faq",)), rules, terms,
                                                    method="faq-lex")
        elif kind == "faq-translation":
            out[src_ed, tgt_ed, kind] = align_cross_language(items_from_db(db, src_ed, ("faq",)),
                                                             items_from_db(db, tgt_ed, ("faq",)),
                                                             method="xlang-dp-items")
    return out


def _cited_subtree(db, src_ed: str, tgt_ed: str) -> list[AlignRule]:
    """Rules of ``tgt_ed`` under the numbers ``src_ed`` cites (the article cites 601); all rules if none."""
    rules = views_from_db(db, tgt_ed)
    cited = {r["target"] for r in db.query("select distinct target from refs where edition_id = ?", [src_ed])}
    inside = [v for v in rules if v.level in ("rule", "subrule") and any(
        v.norm == c or v.norm.startswith(c + ".") or (len(c) > 3 and v.norm.startswith(c)) for c in cited)]
    return inside or rules


# --------------------------------------------------------------------------- storing in the KB

#: Datasette canned queries over the stored alignments (kb/serve.py merges them into its metadata)
CANNED_QUERIES = {
    "rule_across_editions": {
        "title": "A rule across editions",
        "description": "Give a number and an edition (e.g. 601.2c and it-wiki, or 409.2c and de-1999): every "
                       "aligned version of that rule side by side, with score and relation.",
        "sql": """with q as (select id, concept_id from rules
                   where edition_id = :edition and norm = lower(trim(:number, '. '))),
members as (
  select r.id from rules r join q on r.concept_id = q.concept_id
  union select a.target_rule_id from alignments a join q on a.source_rule_id = q.id where a.target_rule_id is not null
  union select a.source_rule_id from alignments a join q on a.target_rule_id = q.id where a.source_rule_id is not null
  union select q.id from q
)
select r.edition_id, e.language, e.date, r.number, r.title, r.text,
  (select group_concat(a.relation || ' ' || printf('%.2f', a.score) || ' ' || a.method, '; ') from alignments a
    where (a.source_rule_id = r.id and a.target_rule_id in (select id from members))
       or (a.target_rule_id = r.id and a.source_rule_id in (select id from members))) as alignment,
  r.concept_id, r.key
from members m join rules r on r.id = m.id join editions e on e.id = r.edition_id
order by e.date desc, r.edition_id, r.seq""",
    },
    "rules_without_counterpart": {
        "title": "Rules without counterpart",
        "description": "Rules the aligners found no counterpart for, per edition pair (optionally one :edition).",
        "sql": """select a.pair, r.edition_id, r.number, r.title, r.text, r.key
from alignments a join rules r on r.id = a.source_rule_id
where a.relation = 'no counterpart' and (:edition = '' or a.source_edition = :edition)
order by a.pair, r.seq""",
    },
    "target_rules_without_counterpart": {
        "title": "Newer rules nothing older aligns to",
        "description": "Rules of a target edition (e.g. de-2024) that no rule of :source_edition aligns to.",
        "sql": """select r.edition_id, r.number, r.title, r.text, r.key from rules r
where r.edition_id = (select distinct target_edition from alignments where source_edition = :source_edition
                      and source_rule_id is not null limit 1)
  and r.id not in (select target_rule_id from alignments where source_edition = :source_edition
                   and target_rule_id is not null)
order by r.seq""",
    },
}

#: Datasette table metadata for the tables :func:`store` writes
TABLE_METADATA = {
    "alignments": {
        "description": "One row per aligned pair: source and target rule (or item), score, relation (equivalent, "
                       "reworded, renumbered, split, merged, no counterpart), method and the evidence used (JSON).",
        "facets": ["pair", "relation", "method"], "sort_desc": "score",
    },
    "concepts": {
        "description": "Stable rule identity: aligned versions of a rule share a concept id, separate from the "
                       "printed numbers (like Akoma Ntoso's wId beside eId). Anchored on the German 2024 rule.",
    },
}


def store(db, progress=None) -> dict[str, int]:
    """Compute every alignment of the KB and write ``concepts``, ``alignments`` and ``rules.concept_id``.

    ``db`` is a ``sqlite_utils.Database`` whose ``rules``, ``items`` and ``refs`` are written.
    Returns row counts per edition pair.
    """
    runs = run_all(db)
    for name in ("alignments", "concepts"):
        if name in db.table_names():
            db[name].drop()
    all_links = [link for links in runs.values() for link in links]
    concept_of = assign_concepts([lk for lk in all_links if lk.method.startswith(("xlang-dp", "xedition"))])
    rule_ids = {r["key"]: r["id"] for r in db.query("select id, key from rules")}
    # every rule gets a concept: anchors first, then singletons
    anchors = sorted(set(concept_of.values()), key=lambda k: rule_ids.get(k, 0))
    for key in rule_ids:
        if key not in concept_of:
            concept_of[key] = key
            anchors.append(key)
    concept_id = {anchor: n for n, anchor in enumerate(dict.fromkeys(anchors), 1)}
    info = {r["id"]: r for r in db.query("select id, key, edition_id, number, title, text from rules")}
    members: dict[str, set] = defaultdict(set)
    for key, anchor in concept_of.items():
        members[anchor].add(key.split("/")[0])
    db["concepts"].insert_all(({
        "id": cid, "label": _label(info[rule_ids[anchor]]), "anchor_rule_id": rule_ids[anchor],
        "editions": ", ".join(sorted(members[anchor])),
    } for anchor, cid in concept_id.items()), pk="id", foreign_keys=[("anchor_rule_id", "rules", "id")])
    db["alignments"].create({
        "id": int, "pair": str, "source_edition": str, "target_edition": str, "source_rule_id": int,
        "source_item_id": int, "target_rule_id": int, "target_item_id": int, "source_number": str,
        "target_number": str, "score": float, "relation": str, "method": str, "evidence": str,
    }, pk="id", foreign_keys=[("source_rule_id", "rules", "id"), ("target_rule_id", "rules", "id"),
                              ("source_item_id", "items", "id"), ("target_item_id", "items", "id")])
    rows: list[dict] = []
    counts: Counter[str] = Counter()
    for (src_ed, tgt_ed, _kind), links in runs.items():
        for link in links:
            s, t = link.source, link.target
            rows.append({
                "id": len(rows) + 1, "pair": f"{src_ed} → {tgt_ed}", "source_edition": src_ed, "target_edition": tgt_ed,
                "source_rule_id": s.id if s.kind == "rule" else None,
                "source_item_id": s.id if s.kind != "rule" else None,
                "target_rule_id": t.id if t is not None and t.kind == "rule" else None,
                "target_item_id": t.id if t is not None and t.kind != "rule" else None,
                "source_number": s.norm or s.key.split("/")[-1], "target_number": (t.norm or t.key.split("/")[-1])
                if t is not None else None, "score": link.score, "relation": link.relation,
                "method": link.method, "evidence": json.dumps(link.evidence, ensure_ascii=False, sort_keys=True),
            })
            counts[f"{src_ed} → {tgt_ed}"] += 1
    db["alignments"].insert_all(rows)
    for cols in (["source_rule_id"], ["target_rule_id"], ["source_item_id"], ["pair", "relation"]):
        db["alignments"].create_index(cols)
    if "concept_id" not in db["rules"].columns_dict:
        db["rules"].add_column("concept_id", int)
    with db.conn:
        db.conn.executemany("update rules set concept_id = ? where id = ?",
                            [(concept_id[concept_of[k]], rid) for k, rid in rule_ids.items()])
    if not any(fk.column == "concept_id" for fk in db["rules"].foreign_keys):
        db["rules"].add_foreign_key("concept_id", "concepts", "id")
    db["rules"].create_index(["concept_id"], if_not_exists=True)
    _create_views(db)
    if progress:
        progress(", ".join(f"{k}: {v}" for k, v in counts.items()))
    return dict(counts)


def _label(rule: dict) -> str:
    words = (rule.get("title") or rule.get("text") or "").split()
    head = " ".join(words[:8]) + (" …" if len(words) > 8 else "")
    return f"{rule['edition_id']} {rule['number']}: {head}".strip()


def _create_views(db) -> None:
    """SQL views that work in plain Datasette too (filter them by column: ?query_number=601.2c)."""
    db.execute("drop view if exists aligned_versions")
    db.execute("""create view aligned_versions as
select q.edition_id as query_edition, q.norm as query_number, r.edition_id as edition, r.number, r.text,
  a.relation, a.score, a.method, r.concept_id, r.key
from rules q join rules r on r.concept_id = q.concept_id
left join alignments a on (a.source_rule_id = r.id and a.target_rule_id = q.id)
                       or (a.source_rule_id = q.id and a.target_rule_id = r.id)""")
    db.execute("drop view if exists no_counterpart")
    db.execute("""create view no_counterpart as
select a.pair, r.edition_id, r.number, r.title, r.text, r.key from alignments a
join rules r on r.id = a.source_rule_id where a.relation = 'no counterpart'""")
