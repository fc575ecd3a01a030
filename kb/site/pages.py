"""The site's pages, served by Datasette through ``register_routes`` (see :data:`ROUTES`).

=============================================  ==================================================
``/``                                          editions, search box, rule lookup, diffs, tables
``/rule`` (``?number=&edition=``)              the rule lookup: jumps to the rule
``/rule/<edition>``                            contents: chapters → sections → rules
``/rule/<edition>/<number>`` (``.json``)       a rule with everything attached to it
``/glossary/<edition>``                        glossary and index of an edition
``/search`` (``.json``)                        lemmatised, widened search; glossary and keyword lookup
``/diff``, ``/diff/<from>/<to>`` (``?rule=``)  change reports between editions
``/code/<qualname>``, ``/scenario/<id>``       engine function source, a scenario file
``/coverage``                                  engine and scenario coverage per section
=============================================  ==================================================

The database is whichever one the server was given (its name is the file's stem), never assumed.
The KB is immutable while served, so what is read once (search index, glossaries, diff reports) is
kept in memory for the life of the server.
"""
from __future__ import annotations

import ast
import asyncio
import json
from collections import OrderedDict
from functools import partial
from pathlib import Path

from datasette.utils.asgi import Response

from ingest import numbers

from .. import paths
from ..query import citer_name
from . import read
from . import search as search_mod
from .glossary import Glossary, glossary_of
from .richtext import rich_text
from .urls import Urls

#: how many diff reports (edition pairs) are kept in memory
REPORTS_KEPT = 6
#: how long a diff page waits for a diff computed on demand before it answers "being computed" (the computation
#: goes on and the next request gets it)
DIFF_TIME_LIMIT_S = 10.0


class DiffPending(Exception):
    """The diff of two editions is still being computed."""


def _compare(old: str, new: str, conn):
    from ..diff import compare

    return compare(conn, old, new)


class Site:
    """Per-server state: the served database and what is read once from it."""

    def __init__(self, datasette):
        self.ds = datasette
        self._index: search_mod.Index | None = None
        self._glossaries: dict[str, Glossary] = {}
        self._reports: OrderedDict = OrderedDict()
        self._pending: dict[tuple[str, str], asyncio.Future] = {}

    @property
    def db(self):
        names = [n for n in self.ds.databases if n != "_internal"]
        return self.ds.get_database(names[0])

    def urls(self) -> Urls:
        return Urls(prefix=self.ds.urls.path("/"), db=self.db.name)

    async def index(self) -> search_mod.Index:
        if self._index is None:
            self._index = await self.db.execute_fn(search_mod.index)
        return self._index

    def warm(self, conn) -> None:
        """Read before the first request what every rule page reads: the lineage's links of the stored pairs
        (:func:`kb.lineage.warm`) and the glossary of each edition with rules (a process's first page of an edition
        would otherwise make it: a tenth of a second each, 116 editions in the default KB)."""
        from .. import lineage

        lineage.warm(conn)
        for edition, lang in conn.execute(
                "select id, language from editions where id in (select distinct edition_id from rules) order by id"):
            self.glossary(conn, edition, lang)

    def glossary(self, conn, edition: str, lang: str) -> Glossary:
        if edition not in self._glossaries:
            self._glossaries[edition] = glossary_of(conn, edition, lang, self.urls().prefix)
        return self._glossaries[edition]

    async def report(self, old: str, new: str):
        """The diff of two editions: kept once computed; one still being computed after
        :data:`DIFF_TIME_LIMIT_S` raises :class:`DiffPending` (the computation goes on, and keeps its answer)."""
        key = (old, new)
        if key not in self._reports:
            task = self._pending.get(key)
            if task is None:
                task = self._pending[key] = asyncio.ensure_future(self.db.execute_fn(partial(_compare, old, new)))
                task.add_done_callback(partial(self._done, key))
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=DIFF_TIME_LIMIT_S)
            except asyncio.TimeoutError:
                raise DiffPending(old, new) from None
        self._reports.move_to_end(key)
        return self._reports[key]

    def _done(self, key: tuple[str, str], task: asyncio.Future) -> None:
        self._pending.pop(key, None)
        if task.cancelled() or task.exception() is not None:   # (the request that waited for it has the error)
            return
        self._reports[key] = task.result()
        while len(self._reports) > REPORTS_KEPT:
            self._reports.popitem(last=False)

    async def render(self, template: str, context: dict, request, status: int = 200) -> Response:
        urls = self.urls()
        html = await self.ds.render_template(template, {
            "u": urls, "rich": lambda text, ed, g=None, bare=False: rich_text(text, ed, urls.prefix, g, bare),
            **context}, request=request)
        return Response.html(html, status=status)


def site(datasette) -> Site:
    if getattr(datasette, "_kb_site", None) is None:
        datasette._kb_site = Site(datasette)
    return datasette._kb_site


def json_response(data, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False, default=str), status=status,
                    content_type="application/json; charset=utf-8")


# --------------------------------------------------------------------------- home, lookup, contents


async def home(datasette, request):
    s = site(datasette)

    def load(conn):
        from ..diff.load import aligned_edition_pairs

        return read.editions(conn), aligned_edition_pairs(conn), read.has_table(conn, "enforces")

    editions, pairs, has_engine = await s.db.execute_fn(load)
    return await s.render("site_home.html", {"editions": editions, "groups": read.edition_groups(editions),
                                             "pairs": pairs, "has_engine": has_engine,
                                             "queries": sorted((await datasette.get_canned_queries(
                                                 s.db.name, None)).items())}, request)


async def lookup(datasette, request):
    """``/rule?number=601.2c&edition=de-2024``: the rule lookup box."""
    s = site(datasette)
    number = (request.args.get("number") or "").strip()
    edition = request.args.get("edition") or None
    if not number:
        return await home(datasette, request)
    found = await s.db.execute_fn(lambda conn: read.lookup_edition(conn, number, edition))
    if found:
        return Response.redirect(s.urls().rule(*found))
    target = s.urls().rule(edition, numbers.normalize(number)) if edition else s.urls().search(q=number)
    return Response.redirect(target)


async def contents(datasette, request):
    s = site(datasette)
    edition_id = request.url_vars["edition"]

    def load(conn):
        ed = read.edition(conn, edition_id)
        if ed is None:
            return None, read.editions(conn), None
        info = next(e for e in read.editions(conn) if e["id"] == edition_id)
        tree = read.contents(conn, edition_id)
        info["outline"] = [] if tree else read.outline(conn, edition_id)
        return ed, info, tree

    ed, info, tree = await s.db.execute_fn(load)
    if ed is None:
        return await s.render("site_missing.html", {"what": f"edition {edition_id}", "editions": info},
                              request, status=404)
    return await s.render("site_contents.html", {"edition": info, "tree": tree}, request)


async def glossary(datasette, request):
    s = site(datasette)
    edition_id = request.url_vars["edition"]
    q = (request.args.get("q") or "").strip()

    def load(conn):
        ed = read.edition(conn, edition_id)
        if ed is None:
            return None, read.editions(conn), [], []
        return ed, None, read.glossary(conn, edition_id), read.glossary(conn, edition_id, "index")

    ed, editions, entries, index_entries = await s.db.execute_fn(load)
    if ed is None:
        return await s.render("site_missing.html", {"what": f"edition {edition_id}", "editions": editions},
                              request, status=404)
    found = search_mod.glossary_lookup(await s.index(), q, edition_id) if q else []
    for e in index_entries:
        e["anchor"] = "i-" + e["anchor"][2:]
    see = Glossary.build(edition_id, ed["language"], [(e["title"], e["anchor"], e["text"] or "", edition_id)
                                                      for e in entries if e["title"]], every_term=True)
    prefix = s.urls().prefix
    for e in entries:
        e["html"] = rich_text(e["text_norm"] or e["text"], edition_id, prefix, see=see)
    return await s.render("site_glossary.html", {"edition": ed, "entries": entries, "index": index_entries,
                                                 "q": q, "found": found}, request)


# --------------------------------------------------------------------------- rule


def _with_diffs(page: dict) -> None:
    """Word diff of each same-language counterpart against this rule (older text → newer text)."""
    from ..diff.words import inline_html, word_diff

    this = page["rule"]
    lang = page["edition"]["language"]
    date = str(page["edition"]["date"] or "")
    made: dict[tuple[str, str], object] = {}   # (the archive repeats a text in many editions: each diffed once)
    for c in page["counterparts"]["rules"] + page["counterparts"].get("folded", []):
        c["diff_html"] = None
        if c["language"] != lang or not (c["text"] and this["text"]) or c["text"] == this["text"]:
            continue
        older_is_other = str(c["date"] or "") <= date
        old, new = (c["text"], this["text"]) if older_is_other else (this["text"], c["text"])
        if (old, new) not in made:
            made[old, new] = inline_html(word_diff(old, new, lang=lang), fold=True)
        c["diff_html"] = made[old, new]
        c["diff_direction"] = (c["edition"], this["edition_id"]) if older_is_other else (this["edition_id"],
                                                                                           c["edition"])


async def rule(datasette, request):
    s = site(datasette)
    edition_id = request.url_vars["edition"]
    number = request.url_vars["number"]
    as_json = bool(request.url_vars.get("fmt"))

    def load(conn):
        pages = read.rule_pages(conn, edition_id, number)
        for p in pages:
            _with_diffs(p)
            p["glossary"] = s.glossary(conn, edition_id, p["edition"]["language"])
        ed = read.edition(conn, edition_id)
        return pages, ed, ([] if pages else read.elsewhere(conn, number))

    pages, ed, elsewhere = await s.db.execute_fn(load)
    urls = s.urls()
    status = 200 if pages else 404
    if as_json:
        return json_response(rule_json(pages, edition_id, number, ed, elsewhere, urls), status)
    return await s.render("site_rule.html", {
        "edition_id": edition_id, "number": numbers.normalize(number), "pages": pages, "edition": ed,
        "elsewhere": elsewhere, "grouped": _grouped, "citer_url": lambda c: citer_url(c, urls),
        "citer_name": citer_name}, request, status)


def _grouped(cites: list[dict]) -> list[tuple[str, list[dict]]]:
    """References grouped by their printed text (a range and its members), in order of appearance."""
    groups: dict[tuple, list[dict]] = {}
    for c in cites:
        groups.setdefault((c["raw"], c["line"]), []).append(c)
    return [(raw, group) for (raw, _), group in groups.items()]


def _history_json(history: dict | None, urls: Urls) -> dict | None:
    """The history with a URL for every rule number it names."""
    if history is None:
        return None
    chains = [{**chain, "events": [{**ev, "urls": [urls.rule(ev["edition"], n) for n in ev["numbers"]]}
                                   for ev in chain["events"]]} for chain in history.get("chains", [])]
    others = [{"edition": c[0], "number": c[1], "language": c[2], "url": urls.rule(c[0], c[1])}
              for c in history.get("counterparts", [])]
    return {**history, "chains": chains, "counterparts": others}


def citer_url(ref: dict, urls: Urls) -> str:
    """The page of what cites a rule: the citing rule, the glossary or index entry, the rule an example belongs
    to, else the item's row."""
    edition = ref["edition_id"]
    if ref["from_number"]:
        return urls.rule(edition, numbers.normalize(ref["from_number"]))
    if ref["from_kind"] in ("glossary", "index") and ref["from_title"]:
        mark = read.anchor(ref["from_title"])
        return urls.glossary(edition, mark if ref["from_kind"] == "glossary" else "i-" + mark[2:])
    if ref["owner_number"]:
        return urls.rule(edition, numbers.normalize(ref["owner_number"]))
    return urls.row("items", ref["from_item_id"])


def rule_json(pages: list[dict], edition_id: str, number: str, ed: dict | None, elsewhere: list[dict],
              urls: Urls) -> dict:
    """The rule page as JSON: the same content, links as URLs."""
    if not pages:
        return {"ok": False, "edition": edition_id, "number": numbers.normalize(number),
                "error": f"rule {number} is not in edition {edition_id}" if ed else f"no edition {edition_id}",
                "elsewhere": [{"edition": r["edition_id"], "number": r["number"],
                               "url": urls.rule(r["edition_id"], r["norm"])} for r in elsewhere]}
    out = []
    for p in pages:
        r = p["rule"]
        nav = {k: ({**p[k], "url": urls.rule(r["edition_id"], p[k]["norm"])} if p[k] else None)
               for k in ("prev", "next")}
        cp = p["counterparts"]
        out.append({
            "rule": {k: r[k] for k in ("id", "key", "edition_id", "number", "norm", "level", "title", "text",
                                       "text_norm", "line_start", "line_end", "concept_id") if k in r},
            "edition": p["edition"], **nav, "url": urls.rule(r["edition_id"], r["norm"]),
            "breadcrumbs": [{**a, "url": urls.rule(r["edition_id"], a["norm"])} for a in p["ancestors"]],
            "items": [{k: i[k] for k in ("kind", "label", "title", "text")} for i in p["items"]],
            "children": [{"number": c["number"], "url": urls.rule(c["edition_id"], c["norm"]), "title": c["title"],
                          "text": c["text"]} for c in p["children"]],
            "cites": [{"raw": c["raw"], "target": c["target"], "resolved": bool(c["resolved"]),
                       "url": urls.rule(r["edition_id"], c["target"])} for c in p["cites"]],
            "cited_by": [{"raw": c["raw"], "number": numbers.normalize(c["from_number"]) if c["from_number"] else None,
                          "kind": c["from_kind"] or "rule", "name": citer_name(c),
                          "owner": numbers.normalize(c["owner_number"]) if c["owner_number"] else None,
                          "url": citer_url(c, urls)} for c in p["cited_by"]],
            "counterparts": [{**{k: c[k] for k in ("edition", "language", "number", "title", "text", "relation",
                                                   "score", "method", "review")},
                              "lineage": {"relation": c["lineage_relation"], "confidence": c["score"]},
                              "url": urls.rule(c["edition"], c["norm"]),
                              "word_diff_html": str(c["diff_html"]) if c.get("diff_html") else None}
                             for c in cp["rules"]],
            "aligned_items": [{**{k: i[k] for k in ("edition_id", "kind", "relation", "text", "score", "method")},
                               "url": urls.row("items", i["id"])} for i in cp["items"]],
            "no_counterpart_in": cp["missing"],
            "changes": [{"label": d["label"], "from": d["old_edition"], "to": d["new_edition"],
                         "old_number": d["old_number"], "new_number": d["new_number"],
                         "url": urls.diff(d["old_edition"], d["new_edition"], d["rule"])} for d in p["changes"]],
            "enforced_by": [{"qualname": f["qualname"], "file": f["file"], "line": f["line"], "status": f["status"],
                             "url": urls.code(f["qualname"])} for f in p["engine"]],
            "scenarios": [{"path": sc["path"], "title": sc["title"], "url": urls.scenario(sc["id"])}
                          for sc in p["scenarios"]],
            "enforced_through_alignment": [{"qualname": f["function"], "file": f["file"], "line": f["line"],
                                            "via": f["via"], "rule_set": f["rule_set"], "url": urls.code(f["function"])}
                                           for f in p["aligned_engine"]],
            "in_play": [{k: d[k] for k in ("scenario", "title", "rule_set", "other_rule_set", "line", "step",
                                           "differs", "via")} | {"url": urls.scenario(d["scenario_id"])
                                                                  if d["scenario_id"] else None}
                        for d in p["in_play"]],
            "history": _history_json(p["history"], urls),
            "section": None if p["section"] is None else [
                {"number": b["number"], "level": b["level"], "title": b["title"], "text": b["text"],
                 "url": urls.rule(b["edition_id"], b["norm"]), "anchor_url": urls.rule(r["edition_id"], r["norm"])
                 + "#" + b["anchor"], "items": [{k: i[k] for k in ("kind", "label", "title", "text")}
                                                for i in b["items"]]} for b in p["section"]],
        })
    return {"ok": True, "edition": edition_id, "number": numbers.normalize(number), "rules": out}


async def not_found(datasette, request):
    s = site(datasette)
    return await s.render("site_missing.html", {"what": f"page {request.path}", "editions": None}, request, 404)


# --------------------------------------------------------------------------- search


async def search(datasette, request):
    s = site(datasette)
    q = request.args.get("q") or ""
    lang = request.args.get("lang") or None
    edition = request.args.get("edition") or None
    widen = request.args.get("widen", "1") != "0"
    page = int(request.args["page"]) if (request.args.get("page") or "").isdigit() else 1
    idx = await s.index()
    urls = s.urls()
    res = await s.db.execute_fn(lambda conn: search_mod.search(conn, idx, q, lang, edition, widen, urls=urls,
                                                               page=min(page, 10_000)))
    def page_url(n: int) -> str:
        return urls.search(q=res.query, lang=res.lang, edition=res.edition, widen=None if widen else "0",
                           page=n if n > 1 else None)

    pages = {"prev_url": page_url(res.page - 1) if res.page > 1 else None,
             "next_url": page_url(res.page + 1) if res.more else None}
    if request.url_vars.get("fmt"):
        data = res.as_json()
        for g in data["glossary"]:
            g["url"] = urls.glossary(g["edition"], g["anchor"])
        for k in data["keywords"]:
            k["url"] = urls.rule(k["edition"], k["norm"])
        for sug in data["suggestions"]:
            sug["url"] = urls.search(q=sug["term"])
        return json_response({**data, **pages})
    if res.jump:
        return Response.redirect(res.jump)
    return await s.render("site_search.html", {"res": res, "idx": idx, "widen": widen, **pages}, request)


# --------------------------------------------------------------------------- diff


async def diff_index(datasette, request):
    s = site(datasette)

    def load(conn):
        from ..diff.load import aligned_edition_pairs

        return read.diff_pairs(conn, aligned_edition_pairs(conn))

    pairs = await s.db.execute_fn(load)
    return await s.render("site_diff_index.html", {"pairs": pairs}, request)


async def diff(datasette, request):
    from ..diff.report import html_context

    s = site(datasette)
    old, new = request.url_vars["old"], request.url_vars["new"]
    rule_no = (request.args.get("rule") or "").strip() or None
    try:
        rep = await s.report(old, new)
    except DiffPending:
        return await s.render("site_pending.html", {
            "what": f"The diff of {old} → {new} is being computed",
            "why": f"No stored pair joins the two editions, so their alignment is composed or computed now, and that "
                   f"takes longer than {DIFF_TIME_LIMIT_S:g} s.", "again": request.path + (
                       f"?{request.query_string}" if request.query_string else "")}, request, status=202)
    except LookupError as e:
        return await s.render("site_missing.html", {"what": str(e.args[0] if e.args else e), "editions": None},
                              request, status=404)
    if rule_no and not rep.story(rule_no):
        return await s.render("site_missing.html", {"what": f"rule {rule_no} in {old} or {new}", "editions": None},
                              request, status=404)
    urls = s.urls()
    in_play = await s.db.execute_fn(lambda conn: read.in_play_by_rule(conn, urls, (old, new)))
    context = html_context(rep, base_url=urls.prefix.rstrip("/"), rule=numbers.normalize(rule_no)
                           if rule_no else None, in_play=in_play)
    return await s.render("site_diff.html", context, request)


# --------------------------------------------------------------------------- engine code, scenarios, coverage


def function_source(path: Path, line: int) -> tuple[int, str] | None:
    """(first line, source) of the function defined at ``line`` of ``path`` (decorators included)."""
    try:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError):
        return None
    lines = text.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if start <= line <= (node.end_lineno or node.lineno):
                return start, "\n".join(lines[start - 1:node.end_lineno])
    return None


def _inside(root: Path, relative: str) -> Path | None:
    """``root/relative`` if it stays inside ``root``."""
    path = (root / relative).resolve()
    return path if path.is_relative_to(root.resolve()) and path.is_file() else None


async def code(datasette, request):
    s = site(datasette)
    qualname = request.url_vars["qualname"]
    f = await s.db.execute_fn(lambda conn: read.engine_function(conn, qualname))
    if f is None:
        return await s.render("site_missing.html", {"what": f"engine function {qualname}", "editions": None},
                              request, status=404)
    path = _inside(paths.ROOT, f["file"]) if f["file"] and f["file"].endswith(".py") else None
    src = function_source(path, f["line"]) if path else None
    return await s.render("site_code.html", {"f": f, "source": src}, request)


async def scenario(datasette, request):
    s = site(datasette)
    sid = int(request.url_vars["id"])
    sc = await s.db.execute_fn(lambda conn: read.scenario(conn, sid))
    if sc is None:
        return await s.render("site_missing.html", {"what": f"scenario {sid}", "editions": None}, request, 404)
    path = _inside(paths.ROOT, sc["path"]) if sc["path"] and sc["path"].endswith(".scenario") else None
    text = path.read_text(encoding="utf-8") if path else None
    return await s.render("site_scenario.html", {"sc": sc, "text": text}, request)


async def coverage(datasette, request):
    s = site(datasette)
    rows = await s.db.execute_fn(read.coverage)
    return await s.render("site_coverage.html", {"rows": rows, "editions": read.coverage_grouped(rows),
                                                 "total": read.coverage_total(rows) if rows else None,
                                                 "ranges": lambda ns: read.ranges(ns)}, request)


ROUTES = [
    (r"^/$", home),
    (r"^/rule/?$", lookup),
    (r"^/rule/(?P<edition>[^/]+)/?$", contents),
    (r"^/rule/(?P<edition>[^/]+)/(?P<number>[^/]+?)(?P<fmt>\.json)?$", rule),
    (r"^/glossary/(?P<edition>[^/]+)/?$", glossary),
    (r"^/search(?P<fmt>\.json)?$", search),
    (r"^/diff/?$", diff_index),
    (r"^/diff/(?P<old>[^/]+)/(?P<new>[^/]+)/?$", diff),
    (r"^/code/(?P<qualname>[A-Za-z0-9_.]+)$", code),
    (r"^/scenario/(?P<id>\d{1,9})$", scenario),
    (r"^/coverage/?$", coverage),
    # anything else under the site's own paths is a clear 404, never Datasette's row view
    (r"^/(rule|glossary|search|diff|code|scenario|coverage)(/.*)?$", not_found),
]
