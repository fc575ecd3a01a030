"""Datasette plugin of the KB (registered through the ``datasette`` entry point in pyproject.toml).

* ``render_cell``: rule numbers inside rule and item text become links to the
  rule's page in the same edition; rule keys link to that page too.
* ``register_routes``: ``/rule/<edition>/<number>`` shows a rule with its parent,
  children, examples and notes, what it cites and what cites it, and whatever the
  later stages stored (counterparts in other editions, diffs, enforcing engine code).
* ``prepare_connection``: SQL functions ``lemmatize(text, lang)`` and
  ``lemma_query(q, lang)`` for the lemma search canned query.
"""
from __future__ import annotations

import sqlite3

from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup

from . import lemmas
from .diff.table import render_cell as diff_cell
from .links import linkify, rule_path
from .query import find_rules, rule_view

LINKED_TEXT = {("rules", "text"), ("rules", "text_norm"), ("items", "text"), ("items", "text_norm")}


@hookimpl
def prepare_connection(conn):
    conn.create_function("lemmatize", 2, lambda text, lang: lemmas.lemmatize(text or "", lang or "de"),
                         deterministic=True)
    conn.create_function("lemma_query", 2, _lemma_query, deterministic=True)


def _lemma_query(q, lang):
    words = lemmas.lemmatize(q or "", lang or "de").split()
    return " AND ".join('lemmas : "' + w.replace('"', "") + '"' for w in words) or '""'


def _plain(value):
    """Table views hand foreign-key cells over as {"value": ..., "label": ...}."""
    return value["value"] if isinstance(value, dict) else value


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    html = diff_cell(value, column, table, row, datasette.urls.path("/"))
    if html is not None:
        return html
    if not isinstance(value, str) or row is None:
        return None
    keys = row.keys()
    if "edition_id" not in keys:
        return None
    edition = _plain(row["edition_id"])
    if (table, column) in LINKED_TEXT:
        bare = table == "items" and "kind" in keys and row["kind"] == "index"
        return linkify(value, edition, datasette.urls.path("/"), bare=bare)
    if table == "rules" and column == "key" and "norm" in keys:
        return Markup('<a href="{}">{}</a>').format(rule_path(edition, row["norm"], datasette.urls.path("/")), value)
    return None


@hookimpl
def register_routes(datasette):
    return [(r"^/rule/(?P<edition>[^/]+)/(?P<number>[^/]+)$", rule_page)]


async def rule_page(datasette, request):
    edition = request.url_vars["edition"]
    number = request.url_vars["number"]
    db = datasette.get_database("kb")

    def load(conn):
        conn.row_factory = sqlite3.Row
        found = find_rules(conn, number, edition)
        views = [rule_view(conn, r["id"]) for r in found]
        elsewhere = find_rules(conn, number) if not found else []
        extra = {}
        for v in views:
            extra[v.rule["id"]] = _extras(conn, v.rule["id"])
        return views, elsewhere, extra

    views, elsewhere, extra = await db.execute_fn(load)
    prefix = datasette.urls.path("/")
    html = await datasette.render_template("rule.html", {
        "edition": edition, "number": number, "views": views, "elsewhere": elsewhere, "extra": extra,
        "linkify": lambda text, ed, bare=False: linkify(text, ed, prefix, bare),
        "rule_path": lambda ed, n: rule_path(ed, n, prefix), "prefix": prefix, "grouped": _grouped,
    }, request=request)
    return Response.html(html, status=200 if views else 404)


def _grouped(cites: list[dict]) -> list[tuple[str, list[dict]]]:
    """References grouped by their printed text (a range and its members), in order of appearance."""
    groups: dict[tuple, list[dict]] = {}
    for c in cites:
        groups.setdefault((c["raw"], c["line"]), []).append(c)
    return [(raw, group) for (raw, _), group in groups.items()]


#: what the later stages attached to a rule, each query taking the rule id (twice where both sides count)
EXTRAS = {
    "aligned": """select a.*, s.edition_id s_edition, s.number s_number, s.text s_text,
                         t.edition_id t_edition, t.number t_number, t.text t_text
                  from alignments a left join rules s on s.id = a.source_rule_id
                  left join rules t on t.id = a.target_rule_id
                  where a.source_rule_id = :id or a.target_rule_id = :id order by a.score desc""",
    "diffs": "select * from diffs where old_rule_id = :id or new_rule_id = :id",
    "enforced_by": """select f.*, e.status from enforces e join engine_functions f on f.id = e.function_id
                      where e.rule_id = :id order by f.qualname""",
    "scenarios": """select distinct s.* from scenario_rules sr join scenarios s on s.id = sr.scenario_id
                    where sr.rule_id = :id order by s.path""",
}


def _extras(conn, rule_id: int) -> dict:
    """Rows the later stages attached to a rule: alignments, diffs, engine links, scenarios."""
    return {name: [dict(r) for r in conn.execute(sql, {"id": rule_id})] for name, sql in EXTRAS.items()}
