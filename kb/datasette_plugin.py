"""Datasette plugin of the KB (registered through the ``datasette`` entry point in pyproject.toml).

The site itself lives in :mod:`kb.site`; this module only wires it into Datasette's hooks:

* ``register_routes``: the site's pages (:data:`kb.site.pages.ROUTES`).
* ``render_cell``: rule numbers inside rule and item text, rule keys and the number columns of
  canned query results become links to the rule's page in the row's edition.
* ``prepare_connection``: the bounded SQL functions ``lemmatize``, ``lemma_query`` and a lemmatising
  ``escape_fts`` for the tables' search box (:mod:`kb.site.guard`).
* ``asgi_wrapper``, ``handle_exception``, ``startup``: read-only methods, no debug pages unless
  asked, one log line per error, the SQL of Datasette's views in stoppable query processes
  (:mod:`kb.site.sandbox`), lemma dictionaries loaded before the first request.
"""
from __future__ import annotations

from datasette import hookimpl
from datasette.utils import to_css_class
from markupsafe import Markup, escape

from .diff.table import render_cell as diff_cell
from .links import linkify, rule_path
from .site import guard, pages, sandbox
from .site.cache import ResponseCache, cached_app

LINKED_TEXT = {("rules", "text"), ("rules", "text_norm"), ("items", "text"), ("items", "text_norm")}
#: columns of canned query results that hold a rule number, and the column naming its edition
NUMBER_COLUMNS = {"number": ("edition_id", "edition"), "cited_from": ("edition_id",), "target": ("edition_id",),
                  "source_number": ("source_edition",), "target_number": ("target_edition",),
                  "old_number": ("old_edition",), "new_number": ("new_edition",)}


@hookimpl(trylast=True)
def prepare_connection(conn):
    # trylast: after Datasette's own escape_fts, which the lemmatising one replaces
    guard.prepare(conn)


def _plain(value):
    """Table views hand foreign-key cells over as {"value": ..., "label": ...}."""
    return value["value"] if isinstance(value, dict) else value


def _number_link(row, value: str, column: str, prefix: str):
    keys = row.keys()
    edition = next((_plain(row[k]) for k in NUMBER_COLUMNS[column] if k in keys and row[k]), None)
    from ingest import numbers

    norm = numbers.normalize(value)
    if not edition or not numbers.is_number(norm):
        return None
    return Markup('<a href="{}">{}</a>').format(rule_path(edition, norm, prefix), value)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    """Links in cells.  Datasette asks for every cell of a page: one that needs nothing returns at once."""
    if not isinstance(value, str):
        return None
    if table == "diffs":
        return diff_cell(value, column, table, row, datasette.urls.path("/"))
    linked_text = (table, column) in LINKED_TEXT or (table is None and column == "text")
    numbered = table is None and column in NUMBER_COLUMNS
    if row is None or not (linked_text or numbered or column == "key"):
        return None
    prefix = datasette.urls.path("/")
    if numbered:
        return _number_link(row, value, column, prefix)
    keys = row.keys()
    if "edition_id" not in keys:
        return None
    if linked_text:
        bare = "kind" in keys and row["kind"] == "index"
        return linkify(value, _plain(row["edition_id"]), prefix, bare=bare)
    if "/" in value:   # the key column: edition/number
        ed, _, rest = value.partition("/")
        return Markup('<a href="{}">{}</a>').format(rule_path(ed, rest.split("#")[0], prefix), value)
    return None


def rows_html(display_rows) -> Markup:
    """The ``<tr>`` rows of Datasette's ``_table.html``: what its Jinja loop prints, built in one pass."""
    out = []
    for row in display_rows:
        out.append("<tr>")
        out.extend(f'<td class="col-{escape(to_css_class(cell["column"]))} type-{escape(cell["value_type"])}">'
                   f'{escape(cell["value"])}</td>' for cell in row)
        out.append("</tr>\n")
    return Markup("".join(out))


@hookimpl
def prepare_jinja2_environment(env, datasette):
    env.globals["kb_rows_html"] = rows_html


@hookimpl
def register_routes(datasette):
    return pages.ROUTES


@hookimpl
def asgi_wrapper(datasette):
    debug = bool((datasette.plugin_config("kb") or {}).get("debug_pages"))

    def databases() -> set[str]:
        return {n for n in datasette.databases if n != "_internal"}

    cache = ResponseCache()
    datasette._kb_cache = cache
    return lambda app: guard.guard_app(cached_app(app, cache), databases, debug)


@hookimpl(tryfirst=True)
def handle_exception(datasette, request, exception):
    return guard.handle_exception(datasette, request, exception)


@hookimpl
def startup(datasette):
    async def inner():
        guard.replace_default_exception_handler()
        sandbox.install(datasette)
        from . import lemmas

        for lang in lemmas.SUPPORTED:
            lemmas.warm(lang)
            lemmas.lemmatize("warm", lang)
        await pages.site(datasette).index()
        await pages.site(datasette).db.execute_fn(pages.site(datasette).warm)

    return inner


@hookimpl
def extra_template_vars(datasette):
    async def inner():
        return {"kb_editions": (await pages.site(datasette).index()).editions}

    return inner
