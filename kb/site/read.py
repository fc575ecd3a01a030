"""Read-side SQL of the site: editions, an edition's contents, a rule with everything attached to it.

Every function takes an open sqlite3 connection to the KB (Datasette's or :func:`kb.query.connect`)
and returns plain dicts and lists, so the HTML pages, the JSON API and the tests share them.  Nothing
here knows an edition, a rule number or a rule text: they are all data.  The queries use the indexes
of :mod:`kb.schema` (``rules(edition_id, norm)``, ``rules(edition_id, seq)``, ``rules(parent_id)``, the
alignment and engine indexes); no query runs once per row of an edition.
"""
from __future__ import annotations

import json
from collections import defaultdict

from ingest import numbers

from .. import history as kb_history
from ..query import find_rules, rule_view

#: how the site names an item kind that an aligner matched to a rule
ITEM_RELATIONS = {"step": "article step", "faq": "FAQ bullet", "example": "article example",
                  "paragraph": "article paragraph"}


def rows(conn, sql: str, params=()) -> list[dict]:
    cur = conn.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def has_table(conn, name: str) -> bool:
    return conn.execute("select 1 from sqlite_master where type in ('table', 'view') and name = ?",
                        (name,)).fetchone() is not None


def columns(conn, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"pragma table_info([{table}])")}


# --------------------------------------------------------------------------- editions


def ranges(values: list[int]) -> str:
    """``[100, 101, 102, 200]`` -> ``"100–102, 200"``."""
    out: list[list[int]] = []
    for v in sorted(set(values)):
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in out)


def editions(conn) -> list[dict]:
    """Every edition with its counts and coverage (the chapters and sections it actually has)."""
    eds = rows(conn, "select id, language, date, kind, title, source, parser from editions "
                     "order by date desc, id")
    rule_counts = {r["edition_id"]: r for r in rows(conn, """
        select edition_id, count(*) rules, sum(level in ('rule', 'subrule')) numbered,
               group_concat(distinct chapter) chapters from rules group by edition_id""")}
    sections: dict[str, list[int]] = defaultdict(list)
    for r in rows(conn, "select distinct edition_id, section from rules where section is not null"):
        sections[r["edition_id"]].append(r["section"])
    kinds: dict[str, dict[str, int]] = defaultdict(dict)
    for r in rows(conn, "select edition_id, kind, count(*) n from items group by edition_id, kind"):
        kinds[r["edition_id"]][r["kind"]] = r["n"]
    titles = {(r["edition_id"], r["chapter"]): r["title"] for r in rows(
        conn, "select edition_id, chapter, title from rules where level = 'chapter'")}
    for e in eds:
        rc = rule_counts.get(e["id"], {})
        chapters = sorted(int(c) for c in (rc.get("chapters") or "").split(",") if c)
        e["rules"] = rc.get("rules", 0)
        e["numbered"] = rc.get("numbered", 0)
        e["chapters"] = [{"chapter": c, "title": titles.get((e["id"], c))} for c in chapters]
        e["sections"] = ranges(sections.get(e["id"], []))
        e["section_count"] = len(set(sections.get(e["id"], [])))
        e["items"] = kinds.get(e["id"], {})
        e["glossary"] = e["items"].get("glossary", 0)
        e["index"] = e["items"].get("index", 0)
    return eds


#: a language with more editions than this shows its newest year in full and folds the older years
FOLD_EDITIONS_FROM = 10


def edition_groups(eds: list[dict]) -> list[dict]:
    """The editions by language (the language with the most editions first), each language's newest first: the
    editions of its newest year in full and, when it has more than :data:`FOLD_EDITIONS_FROM`, the older years
    folded (year, its editions, newest first)."""
    by_lang: dict[str, list[dict]] = defaultdict(list)
    for e in eds:
        by_lang[e["language"]].append(e)
    out = []
    for lang, group in sorted(by_lang.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        group.sort(key=lambda e: (str(e["date"] or ""), e["id"]), reverse=True)
        if len(group) <= FOLD_EDITIONS_FROM:
            out.append({"language": lang, "count": len(group), "rows": group, "folded": []})
            continue
        newest = str(group[0]["date"] or "")[:4]
        years: dict[str, list[dict]] = {}
        for e in group:
            years.setdefault(str(e["date"] or "")[:4], []).append(e)
        out.append({"language": lang, "count": len(group), "rows": years.pop(newest),
                    "folded": [{"year": y, "editions": es} for y, es in years.items()]})
    return out


def edition(conn, edition_id: str) -> dict | None:
    found = rows(conn, "select * from editions where id = ?", (edition_id,))
    return found[0] if found else None


# --------------------------------------------------------------------------- contents


def preview(text: str | None, limit: int = 90) -> str:
    """The first words of ``text``, cut at a word boundary (with "…" when cut)."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def contents(conn, edition_id: str) -> list[dict]:
    """The edition's rules as a tree in document order: each node has ``children``."""
    nodes = rows(conn, "select id, number, norm, level, title, substr(text, 1, 200) text, parent_id, seq "
                       "from rules where edition_id = ? order by seq", (edition_id,))
    by_id = {n["id"]: n for n in nodes}
    roots: list[dict] = []
    for n in nodes:
        n["children"] = []
        n["preview"] = preview(n.pop("text"))
    for n in nodes:
        parent = by_id.get(n["parent_id"])
        (parent["children"] if parent is not None else roots).append(n)
    return roots


def outline(conn, edition_id: str) -> list[dict]:
    """An edition without rules (an article): its headings, steps and paragraphs in order, each with the
    rule an aligner matched it to."""
    out = rows(conn, """select i.id, i.kind, i.title, substr(i.text, 1, 200) text, r.edition_id r_edition,
                               r.norm r_norm, r.number r_number
                        from items i
                        left join alignments a on a.source_item_id = i.id and a.relation != 'no counterpart'
                        left join rules r on r.id = a.target_rule_id
                        where i.edition_id = ? and i.kind not in ('boilerplate', 'toc') order by i.seq""",
               (edition_id,)) if has_table(conn, "alignments") else rows(
        conn, "select id, kind, title, substr(text, 1, 200) text from items where edition_id = ? "
              "and kind not in ('boilerplate', 'toc') order by seq", (edition_id,))
    for o in out:
        o["preview"] = preview(o.pop("text"))
    return out


def glossary(conn, edition_id: str, kind: str = "glossary") -> list[dict]:
    """Glossary (or index) entries of an edition in document order, each with its anchor and the source warnings
    that say its text lost something in extraction (``lost``: the warnings whose code starts with "lost")."""
    out = rows(conn, "select id, document_id, title, text, text_norm, line_start, line_end from items "
                     "where edition_id = ? and kind = ? order by seq", (edition_id, kind))
    lost: dict[tuple, list[dict]] = defaultdict(list)
    if out and has_table(conn, "warnings"):
        for w in rows(conn, "select document_id, line, code, message from warnings where code like 'lost%' "
                            "and document_id in (select distinct document_id from items where edition_id = ?)",
                      (edition_id,)):
            lost[w["document_id"]].append(w)
    for e in out:
        e["anchor"] = anchor(e["title"] or str(e["id"]))
        e["lost"] = [w for w in lost.get(e["document_id"], []) if e["line_start"] <= w["line"] <= e["line_end"]]
    return out


def anchor(term: str) -> str:
    return "t-" + "-".join("".join(c if c.isalnum() else " " for c in term.lower()).split())


def glossary_terms(conn, edition_id: str) -> list[tuple[str, str, str, str]]:
    """(term, anchor, definition, edition) of an edition's glossary entries."""
    return [(r["title"], anchor(r["title"]), r["text"] or "", edition_id) for r in rows(
        conn, "select title, text from items where edition_id = ? and kind = 'glossary' and title is not null "
              "order by seq", (edition_id,))]


def glossary_sources(conn, edition_id: str, lang: str) -> list[str]:
    """The editions whose glossary the texts of ``edition_id`` link to: its own, else those of the editions of
    its language the build aligned with it (newest first)."""
    has = {r["edition_id"] for r in rows(conn, "select distinct edition_id from items where kind = 'glossary'")}
    if edition_id in has or not has_table(conn, "edition_pairs"):
        return [edition_id] if edition_id in has else []
    return [r["id"] for r in rows(conn, """
        select e.id from editions e join edition_pairs p
          on (p.source_edition = e.id and p.target_edition = :ed)
          or (p.target_edition = e.id and p.source_edition = :ed)
        where e.language = :lang and e.id != :ed group by e.id order by e.date desc""",
        {"ed": edition_id, "lang": lang}) if r["id"] in has]


def original_of(conn, edition_id: str) -> dict | None:
    """The edition ``edition_id`` translates (the manifest's ``translation_of``, else the build's translation
    pair), or None."""
    found = rows(conn, "select e.* from editions t join editions e on e.id = t.translation_of where t.id = ?",
                 (edition_id,)) if "translation_of" in columns(conn, "editions") else []
    if not found and has_table(conn, "edition_pairs"):
        found = rows(conn, """select e.* from edition_pairs p join editions e on e.id = p.target_edition
                              where p.source_edition = ? and p.reason = 'translation' and p.kind = 'cross-language'""",
                     (edition_id,))
    return found[0] if found else None


def aligned_texts(conn, edition_id: str, other: str) -> list[tuple[str, str]]:
    """(text, counterpart's text) of the rules of ``edition_id`` aligned one to one with rules of ``other``."""
    if not has_table(conn, "alignments"):
        return []
    return [(r["a"], r["b"]) for r in rows(conn, """
        select ra.text a, rb.text b from alignments al
        join rules ra on ra.id = case when al.source_edition = :ed then al.source_rule_id else al.target_rule_id end
        join rules rb on rb.id = case when al.source_edition = :ed then al.target_rule_id else al.source_rule_id end
        where ((al.source_edition = :ed and al.target_edition = :other)
               or (al.source_edition = :other and al.target_edition = :ed))
          and ra.text is not null and rb.text is not null""", {"ed": edition_id, "other": other})]


def lemma_shares(conn, edition_id: str) -> dict[str, float]:
    """Lemma -> the share of the edition's rule texts and examples that print it."""
    texts = [r[0] for r in conn.execute(
        "select lemmas from rules where edition_id = ? and text is not null union all "
        "select lemmas from items where edition_id = ? and kind in ('example', 'note')", (edition_id, edition_id))]
    counts: dict[str, int] = defaultdict(int)
    for t in texts:
        for lemma in set((t or "").split()):
            counts[lemma] += 1
    return {k: n / len(texts) for k, n in counts.items()} if texts else {}


# --------------------------------------------------------------------------- a rule


def neighbours(conn, rule: dict) -> dict:
    """The previous and next rule of the edition (document order) and the ancestors, outermost first."""
    prev = rows(conn, "select number, norm, title from rules where edition_id = ? and seq < ? "
                      "order by seq desc limit 1", (rule["edition_id"], rule["seq"]))
    nxt = rows(conn, "select number, norm, title from rules where edition_id = ? and seq > ? "
                     "order by seq limit 1", (rule["edition_id"], rule["seq"]))
    ancestors = rows(conn, """with recursive up(id, parent_id, number, norm, title, depth) as (
            select id, parent_id, number, norm, title, 0 from rules where id = ?
            union all select r.id, r.parent_id, r.number, r.norm, r.title, up.depth + 1
            from rules r join up on r.id = up.parent_id where up.depth < 10)
        select number, norm, title from up order by depth desc""", (rule["parent_id"] or 0,))
    return {"prev": prev[0] if prev else None, "next": nxt[0] if nxt else None, "ancestors": ancestors}


def section_body(conn, rule: dict) -> list[dict]:
    """Every rule and subrule of a section in document order, each with its examples and notes in full and an
    ``anchor`` (its number; a repeated number gets ``-2``, ``-3``)."""
    body = rows(conn, """select id, key, edition_id, number, norm, level, title, text from rules
                         where edition_id = ? and section = ? and level in ('rule', 'subrule') order by seq""",
                (rule["edition_id"], rule["section"]))
    items: dict[int, list[dict]] = defaultdict(list)
    for i in rows(conn, """select i.rule_id, i.kind, i.label, i.title, i.text from items i
                           join rules r on r.id = i.rule_id
                           where r.edition_id = ? and r.section = ? order by i.seq""",
                  (rule["edition_id"], rule["section"])):
        items[i.pop("rule_id")].append(i)
    seen: dict[str, int] = defaultdict(int)
    for b in body:
        seen[b["norm"]] += 1
        b["anchor"] = b["norm"] + (f"-{seen[b['norm']]}" if seen[b["norm"]] > 1 else "")
        b["items"] = items.get(b["id"], [])
    return body


def section_neighbours(conn, rule: dict) -> dict:
    """The previous and next section of the edition (document order)."""
    prev = rows(conn, "select number, norm, title from rules where edition_id = ? and level = 'section' and seq < ? "
                      "order by seq desc limit 1", (rule["edition_id"], rule["seq"]))
    nxt = rows(conn, "select number, norm, title from rules where edition_id = ? and level = 'section' and seq > ? "
                     "order by seq limit 1", (rule["edition_id"], rule["seq"]))
    return {"prev": prev[0] if prev else None, "next": nxt[0] if nxt else None}


def _relation(a: dict, this_lang: str, other_lang: str | None) -> str:
    rel = a["relation"] or ""
    if other_lang and other_lang != this_lang:
        return "translation" + (f" · {rel}" if rel not in ("", "equivalent", "unchanged") else "")
    return rel


def counterparts(conn, rule: dict, lang: str, links: list | None = None) -> dict:
    """The rule's links to every other edition (:func:`kb.lineage.of_rule`: the one lineage every view reads;
    ``links``: those links, read already), items aligned to this rule, and the pairs with no counterpart."""
    from .. import lineage

    links = lineage.of_rule(conn, rule["id"]) if links is None else links
    info = {r["id"]: r for r in rows(conn, """select r.id, r.title, r.text, r.norm, e.language, e.date
                                              from rules r join editions e on e.id = r.edition_id
                                              where r.id in (select value from json_each(:ids))""",
                                     {"ids": json.dumps([lk.target_id for lk in links])})}
    rules_out = []
    for lk in links:
        o = info[lk.target_id]
        rules_out.append({"kind": "rule", "edition": lk.target_edition, "language": o["language"], "date": o["date"],
                          "number": lk.target_number, "norm": o["norm"], "title": o["title"], "text": o["text"],
                          "relation": _relation({"relation": lk.relation}, lang, o["language"]),
                          "lineage_relation": lk.relation, "score": lk.confidence, "method": lk.method,
                          "review": lk.review})
    missing = [{"edition": a["other"], "method": a["method"]} for a in rows(conn, """
        select case when a.source_rule_id = :id then a.target_edition else a.source_edition end other, a.method
        from alignments a where a.source_rule_id = :id and a.relation = 'no counterpart'""", {"id": rule["id"]})]
    folded = fold_identical(rules_out)
    items = rows(conn, """
        select i.id, i.kind, i.edition_id, i.label, i.title, i.text, i.line_start, i.rule_id, owner.norm owner_norm,
               a.relation, a.score, a.method
        from alignments a join items i on i.id = a.source_item_id left join rules owner on owner.id = i.rule_id
        where a.target_rule_id = ? and a.relation != 'no counterpart'
        order by i.edition_id, i.seq""", (rule["id"],))
    for it in items:
        it["relation"] = ITEM_RELATIONS.get(it["kind"], it["kind"])
    return {"rules": rules_out, "folded": folded, "items": items, "missing": missing}


def fold_identical(cards: list[dict]) -> list[dict]:
    """The counterparts with the same number, title, text and relation in several editions of one language as one
    card (the newest), which names how many editions print it and from when to when ("same text in 47 editions,
    2009-07-11 → 2024-08-02") and the range of the confidences."""
    groups: dict[tuple, list[dict]] = {}
    for c in cards:
        groups.setdefault((c["language"], c["number"], c["title"], c["text"], c["relation"], c["review"]), []).append(c)
    out = []
    for same in groups.values():
        dates = sorted(str(c["date"] or "") for c in same)
        scores = [c["score"] for c in same if c["score"] is not None]
        out.append({**same[0], "count": len(same), "first": dates[0], "last": dates[-1],
                    "editions": [c["edition"] for c in same],
                    "score_min": min(scores) if scores else None, "score_max": max(scores) if scores else None})
    return out


def changes(conn, rule: dict, languages: dict[str, str]) -> list[dict]:
    """Rows of the ``diffs`` table for this rule, each named correctly (a translation is no 'unchanged')."""
    if not has_table(conn, "diffs"):
        return []
    out = rows(conn, """select id, old_edition, new_edition, old_number, new_number, change_class, cross_language,
                               words_deleted, words_inserted from diffs
                        where old_rule_id = :id or new_rule_id = :id order by id""", {"id": rule["id"]})
    for d in out:
        translated = d["cross_language"] or languages.get(d["old_edition"]) != languages.get(d["new_edition"])
        cls = d["change_class"]
        d["label"] = ("translation" + (f" · {cls}" if cls != "unchanged" else "")) if translated else cls
        d["rule"] = d["new_number"] if rule["edition_id"] == d["new_edition"] else d["old_number"]
    return out


def engine_links(conn, rule_id: int) -> list[dict]:
    if not has_table(conn, "enforces"):
        return []
    return rows(conn, """select f.id, f.qualname, f.module, f.file, f.line, f.doc, e.status
                         from enforces e join engine_functions f on f.id = e.function_id
                         where e.rule_id = ? order by f.qualname""", (rule_id,))


def scenarios(conn, rule_id: int) -> list[dict]:
    if not has_table(conn, "scenario_rules"):
        return []
    found = rows(conn, """select s.id, s.path, s.title, s.passes, group_concat(distinct sr.how) hows
                          from scenario_rules sr join scenarios s on s.id = sr.scenario_id where sr.rule_id = ?
                          group by s.id order by s.path""", (rule_id,))
    for s in found:
        hows = set((s.pop("hows") or "").split(","))
        # "entered": a step called the enforcing function, but the rule's condition did not hold
        s["how"] = ", ".join(h for h in ("tagged", "applied") if h in hows) or "entered only, not applied"
        s["group"] = next((h for h in ("tagged", "applied") if h in hows), "entered")
    found.sort(key=lambda s: (("tagged", "applied", "entered").index(s["group"]), s["path"]))
    return found


def aligned_engine_links(conn, rule_id: int) -> list[dict]:
    """Engine functions that enforce this rule through the alignment: they cite its unchanged counterpart of
    another edition, and the rule set of this rule's edition uses them (kb.rulesets)."""
    if not has_table(conn, "aligned_enforces"):
        return []
    return rows(conn, """select function_id, function, file, line, via, rule_set from aligned_enforces
                         where rule_id = ? order by function, via""", (rule_id,))


def in_play(conn, rule_id: int) -> list[dict]:
    """The comparison scenarios whose games under two rule sets diverge because of this rule (kb.rulesets.store):
    the step, the rule set it applied under, and how the two games differ there."""
    if not has_table(conn, "rule_divergences"):
        return []
    return rows(conn, """select scenario_id, scenario, title, rule_set, other_rule_set, line, step, differs, via
                         from rule_divergences where rule_id = ? order by scenario, line, rule_set""", (rule_id,))


def in_play_by_rule(conn, urls, editions: tuple[str, ...]) -> dict[str, list[dict]]:
    """Rule key -> the scenarios it is in play in (as :func:`in_play`, with the scenario's URL), for the rules of
    ``editions``."""
    if not has_table(conn, "rule_divergences"):
        return {}
    marks = ", ".join("?" for _ in editions)
    out: dict[str, list[dict]] = {}
    for d in rows(conn, f"""select * from rule_divergences where edition_id in ({marks})
                            order by scenario, line""", editions):
        url = urls.scenario(d["scenario_id"]) if d["scenario_id"] else urls.rule(d["edition_id"], d["number"])
        out.setdefault(d["rule"], []).append({**d, "url": url})
    return out


def history(conn, rule: dict, links: list | None = None) -> dict | None:
    """The rule's life across editions and languages (:mod:`kb.history`; ``links``: the rule's lineage links, read
    already); None without concepts."""
    if rule.get("concept_id") is None or not numbers.is_number(rule["norm"] or ""):
        return None
    try:
        known = {rule["id"]: links} if links is not None else None
        h = kb_history.history(conn, rule["norm"], rule["edition_id"], known).as_dict()
    except kb_history.HistoryError:
        return None
    for chain in h["chains"]:   # the timeline: a row where something changed, the quiet editions between counted
        shown, quiet = [], 0
        for ev in chain["events"]:
            if ev["kind"] == "unchanged":
                quiet += 1
                continue
            shown.append({**ev, "unchanged_before": quiet})
            quiet = 0
        chain["rows"], chain["unchanged_after"] = shown, quiet
    return h


def rule_pages(conn, edition_id: str, number: str) -> list[dict]:
    """Everything a rule page shows, for each rule of ``edition_id`` numbered ``number`` (a duplicate
    number gives two); an empty list when the edition has no such rule."""
    from .. import lineage

    found = find_rules(conn, number, edition_id)
    if not found:
        return []
    languages = {r["id"]: r["language"] for r in rows(conn, "select id, language from editions")}
    has_alignments = has_table(conn, "alignments")
    out = []
    for r in found:
        v = rule_view(conn, r["id"])
        lang = v.edition["language"]
        is_section = v.rule["level"] == "section"
        links = lineage.of_rule(conn, r["id"]) if has_alignments else None   # (counterparts and history read them)
        out.append({
            "rule": v.rule, "edition": v.edition, "parent": v.parent, "children": v.children, "items": v.items,
            "cites": v.cites, "cited_by": v.cited_by, **neighbours(conn, v.rule),
            "counterparts": counterparts(conn, v.rule, lang, links) if has_alignments else
            {"rules": [], "items": [], "missing": []},
            "changes": changes(conn, v.rule, languages), "engine": engine_links(conn, r["id"]),
            "scenarios": scenarios(conn, r["id"]), "history": history(conn, v.rule, links),
            "in_play": in_play(conn, r["id"]),
            "aligned_engine": aligned_engine_links(conn, r["id"]),
            "section": section_body(conn, v.rule) if is_section else None,
            **(section_neighbours(conn, v.rule) if is_section else {}),
        })
    return out


def elsewhere(conn, number: str) -> list[dict]:
    """The rules numbered ``number`` in any edition (newest first)."""
    return find_rules(conn, number)


def lookup_edition(conn, number: str, preferred: str | None) -> tuple[str, str] | None:
    """(edition, norm) where rule ``number`` is found: ``preferred`` if it has it, else the newest edition."""
    norm = numbers.normalize(number)
    if preferred and find_rules(conn, norm, preferred):
        return preferred, norm
    found = find_rules(conn, norm)
    return (found[0]["edition_id"], norm) if found else None


# --------------------------------------------------------------------------- engine, scenarios, coverage


def engine_function(conn, qualname: str) -> dict | None:
    if not has_table(conn, "engine_functions"):
        return None
    found = rows(conn, "select * from engine_functions where qualname = ?", (qualname,))
    if not found:
        return None
    f = found[0]
    f["rules"] = rows(conn, """select e.edition_id, e.number, e.status, r.norm, r.text from enforces e
                               left join rules r on r.id = e.rule_id where e.function_id = ?
                               order by e.edition_id, e.id""", (f["id"],))
    return f


def scenario(conn, scenario_id: int) -> dict | None:
    if not has_table(conn, "scenarios"):
        return None
    found = rows(conn, "select * from scenarios where id = ?", (scenario_id,))
    if not found:
        return None
    s = found[0]
    s["rules"] = rows(conn, """select sr.edition_id, sr.number, sr.how, r.norm from scenario_rules sr
                               left join rules r on r.id = sr.rule_id where sr.scenario_id = ?""", (scenario_id,))
    s["divergences"] = (rows(conn, """select d.line, d.step, d.rule_set, d.other_rule_set, d.differs, d.edition_id,
                                            d.number, r.norm from rule_divergences d
                                     left join rules r on r.id = d.rule_id
                                     where d.scenario_id = ? and d.via is null order by d.line, d.rule_set""",
                             (scenario_id,)) if has_table(conn, "rule_divergences") else [])
    return s


def coverage(conn) -> list[dict]:
    """Per edition and section: numbered rules, enforced by engine code, exercised by scenarios, both, neither."""
    if not (has_table(conn, "enforces") and has_table(conn, "scenario_rules")):
        return []
    return rows(conn, """
        with enforced as (select distinct rule_id from enforces where rule_id is not null),
             tested as (select distinct rule_id from scenario_rules where rule_id is not null
                        and how != 'entered'),
             linked as (select distinct r.edition_id from rules r
                        where r.id in (select rule_id from enforced) or r.id in (select rule_id from tested))
        select r.edition_id, r.section, count(*) rules,
               sum(r.id in (select rule_id from enforced)) enforced, sum(r.id in (select rule_id from tested)) tested,
               sum(r.id in (select rule_id from enforced) and r.id in (select rule_id from tested)) both,
               sum(r.id not in (select rule_id from enforced) and r.id not in (select rule_id from tested)) neither
        from rules r where r.edition_id in (select edition_id from linked) and r.level in ('rule', 'subrule')
        group by r.edition_id, r.section order by r.edition_id, r.section""")


COUNTS = ("rules", "enforced", "tested", "both", "neither")


def coverage_total(rows_: list[dict]) -> dict:
    return {k: sum(r[k] for r in rows_) for k in COUNTS}


def coverage_grouped(rows_: list[dict]) -> list[dict]:
    """The rows of :func:`coverage` grouped per edition and chapter, each group with its totals; the editions with
    the most rules both enforced and tested first. A section's chapter is its number's first digit (601 -> 6)."""
    editions_: dict[str, list[dict]] = defaultdict(list)
    for r in rows_:
        editions_[r["edition_id"]].append(r)
    out = []
    for edition_id, found in editions_.items():
        chapters: dict = defaultdict(list)
        for r in found:
            chapters[r["section"] // 100 if r["section"] is not None else None].append(r)
        groups = [{"chapter": ch, "total": coverage_total(secs), "sections": secs,
                   "idle": [s["section"] for s in secs if s["section"] is not None and s["neither"] == s["rules"]]}
                  for ch, secs in chapters.items()]
        total = coverage_total(found)
        out.append({"edition": edition_id, "total": total, "both": total["both"], "chapters": groups})
    out.sort(key=lambda e: (-e["both"], e["edition"]))
    return out


#: the classes of a diff that are no change of the rule itself
UNCHANGED_CLASSES = ("unchanged", "outside")


def diff_pairs(conn, pairs: list[tuple[str, str]]) -> list[dict]:
    """Each aligned pair of editions with both dates and languages and its rules per change class (the ``diffs``
    table; empty counts where the build stored none for the pair), newest pair first."""
    eds = {e["id"]: e for e in rows(conn, "select id, language, date from editions")}
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    if has_table(conn, "diffs"):
        for r in rows(conn, "select old_edition, new_edition, change_class, count(*) n from diffs "
                            "group by old_edition, new_edition, change_class"):
            counts[(r["old_edition"], r["new_edition"])][r["change_class"]] = r["n"]
    out = []
    for old, new in pairs:
        c = counts.get((old, new), {})
        out.append({"old": old, "new": new, "old_date": eds.get(old, {}).get("date"),
                    "new_date": eds.get(new, {}).get("date"), "counts": c,
                    "translation": eds.get(old, {}).get("language") != eds.get(new, {}).get("language"),
                    "changed": sum(n for k, n in c.items() if k not in UNCHANGED_CLASSES),
                    "unchanged": c.get("unchanged", 0), "outside": c.get("outside", 0)})
    out.sort(key=lambda d: (str(d["new_date"] or ""), str(d["old_date"] or "")), reverse=True)
    return out
