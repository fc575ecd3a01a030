"""``kb graph show|top|export``: the rule graph on the command line (kb/cli.py registers :data:`COMMANDS`)."""
from __future__ import annotations

from pathlib import Path

import click

from .. import paths
from ..cli_common import DB_OPTION, open_db
from . import aligned_versions, build_graph, cited_by, cites, export, most_cited


@click.group("graph")
def graph_group():
    """The rule graph (rules, items, parent/child, citations, alignments)."""


@graph_group.command("export")
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["graphml", "json"]), default="graphml", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output file (default: build/graph.graphml or build/graph.json).")
def graph_export(db_path: Path, fmt: str, out: Path | None):
    """Write the graph for Gephi (GraphML) or d3 (node-link JSON)."""
    g = build_graph(open_db(db_path))
    out = out or paths.ROOT / "build" / f"graph.{fmt}"
    export(g, out, fmt)
    click.echo(f"wrote {out}: {g.number_of_nodes()} nodes, {g.number_of_edges()} edges")


@graph_group.command("show")
@DB_OPTION
@click.argument("node")
@click.option("--transitive", is_flag=True, help="Follow citations transitively.")
def graph_show(db_path: Path, node: str, transitive: bool):
    """What NODE (e.g. de-2024/601.2f) cites, what cites it, and its aligned versions."""
    g = build_graph(open_db(db_path))
    if node not in g:
        raise click.ClickException(f"no node {node!r} (rule nodes are edition/number, e.g. de-2024/601.2f)")
    click.echo(f"cites:     {', '.join(cites(g, node, transitive)) or '-'}")
    click.echo(f"cited by:  {', '.join(cited_by(g, node, transitive)) or '-'}")
    for other, data in aligned_versions(g, node):
        click.echo(f"aligned:   {other}  {data.get('relation')}  {data.get('score', 0):.2f}  {data.get('method')}")
    unresolved = g.nodes[node].get("unresolved") or []
    if unresolved:
        click.echo(f"unresolved references: {', '.join(unresolved)}")


@graph_group.command("top")
@DB_OPTION
@click.option("-n", default=10, show_default=True)
@click.option("--edition", default=None)
def graph_top(db_path: Path, n: int, edition: str | None):
    """The most-cited rules."""
    for node, count in most_cited(build_graph(open_db(db_path)), n, edition):
        click.echo(f"{count:4d}  {node}")


COMMANDS = [graph_group]
