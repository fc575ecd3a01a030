"""Serve the KB in Datasette: one function builds the configured instance for ``kb serve`` and tests."""
from __future__ import annotations

import asyncio
from pathlib import Path

from datasette.app import Datasette

from .query import require

TEMPLATES = Path(__file__).parent / "templates"

CANNED = {
    "rule_by_number": {
        "title": "A rule by number in every edition",
        "description": "Every edition's rule with this number (e.g. 601.2f), newest edition first.",
        "sql": """select r.edition_id, e.language, e.date, r.number, r.title, r.text, r.key
from rules r join editions e on e.id = r.edition_id
where r.norm = trim(:number, '. ') order by e.date desc, r.seq""",
    },
    "citing_rules": {
        "title": "Rules and items that cite a rule",
        "description": "Everything that refers to rule :number (optionally in one :edition).",
        "sql": """select refs.edition_id, coalesce(r.number, i.kind || ' of ' || coalesce(o.number, '-')) as cited_from,
  refs.raw, coalesce(r.text, i.text) as text
from refs left join rules r on r.id = refs.from_rule_id
left join items i on i.id = refs.from_item_id left join rules o on o.id = i.rule_id
where refs.target = trim(:number, '. ') and (:edition = '' or refs.edition_id = :edition)
order by refs.edition_id, refs.id""",
    },
    "unresolved_references": {
        "title": "Unresolved references",
        "description": "Targets that are not rules of the citing edition "
                       "(often outside the excerpt: data, not errors).",
        "sql": """select edition_id, target, count(*) as times, group_concat(distinct raw) as printed
from refs where resolved = 0 group by edition_id, target order by edition_id, times desc""",
    },
    "lemma_search": {
        "title": "Lemma search (German, Italian, English inflections)",
        "description": "Finds every inflected form: 'Zauberspruch' finds 'Zaubersprüche', 'wirken' finds 'gewirkt', "
                       "'magia' finds 'magie'. :lang is de, it or en.",
        "sql": """select 'rule' as kind, r.edition_id, r.number, r.title, r.text from rules_fts
join rules r on r.rowid = rules_fts.rowid
where rules_fts match lemma_query(:q, coalesce(nullif(:lang, ''), 'de'))
union all
select i.kind, i.edition_id, o.number, i.title, i.text from items_fts
join items i on i.rowid = items_fts.rowid left join rules o on o.id = i.rule_id
where items_fts match lemma_query(:q, coalesce(nullif(:lang, ''), 'de'))
limit 500""",
    },
}


def metadata() -> dict:
    from . import align as align_mod
    from . import diff as diff_mod

    return {
        "title": "MTG rules knowledge base",
        "description_html": (
            "Every rule, example, note, glossary and index entry, FAQ bullet and article paragraph of the ingested "
            "Magic: The Gathering rules documents (German 2024, German 1999, Italian wiki, 2009 article, Morph page). "
            "Rule pages: <code>/rule/&lt;edition&gt;/&lt;number&gt;</code>, e.g. "
            "<a href='/rule/de-2024/601.2f'>/rule/de-2024/601.2f</a>."
        ),
        "source": "data/manifest.toml (source documents byte-for-byte in data/sources)",
        "databases": {"kb": {
            "queries": {**CANNED, **align_mod.CANNED_QUERIES, **diff_mod.canned_queries()},
            "tables": {
                "documents": {"description": "Source documents with SHA-256 as checked by the build."},
                "editions": {"description": "Editions (a document holds one, the Morph page two).",
                             "facets": ["language", "kind"], "label_column": "id"},
                "rules": {
                    "description": "Rule nodes: chapter, section, rule, subrule. Printed number, normalised number "
                                   "and text are kept apart; text_norm has canonical mana symbols.",
                    "facets": ["edition_id", "language", "level", "chapter"], "label_column": "key", "sort": "id",
                    "columns": {
                        "key": "edition/normalised number (#line for a duplicate number); links to the rule page",
                        "number": "number exactly as printed", "norm": "normalised number",
                        "level": "chapter, section, rule or subrule", "parent_id": "nearest existing ancestor",
                        "text": "text as printed (wrapped lines joined)",
                        "text_norm": "text with mana symbols in one notation ({W}{U}{B}{R}{G}{X}{2}{T}{Q})",
                        "lemmas": "lemmas of title and text, for inflection-aware search",
                        "seq": "order in the edition", "line_start": "first source line",
                        "line_end": "last source line",
                        "text_sha256": "SHA-256 of text (engine trace links are reviewed against it)",
                    },
                },
                "items": {
                    "description": "Everything that is not a rule: examples, notes, FAQ bullets, glossary and index "
                                   "entries, article paragraphs and steps, headings, table of contents, boilerplate.",
                    "facets": ["edition_id", "language", "kind"], "sort": "id",
                    "columns": {"rule_id": "the rule this item hangs off", "label": "printed label (Beispiel, ...)",
                                "title": "heading, glossary or index term", "meta": "format-specific details (JSON)"},
                },
                "refs": {"description": "Cross-references found in text, index and glossary; ranges expanded to every "
                                        "existing member; unresolved when the target is not in the same edition.",
                         "facets": ["edition_id", "resolved", "kind"]},
                "unparsed": {"description": "Source lines no parser rule explains, with the reason.",
                             "facets": ["document_id"]},
                "warnings": {"description": "Source defects kept visible (duplicate or backwards numbers, missing "
                                            "spaces, trailing dots, lost placeholders ...).",
                             "facets": ["document_id", "code"]},
                **align_mod.TABLE_METADATA,
                "diffs": diff_mod.metadata(),
                "source_lines": {"description": "Every non-blank source line (or part of one) and the record it "
                                                "belongs to: the lossless ingestion, checkable.",
                                 "facets": ["document_id", "record_table", "kind"]},
            },
        }},
    }


def make_datasette(db_path: Path) -> Datasette:
    db_path = require(db_path)
    return Datasette(
        immutables=[str(db_path)], metadata=metadata(), template_dir=str(TEMPLATES),
        settings={"default_page_size": 100, "sql_time_limit_ms": 3000, "allow_download": True},
    )


def serve(db_path: Path, host: str = "127.0.0.1", port: int = 8001) -> None:
    import uvicorn

    ds = make_datasette(db_path)
    asyncio.run(ds.invoke_startup())
    print(f"Serving {db_path} read-only at http://{host}:{port}/  (rule pages: /rule/de-2024/601.2f)")
    uvicorn.run(ds.app(), host=host, port=port, log_level="warning", lifespan="on")
