"""The rule graph built from the KB: structure, citations, alignments, exports."""
from __future__ import annotations

import json

import networkx as nx
import pytest
import sqlite_utils
from click.testing import CliRunner

from kb import graph


@pytest.fixture(scope="module")
def db_path(kb_db):
    return kb_db


@pytest.fixture(scope="module")
def g(db_path):
    return graph.build_graph(sqlite_utils.Database(db_path))


def test_nodes_are_edition_qualified(g):
    assert g.nodes["de-2024/601.2f"]["type"] == "rule"
    assert g.nodes["it-wiki/601.2f"]["edition"] == "it-wiki"
    assert g.nodes["de-1999/409.2f"]["number"] == "409.2f"
    kinds = {d["type"] for _, d in g.nodes(data=True)}
    assert {"rule", "glossary", "faq", "step", "example"} <= kinds
    assert "it-wiki/616.1f#433" in g          # the duplicate number stays a node of its own


def test_parent_child(g):
    assert "de-2024/601.2f" in [v for _, v, k in g.out_edges("de-2024/601.2", data="kind") if k == "child"]


def test_cites_and_cited_by(g):
    assert "de-2024/601.3" in graph.cites(g, "de-2024/601.2")
    assert "de-2024/601.2" in graph.cited_by(g, "de-2024/601.2f")
    direct = set(graph.cites(g, "de-2024/601.2"))
    assert direct <= set(graph.cites(g, "de-2024/601.2", transitive=True))
    assert set(graph.cited_by(g, "de-2024/601.2f")) <= set(graph.cited_by(g, "de-2024/601.2f", transitive=True))


def test_most_cited_and_unresolved(g):
    top = graph.most_cited(g, 5, edition="de-2024")
    assert top and all(n.startswith("de-2024/") for n, _ in top)
    assert top[0][1] >= top[-1][1]
    missing = graph.unresolved(g, "de-2024")
    assert ("de-2024/601.2", "730") in missing          # rule 730 lies outside the chapter-6 excerpt


def test_aligned_edges_and_neighbourhood(g):
    versions = dict(graph.aligned_versions(g, "de-2024/614.13c"))
    assert versions["it-wiki/613.13c"]["relation"] == "renumbered"
    sub = graph.neighbourhood(g, "de-2024/601.2c", radius=1)
    assert {"de-2024/601.2", "it-wiki/601.2c"} <= set(sub)
    assert sub.number_of_nodes() < g.number_of_nodes()


def test_exports_open_again(g, tmp_path):
    ml = graph.export(g, tmp_path / "g.graphml", "graphml")
    back = nx.read_graphml(ml)
    assert back.number_of_nodes() == g.number_of_nodes()
    js = json.loads(graph.export(g, tmp_path / "g.json", "json").read_text(encoding="utf-8"))
    assert {"nodes", "links"} <= set(js) and len(js["links"]) == g.number_of_edges()
    with pytest.raises(ValueError):
        graph.export(g, tmp_path / "g.txt", "txt")


def test_cli_export(db_path, tmp_path):
    from kb.graph.cli import graph_group

    out = tmp_path / "graph.json"
    result = CliRunner().invoke(graph_group, ["export", "--db", str(db_path), "--format", "json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["nodes"]
    result = CliRunner().invoke(graph_group, ["show", "--db", str(db_path), "de-2024/601.2f"])
    assert "cited by" in result.output and "it-wiki/601.2f" in result.output
