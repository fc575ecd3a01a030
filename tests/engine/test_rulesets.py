"""Rule sets: data/rulesets.toml read and checked, the variants a game selects, comparison scenarios played under
each of their rule sets, and clear errors for bad input."""
import pytest

from engine import rulesets, variants
from engine.game import Game
from engine.registry import load_all, parse_citation
from engine.rulesets import RuleSetError
from engine.scenario import all_files, load, run_file
from engine.scenario.compare import compare

COMPARISONS = [p for p in all_files() if len(load(p).rulesets) >= 2]


def test_there_are_comparison_scenarios_for_each_feature():
    tags = " ".join(t for p in COMPARISONS for t in load(p).tags)
    for rule in ("de-1999/300.4", "de-1999/310.2", "de-1999/420.5e", "de-1999/420.4", "de-1999/308.4",
                 "de-1999/304.1", "de-1999/102.2", "de-1999/420.3"):
        assert rule in tags, rule
    assert len(COMPARISONS) >= 9


@pytest.mark.parametrize("path", COMPARISONS, ids=[p.name for p in COMPARISONS])
def test_comparison_scenario_passes_under_each_of_its_rule_sets(path):
    for name in load(path).rulesets:
        result = run_file(path, rules=name)
        assert result.rules == name
        assert result.ok, name + "\n" + "\n".join(result.failures())


#: the comparison scenarios and the facts that differ at their first divergent step (None: no divergence)
DIVERGES = {
    "rulesets-300.4-manabrand.scenario": (17, {"Alice life", "Alice lost", "priority"}),
    "rulesets-300.4-mana-bleibt-im-segment.scenario": (14, {"Alice pool"}),
    "rulesets-310-kampfschaden-auf-dem-stapel.scenario": (19, {"stack", "Alice graveyard", "Bob graveyard"}),
    "rulesets-420.5e-legendenregel.scenario": (14, {"battlefield", "Bob graveyard"}),
    "rulesets-308.4-keine-angreifer.scenario": (13, {"step"}),
    "rulesets-304.1-ziehen-ausgeloest.scenario": (13, {"stack", "Alice hand", "Alice library"}),
    "rulesets-102.2-leere-bibliothek.scenario": (17, {"stack", "Alice graveyard"}),
    "rulesets-420.4-automatische-spieleffekte.scenario": None,
    "rulesets-420.3-aufraeumsegment.scenario": None,
}


@pytest.mark.parametrize("name", list(DIVERGES))
def test_the_games_diverge_at_the_first_step_that_differs(name):
    path = next(p for p in COMPARISONS if p.name == name)
    cmp = compare(path)
    assert cmp.ok
    want = DIVERGES[name]
    if want is None:
        assert cmp.divergence is None
        return
    line, facts = want
    assert cmp.divergence is not None
    assert cmp.divergence.line == line
    assert facts <= set(cmp.divergence.differences), cmp.divergence.differences


def test_the_rules_applied_at_the_divergence_are_each_sets_own():
    cmp = compare(next(p for p in COMPARISONS if p.name.startswith("rulesets-310")))
    d = cmp.divergence
    assert "de-1999/310.2" in d.left.rules and "en-2024-11-08/510.2" not in d.left.rules
    assert "en-2024-11-08/510.2" in d.right.rules and "de-1999/310.2" not in d.right.rules
    assert "en-2024-11-08/510.1a" in d.left.rules and "en-2024-11-08/510.1a" in d.right.rules  # unchanged: once


def test_a_game_selects_the_functions_of_its_rule_set_once():
    old, new = Game.new(["A", "B"], rules=rulesets.get("de-1999")), Game.new(["A", "B"])
    assert new.rules.name == rulesets.load().default
    assert old.variants.legend_rule.__name__ == "oldest_legend_stays"
    assert new.variants.legend_rule.__name__ == "legend_rule"
    assert Game.new(["A", "B"], rules=rulesets.get("de-1999")).variants is old.variants


def test_each_variant_cites_the_rules_of_the_editions_that_select_it():
    load_all()
    sets = rulesets.load().sets.values()
    for citation, pairs in variants.variant_citations().items():
        for feature, variant in pairs:
            selecting = [rs for rs in sets if rs.variants[feature] == variant]
            assert selecting, (feature, variant)
            assert all(citation.edition in rs.follows for rs in selecting), (citation, feature, variant)


def test_a_rule_set_lacks_the_rules_of_the_other_sets_variants():
    old, new = rulesets.get("de-1999"), rulesets.get("de-2024")
    assert old.lacks(parse_citation("en-2024-11-08/704.5j"))
    assert old.lacks(parse_citation("en-2024-11-08/510.2"))
    assert old.lacks(parse_citation("en-2024-11-08/510.1a")) is None  # unchanged: enforced once
    assert new.lacks(parse_citation("de-1999/420.5e"))
    assert new.lacks(parse_citation("601.2c")) is None
    assert "follows" in new.lacks(parse_citation("de-1999/102.1"))


def test_aliases_name_the_same_rule_set():
    assert rulesets.get("en-2024-11-08").name == "de-2024"
    assert rulesets.get("1999").name == "de-1999"


def test_an_unknown_rule_set_is_a_clear_error():
    result = run_file(all_files()[0], rules="de-1998")
    assert not result.ok
    assert "unknown rule set 'de-1998'" in str(result.error)
    assert "de-1999" in str(result.error)


def test_a_scenario_that_expects_a_rule_the_set_does_not_have_names_the_line():
    path = next(p for p in all_files() if p.name == "704.5j-legendenregel.scenario")
    result = run_file(path, rules="de-1999")
    assert not result.ok
    message = str(result.error)
    assert "704.5j-legendenregel.scenario:" in message
    assert "expects en-2024-11-08/704.5j, which the rule set de-1999 does not have" in message
    assert run_file(path).ok


def test_expect_under_an_unknown_rule_set_names_the_line(tmp_path):
    path = tmp_path / "bad.scenario"
    path.write_text("players: Alice, Bob\n\nexpect under de-1066: Alice life: 20\n", encoding="utf-8")
    result = run_file(path)
    assert "bad.scenario:3:" in str(result.error) and "unknown rule set 'de-1066'" in str(result.error)


BAD_FILES = {
    "unknown variant": ('default = "a"\n[rulesets.a]\neditions = ["x"]\n[rulesets.a.variants]\n'
                        'mana_pool_empties = "evaporates"\n', "x.toml:4", "has no variant 'evaporates'"),
    "missing feature": ('default = "a"\n[rulesets.a]\neditions = ["x"]\n', "x.toml:2", "does not say which variant"),
    "no editions": ('default = "a"\n[rulesets.a]\ntitle = "t"\n', "x.toml:2", "'editions' must list"),
    "bad default": ('default = "b"\n[rulesets.a]\neditions = ["x"]\n[rulesets.a.variants]\n'
                    + "".join(f'{f} = "{next(iter(v))}"\n' for f, v in variants.FEATURES.items()),
                    "x.toml:1", "'default' must name"),
    "not toml": ("default = \n", "x.toml", "not valid TOML"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_broken_rule_set_file_names_file_and_line(name):
    text, where, message = BAD_FILES[name]
    with pytest.raises(RuleSetError) as e:
        rulesets.parse(text, "x.toml")
    assert where in str(e.value) and message in str(e.value), str(e.value)
