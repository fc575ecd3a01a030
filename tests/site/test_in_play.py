"""Issue 15 on the site: a rule that differs between the rule sets shows "in play" (the comparison scenarios that
diverge because of it, and how); the diff report 1999 -> 2024 links each such rule pair to them."""
import re


def test_a_1999_rule_page_shows_in_play(site):
    r = site.get("/rule/de-1999/420.5e")
    assert r.status_code == 200
    text = r.text
    assert "In play" in text
    assert "rulesets-420.5e-legendenregel.scenario:14" in text
    assert "under de-1999" in text and "Bob graveyard: Gaeas Wiege ↔ empty" in text
    assert re.search(r'<a href="/scenario/\d+">Die Legendenregel', text)


def test_todays_counterpart_shows_in_play_too(site):
    text = site.get("/rule/en-2024-11-08/510.2").text
    assert "In play" in text and "rulesets-310-kampfschaden-auf-dem-stapel.scenario:19" in text
    data = site.get("/rule/en-2024-11-08/500.4.json").json()
    plays = data["rules"][0]["in_play"]
    assert any(p["scenario"].endswith("rulesets-300.4-manabrand.scenario") and p["rule_set"] == "de-2024"
               and "Alice life: 1 ↔ 0" in p["differs"] for p in plays)
    assert all(p["url"].startswith("/scenario/") for p in plays)


def test_a_rule_that_does_not_differ_shows_no_in_play(site):
    assert "In play" not in site.get("/rule/de-2024/601.2c").text


def test_the_diff_report_links_the_rule_pairs_to_the_scenarios(site):
    text = site.get("/diff/en-1999-04-23/en-2024-11-08").text
    i = text.index("in play")
    assert "Manabrand" in text[i:] or "Manabrand" in text
    block = re.search(r'id="g-300_4-[^"]*".*?</div>\s*</div>', text, re.S)
    assert block is not None
    assert "in play" in block.group(0) and "Manabrand" in block.group(0)
    story = site.get("/diff/en-1999-04-23/en-2024-11-08?rule=420.5e").text
    assert "Die Legendenregel" in story


def test_an_unchanged_1999_rule_shows_the_function_that_enforces_it_through_the_alignment(site):
    text = site.get("/rule/de-1999/420.3").text
    assert "Enforced through the alignment" in text
    assert "engine.sba.check_state_based_actions" in text and "as en-2024-11-08/704.3" in text
    data = site.get("/rule/de-1999/420.3.json").json()
    assert {"qualname": "engine.sba.check_state_based_actions", "via": "en-2024-11-08/704.3",
            "rule_set": "de-1999"}.items() <= data["rules"][0]["enforced_through_alignment"][0].items()


def test_a_comparison_scenario_page_shows_where_the_games_diverge(site):
    text = site.get("/rule/de-1999/300.4").text
    url = re.search(r'<a href="(/scenario/\d+)">Manabrand', text).group(1)
    page = site.get(url).text
    assert "Where the games under two rule sets diverge" in page
    assert "line 17 “next step” — under de-1999" in page and "/rule/de-1999/300.4" in page
    assert "Alice life: 0 ↔ 1" in page
    other = site.get("/scenario/1").text  # 117.3d-prioritaet-reihum: played under today's rules only
    assert "117.3d" in other and "Where the games under two rule sets diverge" not in other
