"""Rule sets on the knowledge-base side: kb scenario run --rules, kb scenario compare (text and JSON, links
through the alignment), kb coverage --rules, and rule sets naming editions the KB does not have."""
import json

import pytest
import sqlite_utils
from click.testing import CliRunner

from engine import rulesets as engine_rulesets
from engine.rulesets import RuleSetError
from kb import rulesets
from kb.trace.cli import coverage, scenario

MANABRAND = "data/scenarios/rulesets-300.4-manabrand.scenario"
LEGENDS = "data/scenarios/rulesets-420.5e-legendenregel.scenario"


def test_run_under_the_1999_rules(kb_db):
    out = CliRunner().invoke(scenario, ["run", "--rules", "de-1999", "-q", MANABRAND])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(scenario, ["run", "--rules", "de-1999", "data/scenarios/704.5j-legendenregel.scenario"])
    assert out.exit_code == 1
    assert "704.5j-legendenregel.scenario:" in out.output and "does not have" in out.output


def test_run_with_an_unknown_rule_set_is_a_usage_error():
    out = CliRunner().invoke(scenario, ["run", "--rules", "de-1066", MANABRAND])
    assert out.exit_code == 2 and "unknown rule set 'de-1066'" in out.output
    assert "Traceback" not in out.output


def test_compare_prints_the_first_divergence_with_links(kb_db):
    out = CliRunner().invoke(scenario, ["compare", "--db", str(kb_db), MANABRAND])
    assert out.exit_code == 0, out.output
    assert "first divergence: line 17: next step" in out.output
    assert "Alice life" in out.output and "Alice lost" in out.output
    assert "de-1999/300.4" in out.output and "/rule/de-1999/300.4" in out.output
    assert "/diff/en-1999-04-23/en-2024-11-08?rule=300.4" in out.output


def test_compare_as_json(kb_db):
    out = CliRunner().invoke(scenario, ["compare", "--db", str(kb_db), "--format", "json", LEGENDS])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["rule_sets"] == ["de-1999", "de-2024"] and data["diverges"]
    first = data["first_divergence"]
    assert first["line"] == 14 and "Bob graveyard" in first["differs"]
    old, new = first["sides"]
    assert old["state"]["Bob graveyard"] == "Gaeas Wiege" and new["state"]["Bob graveyard"] == "empty"
    rule = next(r for r in old["rules"] if r["rule"] == "de-1999/420.5e")
    assert rule["edition"] == "de-1999" and rule["number"] == "420.5e"
    assert any(a["rule"] == "en-2024-11-08/704.5j" for a in rule["alignment"])
    assert rule["diff_url"] == "/diff/en-1999-04-23/en-2024-11-08?rule=420.5e"
    assert rule["only_here"]
    assert not next(r for r in old["rules"] if r["rule"] == "en-2024-11-08/704.3")["only_here"]


def test_compare_without_divergence(kb_db):
    out = CliRunner().invoke(scenario, ["compare", "--db", str(kb_db),
                                        "data/scenarios/rulesets-420.4-automatische-spieleffekte.scenario"])
    assert out.exit_code == 0 and "do not diverge" in out.output


def test_coverage_per_rule_set(kb_db):
    out = CliRunner().invoke(coverage, ["--db", str(kb_db), "--rules", "de-1999", "--chapter", "3", "--chapter", "4"])
    assert out.exit_code == 0, out.output
    lines = {row.split()[0]: row.split() for row in out.output.splitlines() if row[:3].isdigit()}
    assert set(lines) >= {"300", "310", "420"} and not any(f.startswith(("1", "2", "5")) for f in lines)
    rows = {fc.family: fc for fc in rulesets.ruleset_coverage(sqlite_utils.Database(kb_db),
                                                              engine_rulesets.get("de-1999"), chapters={"3", "4"})}
    for rule in ("300.4", "310.2", "310.4", "420.5e", "304.1", "308.4"):  # the 1999 variants
        assert rule in rows[rule[:3]].enforced and rule in rows[rule[:3]].tested, rule
    assert "420.5a" in rows["420"].enforced  # an unchanged rule, enforced once, found through the alignment
    today = {fc.family: fc for fc in rulesets.ruleset_coverage(sqlite_utils.Database(kb_db),
                                                               engine_rulesets.get("de-2024"))}
    assert "601.2c" in today["601"].enforced


def test_a_rule_set_naming_an_edition_not_in_the_kb(kb_db):
    db = sqlite_utils.Database(kb_db)
    broken = engine_rulesets.RuleSet("alt", "t", ("de-1998",), source="data/rulesets.toml:40")
    with pytest.raises(RuleSetError) as e:
        rulesets.check_editions(broken, rulesets.known_editions(db))
    assert "data/rulesets.toml:40" in str(e.value) and "'de-1998', which is not in the knowledge base" in str(e.value)
    for rs in engine_rulesets.load().sets.values():  # the real rule sets name editions the KB has
        rulesets.check_editions(rs, rulesets.known_editions(db))


def test_the_diff_report_links_rule_pairs_to_the_scenarios_they_are_in_play_in(kb_db):
    from kb.diff.cli import diff

    out = CliRunner().invoke(diff, ["--db", str(kb_db), "--from", "en-1999-04-23", "--to", "en-2024-11-08",
                                    "--rule", "420.5e"])
    assert out.exit_code == 0, out.output
    assert "in play: data/scenarios/rulesets-420.5e-legendenregel.scenario:14 under de-1999" in out.output
    out = CliRunner().invoke(diff, ["--db", str(kb_db), "--from", "de-1999", "--to", "de-2024", "--format", "json"])
    groups = json.loads(out.output)["groups"]
    legend = next(g for g in groups if g["old"] and g["old"][0]["norm"] == "420.5e")
    assert legend["in_play"][0]["scenario"].endswith("rulesets-420.5e-legendenregel.scenario")
    assert not next(g for g in groups if g["old"] and g["old"][0]["norm"] == "300.1")["in_play"]


def test_compare_reports_a_scenario_that_cannot_be_played_under_one_set(kb_db):
    out = CliRunner().invoke(scenario, ["compare", "--db", str(kb_db), "data/scenarios/704.5j-legendenregel.scenario"])
    assert out.exit_code == 1
    assert "ERROR data/scenarios/704.5j-legendenregel.scenario:12: expects en-2024-11-08/704.5j" in out.output
    out = CliRunner().invoke(scenario, ["compare", "--rules", "de-1999", "de-1066", MANABRAND])
    assert out.exit_code == 2 and "unknown rule set 'de-1066'" in out.output


def test_compare_a_file_that_does_not_exist(kb_db, tmp_path):
    missing = tmp_path / "nowhere.scenario"
    for fmt in ("text", "json"):
        out = CliRunner().invoke(scenario, ["compare", "--db", str(kb_db), "--format", fmt, str(missing)])
        assert out.exit_code == 1, out.output
        assert isinstance(out.exception, SystemExit)   # an exit code, not a traceback
        assert "cannot read" in out.output
    data = json.loads(CliRunner().invoke(scenario, ["compare", "--format", "json", str(missing)]).output)
    assert data["rule_sets"] == ["de-1999", "de-2024"] and data["errors"]


def test_a_heading_that_the_alignment_reaches_is_no_rule_number_of_the_set():
    """A rule cited through an unchanged edition stands for the rules of the set's own edition its alignment reaches;
    when that alignment also reaches a chapter heading (a direct link to a heading born on the way), the heading is no
    rule the set enforces, and the build goes on (it stopped with "not a rule number: 'de-1999/1'")."""
    class Reaching:
        def follow(self, key, path):
            return [("de-1999/1", "split"), ("de-1999/409.2f", "split")]

    rs = engine_rulesets.load().get("de-1999")
    cited = rs.unchanged[0] + "/601.2f"
    assert rulesets.own_numbers(Reaching(), rs, cited) == {"409.2f"}
