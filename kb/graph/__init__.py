"""The rule graph: rules (and glossary, index, article and FAQ items) with their links, in networkx.

Nodes are edition-qualified: a rule is its KB key (``de-2024/601.2c``), an item
``<edition>/<kind>@<line>``.  Edges carry ``kind``:

* ``child`` — parent rule → child rule;
* ``item`` — rule → an item that hangs off it (example, note, FAQ bullet);
* ``cites`` — rule or item → the rule its text refers to (resolved references; unresolved ones
  are kept on the citing node as ``unresolved``);
* ``aligned`` — source → target of an alignment row, with ``score``, ``relation``, ``method``.

Plain functions answer the usual questions; :func:`export` writes GraphML (Gephi) or
node-link JSON (d3).
"""
from __future__ import annotations

import json
from collections import Counter, deque
from pathlib import Path

import networkx as nx

#: item kinds that become nodes (navigation, table of contents and headings do not)
ITEM_KINDS = ("glossary", "index", "faq", "step", "example", "note", "paragraph")
TEXT_CHARS = 300


def build_graph(db, item_kinds: tuple[str, ...] = ITEM_KINDS) -> nx.MultiDiGraph:
    """The graph of a built KB (``sqlite_utils.Database``)."""
    g = nx.MultiDiGraph()
    rule_node: dict[int, str] = {}
    columns = db["rules"].columns_dict
    concept = "concept_id" if "concept_id" in columns else "null as concept_id"
    for r in db.query(f"select id, key, edition_id, number, norm, level, title, text, line_start, parent_id, "
                      f"{concept} from rules order by id"):
        node = r["key"]
        rule_node[r["id"]] = node
        g.add_node(node, type="rule", edition=r["edition_id"], number=r["norm"], printed=r["number"],
                   level=r["level"], title=r["title"], text=(r["text"] or "")[:TEXT_CHARS],
                   line=r["line_start"], concept_id=r["concept_id"], unresolved=[])
    for r in db.query("select id, parent_id from rules where parent_id is not null"):
        g.add_edge(rule_node[r["parent_id"]], rule_node[r["id"]], key="child", kind="child")
    item_node: dict[int, str] = {}
    marks = ",".join("?" for _ in item_kinds)
    for r in db.query(f"select id, edition_id, kind, rule_id, title, text, line_start from items "
                      f"where kind in ({marks}) order by id", list(item_kinds)):
        node = f"{r['edition_id']}/{r['kind']}@{r['line_start']}"
        if node in g:
            node = f"{node}#{r['id']}"
        item_node[r["id"]] = node
        g.add_node(node, type=r["kind"], edition=r["edition_id"], title=r["title"],
                   text=(r["text"] or "")[:TEXT_CHARS], line=r["line_start"], unresolved=[])
        if r["rule_id"] in rule_node:
            g.add_edge(rule_node[r["rule_id"]], node, key="item", kind="item")
    for r in db.query("select from_rule_id, from_item_id, raw, target, target_rule_id, resolved from refs"):
        src = rule_node.get(r["from_rule_id"]) or item_node.get(r["from_item_id"])
        if src is None:
            continue
        if r["resolved"] and r["target_rule_id"] in rule_node:
            g.add_edge(src, rule_node[r["target_rule_id"]], key=f"cites:{r['raw']}", kind="cites", raw=r["raw"])
        else:
            g.nodes[src]["unresolved"].append(r["target"])
    if "alignments" in db.table_names():
        for r in db.query("select * from alignments where target_rule_id is not null or target_item_id is not null"):
            src = rule_node.get(r["source_rule_id"]) or item_node.get(r["source_item_id"])
            tgt = rule_node.get(r["target_rule_id"]) or item_node.get(r["target_item_id"])
            if src and tgt:
                g.add_edge(src, tgt, key=f"aligned:{r['id']}", kind="aligned", score=r["score"],
                           relation=r["relation"], method=r["method"])
    return g


def _edges(g: nx.MultiDiGraph, node: str, kind: str, reverse: bool = False) -> list[str]:
    it = g.in_edges(node, data="kind") if reverse else g.out_edges(node, data="kind")
    return sorted({(u if reverse else v) for u, v, k in it if k == kind})


def cites(g: nx.MultiDiGraph, node: str, transitive: bool = False) -> list[str]:
    """Rules that ``node`` refers to (and, transitively, what those refer to)."""
    return _walk(g, node, reverse=False) if transitive else _edges(g, node, "cites")


def cited_by(g: nx.MultiDiGraph, node: str, transitive: bool = False) -> list[str]:
    """Rules and items that refer to ``node`` (transitively: everything that leads to it)."""
    return _walk(g, node, reverse=True) if transitive else _edges(g, node, "cites", reverse=True)


def _walk(g: nx.MultiDiGraph, start: str, reverse: bool) -> list[str]:
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in _edges(g, queue.popleft(), "cites", reverse):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    seen.discard(start)
    return sorted(seen)


def most_cited(g: nx.MultiDiGraph, n: int = 10, edition: str | None = None) -> list[tuple[str, int]]:
    """The ``n`` rules cited most often (each citing node counts once per target)."""
    counts: Counter[tuple[str, str]] = Counter()
    for u, v, k in g.edges(data="kind"):
        if k == "cites" and (edition is None or g.nodes[v].get("edition") == edition):
            counts[u, v] = 1
    per_target = Counter(v for (_, v) in counts)
    return sorted(per_target.items(), key=lambda x: (-x[1], x[0]))[:n]


def unresolved(g: nx.MultiDiGraph, edition: str | None = None) -> list[tuple[str, str]]:
    """(citing node, target as printed) for every reference that names no rule of its edition."""
    return sorted((node, t) for node, data in g.nodes(data=True) for t in data.get("unresolved", [])
                  if edition is None or data.get("edition") == edition)


def neighbourhood(g: nx.MultiDiGraph, node: str, radius: int = 1,
                  kinds: tuple[str, ...] = ("child", "item", "cites", "aligned")) -> nx.MultiDiGraph:
    """The subgraph of everything within ``radius`` links of ``node`` (both directions)."""
    seen, frontier = {node}, {node}
    for _ in range(radius):
        nxt = set()
        for x in frontier:
            for u, v, k in list(g.out_edges(x, data="kind")) + list(g.in_edges(x, data="kind")):
                if k in kinds:
                    nxt.add(v if u == x else u)
        frontier = nxt - seen
        seen |= nxt
    return g.subgraph(seen).copy()


def aligned_versions(g: nx.MultiDiGraph, node: str) -> list[tuple[str, dict]]:
    """Every node aligned with ``node`` (either direction), with the alignment's attributes."""
    out = []
    for u, v, data in list(g.out_edges(node, data=True)) + list(g.in_edges(node, data=True)):
        if data.get("kind") == "aligned":
            out.append((v if u == node else u, data))
    return sorted(out, key=lambda x: -x[1].get("score", 0))


def export(g: nx.MultiDiGraph, path: Path, fmt: str) -> Path:
    """Write GraphML (Gephi, yEd) or node-link JSON (d3: ``nodes`` and ``links``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    h = nx.MultiDiGraph()
    for n, data in g.nodes(data=True):
        h.add_node(n, **_plain(data))
    for u, v, k, data in g.edges(keys=True, data=True):
        h.add_edge(u, v, key=k, **_plain(data))
    if fmt == "graphml":
        nx.write_graphml(h, path)
    elif fmt == "json":
        data = nx.node_link_data(h, edges="links")
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        raise ValueError(f"unknown format {fmt!r}: graphml or json")
    return path


def _plain(data: dict) -> dict:
    """GraphML takes only str/int/float/bool attributes: drop None, join lists."""
    out = {}
    for k, v in data.items():
        if v is None:
            continue
        if isinstance(v, (list, tuple)):
            v = " ".join(map(str, v))
        out[k] = v
    return out
