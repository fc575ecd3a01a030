"""Every rule's history agrees with the KB it is read from: each event names the numbers the rule's concept has in
that edition, on that edition's date, in date order, and calls a change what the numbers and words show.

The expectations come from the tables (rules, editions, concepts), not from kb/history.py: for every rule of
de-2024, it-wiki and de-1999 (merges, removals, unchanged rules), `kb history` as the CLI prints it and as JSON.
"""
from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest
from click.testing import CliRunner

from ingest import numbers
from kb.cli import main
from kb.history import history, render_text


@pytest.fixture(scope="module")
def conn(kb_db):
    c = sqlite3.connect(kb_db)
    c.row_factory = sqlite3.Row
    yield c
    c.close()


def words(r) -> str:
    return " ".join(f"{r['title'] or ''} {r['text_norm'] or r['text'] or ''}".split())


def check_chain(chain, members: list, editions: dict) -> None:
    fam = [e for e in editions.values() if (e["family"] or f"{e['language']}-{e['kind']}") == chain.family]
    assert fam and {e["language"] for e in fam} == {chain.language}
    having = {e["id"] for e in fam if any(m["edition_id"] == e["id"] for m in members)}
    events = chain.events
    assert [e.date for e in events] == sorted(e.date for e in events)
    assert {e.edition for e in events if e.kind != "removed"} == having     # one event per edition that has it
    assert len(events) == len({e.edition for e in events})
    assert events[0].kind == "first"
    before: list = []
    for ev in events:
        assert ev.date == str(editions[ev.edition]["date"] or "")
        cur = [m for m in members if m["edition_id"] == ev.edition]
        assert sorted(ev.numbers) == sorted(m["number"] or m["norm"] for m in cur)
        if ev.kind == "removed":
            assert not cur and before and all(m["number"] in ev.detail for m in before)
        elif before:
            old, new = [m["norm"] for m in before], [m["number"] or m["norm"] for m in cur]
            if len(cur) != len(before):
                assert ev.kind == ("split" if len(cur) > len(before) else "merged")
            else:
                renumbered = sorted(old) != sorted(m["norm"] for m in cur)
                reworded = sorted(words(m) for m in before) != sorted(words(m) for m in cur)
                assert ("renumbered" in ev.kind) == renumbered and ("reworded" in ev.kind) == reworded, ev
                assert (ev.kind == "unchanged") == (not renumbered and not reworded)
                # the word diff of the texts (a heading's title alone has none)
                texts_differ = (before[0]["text"] or "") != (cur[0]["text"] or "")
                assert bool(ev.diff) == (reworded and len(cur) == 1 and texts_differ)
            if ev.kind in ("split", "merged") or "renumbered" in ev.kind:
                assert ev.detail.split(" → ") == [", ".join(sorted(old, key=old.index)), ", ".join(new)]
            else:
                assert ev.detail == ""
        if cur:
            before = cur


@pytest.mark.parametrize("edition", ["de-2024", "it-wiki", "de-1999"])
def test_every_history_agrees_with_the_tables(conn, edition):
    editions = {e["id"]: dict(e) for e in conn.execute("select * from editions")}
    rules = conn.execute("select * from rules where edition_id = ? and number is not null", (edition,)).fetchall()
    assert len(rules) > 100
    printed = Counter(numbers.normalize(r["number"]) for r in rules)
    for rule in rules:
        if printed[numbers.normalize(rule["number"])] > 1:
            continue   # a number printed twice (it-wiki's 616.1f) names the first of them
        h = history(conn, rule["number"], edition)
        assert (h.edition, h.number, h.concept) == (edition, rule["number"], rule["concept_id"])
        members = [rule] if rule["concept_id"] is None else conn.execute(
            "select * from rules where concept_id = ? order by seq", (rule["concept_id"],)).fetchall()
        label = conn.execute("select label from concepts where id = ?", (rule["concept_id"],)).fetchone()
        assert h.label == (label["label"] if label else "")
        lang = editions[edition]["language"]
        assert h.counterparts == sorted({(m["edition_id"], m["number"] or m["norm"],
                                          editions[m["edition_id"]]["language"]) for m in members
                                         if editions[m["edition_id"]]["language"] != lang})
        assert h.chains[0].family == (editions[edition]["family"] or f"{lang}-{editions[edition]['kind']}")
        for chain in h.chains:
            check_chain(chain, members, editions)
        check_printed(h, render_text(h))


def check_printed(h, text: str) -> None:
    """The printed history: a header, each chain, one line per event (date, edition, numbers, what happened),
    its word diff below it, the counterparts last."""
    lines = text.splitlines()
    assert lines[0] == f"{h.number} ({h.edition})" + (f" — concept {h.concept}: {h.label}" if h.concept else "")
    for chain in h.chains:
        assert f"  {chain.family} ({chain.language}):" in lines
        for ev in chain.events:
            line = next(x for x in lines if x.split()[:2] == [ev.date, ev.edition])
            assert line.startswith("    ") and (", ".join(ev.numbers) or "—") in line
            what = "first appears" if ev.kind == "first" else ev.kind
            assert line.rstrip().endswith(what + (f": {ev.detail}" if ev.detail else ""))
            after = lines[lines.index(line) + 1] if lines.index(line) + 1 < len(lines) else ""
            assert (after == " " * 18 + ev.diff) if ev.diff else not after.startswith(" " * 18)
    others = ", ".join(f"{e} {n}" for e, n, _ in h.counterparts)
    assert (lines[-1] == f"  in other languages: {others}") if h.counterparts else "in other languages" not in text
    assert len(lines) == 1 + len(h.chains) + sum(1 + bool(e.diff) for c in h.chains for e in c.events) + bool(
        h.counterparts)


def test_the_printed_history_shows_every_event(conn, kb_db):
    h = history(conn, "601.2f", "de-2024")
    out = CliRunner().invoke(main, ["history", "601.2f", "-e", "de-2024", "--db", str(kb_db)])
    assert out.exit_code == 0 and out.output.rstrip("\n") == render_text(h)
    check_printed(h, out.output)
    data = json.loads(CliRunner().invoke(main, ["history", "601.2f", "-e", "de-2024", "--format", "json",
                                                "--db", str(kb_db)]).output)
    assert data == json.loads(json.dumps(h.as_dict()))
    assert [e["kind"] for c in data["chains"] if c["family"] == "de-cr" for e in c["events"]] == [
        "first", "renumbered+reworded"]
