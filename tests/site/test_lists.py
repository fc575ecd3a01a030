"""Every list a person reads has totals, paging or grouping: coverage, the diff index, search, scenarios."""
import re
import sqlite3

from click.testing import CliRunner

from kb.cli import main


def _cells(row_html):
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row_html, re.S)]


def test_coverage_has_totals_per_edition_and_chapter_that_add_up(site, kb_db):
    r = site.get("/coverage")
    assert r.status_code == 200
    summary = r.text.split('id="coverage-editions"')[1].split("</table>")[0]
    rows = {c[0]: [int(x) for x in c[1:6]] for c in (_cells(t) for t in summary.split("<tr")[2:])}
    conn = sqlite3.connect(kb_db)
    enforced_2024 = conn.execute("""select count(distinct r.id) from rules r join enforces e on e.rule_id = r.id
        where r.edition_id = 'de-2024' and r.level in ('rule', 'subrule')""").fetchone()[0]
    numbered_2024 = conn.execute("select count(*) from rules where edition_id = 'de-2024' "
                                 "and level in ('rule', 'subrule')").fetchone()[0]
    conn.close()
    assert rows["de-2024"][0] == numbered_2024 and rows["de-2024"][1] == enforced_2024
    editions = [k for k in rows if k != "total"]
    assert rows["total"] == [sum(rows[e][i] for e in editions) for i in range(5)]
    for e in editions:                             # rules = both + only enforced + only tested + neither
        rules, enforced, tested, both, neither = rows[e]
        assert rules == enforced + tested - both + neither
    # de-2024: one details block with a chapter-6 total equal to the edition's total
    block = r.text.split('id="cov-de-2024"')[1].split("</details>")[0]
    chapter = [_cells(t) for t in block.split("<tr")[1:] if "chapter-total" in t]
    assert [c[0] for c in chapter] == ["chapter 6"] and [int(x) for x in chapter[0][1:6]] == rows["de-2024"]
    # the sections where nothing is enforced or tested are one line, not a row each
    assert r.text.count("<tr") < 120


def test_diff_index_has_dates_and_change_counts(site, kb_db):
    r = site.get("/diff")
    table = r.text.split('id="diff-pairs"')[1].split("</table>")[0]
    row = next(_cells(t) for t in table.split("<tr")[1:] if 'href="/diff/de-1999/de-2024"' in t)
    conn = sqlite3.connect(kb_db)
    counts = dict(conn.execute("select change_class, count(*) from diffs where old_edition = 'de-1999' "
                               "and new_edition = 'de-2024' group by change_class").fetchall())
    conn.close()
    assert "1999-04-02" in row[0] and "2024-11-08" in row[1]
    assert int(row[2]) == sum(n for c, n in counts.items() if c not in ("unchanged", "outside"))
    assert int(row[3]) == counts.get("unchanged", 0) and int(row[4]) == counts["outside"]
    assert f"split {counts['split']}" in row[5]


def test_search_pages_beyond_the_best_fifty(site):
    first = site.get("/search.json?q=Karte&lang=de").json()
    assert first["total"] > 100 and first["more"] and len(first["hits"]) == 50
    second = site.get(first["next_url"].replace("/search?", "/search.json?")).json()
    assert second["page"] == 2 and second["first"] == 51 and second["prev_url"] == "/search?q=Karte&lang=de"
    urls_1 = [h["url"] + h["snippet"] for h in first["hits"]]
    assert not set(urls_1) & {h["url"] + h["snippet"] for h in second["hits"]}    # no result twice
    pages, seen, url = 0, 0, "/search.json?q=Karte&lang=de"
    while url:
        page = site.get(url).json()
        seen += len(page["hits"])
        pages += 1
        url = page["next_url"] and page["next_url"].replace("/search?", "/search.json?")
    assert seen == first["total"] and pages == -(-first["total"] // 50)
    html = site.get("/search?q=Karte&lang=de&page=2").text
    assert "results 51–100 of" in html and 'rel="next"' in html and 'rel="prev"' in html
    assert "past the last result" in site.get("/search.json?q=Karte&lang=de&page=19").json()["notes"][0]


def test_scenarios_on_a_rule_page_tagged_first_and_the_rest_folded(site):
    text = site.get("/rule/de-2024/601.2f").text
    part = text.split('id="scenarios"')[1].split("<h3")[0]
    tagged, folded = part.split('id="scenarios-in-passing"')
    assert "601.2h-ernte-des-altars.scenario · tagged" in tagged        # tagged with 601.2f in its file
    assert "· applied</span>" not in tagged.replace("tagged, applied", "")
    n = int(re.search(r"and (\d+) more that apply it in passing", folded).group(1))
    assert n == folded.count("<li>") and "<details" in part


def test_trace_lists_each_scenario_once_and_is_short_by_default(kb_db):
    out = CliRunner().invoke(main, ["trace", "601.2f", "--db", str(kb_db)]).output
    full = CliRunner().invoke(main, ["trace", "601.2f", "--full", "--db", str(kb_db)]).output
    lines = [line.split()[0] for line in full.split("scenarios:")[1].splitlines() if line.strip()]
    assert len(lines) == len(set(lines)) > 100
    assert "data/scenarios/601.2h-ernte-des-altars.scenario  (asserted, tagged, applied)" in out
    assert len(out.splitlines()) < 60 and "more that apply it in passing" in out
    assert "[...]" in out and "[...]" not in full
