"""``kb align-eval`` and ``kb align export``: commands over the built KB.

kb/cli.py adds every command of :data:`COMMANDS` to the ``kb`` group.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .. import lineage, paths
from ..cli_common import DB_OPTION, open_db
from . import ondemand


@click.command("align-eval")
@DB_OPTION
@click.option("--gold-dir", type=click.Path(path_type=Path), default=paths.DATA / "gold", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--errors", "errors_of", default=None, metavar="GOLD_FILE",
              help="Also list the rules where the aligner and this gold file (e.g. it-wiki__de-2024.tsv) differ.")
@click.option("--fold", "fold_name", type=click.Choice(["all", "even", "odd"]), default="all", show_default=True,
              help="Restrict the --errors listing to the source rules of one fold (parity of the 1999 section).")
@click.option("--tuning-only", is_flag=True,
              help="Hide every held-out figure: of a gold set with a held-out fold print only the tuning fold "
                   "(data/gold/tuning.toml), in the table and in --errors and --steps.")
@click.option("--steps", "per_step", is_flag=True,
              help="Also report the steps of each composed answer: links of changed rules, and the false composed "
                   "pairs by the step of their weakest link.")
def align_eval(db_path: Path, gold_dir: Path, as_json: bool, errors_of: str | None, fold_name: str,
               tuning_only: bool, per_step: bool):
    """Strict precision, recall and F1 of the aligners against data/gold, beside the baselines.

    While tuning, use --tuning-only: the held-out fold stays unseen until it is scored once, at the end."""
    from . import evaluate as ev

    db = open_db(db_path)
    try:
        results = ev.evaluate(db, gold_dir)
        if tuning_only:
            results = ev.tuning_rows(results)
        if as_json:
            click.echo(json.dumps(results, indent=1))
        else:
            click.echo(ev.format_table(results))
        for line in ev.errors(db, errors_of, gold_dir, fold_name, tuning_only=tuning_only) if errors_of else ():
            click.echo(line)
        if per_step:
            click.echo(ev.format_steps(ev.step_report(db, gold_dir, tuning_only)))
    except ValueError as e:
        raise click.ClickException(str(e)) from None


@click.group("align")
def align_group():
    """Alignments of rules across languages and editions."""


@align_group.command("export")
@DB_OPTION
@click.option("--from", "source", required=True, help="Source edition, e.g. it-wiki or de-1999.")
@click.option("--to", "target", required=True, help="Target edition, e.g. de-2024.")
def align_export(db_path: Path, source: str, target: str):
    """The alignment of two editions as TSV: source number, target number, relation, score (empty
    target: none), source line, method.

    A pair the build aligned is read from the KB; any other pair is composed along the stored
    pairs that connect the two editions, or aligned now (stderr says which).  One row per pair;
    a split source has several rows, a rule without counterpart an empty target.  The source
    line tells apart a number printed twice.
    """
    db = open_db(db_path)
    if "alignments" not in db.table_names():
        raise click.ClickException("the KB has no alignments table: run `kb build` first")
    rows = list(db.query(
        """select a.source_number, a.target_number, a.relation, a.score,
                  coalesce(r.line_start, i.line_start) as source_line, a.method, a.review
           from alignments a left join rules r on r.id = a.source_rule_id left join items i on i.id = a.source_item_id
           where a.source_edition = ? and a.target_edition = ? order by a.id""", [source, target]))
    if rows:
        click.echo(f"{source} → {target}: stored by the build", err=True)
    else:
        try:
            answer = lineage.pair(db, source, target)
        except LookupError as e:
            raise click.ClickException(str(e.args[0])) from None
        click.echo(f"{source} → {target}: " + (ondemand.composed_method(answer.path) if answer.method == "composed"
                                                else answer.method), err=True)
        rows = [{"source_number": lk.source.norm, "target_number": lk.target.norm if lk.target else None,
                 "relation": lk.relation, "score": lk.score, "source_line": lk.source.line, "method": lk.method,
                 "review": lk.evidence.get("review")}
                for lk in answer.links]
    out = sys.stdout
    out.write("source_number\ttarget_number\trelation\tscore\tsource_line\tmethod\treview\n")
    for r in rows:
        out.write(f"{r['source_number']}\t{r['target_number'] or ''}\t{r['relation']}\t{r['score']:.3f}\t"
                  f"{r['source_line'] or ''}\t{r['method']}\t{r['review'] or ''}\n")


@align_group.command("review")
@DB_OPTION
@click.argument("source")
@click.argument("target")
@click.option("--limit", "-n", default=20, show_default=True, help="How many links to list.")
def align_review(db_path: Path, source: str, target: str, limit: int):
    """The least confident links of the lineage from edition SOURCE to edition TARGET first, with both texts,
    for a person to review: each ends with the line to copy into data/alignment_reviews.tsv (verdict confirm,
    reject or add; see kb/align/reviews.py).  Links already reviewed are left out."""
    db = open_db(db_path)
    try:
        answer = lineage.pair(db, source, target)
    except LookupError as e:
        raise click.ClickException(str(e.args[0])) from None
    links = [lk for lk in answer.links if lk.target is not None and not lk.evidence.get("review")]
    links.sort(key=lambda lk: (lk.score, lk.source.seq))
    texts = {r["id"]: r for r in db.query(
        "select id, number, title, text from rules where id in (select value from json_each(?))",
        [json.dumps([i for lk in links[:limit] for i in (lk.source.id, lk.target.id)])])}  # type: ignore[union-attr]
    click.echo(f"{source} → {target}: {answer.method}; {len(links)} links not reviewed, the {min(limit, len(links))} "
               "least confident first", err=True)
    for n, lk in enumerate(links[:limit], 1):
        assert lk.target is not None
        s, t = texts[lk.source.id], texts[lk.target.id]
        click.echo(f"[{n}] {lk.relation} {lk.score:.3f}  {source}/{s['number']} → {target}/{t['number']}  "
                   f"({lk.method})")
        for ed, r in ((source, s), (target, t)):
            click.echo(f"    {ed} {r['number']}: " + " ".join(f"{r['title'] or ''} {r['text'] or ''}".split()))
        click.echo(f"    {source}/{lk.source.norm}\t{target}/{lk.target.norm}\tconfirm\tREVIEWER\tDATE\t\n")


COMMANDS = [align_eval, align_group]
