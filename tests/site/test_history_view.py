"""A rule's history as a reader sees it: coloured word diffs, and a translation dated by the edition it follows."""
import sqlite3

from click.testing import CliRunner

from kb import history
from kb.cli import main


def test_history_rows_show_a_coloured_diff_not_raw_markup(site):
    text = site.get("/rule/de-2024/601.2f").text
    table = text.split('id="history"')[1].split("<h3")[0]
    assert "[-" not in table and "{+" not in table
    assert "<del>bezahlt alle Kosten" in table and "<ins>bestimmt die Gesamtkosten" in table
    data = site.get("/rule/de-2024/601.2f.json").json()["rules"][0]["history"]
    events = [ev for chain in data["chains"] for ev in chain["events"] if ev["diff"]]
    assert events and all("<del>" in ev["diff_html"] or "<ins>" in ev["diff_html"] for ev in events)


def test_a_translation_first_appears_with_the_edition_it_follows(kb_db):
    conn = sqlite3.connect(kb_db)
    try:
        dates = dict(conn.execute("select id, date from editions").fetchall())
        h = history.history(conn, "601.2f", "it-wiki")
    finally:
        conn.close()
    first = next(c for c in h.chains if c.language == "it").events[0]
    assert first.kind == "first" and first.edition == "it-wiki"
    assert first.date == dates["en-2024-11-08"] != dates["it-wiki"]       # the original's date, not the copy's
    assert f"this copy is dated {dates['it-wiki']}" in first.detail
    german = next(c for c in h.chains if c.family == "de-cr").events[0]
    assert german.edition == "de-1999" and german.date == dates["en-1999-04-23"]   # translation_of in the manifest
    english = next(c for c in h.chains if c.family == "en-cr").events[0]
    assert english.date == dates["en-1999-04-23"] and english.detail == ""          # an original keeps its date
    out = CliRunner().invoke(main, ["history", "601.2f", "--edition", "it-wiki", "--db", str(kb_db)]).output
    assert "2022        it-wiki" not in out and "translates en-2024-11-08" in out
