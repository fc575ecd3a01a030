"""A rule's life: every edition of every language where its concept appears, and what changed.

:func:`history` follows a rule's concept (:mod:`kb.align.concepts`) through the KB: per family
of editions (the English chain, the German editions, ...), in date order, the edition where it
first appears, where its number or its words change (with the word diff), where it splits or
merges, and where it is gone although the edition covers that part of the rules.  Its
counterparts in other languages come with it.  ``kb history`` prints it; the rule pages show it.
"""
from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass, field

from ingest import numbers

from .align.pairs import when
from .diff.words import inline_html, word_diff


@dataclass
class Event:
    edition: str
    date: str
    #: first, renumbered, reworded, renumbered+reworded, split, merged, unchanged, removed
    kind: str
    numbers: list[str]
    detail: str = ""
    #: the word diff as text: [-deleted-] {+inserted+}
    diff: str = ""
    #: the same word diff as HTML (``<del>``/``<ins>``, terminology folded), as the rule pages show it
    diff_html: str = ""


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
        return asdict(self)


class HistoryError(LookupError):
    pass


def _rows(conn: sqlite3.Connection, sql: str, *params) -> list[dict]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return [dict(r) for r in cur.execute(sql, params)]


def history(conn: sqlite3.Connection, number: str, edition: str | None = None) -> History:
    """The life of rule ``number`` (of ``edition``; default: the newest edition that has it)."""
    norm = numbers.normalize(number).lower()
    found = _rows(conn, "select r.*, e.date from rules r join editions e on e.id = r.edition_id "
                        "where r.norm = ? and (? is null or r.edition_id = ?) order by e.date desc",
                  norm, edition, edition)
    if not found:
        known = [e["id"] for e in _rows(conn, "select id from editions order by id")]
        if edition and edition not in known:
            raise HistoryError(f"no edition {edition!r} in the KB (editions: {', '.join(known)})")
        raise HistoryError(f"no rule {number}" + (f" in edition {edition}" if edition else " in any edition"))
    rule = found[0]
    editions = {e["id"]: e for e in _rows(conn, "select * from editions")}
    if rule.get("concept_id") is None:
        members = [rule]
        label = ""
    else:
        members = _rows(conn, "select * from rules where concept_id = ? order by seq", rule["concept_id"])
        got = _rows(conn, "select label from concepts where id = ?", rule["concept_id"])
        label = got[0]["label"] if got else ""
    chains = _chains(members, editions, rule["edition_id"], _originals(conn, editions))
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


def _chains(members: list[dict], editions: dict[str, dict], first: str,
            originals: dict[str, dict] | None = None) -> list[Chain]:
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
        for e in eds:
            cur = by_edition.get(e["id"], [])
            event = _event(prev, cur, e, (originals or {}).get(e["id"]))
            if event is not None:
                chain.events.append(event)
            if cur or event is not None and event.kind == "removed":
                prev = cur
        out.append(chain)
    out.sort(key=lambda c: (c.family != _family(editions[first]), c.family))
    return out


def _event(prev: list[dict], cur: list[dict], e: dict, original: dict | None = None) -> Event | None:
    date = str(e["date"] or "")
    nums = [r["number"] or r["norm"] for r in cur]
    if not cur:
        covers = (e.get("covers") or "").split()
        if prev and all(numbers.covered(r["norm"], covers) for r in prev if numbers.is_number(r["norm"] or "")):
            return Event(e["id"], date, "removed", [], f"no counterpart of {', '.join(r['number'] for r in prev)}")
        return None
    if not prev and original is not None:   # a translation: its words appear with the edition it follows
        return Event(e["id"], str(original["date"] or ""), "first", nums,
                     f"translates {original['id']}; this copy is dated {date}")
    if not prev:
        return Event(e["id"], date, "first", nums)
    if len(cur) > len(prev):
        return Event(e["id"], date, "split", nums, f"{', '.join(r['norm'] for r in prev)} → {', '.join(nums)}")
    if len(cur) < len(prev):
        return Event(e["id"], date, "merged", nums, f"{', '.join(r['norm'] for r in prev)} → {', '.join(nums)}")
    renumbered = [r["norm"] for r in prev] != [r["norm"] for r in cur]
    reworded = [_words(r) for r in prev] != [_words(r) for r in cur]
    kind = "+".join(k for k, on in (("renumbered", renumbered), ("reworded", reworded)) if on) or "unchanged"
    detail = f"{', '.join(r['norm'] for r in prev)} → {', '.join(nums)}" if renumbered else ""
    diff = ""
    if reworded and len(cur) == 1:
        segs = word_diff(prev[0]["text"] or "", cur[0]["text"] or "", lang=cur[0]["language"])
        return Event(e["id"], date, kind, nums, detail, _diff_text(segs), str(inline_html(segs, fold=True)))
    return Event(e["id"], date, kind, nums, detail, diff)


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


def render_text(h: History) -> str:
    lines = [f"{h.number} ({h.edition})" + (f" — concept {h.concept}: {h.label}" if h.concept else "")]
    for chain in h.chains:
        lines.append(f"  {chain.family} ({chain.language}):")
        for ev in chain.events:
            if ev.kind == "unchanged":
                lines.append(f"    {ev.date:<11} {ev.edition:<16} {', '.join(ev.numbers):<12} unchanged")
                continue
            what = "first appears" if ev.kind == "first" else ev.kind
            lines.append(f"    {ev.date:<11} {ev.edition:<16} {', '.join(ev.numbers) or '—':<12} {what}"
                         + (f": {ev.detail}" if ev.detail else ""))
            if ev.diff:
                lines.append(f"{'':18}{ev.diff}")
    if h.counterparts:
        lines.append("  in other languages: " + ", ".join(f"{e} {n}" for e, n, _ in h.counterparts))
    return "\n".join(lines)
