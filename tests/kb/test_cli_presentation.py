"""What the CLI prints for a reader: changes first, titles from the document, the folders actually read, clean
"cited by" lists; and the rule JSON's links as URLs."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from ingest import metadata
from kb.cli import main
from tests.helpers import FIXTURES

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_diff_lists_changes_by_default_and_the_unchanged_rules_with_all(kb_db):
    default = run("diff", "--from", "it-wiki", "--to", "de-2024", "--db", kb_db)
    everything = run("diff", "--from", "it-wiki", "--to", "de-2024", "--all", "--db", kb_db)
    assert default.exit_code == 0 and everything.exit_code == 0
    listed = re.findall(r"^unchanged ", default.output.split("Rule by rule")[1], re.M)
    assert listed == []
    unchanged = re.findall(r"^unchanged ", everything.output.split("Rule by rule")[1], re.M)
    count = int(re.search(r"^unchanged\s+(\d+)", default.output, re.M).group(1))   # the summary's count
    assert len(unchanged) == count > 200
    assert f"not listed: {count} unchanged (--all lists them)" in default.output
    for cls in ("renumbered", "reworded", "added"):                         # the changes are all there
        assert len(re.findall(rf"^{cls} ", default.output, re.M)) == len(re.findall(rf"^{cls} ", everything.output,
                                                                                    re.M)) > 0
    assert len(default.output.splitlines()) < len(everything.output.splitlines()) / 2


@pytest.mark.parametrize("lines, title", [
    (["Magic: The Gathering Comprehensive Rules", "", "These rules are effective as of November 8, 2024."],
     "Magic: The Gathering Comprehensive Rules (effective as of November 8, 2024)"),
    (["=" * 20, "COMPREHENSIVE RULES          04/23/99", "=" * 20, "text", "These rules are current as of April 23, "
      "1999."], "COMPREHENSIVE RULES 04/23/99 (current as of April 23, 1999)"),
    (["_Magic: The Gathering_ Comprehensive Rules", "These rules are effective as of February 1, 2010."],
     "Magic: The Gathering Comprehensive Rules (effective as of February 1, 2010)"),
    (["derzeit online: 75 Besucher", "Regeln"], ""),                 # a web page that states no date: no guess
])
def test_title_from_the_documents_own_words(lines, title):
    assert metadata.title(lines) == title


def test_add_fills_the_title_and_build_names_the_folder_it_read(tmp_path):
    data = tmp_path / "elsewhere"
    (data / "sources").mkdir(parents=True)
    (data / "manifest.toml").write_text("")
    added = run("add", MINI, "--data-dir", data)
    assert added.exit_code == 0
    assert f"added as edition en-2024-11-08 ({data / 'sources' / 'en-2024-11-08.txt'})" in added.output
    assert f"run `kb build --data-dir {data}` to ingest them" in added.output
    assert 'title = "Magic: The Gathering Comprehensive Rules (effective as of November 8, 2024)"' in (
        data / "manifest.toml").read_text(encoding="utf-8")
    built = run("build", "--data-dir", data, "--db", tmp_path / "kb.db")
    assert built.exit_code == 0, built.output
    assert f"parsed {data / 'sources' / 'en-2024-11-08.txt'} with cr-text" in built.output
    assert "data/sources" not in built.output


def test_rule_cited_by_names_rules_by_number_and_items_by_their_entry(kb_db):
    out = run("rule", "601.2f", "--edition", "en-2024-11-08", "--db", kb_db).output
    cited = out.split("cited by: ")[1].splitlines()[0].split(", ")
    assert "118.2" in cited and "601.2" in cited and "118.2." not in cited    # one number format
    assert cited[-1] == "glossary “Total Cost”"                              # not "glossary Total Cost of -"
    assert all(re.fullmatch(r"\d+(\.\d+[a-z]?)?", c) for c in cited[:-1])
    out = run("rule", "409.2f", "--edition", "de-1999", "--db", kb_db).output
    assert "index “Manakosten”" in out


def test_rule_json_cited_by_entries_have_urls(kb_db):
    from tests.site.conftest import Client

    client = Client(kb_db)
    try:
        rule = client.get("/rule/en-2024-11-08/601.2f.json").json()["rules"][0]
        urls = {c["name"]: c["url"] for c in rule["cited_by"]}
        assert urls["118.2"] == "/rule/en-2024-11-08/118.2"
        assert urls["glossary “Total Cost”"] == "/glossary/en-2024-11-08#t-total-cost"
        assert client.get(urls["glossary “Total Cost”"].split("#")[0]).status_code == 200
        assert 'id="t-total-cost"' in client.get("/glossary/en-2024-11-08").text
        history = client.get("/rule/de-2024/601.2f.json").json()["rules"][0]["history"]
        assert all(ev["urls"] for chain in history["chains"] for ev in chain["events"])
        assert all(c["url"].startswith("/rule/") for c in history["counterparts"])
        found = client.get("/search.json?q=Abwerfn").json()          # a typo: glossary hits and suggestions
        assert found["glossary"][0]["url"] == "/glossary/de-1999#t-abwerfen"
        assert found["suggestions"][0]["url"] == "/search?q=Abwerfen"
    finally:
        client.close()
