"""A rule's life: every edition of every language its lineage reaches, and what changed at each step.

:func:`history` follows a rule's links of the lineage (:func:`kb.lineage.of_rule`, the one source every view
reads) through the KB: per family of editions (the English chain, the German editions, ...), in date order, the
edition where it first appears, each step with the links of the lineage between the rule's versions in the two
editions (their relation and confidence: what the rule page and the diff pages name for the same two rules), the
word diff where the words changed, and where it is gone although the edition covers that part of the rules.  Its
counterparts in other languages come with it.  ``kb history`` prints it; the rule pages show it.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, fields

from ingest import numbers

from . import lineage
from .align import kbcache
from .align.pairs import when
from .diff.words import inline_html, word_diff


@dataclass
class Event:
    edition: str
    date: str
    #: first, removed, or the relation of the lineage's links from the previous edition (equivalent, reworded,
    #: renumbered, split, merged); "unchanged" for an equivalent step where neither number nor words changed
    kind: str
    numbers: list[str]
    detail: str = ""
    #: the word diff as text: [-deleted-] {+inserted+}
    diff: str = ""
    #: the same word diff as HTML (``<del>``/``<ins>``, terminology folded), as the rule pages show it
    diff_html: str = ""
    #: the previous edition of the family (the step's diff is ``previous`` → ``edition``)
    previous: str = ""
    #: the lineage's links of the step: old and new number, relation, confidence, review
    links: list[dict] = field(default_factory=list)
    #: did the number or the words change in this step
    changed: bool = True


@dataclass
class Chain:
    family: str
    language: str
    events: list[Event] = field(default_factory=list)


@dataclass
class History:
    edition: str
    number: str
    concept: int | None
    label: str
    chains: list[Chain]
    #: the rule's versions in other languages: (edition, number, language)
    counterparts: list[tuple[str, str, str]]

    def as_dict(self) -> dict:
        """What :func:`dataclasses.asdict` gives (the events' lists copied, the rest immutable), built directly: it
        is read for every rule page, and a rule of a hundred editions has a hundred events."""
        return {"edition": self.edition, "number": self.number, "concept": self.concept, "label": self.label,
                "chains": [{"family": c.family, "language": c.language, "events": [_event_dict(ev) for ev in c.events]}
                           for c in self.chains],
                "counterparts": [tuple(c) for c in self.counterparts]}


_EVENT_FIELDS = tuple(f.name for f in fields(Event))


def _event_dict(ev: Event) -> dict:
    out = {k: getattr(ev, k) for k in _EVENT_FIELDS}
    out["numbers"] = list(ev.numbers)
    out["links"] = [dict(lk) for lk in ev.links]
    return out


class HistoryError(LookupError):
    pass


def _rows(conn: sqlite3.Connection, sql: str, *params) -> list[dict]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return [dict(r) for r in cur.execute(sql, params)]


def history(conn: sqlite3.Connection, number: str, edition: str | None = None,
            known: dict[int, list] | None = None) -> History:
    """The life of rule ``number`` (of ``edition``; default: the newest edition that has it); ``known``: rule id ->
    its lineage links (:func:`kb.lineage.of_rule`), where the caller has read them already (a rule page)."""
    norm = numbers.normalize(number).lower()
    found = _rows(conn, "select r.*, e.date from rules r join editions e on e.id = r.edition_id "
                        "where r.norm = ? and (? is null or r.edition_id = ?) order by e.date desc",
                  norm, edition, edition)
    if not found:
        ids = [e["id"] for e in _rows(conn, "select id from editions order by id")]
        if edition and edition not in ids:
            raise HistoryError(f"no edition {edition!r} in the KB (editions: {', '.join(ids)})")
        raise HistoryError(f"no rule {number}" + (f" in edition {edition}" if edition else " in any edition"))
    rule = found[0]
    editions = {e["id"]: e for e in _rows(conn, "select * from editions")}
    links = (known or {}).get(rule["id"])
    if links is None:
        links = lineage.of_rule(conn, rule["id"])
    ids = [rule["id"]] + [lk.target_id for lk in links]
    marks = ", ".join("?" for _ in ids)
    members = _rows(conn, f"select r.id, r.edition_id, r.number, r.norm, r.title, r.text, r.text_norm, e.language "
                          f"from rules r join editions e on e.id = r.edition_id where r.id in ({marks}) order by r.seq",
                    *ids)
    label = ""
    if rule.get("concept_id") is not None:
        got = _rows(conn, "select label from concepts where id = ?", rule["concept_id"])
        label = got[0]["label"] if got else ""
    chains = _chains(conn, members, editions, rule["edition_id"], _originals(conn, editions),
                     lineage.edition_specs(conn))
    lang = editions[rule["edition_id"]]["language"]
    counterparts = sorted({(m["edition_id"], m["number"] or m["norm"], editions[m["edition_id"]]["language"])
                           for m in members if editions[m["edition_id"]]["language"] != lang})
    return History(rule["edition_id"], rule["number"] or rule["norm"], rule.get("concept_id"), label, chains,
                   counterparts)


def _originals(conn: sqlite3.Connection, editions: dict[str, dict]) -> dict[str, dict]:
    """Translation -> the edition it follows: the manifest's ``translation_of``, else the original the build
    paired it with (``edition_pairs``, reason ``translation``)."""
    out = {e["id"]: editions[e["translation_of"]] for e in editions.values()
           if e.get("translation_of") in editions}
    if _rows(conn, "select 1 from sqlite_master where name = 'edition_pairs'"):
        for p in _rows(conn, "select source_edition, target_edition from edition_pairs where reason = 'translation' "
                             "and kind = 'cross-language'"):
            if p["source_edition"] not in out and p["target_edition"] in editions:
                out[p["source_edition"]] = editions[p["target_edition"]]
    return out


def _family(e: dict) -> str:
    return e.get("family") or f"{e['language']}-{e['kind']}"


def _chains(conn, members: list[dict], editions: dict[str, dict], first: str,
            originals: dict[str, dict] | None = None, specs: dict | None = None) -> list[Chain]:
    known = {m["id"]: (m["edition_id"], m["norm"], m["number"]) for m in members}
    snap = kbcache.snapshot(conn)
    by_edition: dict[str, list[dict]] = {}
    for m in members:
        by_edition.setdefault(m["edition_id"], []).append(m)
    families: dict[str, list[dict]] = {}
    for e in editions.values():
        families.setdefault(_family(e), []).append(e)
    out = []
    for fam, eds in families.items():
        if not any(e["id"] in by_edition for e in eds):
            continue
        eds.sort(key=lambda e: (when(str(e["date"] or "")), e["id"]))
        chain = Chain(fam, eds[0]["language"])
        prev: list[dict] = []
        prev_ed = ""
        for e in eds:
            cur = by_edition.get(e["id"], [])
            event = _event(conn, prev, cur, e, prev_ed, editions, (originals or {}).get(e["id"]), specs,
                           (known, snap))
            if event is not None:
                chain.events.append(event)
            if cur or event is not None and event.kind == "removed":
                prev, prev_ed = cur, e["id"]
        out.append(chain)
    out.sort(key=lambda c: (c.family != _family(editions[first]), c.family))
    return out


#: what the history has read: rule id -> edition, norm and number of its rules, and the lineage's snapshot of the KB
Seen = tuple[dict[int, tuple[str, str, str]], kbcache.Snapshot]


def _step_links(conn, prev: list[dict], cur: list[dict], specs: dict | None = None,
                known: Seen | None = None) -> list[dict]:
    """The lineage's links between the rule's versions in two editions of a family (older first)."""
    cur_ids = {r["id"] for r in cur}
    return [lk for r in prev for lk in _links_to(conn, r, cur_ids, cur[0]["edition_id"], specs, known)]


def _links_to(conn, r: dict, targets: set[int], target_ed: str, specs: dict | None = None,
              known: Seen | None = None) -> list[dict]:
    """The lineage's links of rule ``r`` to the rules ``targets`` of the newer edition ``target_ed``
    (:func:`kb.lineage.to_edition`)."""
    rules, snap = known or (None, None)
    return [{"old": lk.source_number, "new": lk.target_number, "relation": lk.relation, "confidence": lk.confidence,
             "review": lk.review} for lk in lineage.to_edition(conn, r["id"], target_ed, specs, rules, snap)
            if lk.target_id in targets]


def _event(conn, prev: list[dict], cur: list[dict], e: dict, prev_ed: str, editions: dict[str, dict],
           original: dict | None = None, specs: dict | None = None, known: Seen | None = None) -> Event | None:
    date = str(e["date"] or "")
    nums = [r["number"] or r["norm"] for r in cur]
    if not cur:
        covers = (e.get("covers") or "").split()
        if prev and all(numbers.covered(r["norm"], covers) for r in prev if numbers.is_number(r["norm"] or "")):
            return Event(e["id"], date, "removed", [], f"no counterpart of {', '.join(r['number'] for r in prev)}",
                         previous=prev_ed)
        return None
    if not prev and original is not None:   # a translation: its words appear with the edition it follows
        return Event(e["id"], str(original["date"] or ""), "first", nums,
                     f"translates {original['id']}; this copy is dated {date}")
    if not prev:
        return Event(e["id"], date, "first", nums)
    links = _step_links(conn, prev, cur, specs, known)
    renumbered = [r["norm"] for r in prev] != [r["norm"] for r in cur]
    reworded = [_words(r) for r in prev] != [_words(r) for r in cur]
    relations = {lk["relation"] for lk in links}
    kind = next((k for k in ("split", "merged") if k in relations), None) or (
        links[0]["relation"] if len(relations) == 1 else ", ".join(sorted(relations)) or "linked")
    if kind == "equivalent" and not renumbered and not reworded:
        kind = "unchanged"
    detail = f"{', '.join(r['norm'] for r in prev)} → {', '.join(nums)}" if renumbered or len(prev) != len(cur) else ""
    diff = diff_html = ""
    if reworded and len(cur) == 1 and len(prev) == 1:
        segs = word_diff(prev[0]["text"] or "", cur[0]["text"] or "", lang=cur[0]["language"])
        diff, diff_html = _diff_text(segs), str(inline_html(segs, fold=True))
    return Event(e["id"], date, kind, nums, detail, diff, diff_html, prev_ed, links, renumbered or reworded)


def _words(r: dict) -> str:
    return " ".join(f"{r.get('title') or ''} {r.get('text_norm') or r.get('text') or ''}".split())


def _diff_text(segs) -> str:
    out = []
    for s in segs:
        if s.op == "equal":
            out.append(s.old)
        elif s.op == "term":
            out.append(s.new)
        else:
            if s.old.strip():
                out.append(f"[-{s.old.strip()}-]" + (" " if s.old.endswith(" ") else ""))
            if s.new.strip():
                out.append(f"{{+{s.new.strip()}+}}" + (" " if s.new.endswith(" ") else ""))
    return "".join(out).strip()


def link_text(lk: dict) -> str:
    """A link of the lineage as the views name it: "409.2f → 601.2f split 0.49" (or "reviewed: …")."""
    how = f"reviewed: {lk['review']}" if lk.get("review") else f"{lk['confidence']:.2f}"
    return f"{lk['old']} → {lk['new']} {lk['relation']} {how}"


def render_text(h: History) -> str:
    """The timeline: a row where the rule's number or words changed (or it split, merged, appeared or went), each
    with the lineage's links of that step; the editions in between that printed it unchanged are counted."""
    lines = [f"{h.number} ({h.edition})" + (f" — concept {h.concept}: {h.label}" if h.concept else "")]
    for chain in h.chains:
        lines.append(f"  {chain.family} ({chain.language}):")
        quiet: list[Event] = []
        for ev in chain.events:
            if ev.kind == "unchanged" or (not ev.changed and ev.kind not in ("first", "removed", "split", "merged")):
                quiet.append(ev)
                continue
            _flush(lines, quiet)
            what = "first appears" if ev.kind == "first" else ev.kind
            lines.append(f"    {ev.date:<11} {ev.edition:<16} {', '.join(ev.numbers) or '—':<12} {what}"
                         + (f": {ev.detail}" if ev.detail else ""))
            if ev.links:
                lines.append(f"{'':18}{'; '.join(link_text(lk) for lk in ev.links)}")
            if ev.diff:
                lines.append(f"{'':18}{ev.diff}")
        _flush(lines, quiet)
    if h.counterparts:
        lines.append("  in other languages: " + ", ".join(f"{e} {n}" for e, n, _ in h.counterparts))
    return "\n".join(lines)


def _flush(lines: list[str], quiet: list[Event]) -> None:
    if quiet:
        span = quiet[0].edition if len(quiet) == 1 else f"{quiet[0].edition} … {quiet[-1].edition}"
        lines.append(f"    {'':11} {'':16} {'':12} unchanged in {len(quiet)} edition{'s' if len(quiet) > 1 else ''}"
                     f" ({span})")
        quiet.clear()
