"""``kb search`` and ``kb serve-bench``: thin commands over :mod:`kb.site.search` and :mod:`kb.site.bench`."""
from __future__ import annotations

import html
import json
import re
import sys

import click

from ..cli_common import DB_OPTION, connect_db


@click.command()
@click.argument("query")
@click.option("--lang", default=None, help="Language of the editions searched (de, it, en; default: all).")
@click.option("--edition", default=None, help="Search one edition, or 'all' (default: the newest edition of each "
                                               "document, each hit naming the older editions that print it).")
@click.option("--no-widen", is_flag=True, help="Do not widen through the terminology table.")
@click.option("--limit", default=20, show_default=True, help="Results per page.")
@click.option("--page", default=1, show_default=True, help="Which page of results.")
@click.option("--json", "as_json", is_flag=True)
@DB_OPTION
def search(query, lang, edition, no_widen, limit, page, as_json, db_path):
    """Search the rules like the site does: lemmatised, widened, rule numbers and keywords jump."""
    from .search import index
    from .search import search as run

    conn = connect_db(db_path)
    res = run(conn, index(conn), query, lang, edition, widen=not no_widen, limit=limit, page=page)
    if as_json:
        click.echo(json.dumps(res.as_json(), ensure_ascii=False, indent=1))
        return
    if res.jump:
        click.echo(f"→ {res.jump}")
    for note in res.notes:
        click.echo(f"note: {note}")
    for w in res.widened:
        click.echo(f"also searched: {w['also']} (terminology: {w['old']} → {w['new']})")
    for g in res.glossary:
        click.echo(f"glossary: {g['title']} ({g['edition']})")
    for h in res.hits:
        snippet = html.unescape(re.sub(r"</?mark>", "*", str(h.snippet)))  # the text as printed, marks as *
        click.echo(f"{h.edition:<16} {h.number or h.kind:<10} {snippet}")
        if h.span:
            click.echo(f"{'':<16} {'':<10} (same text in {len(h.editions)} editions, {h.span[0]} → {h.span[1]})")
    if res.hits and (res.more or res.page > 1):
        click.echo(f"results {res.first + 1}–{res.first + len(res.hits)} of {res.total}"
                   + (f"; --page {res.page + 1} for more" if res.more else ""))
    if res.suggestions:
        click.echo("did you mean: " + ", ".join(s["term"] for s in res.suggestions))


@click.command("serve-bench", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def serve_bench(args):
    """Load benchmark of the site on 127.0.0.1 (see python -m kb.site.bench --help)."""
    from .bench import main

    sys.exit(main(list(args)))


@click.command("glossary-links")
@click.argument("edition")
@click.option("--top", default=0, help="Print only the N terms with the most links (default: all).")
@DB_OPTION
def glossary_links(edition, top, db_path):
    """How many of EDITION's texts link to each glossary term, and the terms that never link (and why)."""
    from .glossary import census, edition_texts, glossary_of

    conn = connect_db(db_path)
    row = conn.execute("select language from editions where id = ?", (edition,)).fetchone()
    if row is None:
        raise click.ClickException(f"no edition {edition!r} (see `kb editions`)")
    g = glossary_of(conn, edition, row[0])
    texts = edition_texts(conn, edition)
    counts = census(g, texts)
    click.echo(f"{edition}: {len(texts)} texts, {sum(counts.values())} glossary links to {len(counts)} terms")
    for (title, source), n in counts.most_common(top or None):
        click.echo(f"{n:6}  {title}" + (f"  ({source})" if source != edition else ""))
    for title, why in sorted(g.unlinked.items()):
        click.echo(f"{'-':>6}  {title}  (never linked: {why})")


COMMANDS = [search, serve_bench, glossary_links]
