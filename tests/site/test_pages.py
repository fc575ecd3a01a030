"""The site's pages through Datasette's client, on the real KB: home, contents, rule pages, JSON, lookup."""
import re

import pytest

from .conftest import Client


def test_home_lists_every_edition_with_language_date_coverage_and_links(site):
    r = site.get("/")
    assert r.status_code == 200
    table = r.text.split('id="editions"')[1].split("</table>")[0]
    for edition, lang, date in (("de-2024", "de", "2024-11-08"), ("it-wiki", "it", "2022"),
                                ("de-1999", "de", "1999-04-02"), ("en-morph-2007", "en", "2007")):
        row = table.split(f'href="/rule/{edition}"')[1].split("</tr>")[0]
        assert f"<td>{lang}</td><td>{date}</td>" in row
    assert "17 sections: 600–616" in table          # coverage of de-2024 from its rules
    assert 'href="/glossary/de-1999"' in table       # the 1999 edition has a glossary and an index
    assert 'action="/search"' in r.text and 'name="number"' in r.text
    assert 'href="/diff/de-1999/de-2024"' in r.text and 'href="/coverage"' in r.text and 'href="/kb"' in r.text


def test_rule_lookup_jumps_to_the_rule_in_the_chosen_edition(site):
    r = site.get("/rule?number=601.2C&edition=it-wiki")
    assert r.status_code == 302 and r.headers["location"] == "/rule/it-wiki/601.2c"
    r = site.get("/rule?number=409.2f.&edition=de-2024")   # not in de-2024: the edition that has it
    assert r.headers["location"] == "/rule/de-1999/409.2f"
    assert site.get("/rule").status_code == 200


def test_contents_of_an_edition(site):
    r = site.get("/rule/de-2024")
    assert r.status_code == 200
    assert r.text.count("<details") >= 17                   # the chapter and its 17 sections collapse
    order = [m for m in re.findall(r'href="/rule/de-2024/([^"]+)"', r.text)]
    assert order.index("6") < order.index("601") < order.index("601.2") < order.index("601.2c") < order.index("602")
    g = site.get("/rule/de-1999")
    assert 'href="/glossary/de-1999"' in g.text
    assert site.get("/rule/no-such-edition").status_code == 404
    article = site.get("/rule/de-article-2009")            # no numbered rules: its steps, aligned to rules
    assert 'id="outline"' in article.text and "Spruch auf den Stapel legen" in article.text
    assert 'href="/rule/de-2024/601.2a"' in article.text


def test_glossary_page_and_fuzzy_lookup(site):
    r = site.get("/glossary/de-1999?q=Abwerfn")
    assert r.status_code == 200
    assert 'href="#t-abwerfen"' in r.text and 'id="t-abwerfen"' in r.text
    assert 'id="i-abwerfen"' in r.text                        # the index entry


@pytest.mark.parametrize("path", ["/rule/de-2024/601.2F", "/rule/de-2024/601.2f.", "/rule/de-2024/601.2f"])
def test_rule_numbers_match_case_insensitively_and_with_a_trailing_dot(site, path):
    r = site.get(path)
    assert r.status_code == 200 and "<h1>601.2f" in r.text


def test_rule_page_navigation_and_breadcrumbs(site):
    r = site.get("/rule/de-2024/601.2c")
    crumbs = r.text.split('id="crumbs"')[1].split("</p>")[0]
    assert [h for h in re.findall(r'href="([^"]+)"', crumbs)] == [
        "/", "/rule/de-2024", "/rule/de-2024/6", "/rule/de-2024/601", "/rule/de-2024/601.2"]
    assert 'rel="prev" href="/rule/de-2024/601.2b"' in r.text and 'rel="next" href="/rule/de-2024/601.2d"' in r.text


def test_counterparts_in_full_with_relation_and_word_diff(site):
    r = site.get("/rule/de-2024/601.2c")
    cards = r.text.split('id="counterparts"')[1]
    it = cards.split('href="/rule/it-wiki/601.2c"')[1].split('class="kb-card')[0]
    assert '<span class="kb-rel">translation</span>' in it and "unchanged" not in it
    # the whole Italian text, not cut at 200 characters
    assert "finché il lancio della magia non è terminato" in it
    old = cards.split('href="/rule/de-1999/409.2c"')[1].split('class="kb-card')[0]
    assert '<span class="kb-rel">merged</span>' in old  # with 409.2d, as data/gold says
    assert "word diff de-1999 → de-2024" in old and "<ins>" in old and "<del>" in old


def test_article_steps_and_faq_bullets_are_shown_as_such(site):
    r = site.get("/rule/de-2024/601.2a")
    items = r.text.split("Article steps, FAQ bullets")[1]
    assert '<span class="kb-rel">article step</span>' in items and "Spruch auf den Stapel legen" in items
    assert "no counterpart" not in r.text.split('id="counterparts"')[1].split("<h3")[0]
    morph = site.get("/rule/de-morph-2007/702.34a")
    assert '<span class="kb-rel">FAQ bullet</span>' in morph.text


def test_changes_link_to_diff_pages_and_name_translations(site):
    r = site.get("/rule/de-2024/601.2c")
    changes = r.text.split("<h3>Changes</h3>")[1].split("</ul>")[0]
    # 1999 409.2c and 409.2d (the same target cannot be chosen twice) merged into 601.2c (data/gold)
    assert 'href="/diff/de-1999/de-2024?rule=601.2c"' in changes and "merged" in changes
    assert 'href="/diff/it-wiki/de-2024?rule=601.2c"' in changes and "translation" in changes
    assert "unchanged" not in changes


def test_engine_code_and_scenarios_are_links(site):
    r = site.get("/rule/de-2024/601.2f")
    code = re.findall(r'href="(/code/[^"]+)"', r.text)
    scen = re.findall(r'href="(/scenario/\d+)"', r.text)
    assert code and scen
    page = site.get(code[0])
    assert page.status_code == 200 and "<pre" in page.text and "@enforces" in page.text
    assert site.get(scen[0]).status_code == 200
    assert site.get("/code/engine.no_such_function").status_code == 404
    assert site.get("/scenario/999999").status_code == 404


def test_rule_page_says_whether_a_scenario_applied_the_rule(site):
    """A scenario that applied the rule is told apart from one that merely entered its enforcing function."""
    text = site.get("/rule/de-2024/601.3e").text
    assert "601.3e-melek-faellen.scenario · tagged, applied" in text
    assert "601.2h-ernte-des-altars.scenario · entered only, not applied" in text


def test_glossary_terms_in_rule_text_link_to_the_entry(site):
    r = site.get("/rule/de-1999/217.3b")
    assert r.status_code == 200
    assert re.search(r'<a class="gloss" href="/glossary/de-1999#t-[a-z-]+"', r.text)


def test_rule_page_shows_the_history_timeline(site):
    text = site.get("/rule/de-2024/601.2c").text
    assert 'id="history"' in text
    history = text[text.index('id="history"'):]
    assert 'href="/rule/en-1999-04-23/409.1c"' in history and 'href="/rule/de-1999/409.2c"' in history
    data = site.get("/rule/de-2024/601.2c.json").json()
    (rule,) = data["rules"]
    assert {c["family"] for c in rule["history"]["chains"]} >= {"de-cr", "en-cr"}


def test_rule_json_has_the_same_content(site):
    r = site.get("/rule/de-2024/601.2C.json")
    assert r.status_code == 200
    data = r.json()
    (rule,) = data["rules"]
    assert rule["rule"]["norm"] == "601.2c" and rule["prev"]["url"] == "/rule/de-2024/601.2b"
    assert [b["norm"] for b in rule["breadcrumbs"]] == ["6", "601", "601.2"]
    rel = {c["edition"]: c["relation"] for c in rule["counterparts"]}
    assert rel["it-wiki"] == "translation" and rel["de-1999"] == "merged"
    assert any(c["url"] == "/diff/de-1999/de-2024?rule=601.2c" for c in rule["changes"])
    assert rule["items"][0]["kind"] == "example"
    missing = site.get("/rule/de-2024/409.2f.json")
    assert missing.status_code == 404 and missing.json()["elsewhere"][0]["url"] == "/rule/de-1999/409.2f"


def test_a_rule_outside_the_excerpt_says_so(site):
    r = site.get("/rule/de-2024/730")
    assert r.status_code == 404 and "not in edition de-2024" in r.text


def test_diff_pages_are_served_with_site_relative_links(site):
    r = site.get("/diff/de-1999/de-2024")
    assert r.status_code == 200 and "What changed from de-1999 to de-2024" in r.text
    assert 'href="/rule/de-1999/409.2f"' in r.text and "127.0.0.1" not in r.text
    story = site.get("/diff/de-1999/de-2024?rule=409.2F")
    assert story.status_code == 200 and "The story of 409.2f" in story.text
    assert site.get("/diff/de-1999/no-such").status_code == 404
    assert site.get("/diff").status_code == 200


def test_canned_queries_link_rule_numbers_and_show_editions_side_by_side(site):
    r = site.get("/kb/rule_across_editions?number=601.2C&edition=de-2024")
    assert r.status_code == 200
    pivot = r.text.split('id="pivot"')[1].split("</table>")[0]
    head = pivot.split("</thead>")[0]
    assert head.count("<th") >= 4 and "it-wiki" in head and "de-1999" in head
    assert 'href="/rule/it-wiki/601.2c"' in pivot and 'href="/rule/de-1999/409.2c"' in pivot
    # the result comes before the SQL, which is folded away
    assert r.text.index('id="pivot"') < r.text.index('<pre id="sql-query"') or "<details" in r.text
    citing = site.get("/kb/citing_rules?number=601.2h&edition=de-2024")
    assert 'href="/rule/de-2024/601.2"' in citing.text


def test_coverage_page(site):
    r = site.get("/coverage")
    assert r.status_code == 200 and 'href="/rule/de-2024/601"' in r.text


def test_any_database_file_name_serves(other_db):
    client = Client(other_db)
    try:
        assert client.get("/rule/de-2024/601.2f").status_code == 200
        assert client.get("/other-name/rules").status_code == 200
        assert client.get("/search?q=Zauberspruch").status_code == 200
        assert client.get("/").status_code == 200 and 'href="/other-name"' in client.get("/").text
    finally:
        client.close()
