"""The ``kb`` command: a thin layer over kb.build, kb.query, kb.manifest and kb.serve."""
from __future__ import annotations

import errno
import importlib
import json
import os
import sys
import textwrap
from collections import Counter
from pathlib import Path

import click

from . import paths
from .cli_common import DATA_OPTION, DB_OPTION, connect_db

#: commands that other modules define (in their ``COMMANDS``): a module is imported only when one of its commands
#: runs (or ``kb --help`` lists them), so that ``kb build`` does not start by importing networkx and the engine CLI
LAZY_COMMANDS = {
    "scenario": "kb.trace.cli", "trace": "kb.trace.cli", "coverage": "kb.trace.cli", "engine-bench": "kb.trace.cli",
    "align": "kb.align.cli", "align-eval": "kb.align.cli",
    "graph": "kb.graph.cli",
    "diff": "kb.diff.cli",
    "search": "kb.site.cli", "serve-bench": "kb.site.cli", "glossary-links": "kb.site.cli",
}

#: numbering defects are always listed by `kb build`; other warnings are counted
SERIOUS = {"duplicate-number", "number-backwards", "malformed-number", "unparsed"}


def _fail(e: Exception) -> None:
    raise click.ClickException(str(e))


class LazyGroup(click.Group):
    """A group that imports the module of a command of :data:`LAZY_COMMANDS` when the command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            for command in importlib.import_module(LAZY_COMMANDS[cmd_name]).COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Cross-referenced knowledge base of the Magic: The Gathering rules texts."""


@main.command()
@DB_OPTION
@DATA_OPTION
@click.option("--strict", is_flag=True, help="Fail on any source warning (duplicate or backwards numbers, ...).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary.")
@click.option("-v", "--verbose", is_flag=True, help="List every source warning, not only numbering defects.")
@click.option("--force", is_flag=True, help="Build even if nothing changed since the last build.")
def build(db_path: Path, data_dir: Path, strict: bool, quiet: bool, verbose: bool, force: bool):
    """Build the KB from data/manifest.toml (to a temporary file, then moved into place).

    Parsed documents and lemmas are cached beside the database (cache/), so only new or
    changed documents are parsed; a build whose inputs did not change is skipped.
    """
    from .build import BuildError
    from .build import build as run

    try:
        report = run(db_path, data_dir, strict=strict, force=force,
                     progress=(lambda m: None) if quiet else click.echo)
    except BuildError as e:
        _fail(e)
    if not report.up_to_date:
        _print_warnings(report.warnings, verbose, quiet, data_dir)
    rules, items = report.counts.get("rules", 0), report.counts.get("items", 0)
    verb = "up to date" if report.up_to_date else "built"
    click.echo(f"{verb} {paths.shown(report.db_path)}: {rules} rules, {items} items, "
               f"{report.counts.get('refs', 0)} references, {len(report.warnings)} warnings in "
               f"{report.timings['total']:.2f}s")


#: at most this many numbering defects are listed by `kb build` (all with -v)
SHOWN_WARNINGS = 20


def _print_warnings(warnings: list[dict], verbose: bool, quiet: bool, data_dir: Path) -> None:
    others: Counter[str] = Counter()
    shown = 0
    for w in warnings:
        if verbose or (w["code"] in SERIOUS and shown < SHOWN_WARNINGS):
            where = f"{paths.shown_source(data_dir, w['path'])}:{w['line']}"
            click.echo(click.style("warning: ", fg="yellow") + f"{where}: {w['message']}", err=True)
            shown += 1
        else:
            others[w["code"]] += 1
    if others and not quiet:
        click.echo("other source warnings (kb build -v, or the warnings table): "
                   + ", ".join(f"{code} {n}" for code, n in sorted(others.items())), err=True)


@main.command()
@DB_OPTION
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("-p", "--port", default=8001, show_default=True, type=int)
@click.option("--debug-pages", is_flag=True, help="Also serve Datasette's debug pages (/-/databases, ...) and the "
                                                  "database and CSV downloads.")
@click.option("--workers", type=click.IntRange(1, 16), default=None,
              help="Server processes (default: one per CPU, at most 2).")
def serve(db_path: Path, host: str, port: int, debug_pages: bool, workers: int | None):
    """Serve the KB read-only in Datasette."""
    from .query import KBMissing
    from .serve import ServeError
    from .serve import serve as run

    try:
        run(db_path, host=host, port=port, debug_pages=debug_pages, workers=workers)
    except (KBMissing, ServeError) as e:
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
    from ingest import numbers

    from .query import citer_name, find_rules, rule_view

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
            click.echo("  cites: " + ", ".join(dict.fromkeys(
                numbers.normalize(c["target_number"] or c["target"])
                + ("" if c["resolved"] else " (not in this edition)") for c in v.cites)))
        if v.cited_by:
            click.echo("  cited by: " + ", ".join(dict.fromkeys(citer_name(c) for c in v.cited_by)))
        click.echo()


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--parser", "parser_name", default="cr-text", show_default=True, help="Parser name (see `kb parsers`).")
@click.option("--edition", "edition_id", help="Edition id (one file only; default: LANGUAGE-DATE, e.g. en-2024-11-08).")
@click.option("--language", help="ISO 639-1 code: de, it, en, ... (default: guessed from the text).")
@click.option("--date", help="Edition date, YYYY-MM-DD (default: the date the document states).")
@click.option("--kind", default="cr", type=click.Choice(["cr", "article", "excerpt"]), show_default=True)
@click.option("--title", default="")
@click.option("--source", default="", help="Where the document comes from.")
@click.option("--encoding", default="auto", show_default=True)
@click.option("--allow-partial", is_flag=True, help="Add a document in which the parser finds no rule.")
@DATA_OPTION
def add(files: tuple[Path, ...], parser_name: str, edition_id: str | None, language: str | None, date: str | None,
        kind: str, title: str, source: str, encoding: str, allow_partial: bool, data_dir: Path):
    """Add documents (files, or directories of *.txt) to data/sources/ and the manifest.

    Each file is parsed first and added or refused on its own; its edition id, language and date
    come from its own text unless flags say otherwise.  `kb build` ingests what was added.
    """
    from .add import AddError, AddOptions, add_files

    opts = AddOptions(parser_name, edition_id, language, date, kind, title, source, encoding, allow_partial)
    try:
        results = add_files(list(files), opts, data_dir)
    except AddError as e:
        _fail(e)
    for r in results:
        if r.ok:
            click.echo(click.style("added ", fg="green") + f"{r.path}: {r.message}")
            for note in r.notes:
                click.echo(f"      {note}")
        else:
            click.echo(click.style("refused ", fg="red") + r.message, err=True)
    added = sum(r.ok for r in results)
    default = Path(data_dir).resolve() == paths.DATA.resolve()
    build = "kb build" + ("" if default else f" --data-dir {paths.shown(data_dir)}")
    click.echo(f"{added} of {len(results)} file(s) added" + (f"; run `{build}` to ingest them" if added else ""))
    if added < len(results):
        sys.exit(1)


@main.command()
@click.argument("number")
@click.option("--edition", "-e", help="Edition of NUMBER (default: the newest edition that has it).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@DB_OPTION
def history(number: str, edition: str | None, fmt: str, db_path: Path):
    """A rule's life across editions and languages: first appearance, renumberings, rewordings
    (with word diffs), splits, merges, removal, and its counterparts in other languages."""
    from .history import HistoryError, render_text
    from .history import history as run

    try:
        h = run(connect_db(db_path), number, edition)
    except HistoryError as e:
        _fail(e)
    click.echo(json.dumps(h.as_dict(), indent=2, ensure_ascii=False) if fmt == "json" else render_text(h))


@main.command()
def parsers():
    """List the parser names for `kb add --parser`."""
    from ingest import PARSERS

    for name, spec in sorted(PARSERS.items()):
        click.echo(f"{name:<14} {spec.description}")


@main.command()
@click.option("--runs", default=3, show_default=True, help="Runs of the cold and unchanged builds.")
@click.option("--archive", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A directory of official plain-text editions to add (to a temporary copy of the data).")
@click.option("--synthetic", default=0, show_default=True,
              help="Also add this many editions derived from the --archive files (to reach the archive's size).")
@DATA_OPTION
def bench(runs: int, archive: Path | None, synthetic: int, data_dir: Path):
    """Time fresh `kb build` processes: cold, unchanged, one edition added, the whole archive."""
    from .bench import bench as run

    run(data_dir, archive, synthetic, runs, echo=click.echo)


#: errors of writing the output (a full disk, a closed pipe) that name no file
_OUTPUT_ERRORS = (errno.ENOSPC, errno.EPIPE, errno.EIO)


def run() -> None:
    """The ``kb`` program: :func:`main`, then out of the process without the interpreter's teardown, which frees
    every object one by one (a third of a second after a build: spaCy, the aligners' views).  The output is
    flushed first; each command closes its own resources (pools, files, the database)."""
    try:
        try:
            main()
        except OSError as e:   # the system refused a file or the output (no such folder, disk full, no permission)
            where = f"{e.filename}: " if e.filename else "output: " if e.errno in _OUTPUT_ERRORS else ""
            raise SystemExit(f"Error: {where}{e.strerror or e}") from None
    except SystemExit as done:
        code = done.code
        try:
            if isinstance(code, str):
                print(code, file=sys.stderr)
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:   # a reader that went away (``kb ... | head``)
            pass
        os._exit(code if isinstance(code, int) else 0 if code is None else 1)


if __name__ == "__main__":
    run()
