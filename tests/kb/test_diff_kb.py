"""kb.diff over the real KB: the ``diffs`` stage, the ``kb diff`` command, Datasette pieces."""
import asyncio
import json
import re
import shutil
import sqlite3

import pytest
import sqlite_utils
from click.testing import CliRunner

from kb import diff as D
from kb.cli import main


@pytest.fixture(scope="module")
def diff_db(kb_db, tmp_path_factory):
    """A copy of the real KB with the diffs stage run on it."""
    path = tmp_path_factory.mktemp("diffkb") / "kb.db"
    shutil.copy(kb_db, path)
    db = sqlite_utils.Database(path)
    D.store(db)
    db.close()
    return path


def test_store_writes_every_rule_of_every_aligned_pair(diff_db):
    conn = sqlite3.connect(diff_db)
    pairs = {tuple(r) for r in conn.execute("select distinct old_edition, new_edition from diffs")}
    assert {("de-1999", "de-2024"), ("it-wiki", "de-2024")} <= pairs
    for old, new in pairs:
        for side, ed in (("old", old), ("new", new)):
            ids = {r[0] for r in conn.execute("select id from rules where edition_id = ?", (ed,))}
            in_diffs = {r[0] for r in conn.execute(
                f"select {side}_rule_id from diffs where old_edition = ? and new_edition = ? "
                f"and {side}_rule_id is not null", (old, new))}
            assert in_diffs == ids, (old, new, side)
            # one class per rule, whatever the number of rows it appears in
            multi = conn.execute(f"select {side}_rule_id, count(distinct {side}_class) from diffs "
                                 "where old_edition = ? "
                                 f"and new_edition = ? and {side}_rule_id is not null group by 1 having count(distinct "
                                 f"{side}_class) > 1", (old, new)).fetchall()
            assert multi == []
    classes = {r[0] for r in conn.execute("select distinct change_class from diffs")}
    assert classes <= set(D.CLASSES)
    # same language: escaped word diffs; across languages: no <ins>/<del>
    rows = conn.execute("select diff_html, diff_html_folded from diffs where old_edition = 'de-1999' "
                        "and new_edition = 'de-2024' and text_changed = 1 and old_rule_id is not null "
                        "and new_rule_id is not null").fetchall()
    assert rows and all("<del>" in a or "<ins>" in a for a, _ in rows)
    assert any('class="term"' in b for _, b in rows)  # a folded shift somewhere
    assert all(a == b for a, b in conn.execute("select diff_html, diff_html_folded from diffs "
                                                "where text_changed = 0"))
    xl = conn.execute("select diff_html from diffs "
                      "where old_edition = 'it-wiki' and diff_html like '%<ins>%'").fetchall()
    assert xl == []
    # the stage can run again (a rebuild replaces the table)
    n = conn.execute("select count(*) from diffs").fetchone()[0]
    conn.close()
    db = sqlite_utils.Database(diff_db)
    D.store(db)
    assert db["diffs"].count == n


def test_store_takes_unchanged_pairs_from_the_cache(diff_db, tmp_path):
    """A pair's rows come from the cache while its editions, alignment and terminology stay the same; a changed
    rule text gives the pairs of its edition new keys (recomputed), and the table is the one made without cache."""
    path = tmp_path / "kb.db"
    shutil.copy(diff_db, path)
    db = sqlite_utils.Database(path)
    cache = tmp_path / "cache"

    def dump():
        return db.execute("select * from diffs order by id").fetchall()

    def keys():
        """Cache file names -> their inode (a pair that is computed again is written again)."""
        return {p.stem: p.stat().st_ino for p in (cache / "diffs").glob("*.pickle")}

    D.store(db, cache_dir=cache)
    first, first_keys = dump(), keys()
    assert first == [tuple(r) for r in sqlite3.connect(diff_db).execute("select * from diffs order by id")]
    D.store(db, cache_dir=cache)
    assert (dump(), keys()) == (first, first_keys)
    pairs = db.execute("select count(distinct old_edition || ' ' || new_edition) from diffs").fetchone()[0]
    rule_id, text = db.execute("select r.id, r.text from rules r join diffs d on d.new_rule_id = r.id "
                               "where d.new_edition = 'de-2024' and d.change_class = 'unchanged' limit 1").fetchone()
    with db.conn:
        db.execute("update rules set text = ?, text_norm = ? where id = ?", (text + " Neu.", text + " Neu.", rule_id))
    D.store(db, cache_dir=cache)
    changed = dump()
    of_edition = db.execute("select count(distinct old_edition || ' ' || new_edition) from diffs "
                            "where 'de-2024' in (old_edition, new_edition)").fetchone()[0]
    now = keys()
    assert len(now) == pairs and len(now.keys() - first_keys.keys()) == of_edition
    assert all(now[k] == first_keys[k] for k in now.keys() & first_keys.keys())   # the others: read, not written
    assert changed != first and "Neu." in db.execute("select diff_html from diffs where new_rule_id = ?",
                                                      (rule_id,)).fetchone()[0]
    D.store(db)
    assert dump() == changed


def test_store_matches_compare(diff_db):
    conn = sqlite3.connect(diff_db)
    rep = D.compare(conn, "de-1999", "de-2024")
    got = dict(conn.execute("select old_class, count(distinct old_rule_id) from diffs where old_edition = 'de-1999' "
                            "and new_edition = 'de-2024' and old_rule_id is not null group by 1").fetchall())
    assert got == {c: n["old"] for c, n in rep.cls.counts().items() if n["old"]}


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    return result


def test_cli_text_report(kb_db):
    result = run("diff", "--from", "de-1999", "--to", "de-2024", "--db", kb_db)
    assert result.exit_code == 0
    out = result.output
    assert "Changes from de-1999 (1999-04-02) to de-2024 (2024-11-08)" in out
    assert "\x1b[" not in out  # not a terminal: no colour
    for c in D.CLASSES:
        assert re.search(rf"^{c}\s+\d+\s+\d+$", out, re.M), c
    assert re.search(r"^total\s+409\s+334$", out, re.M)
    assert "Section map" in out and "409 → 601, 602" in out


def test_cli_rule_story_and_json(kb_db):
    result = run("diff", "--from", "de-1999", "--to", "de-2024", "--rule", "409.2f", "--db", kb_db)
    assert result.exit_code == 0 and "de-1999 409.2f" in result.output
    assert "Der Spieler bezahlt alle Kosten" in " ".join(result.output.split())
    result = run("diff", "--from", "de-1999", "--to", "de-2024", "--rule", "409.2f", "--format", "json", "--db", kb_db)
    data = json.loads(result.output)
    assert data["rule"] == "409.2f" and data["groups"]
    assert all(any(r["norm"] == "409.2f" for r in g["old"] + g["new"]) for g in data["groups"])
    assert run("diff", "--from", "de-1999", "--to", "de-2024", "--rule", "999.9", "--db", kb_db).exit_code != 0
    assert "no edition" in run("diff", "--from", "xx", "--to", "de-2024", "--db", kb_db).output


def test_cli_all_formats(kb_db, tmp_path):
    result = run("diff", "--from", "it-wiki", "--to", "de-2024", "--format", "all", "-o", tmp_path,
                 "--base-url", "http://kb.example:9000", "--db", kb_db)
    assert result.exit_code == 0
    html = (tmp_path / "it-wiki__de-2024.html").read_text(encoding="utf-8")
    assert 'href="http://kb.example:9000/rule/de-2024/601.4"' in html
    assert "structure only" in html and "<ins>" not in html
    data = json.loads((tmp_path / "it-wiki__de-2024.json").read_text(encoding="utf-8"))
    assert data["cross_language"] is True
    assert sum(c["old"] for c in data["counts"].values()) == len(data["rules"]["old"]) == 321
    assert sum(c["new"] for c in data["counts"].values()) == len(data["rules"]["new"]) == 334
    text = (tmp_path / "it-wiki__de-2024.txt").read_text(encoding="utf-8")
    assert "\x1b[" not in text and "it → de: structure only" in text


def test_html_report_same_language(kb_db):
    result = run("diff", "--from", "de-1999", "--to", "de-2024", "--format", "html", "--db", kb_db)
    html = result.output
    assert html.startswith("<!DOCTYPE html>") and "<del>" in html and "<ins>" in html
    # links are relative to the site root by default, so they work on any host and port
    assert 'href="/rule/de-1999/409.2f"' in html and "127.0.0.1" not in html
    assert "Renumbering map de-1999 → de-2024" in html and 'id="terminology"' in html


def test_metadata_and_render_cell():
    meta = D.metadata()
    assert meta["facets"] == ["change_class", "chapter", "old_edition", "new_edition"]
    html = D.render_cell('<del>a</del> <script>x</script><ins>b</ins>', "diff_html", "diffs")
    assert '<del style="' in html and "<script" not in html and "&lt;" not in html.replace("&lt;script", "")
    assert D.render_cell("x", "diff_html", "rules") is None
    row = {"old_edition": "de-1999", "old_number": "409.2f"}

    class Row(dict):
        def keys(self):
            return super().keys()

    link = D.render_cell("409.2f", "old_number", "diffs", Row(row))
    assert str(link) == '<a href="/rule/de-1999/409.2f">409.2f</a>'
    assert set(D.canned_queries()) == {"rule_changes", "change_summary"}


def test_datasette_diffs_table_and_rule_page_link(diff_db):
    """Datasette with the diffs metadata and render_cell merged: facets, safe HTML, rule page -> diff."""
    from datasette import hookimpl
    from datasette.app import Datasette
    from datasette.plugins import pm

    from kb.serve import TEMPLATES, metadata

    meta = metadata()
    meta["databases"]["kb"]["tables"]["diffs"] = D.metadata()
    meta["databases"]["kb"]["queries"].update(D.canned_queries())

    class Plugin:
        @staticmethod
        @hookimpl
        def render_cell(row, value, column, table, database, datasette):
            return D.render_cell(value, column, table, row, datasette.urls.path("/"))

    pm.register(Plugin, name="kb-diff-test")
    try:
        ds = Datasette(immutables=[str(diff_db)], metadata=meta, template_dir=str(TEMPLATES))
        loop = asyncio.new_event_loop()
        loop.run_until_complete(ds.invoke_startup())
        get = lambda p: loop.run_until_complete(ds.client.get(p))  # noqa: E731
        r = get("/kb/diffs?old_edition=de-1999")
        assert r.status_code == 200
        for facet in ("change_class", "chapter", "old_edition", "new_edition"):
            assert f'data-column="{facet}"' in r.text
        table = r.text.split("<tbody>")[1]
        assert "<del style=" in table and "&lt;del&gt;" not in table
        page = get("/rule/de-1999/409.2f")
        assert 'href="/diff/de-1999/de-2024?rule=409.2f"' in page.text, "the rule page links to its diff page"
        story = get("/diff/de-1999/de-2024?rule=409.2f")
        assert story.status_code == 200 and "409.2f" in story.text and "<del" in story.text
        ids = re.findall(r'href="/kb/diffs/(\d+)"', get("/kb/diffs?old_number=409.2f").text)
        row = get(f"/kb/diffs/{ids[0]}")
        assert row.status_code == 200 and "409.2f" in row.text
        assert 'href="/rule/de-1999/409.2f"' in row.text
        q = get("/kb/rule_changes?number=409.2f")
        assert q.status_code == 200 and "409.2f" in q.text
        loop.close()
    finally:
        pm.unregister(name="kb-diff-test")


def test_the_benchmarks_pair_is_the_widest_aligned_pair_of_one_language(kb_db):
    """German 1999 (dated 1999-04-02) is older than the English original (1999-04-23); both reach 2024-11-08."""
    from kb.diff.load import widest_pair

    assert widest_pair(sqlite3.connect(kb_db)) == ("de-1999", "de-2024")
    assert widest_pair(sqlite3.connect(":memory:")) is None
