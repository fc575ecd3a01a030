"""The rules engine's commands; ``kb/cli.py`` adds :data:`COMMANDS` to the ``kb`` group.

    kb scenario run FILE...       play scenarios, print the rules each step applied (--rules de-1999)
    kb scenario compare FILE...   play under two rule sets, print where the games diverge (--format json)
    kb trace 601.2f               rule text, enforcing functions, scenarios
    kb trace engine.casting.determine_total_cost
    kb trace --check | --review   suspect links / stamp the current rule text as reviewed
    kb coverage                   per rule family: enforced, tested, neither
    kb engine-bench               cast-and-resolve cycles per second (``kb bench`` times the build)
"""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import click

from engine import bench as engine_bench
from engine.cards import CardDB, CardError
from engine.paths import CARDS_DIR
from engine.registry import REGISTRY, Citation
from engine.rulesets import RuleSetError
from engine.scenario import SUFFIX, run_file
from engine.scenario.compare import compare as compare_games

from .. import rulesets as rs
from .. import trace as tr
from ..cli_common import DB_OPTION, open_db
from ..query import KBMissing, open_kb


@click.group()
def scenario():
    """Scenarios: games described in small files, with expectations (format: README, "Scenario files")."""


@scenario.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="only failures and the summary")
@click.option("-v", "--verbose", is_flag=True, help="also which function applied each rule, and the functions "
                                                   "entered whose rules did not apply")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(path_type=Path),
              help="a directory of extra card files (*.toml), loaded next to the built-in ones; repeatable")
@click.option("--rules", "rules", default=None, metavar="RULESET",
              help="the rule set to play under (data/rulesets.toml: de-1999, de-2024 …; default: today's rules)")
def run(files, quiet, verbose, card_dirs, rules):
    """Play scenario FILES; exit 0 only if every expectation holds."""
    db = _cards(card_dirs)
    ruleset = _ruleset(rules)
    paths = _scenario_paths(files)
    failed = 0
    for path in paths:
        res = run_file(path, db, ruleset)
        if not quiet:
            _print_result(res, verbose)
        if not res.ok:
            failed += 1
            if quiet:
                for msg in res.failures():
                    click.echo(f"FAIL {msg}")
    click.echo(f"{len(paths) - failed} of {len(paths)} scenario(s) passed")
    sys.exit(1 if failed else 0)


def _cards(card_dirs) -> CardDB | None:
    if not card_dirs:
        return None
    try:
        return CardDB.load(CARDS_DIR, *card_dirs)
    except CardError as e:
        click.echo(f"error: {e}")
        sys.exit(1)


def _kb(db_path: Path | None):
    """The built KB, or None when there is none (rule sets are then checked against data/manifest.toml)."""
    try:
        return open_kb(db_path) if db_path is not None else None
    except KBMissing:
        return None


def _ruleset(name: str | None, db=None):
    """The rule set ``name``, its editions checked against the KB; a clear error, not a traceback."""
    try:
        return rs.ruleset(name, db)
    except RuleSetError as e:
        raise click.UsageError(str(e)) from None


def _scenario_paths(files) -> list[Path]:
    paths: list[Path] = []
    for f in files:
        paths += sorted(f.glob(f"*{SUFFIX}")) if f.is_dir() else [f]
    return paths


@scenario.command("compare")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--rules", "pair", nargs=2, default=None, metavar="OLD NEW",
              help="the two rule sets (default: the scenario's 'rulesets:', else 1999 against today's)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@DB_OPTION
def compare(files, pair, fmt, db_path):
    """Play each scenario FILE under two rule sets and show where the games diverge: the first step whose state
    differs, the state on each side, and the rules each side applied in it (with their counterparts through the
    alignment and the word diff).  Exit 0 if every expectation holds under both rule sets."""
    db = _kb(db_path)
    first, second = (_ruleset(pair[0], db), _ruleset(pair[1], db)) if pair else (None, None)
    linker = rs.Linker(db) if db is not None else None
    views = []
    for path in _scenario_paths(files):
        try:
            cmp = compare_games(path, first, second)
        except RuleSetError as e:
            raise click.UsageError(str(e)) from None
        views.append(rs.comparison_view(cmp, linker))
    if fmt == "json":
        click.echo(json.dumps(views if len(views) != 1 else views[0], ensure_ascii=False, indent=2))
    else:
        if linker is None:
            click.echo(f"(no knowledge base at {db_path}: rules without alignment links; run `kb build`)")
        for view in views:
            _print_comparison(view)
    sys.exit(0 if all(all(v["passes"].values()) and not v["errors"] for v in views) else 1)


def _print_comparison(view: dict) -> None:
    click.echo(f"== {view['scenario']}" + (f" — {view['title']}" if view["title"] else ""))
    a, b = view["rule_sets"]
    for err in dict.fromkeys(view["errors"]):   # the same error under both rule sets is said once
        click.echo(f"  ERROR {err}")
    if view["errors"]:
        return
    d = view["first_divergence"]
    if d is None:
        click.echo(f"  the games under {a} and {b} do not diverge")
        return
    click.echo(f"  first divergence: line {d['line']}: {d['step']}")
    width = max(len(k) for k in d["differs"])
    click.echo(f"    {'':{width}}  {a:28} {b}")
    for key in d["differs"]:
        left, right = (side["state"][key] for side in d["sides"])
        click.echo(f"    {key:{width}}  {left:28} {right}")
    for side in d["sides"]:
        click.echo(f"  rules applied under {side['rule_set']} (* not under the other rule set):")
        for r in side["rules"]:
            aligned = ", ".join(f"{x['rule']} ({x['relation']})" for x in r["alignment"])
            mark = "*" if r["only_here"] else " "
            click.echo(f"  {mark} {r['rule']:28} {r['url']}" + (f"\n      ~ {aligned}" if aligned else "")
                       + (f"\n      word diff: {r['diff_url']}" if r["diff_url"] else ""))
    later = view["divergent_steps"][1:]
    if later:
        click.echo(f"  later steps that differ: lines {', '.join(map(str, later))}")
    click.echo(f"  {'PASS' if all(view['passes'].values()) and not view['errors'] else 'FAIL'}")


def _print_functions(step) -> None:
    """-v: which function applied each rule, and the functions entered whose rules did not apply."""
    for rule, fn in step.appliers:
        click.echo(f"      applied  {rule:16} {fn}")
    for rule, fn in step.entered:
        click.echo(f"      entered  {rule:16} {fn}  (condition did not hold: not applied)")


def _print_result(res, verbose: bool) -> None:
    sc = res.scenario
    click.echo(f"== {sc.path}" + (f" — {sc.title}" if sc.title else ""))
    for step in res.steps:
        if step.text != "(setup)":
            click.echo(f"  line {step.line}: {step.text}  [{step.outcome}]")
            if step.rules:
                click.echo(f"      rules: {' '.join(step.rules)}")
            if verbose:
                _print_functions(step)
            for d in step.details:
                click.echo(f"      {d}")
        for line, text, passed, msg in step.checks:
            mark = "ok  " if passed else "FAIL"
            click.echo(f"    {mark} line {line}: expect {text}" + ("" if passed else f"  ({msg})"))
    if res.error is not None:
        click.echo(f"  ERROR {res.error}")
    click.echo(f"  {'PASS' if res.ok else 'FAIL'}")


@click.command()
@click.argument("target", required=False)
@click.option("--check", is_flag=True, help="report links whose rule text changed since review")
@click.option("--review", is_flag=True, help="stamp the current rule text of the links as reviewed")
@click.option("--full", is_flag=True, help="print the texts in full and every scenario (default: the first lines "
                                          "and the scenarios tagged with the rule first)")
@DB_OPTION
def trace(target, check, review, full, db_path):
    """Trace TARGET: a rule (601.2f, de-1999/422.1) or an engine function (engine.casting.determine_total_cost)."""
    if not target and not check and not review:
        raise click.UsageError("give a TARGET, --check or --review")
    item = None
    if target:
        try:
            item = tr.resolve_target(target)
        except KeyError:
            raise click.UsageError(f"{target!r} is neither a rule number nor an engine function "
                                   f"(try engine.casting.determine_total_cost or 601.2f)") from None
    _check_reviews()
    try:
        db = open_db(db_path)
    except click.ClickException:
        if item is not None and not (check or review):
            _print_trace(item, None, full)  # the code links need no database
        raise
    if review or check:
        statuses = tr.link_statuses(db)
        if item is not None:
            statuses = [s for s in statuses if s.link is item or s.citation == item]
        if review:
            reviews = tr.load_reviews()
            stamped = 0
            for s in statuses:
                if s.rule is not None:
                    assert s.current is not None  # kb build stamps every rule with text_sha256
                    reviews[(s.link.qualname, s.citation.key)] = s.current
                    stamped += 1
            tr.save_reviews(reviews)
            click.echo(f"reviewed {stamped} link(s); stamps in {tr.REVIEWS_FILE}")
            missing = [s for s in statuses if s.rule is None]
            for s in missing:
                click.echo(f"missing  {s.citation.key}  {s.link.qualname} ({s.link.file}:{s.link.line})")
            if not check:
                sys.exit(1 if missing else 0)
            statuses = tr.link_statuses(db)
        bad = [s for s in statuses if s.status != "ok"]
        for s in bad:
            click.echo(f"{s.status:10} {s.citation.key:16} {s.link.qualname} ({s.link.file}:{s.link.line})")
        click.echo(f"{len(statuses) - len(bad)} of {len(statuses)} link(s) ok")
        sys.exit(1 if bad else 0)
    if not _print_trace(item, db, full):
        sys.exit(1)


def _check_reviews() -> None:
    """A broken review stamps file is said once, with its file, before anything reads it."""
    try:
        tr.load_reviews()
    except ValueError as e:
        raise click.ClickException(str(e)) from None


#: without --full: a text's first characters, and this many scenarios that apply a rule without being tagged with it
SHORT_TEXT = 300
SHORT_SCENARIOS = 5


def _print_trace(item, db, full: bool = False) -> bool:
    """Print the trace of a rule or a function; False when a rule is in neither the KB nor the engine."""
    if isinstance(item, Citation):
        rules = tr.rules_by_key(db, [item.edition]) if db is not None else {}
        row = rules.get(item.key)
        click.echo(f"{item.key}")
        if db is not None:
            if row is None:
                click.echo("  (no such rule in the knowledge base)")
            else:
                click.echo(_indent(_short(row["text"], full)))
                for other in tr.counterparts(db, row):
                    how = f" ({other['_how']})" if other.get("_how") else ""
                    click.echo(f"  counterpart {other['key']}{how}:")
                    click.echo(_indent(_short(other["text"], full), 4))
        click.echo("enforced by:")
        links = REGISTRY.functions_for(item)
        for link in links:
            click.echo(f"  {link.qualname}  {link.file}:{link.line}")
        aligned = [r for r in rs.enforced_through_alignment(db) if r["rule"] == item.key] if db is not None else []
        for r in aligned:
            click.echo(f"  {r['function']}  {r['file']}:{r['line']}  (through the alignment: as {r['via']}, "
                       f"rule set {r['rule_set']})")
        if not links and not aligned:
            click.echo("  (no engine function)")
        click.echo("scenarios:")
        hits = _scenario_lines([(res.scenario.path, how) for res, key, how in tr.scenario_links()
                                if key == item.key], full)
        for line in hits:
            click.echo(f"  {line}")
        if not hits:
            click.echo("  (none)")
        return db is None or row is not None or bool(links) or bool(hits)
    link = item
    click.echo(f"{link.qualname}  {link.file}:{link.line}")
    if link.doc:
        click.echo(f"  {link.doc}")
    rules = tr.rules_by_key(db, {c.edition for c in link.citations}) if db is not None else {}
    reviews = tr.load_reviews()
    for c in link.citations:
        row = rules.get(c.key)
        state = "missing"
        if row is not None:
            rev = reviews.get((link.qualname, c.key))
            state = "unreviewed" if rev is None else ("ok" if rev == row.get("text_sha256") else "suspect")
        click.echo(f"enforces {c.key}" + (f" [{state}]" if db is not None else ""))
        if row is not None:
            click.echo(_indent(row["text"]))
    return True


def _short(text: str | None, full: bool) -> str:
    """``text``, or its first :data:`SHORT_TEXT` characters cut at a word, with "[...]"."""
    text = text or ""
    if full or len(text) <= SHORT_TEXT:
        return text
    return text[:SHORT_TEXT].rsplit(" ", 1)[0] + " [...]"


def _scenario_lines(links: list[tuple[str, str]], full: bool) -> list[str]:
    """One line per scenario with every way it exercises the rule ("tagged, applied"), those tagged with the rule
    first; without ``full``, at most :data:`SHORT_SCENARIOS` of the others and a line that counts the rest."""
    hows: dict[str, set[str]] = {}
    for path, how in links:
        hows.setdefault(path, set()).add(how)
    ordered = sorted(hows, key=lambda p: (min(tr.HOW_ORDER.index(h) for h in hows[p]), p))
    lines = [f"{p}  ({', '.join(h for h in tr.HOW_ORDER if h in hows[p])})" for p in ordered]
    tagged = sum("tagged" in hows[p] for p in ordered)
    if full or len(ordered) <= tagged + SHORT_SCENARIOS:
        return lines
    rest = len(ordered) - tagged - SHORT_SCENARIOS
    return lines[:tagged + SHORT_SCENARIOS] + [f"... and {rest} more that apply it in passing, not tagged with it "
                                               "(--full lists them)"]


def _indent(text: str, n: int = 2) -> str:
    return "\n".join(textwrap.fill(par, width=100, initial_indent=" " * n, subsequent_indent=" " * n)
                     for par in (text or "").split("\n"))


@click.command()
@DB_OPTION
@click.option("-v", "--verbose", is_flag=True, help="list the rules of each category")
@click.option("--family", "families", multiple=True, help="only these rule families (601, 602, …)")
@click.option("--rules", "rules", default=None, metavar="RULESET",
              help="the rules of this rule set's edition (de-1999: enforced under the 1999 rules, directly or "
                   "through the alignment of an unchanged rule, and tested by scenarios that pass under them)")
@click.option("--chapter", "chapters", multiple=True, help="only these chapters (with --rules; 3, 4 …)")
def coverage(db_path, verbose, families, rules, chapters):
    """Per rule family: which rules are enforced by the engine, tested by a scenario, or neither."""
    db = open_db(db_path)
    if rules is None:
        if chapters:
            raise click.UsageError("--chapter goes with --rules")
        rows = tr.coverage(db, set(families) or None)
    else:
        ruleset = _ruleset(rules, db)
        rows = rs.ruleset_coverage(db, ruleset, set(families) or None, set(chapters) or None)
        click.echo(f"rule set {ruleset.name}: the rules of {ruleset.editions[0]}")
    if verbose:
        click.echo("E = enforced by an engine function, T = tested (tagged or applied) by a scenario")
    click.echo(f"{'family':8}{'rules':>6}{'enforced':>10}{'tested':>8}{'both':>6}{'neither':>9}")
    for fc in rows:
        both = fc.enforced & fc.tested
        click.echo(f"{fc.family:8}{len(fc.rules):>6}{len(fc.enforced):>10}{len(fc.tested):>8}{len(both):>6}"
                   f"{len(fc.neither):>9}")
        if verbose:
            for r in fc.rules:
                mark = ("E" if r in fc.enforced else "-") + ("T" if r in fc.tested else "-")
                click.echo(f"    {mark} {r}")
        elif fc.neither and (fc.enforced or fc.tested):
            click.echo(f"    neither: {' '.join(fc.neither)}")
    if rules is not None:
        total = sum(len(fc.rules) for fc in rows)
        both_n = sum(len(fc.enforced & fc.tested) for fc in rows)
        click.echo(f"total   {total:>6}{sum(len(fc.enforced) for fc in rows):>10}"
                   f"{sum(len(fc.tested) for fc in rows):>8}{both_n:>6}{sum(len(fc.neither) for fc in rows):>9}")


@click.command("engine-bench")
@click.option("--seconds", default=2.0, show_default=True, help="how long to measure")
def bench(seconds):
    """Cast-and-resolve cycles per second for a simple spell (a benchmark, not a test)."""
    engine_bench.main(seconds)


COMMANDS = [scenario, trace, coverage, bench]
