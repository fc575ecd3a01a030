"""Section pages: /rule/<edition>/<section> shows the whole section, each number an anchor and a link."""
import html
import re
import sqlite3


def _section_rules(kb_db, edition, section):
    conn = sqlite3.connect(kb_db)
    try:
        return conn.execute("select number, norm, text from rules where edition_id = ? and section = ? "
                            "and level in ('rule', 'subrule') order by seq", (edition, section)).fetchall()
    finally:
        conn.close()


def test_section_page_shows_every_rule_and_subrule_in_full_with_anchors_and_links(site, kb_db):
    r = site.get("/rule/en-2024-11-08/601")
    assert r.status_code == 200
    body = r.text.split('id="section-text"')[1]
    expected = _section_rules(kb_db, "en-2024-11-08", 601)
    assert len(expected) == 26               # 601.1 … 601.6, as printed in the source
    anchors = re.findall(r'<div class="sec-(?:rule|subrule)" id="([^"]+)">', body)
    assert anchors == [norm for _, norm, _ in expected]
    for _, norm, _ in expected:
        assert f'href="/rule/en-2024-11-08/{norm}"' in body and f'href="#{norm}"' in body
    # the full text, not a preview: the last sentence of 601.2c and its example (hand-checked in the source)
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    assert "they\u2019ll wait to be put on the stack until the spell has finished being cast.)" in text
    assert "can target the same artifact land twice because it uses the word" in text
    nav = r.text.split('id="section-text"')[1].split('class="kb-prevnext"')[1].split("</div>")[0]
    assert 'href="/rule/en-2024-11-08/600"' in nav and 'href="/rule/en-2024-11-08/602"' in nav


def test_a_repeated_number_gets_an_anchor_of_its_own(site):
    body = site.get("/rule/it-wiki/616").text.split('id="section-text"')[1]
    assert 'id="616.1f"' in body and 'id="616.1f-2"' in body    # the Italian wiki prints 616.1f twice


def test_contents_link_every_section_to_its_full_text(site):
    r = site.get("/rule/de-2024")
    links = re.findall(r'class="full-text" href="/rule/de-2024/(\d+)#section-text"', r.text)
    assert links == [str(n) for n in range(601, 617)]    # 600 is a heading without rules in this excerpt


def test_a_rule_page_links_to_its_place_in_the_section(site):
    r = site.get("/rule/de-2024/601.2c")
    assert 'href="/rule/de-2024/601#601.2c"' in r.text


def test_section_json_has_the_same_rules_with_urls(site, kb_db):
    d = site.get("/rule/de-2024/613.json").json()
    rule = d["rules"][0]
    expected = _section_rules(kb_db, "de-2024", 613)
    assert [b["number"] for b in rule["section"]] == [n for n, _, _ in expected]
    assert [b["text"] for b in rule["section"]] == [t for _, _, t in expected]
    assert rule["section"][0]["url"] == "/rule/de-2024/" + expected[0][1]
    assert rule["section"][0]["anchor_url"] == "/rule/de-2024/613#" + expected[0][1]
    assert rule["prev"]["url"] == "/rule/de-2024/612" and rule["next"]["url"] == "/rule/de-2024/614"
    assert any(i["kind"] == "example" for b in rule["section"] for i in b["items"])
    assert site.get("/rule/de-2024/613.2a.json").json()["rules"][0]["section"] is None
