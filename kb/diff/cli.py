"""``kb diff``: what changed between two editions, rule by rule (registered by kb/cli.py)."""
from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import click

from .. import paths
from ..cli_common import DB_OPTION, connect_db
from . import BASE_URL, CLASSES

FORMATS = ("text", "html", "json", "all")


@click.command()
@click.option("--from", "old", required=True, help="Old edition id, e.g. de-1999 (see `kb editions`).")
@click.option("--to", "new", required=True, help="New edition id, e.g. de-2024.")
@click.option("--rule", "rule", default=None, help="One rule's story: a number of either edition (409.2f, 601.2f).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (coloured on a terminal), html (static page), json, or all three into --output.")
@click.option("--fold/--no-fold", default=True, show_default=True,
              help="Fold pure terminology, spelling and symbol-notation shifts (text output; the HTML page "
                   "has a switch).")
@click.option("--only", "only", multiple=True, type=click.Choice(CLASSES),
              help="Text output: list only these classes in the rule-by-rule part (repeatable).")
@click.option("--all", "show_all", is_flag=True,
              help="Text output: list the unchanged rules too (by default the rule-by-rule part lists changes only).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Write to this file (for --format all: a directory; default build/diff/).")
@click.option("--base-url", default=BASE_URL, show_default=True,
              help="The HTML report links rules to <base-url>/rule/<edition>/<number>; default: relative to the "
                   "site root (/rule/...), so the links work wherever `kb serve` runs.")
@click.option("--terms", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Terminology table (TSV old_term, new_term, lang, note); default data/terminology.tsv.")
@click.option("--bench", type=int, default=0, metavar="N",
              help="Time N full runs (all formats, in this process) and print the median.")
@DB_OPTION
def diff(old, new, rule, fmt, fold, only, show_all, output, base_url, terms, bench, db_path):
    """Change report between two editions: classes per rule, word diffs, renumbering, terminology.

    \b
    kb diff --from de-1999 --to de-2024                   # report on the terminal (changes only)
    kb diff --from de-1999 --to de-2024 --all             # ... and the unchanged rules
    kb diff --from de-1999 --to de-2024 --rule 409.2f     # one rule's story
    kb diff --from de-1999 --to de-2024 --format html -o report.html
    kb diff --from it-wiki --to de-2024 --only added --only removed --only renumbered
    """
    from .load import compare, load_edition
    from .report import render, write, write_all
    from .terminology import load_terms

    conn = connect_db(db_path)
    try:
        term_list = load_terms(terms) if terms else None
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    if bench:
        from .bench import timed

        with tempfile.TemporaryDirectory() as tmp:
            times = timed(bench, lambda: write_all(compare(conn, old, new, terms=term_list), Path(tmp), base_url), "")
        click.echo(f"median of {bench} runs (compare + text + html + json, in-process): "
                   f"{statistics.median(times):.3f}s")
        return
    try:
        if term_list is not None:
            term_list = load_terms(terms, load_edition(conn, new).language)
        rep = compare(conn, old, new, terms=term_list)
    except (LookupError, ValueError) as e:
        raise click.ClickException(str(e.args[0] if e.args else e)) from None
    if rule and not rep.story(rule):
        raise click.ClickException(f"no rule {rule} in {old} or {new}")
    if fmt == "all":
        out_dir = output or paths.ROOT / "build" / "diff"
        for path in write_all(rep, out_dir, base_url, rule, fold):
            click.echo(f"wrote {path}")
        return
    if not only and not show_all:
        only = tuple(c for c in CLASSES if c != "unchanged")
    text = render(rep, fmt, base_url=base_url, rule=rule, fold=fold, only=only)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        click.echo(f"wrote {write(output, fmt, text)}", err=True)
    else:
        click.echo(text)


COMMANDS = [diff]

if __name__ == "__main__":
    sys.exit(diff())
