"""Every rule's history agrees with the KB it is read from: each event names the numbers the rule's versions have in
that edition (the rule and every rule the lineage links it to, :func:`kb.lineage.of_rule`, the one source every
view reads), on that edition's date (a translation first appears on the date of the edition it translates), in
date order; a step names one of the relations of its links, and calls a change what the numbers and words show.

The expectations come from the tables (rules, editions, concepts) and the lineage, not from kb/history.py: for every
rule of de-2024, it-wiki and de-1999 (merges, removals, unchanged rules), `kb history` as the CLI prints it and as
JSON.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from ingest import numbers
from kb import lineage
from kb.cli import main
from kb.history import history, link_text, render_text

ROWS_BY_NAME = True  # the conn fixture (tests/conftest.py) gives rows by name


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
        date = editions[ev.edition]["date"]
        if ev.kind == "first" and ev.detail.startswith("translates "):     # on the date of its original
            date = editions[ev.detail.split()[1].rstrip(";")]["date"]
        assert ev.date == str(date or "")
        cur = [m for m in members if m["edition_id"] == ev.edition]
        assert sorted(ev.numbers) == sorted(m["number"] or m["norm"] for m in cur)
        if ev.kind == "removed":
            assert not cur and before and all(m["number"] in ev.detail for m in before)
        elif before:
            old, new = [m["norm"] for m in before], [m["number"] or m["norm"] for m in cur]
            relations = {lk["relation"] for lk in ev.links}
            assert all(lk["old"] in [m["number"] or m["norm"] for m in before] and lk["new"] in new
                       for lk in ev.links)
            renumbered = sorted(old) != sorted(m["norm"] for m in cur)
            reworded = sorted(words(m) for m in before) != sorted(words(m) for m in cur)
            assert ev.changed == (renumbered or reworded), ev
            if not ev.links:      # reached through the lineage, but by no link of this step
                assert ev.kind == "linked", ev
            elif ev.kind == "unchanged":
                assert relations == {"equivalent"} and not renumbered and not reworded
            else:
                assert ev.kind in relations or ev.kind == ", ".join(sorted(relations)), ev
            if len(cur) == 1 and len(before) == 1:
                # the word diff of the texts (a heading's title alone has none)
                texts_differ = (before[0]["text"] or "") != (cur[0]["text"] or "")
                assert bool(ev.diff) == (reworded and texts_differ)
            if renumbered or len(cur) != len(before):
                assert ev.detail.split(" → ") == [", ".join(sorted(old, key=old.index)), ", ".join(new)]
            else:
                assert ev.detail == ""
        if cur:
            before = cur


def check_printed(h, text: str) -> None:
    """The printed history: a header, each chain, one line per event that changed something (date, edition,
    numbers, what happened) with its links and its word diff below it, the editions in between that printed the
    rule unchanged counted on one line, the counterparts last."""
    lines = text.splitlines()
    assert lines[0] == f"{h.number} ({h.edition})" + (f" — concept {h.concept}: {h.label}" if h.concept else "")
    quiet = sum(int(x.split("unchanged in ")[1].split()[0]) for x in lines if "unchanged in " in x)
    shown = 0
    for chain in h.chains:
        assert f"  {chain.family} ({chain.language}):" in lines
        for ev in chain.events:
            line = next((x for x in lines if x.split()[:2] == [ev.date, ev.edition]), None)
            if line is None:
                assert not ev.changed and ev.kind not in ("first", "removed", "split", "merged"), ev
                continue
            shown += 1
            assert line.startswith("    ") and (", ".join(ev.numbers) or "—") in line
            what = "first appears" if ev.kind == "first" else ev.kind
            assert line.rstrip().endswith(what + (f": {ev.detail}" if ev.detail else ""))
            below = lines[lines.index(line) + 1:lines.index(line) + 1 + bool(ev.links) + bool(ev.diff)]
            assert below == ([" " * 18 + "; ".join(link_text(lk) for lk in ev.links)] if ev.links else []) + (
                [" " * 18 + ev.diff] if ev.diff else [])
    assert shown + quiet == sum(len(c.events) for c in h.chains)
    others = ", ".join(f"{e} {n}" for e, n, _ in h.counterparts)
    assert (lines[-1] == f"  in other languages: {others}") if h.counterparts else "in other languages" not in text


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
        ids = [rule["id"], *(lk.target_id for lk in lineage.of_rule(conn, rule["id"]))]
        members = conn.execute(f"select * from rules where id in ({', '.join('?' * len(ids))}) order by seq",
                               ids).fetchall()
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


def test_the_printed_history_shows_every_event(conn, kb_db):
    h = history(conn, "601.2f", "de-2024")
    out = CliRunner().invoke(main, ["history", "601.2f", "-e", "de-2024", "--db", str(kb_db)])
    assert out.exit_code == 0 and out.output.rstrip("\n") == render_text(h)
    check_printed(h, out.output)
    data = json.loads(CliRunner().invoke(main, ["history", "601.2f", "-e", "de-2024", "--format", "json",
                                                "--db", str(kb_db)]).output)
    assert data == json.loads(json.dumps(h.as_dict()))
    assert [e["kind"] for c in data["chains"] if c["family"] == "de-cr" for e in c["events"]] == [
        "first", "split"]
