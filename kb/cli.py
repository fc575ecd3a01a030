"""The ``kb`` command: a thin layer over kb.build, kb.query, kb.manifest and kb.serve."""
from __future__ import annotations

import importlib
import json
from collections import Counter
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import click

from .cli_common import DATA_OPTION, DB_OPTION, connect_db



#: numbering defects are always listed by `kb build`; other warnings are counted
SERIOUS = {"duplicate-number", "number-backwards", "malformed-number", "unparsed"}


def _fail(e: Exception) -> None:
    raise click.ClickException(str(e))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Cross-referenced knowledge base of the Magic: The Gathering rules texts."""


@main.command()
@DB_OPTION
@DATA_OPTION
@click.option("--strict", is_flag=True, help="Fail on any source warning (duplicate or backwards numbers, ...).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary.")
@click.option("-v", "--verbose", is_flag=True, help="List every source warning, not only numbering defects.")
def build(db_path: Path, data_dir: Path, strict: bool, quiet: bool, verbose: bool):
    """Build the KB from data/manifest.toml (to a temporary file, then moved into place)."""
    from .build import BuildError, build as run

    try:
        report = run(db_path, data_dir, strict=strict, progress=(lambda m: None) if quiet else click.echo)
    except BuildError as e:
        _fail(e)
    others = Counter()
    for w in report.warnings:
        if verbose or w["code"] in SERIOUS:
            click.echo(click.style("warning: ", fg="yellow") + f"{w['path']}:{w['line']}: {w['message']}", err=True)
        else:
            others[w["code"]] += 1
    if others and not quiet:
        click.echo("other source warnings (kb build -v, or the warnings table): "
                   + ", ".join(f"{code} {n}" for code, n in sorted(others.items())), err=True)
    for name in report.skipped_stages:
        click.echo(f"note: stage '{name}' is not available yet and was skipped", err=True)
    rules, items = report.counts.get("rules", 0), report.counts.get("items", 0)
    click.echo(f"built {report.db_path}: {rules} rules, {items} items, {report.counts.get('refs', 0)} references, "
               f"{len(report.warnings)} warnings in {report.timings['total']:.2f}s")


@main.command()
@DB_OPTION
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("-p", "--port", default=8001, show_default=True, type=int)
def serve(db_path: Path, host: str, port: int):
    """Serve the KB read-only in Datasette."""
    from .query import KBMissing
    from .serve import serve as run

    try:
        run(db_path, host=host, port=port)
    except KBMissing as e:
        _fail(e)


def _rows_or_json(rows: list[dict], as_json: bool) -> bool:
    """Print ``rows`` as JSON when asked; True when done."""
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    return as_json


@main.command()
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
def stats(db_path: Path, as_json: bool):
    """Records by kind and the share of source lines attributed, per document."""
    from .query import stats as run

    rows = run(connect_db(db_path))
    if _rows_or_json(rows, as_json):
        return
    for r in rows:
        click.echo(click.style(r["document"], bold=True) + f"  {r['path']}  (parser {r['parser']})")
        click.echo("  " + ", ".join(f"{k} {v}" for k, v in sorted(r["kinds"].items())))
        click.echo(f"  lines attributed: {r['attributed']}/{r['nonblank_lines']} non-blank = {r['share']:.1%}; "
                   f"warnings: {r['warnings']}")


@main.command()
@DB_OPTION
@click.option("--json", "as_json", is_flag=True)
def editions(db_path: Path, as_json: bool):
    """List the editions in the KB (id, language, date, kind, parser, source)."""
    from .query import editions as run

    rows = run(connect_db(db_path))
    if _rows_or_json(rows, as_json):
        return
    for r in rows:
        click.echo(f"{r['id']:<16} {r['language']:<3} {r['date']:<11} {r['kind']:<8} {r['parser']:<12} {r['source']}")


@main.command()
@click.argument("number")
@click.option("--edition", "-e", help="Edition id (default: every edition that has this number).")
@DB_OPTION
def rule(number: str, edition: str | None, db_path: Path):
    """Print a rule with its examples, what it cites and what cites it."""
    from .query import find_rules, rule_view

    conn = connect_db(db_path)
    found = find_rules(conn, number, edition)
    if not found:
        _fail(Exception(f"no rule {number}" + (f" in edition {edition}" if edition else " in any edition")))
    width = 100
    for r in found:
        v = rule_view(conn, r["id"])
        head = f"{v.rule['number']}" + (f" {v.rule['title']}" if v.rule["title"] else "")
        click.echo(click.style(f"[{v.edition['id']}] {head}", bold=True) +
                   f"  ({v.rule['document_id']} lines {v.rule['line_start']}–{v.rule['line_end']})")
        if v.rule["text"]:
            click.echo(textwrap.fill(v.rule["text"], width, initial_indent="  ", subsequent_indent="  "))
        for item in v.items:
            label = item["label"] or item["kind"]
            click.echo(textwrap.fill(f"{label}: {item['text']}", width, initial_indent="  · ",
                                     subsequent_indent="    "))
        if v.children:
            click.echo("  children: " + ", ".join(c["number"] for c in v.children))
        if v.cites:
            click.echo("  cites: " + ", ".join(
                (c["target_number"] or c["target"]) + ("" if c["resolved"] else " (not in this edition)")
                for c in v.cites))
        if v.cited_by:
            names = (c["from_number"] or f"{c['from_kind']} {c['from_title'] or ''} of {c['owner_number'] or '-'}"
                     for c in v.cited_by)
            click.echo("  cited by: " + ", ".join(dict.fromkeys(n.replace("  ", " ") for n in names)))
        click.echo()


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--parser", "parser_name", required=True, help="Parser name (see `kb parsers`).")
@click.option("--edition", "edition_id", required=True, help="New edition id, e.g. en-2025-02-07.")
@click.option("--language", required=True, help="ISO 639-1 code: de, it, en, ...")
@click.option("--date", required=True, help="Edition date, YYYY-MM-DD (or YYYY).")
@click.option("--kind", default="cr", type=click.Choice(["cr", "article", "excerpt"]), show_default=True)
@click.option("--title", default="")
@click.option("--source", default="", help="Where the document comes from.")
@click.option("--encoding", default="auto", show_default=True)
@DATA_OPTION
def add(path: Path, parser_name: str, edition_id: str, language: str, date: str, kind: str, title: str,
        source: str, encoding: str, data_dir: Path):
    """Copy a document into data/sources/ and register it in the manifest (ingested by the next build)."""
    from ingest import SourceError, parse_document
    from .manifest import ManifestError, add as run

    try:
        parsed = parse_document(path, parser_name, language, encoding)
        doc = run(path, parser_name, edition_id, language, date, kind, title, source, encoding, data_dir)
    except (ManifestError, SourceError) as e:
        _fail(e)
    except KeyError as e:
        _fail(Exception(e.args[0]))
    click.echo(f"added {doc.path} as edition {edition_id} ({len(parsed.records)} records, "
               f"{len(parsed.warnings)} warnings); run `kb build` to ingest it")


@main.command()
def parsers():
    """List the parser names for `kb add --parser`."""
    from ingest import PARSERS, _load_parsers

    _load_parsers()
    for name, spec in sorted(PARSERS.items()):
        click.echo(f"{name:<14} {spec.description}")


@main.command()
@click.option("--runs", default=5, show_default=True)
@DATA_OPTION
def bench(runs: int, data_dir: Path):
    """Median wall time of full `kb build` runs, each a fresh process (imports and all), into a temp dir."""
    import subprocess

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "kb", "build", "-q", "--db", str(Path(tmp) / "kb.db"),
                            "--data-dir", str(data_dir)], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
            click.echo(f"run {i + 1}: {times[-1]:.2f}s")
    click.echo(f"median of {runs} full builds: {statistics.median(times):.2f}s")


def _register(module: str) -> None:
    """Add the commands other packages export as ``COMMANDS``."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name == module:
            return
        raise
    for cmd in getattr(mod, "COMMANDS", []):
        main.add_command(cmd)


for _module in ("kb.trace.cli", "kb.align_cli", "kb.diff.cli"):
    _register(_module)


if __name__ == "__main__":
    sys.exit(main())
