"""``kb diff``: what changed between two editions, rule by rule (registered by kb/cli.py)."""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import click

from . import paths

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
@click.option("--only", "only", multiple=True, type=click.Choice(
    ("unchanged", "reworded", "renumbered", "moved", "split", "merged", "added", "removed")),
              help="Text output: list only these classes in the rule-by-rule part (repeatable).")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Write to this file (for --format all: a directory; default build/diff/).")
@click.option("--base-url", default="http://127.0.0.1:8001", show_default=True,
              help="Where `kb serve` runs: the HTML report links rules to <base-url>/rule/<edition>/<number>.")
@click.option("--terms", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Terminology table (TSV old_term, new_term, lang, note); default data/terminology.tsv.")
@click.option("--bench", type=int, default=0, metavar="N",
              help="Time N full runs (all formats, in this process) and print the median.")
@click.option("--db", "db_path", type=click.Path(path_type=Path), default=paths.DEFAULT_DB, show_default=True,
              help="The knowledge base (SQLite).")
def diff(old, new, rule, fmt, fold, only, output, base_url, terms, bench, db_path):
    """Change report between two editions: classes per rule, word diffs, renumbering, terminology.

    \b
    kb diff --from de-1999 --to de-2024                   # report on the terminal
    kb diff --from de-1999 --to de-2024 --rule 409.2f     # one rule's story
    kb diff --from de-1999 --to de-2024 --format html -o report.html
    kb diff --from it-wiki --to de-2024 --only added --only removed --only renumbered
    """
    from . import diff as D
    from .query import KBMissing, connect

    try:
        conn = connect(db_path)
    except KBMissing as e:
        raise click.ClickException(str(e))
    term_list = D.load_terms(terms) if terms else None
    if bench:
        _bench(conn, old, new, term_list, base_url, bench)
        return
    try:
        if term_list is not None:
            lang = D.load_edition(conn, new).language
            term_list = D.load_terms(terms, lang)
        rep = D.compare(conn, old, new, terms=term_list)
    except LookupError as e:
        raise click.ClickException(str(e.args[0] if e.args else e))
    if rule and not rep.story(rule):
        raise click.ClickException(f"no rule {rule} in {old} or {new}")
    if fmt == "all":
        out_dir = output or paths.ROOT / "build" / "diff"
        for path in write_all(rep, out_dir, base_url, rule, fold):
            click.echo(f"wrote {path}")
        return
    text = render(rep, fmt, base_url=base_url, rule=rule, fold=fold, only=only)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(click.unstyle(text) if fmt == "text" else text, encoding="utf-8")
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text)


def render(rep, fmt: str, base_url: str = "http://127.0.0.1:8001", rule: str | None = None, fold: bool = True,
           only: tuple[str, ...] = ()) -> str:
    from . import diff_report as R

    if fmt == "text":
        return R.render_text(rep, rule=rule, fold=fold, only=tuple(only))
    if fmt == "html":
        return R.render_html(rep, base_url=base_url, rule=rule)
    return R.render_json(rep, rule=rule)


def write_all(rep, out_dir: Path, base_url: str, rule: str | None = None, fold: bool = True) -> list[Path]:
    """Text (uncoloured), HTML and JSON of one report into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{rep.old.id}__{rep.new.id}" + (f"__{rule}" if rule else "")
    written = []
    for fmt, ext in (("text", "txt"), ("html", "html"), ("json", "json")):
        text = render(rep, fmt, base_url=base_url, rule=rule, fold=fold)
        path = out_dir / f"{stem}.{ext}"
        path.write_text(click.unstyle(text) if fmt == "text" else text, encoding="utf-8")
        written.append(path)
    return written


def _bench(conn, old, new, terms, base_url, runs: int) -> None:
    import tempfile

    from . import diff as D

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            t = time.perf_counter()
            rep = D.compare(conn, old, new, terms=terms)
            write_all(rep, Path(tmp), base_url)
            times.append(time.perf_counter() - t)
            click.echo(f"run {i + 1}: {times[-1]:.3f}s")
    click.echo(f"median of {runs} runs (compare + text + html + json, in-process): {statistics.median(times):.3f}s")


COMMANDS = [diff]

if __name__ == "__main__":
    sys.exit(diff())
