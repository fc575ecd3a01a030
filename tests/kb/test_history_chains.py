"""How `kb history` groups a rule's editions into chains and orders them.

* A translation first appears with the edition it follows (the manifest's ``translation_of``, or the original the
  build paired it with), on that edition's date, and says so with its own date.
* The chain of the queried edition comes first, then the others by name.
* A chain is a family of editions: the manifest's ``family`` where it names one, else language and kind; its
  editions in date order, whatever their ids (here the German 2009 article declared part of the German chain: its
  id sorts after de-2024's, its date between de-1999 and de-2024; it prints no rule, and covers 601 and 602 only).
* A KB built without the later stages (no alignment, so no concepts) still answers: the rule alone, without a
  concept; a translation named in the manifest still first appears with its original.

The seed KB (``kb_db``), a copy of it with one manifest value changed, and the hand-made miniature of the official
text built without stages."""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from kb.add import AddOptions, add_files
from kb.build import build
from kb.cli import main
from kb.history import history, render_text
from kb.manifest import load, save
from tests.helpers import FIXTURES


def test_a_translation_first_appears_with_the_edition_it_follows(conn):
    h = history(conn, "601.2c", "de-2024")
    chains = {c.family: c for c in h.chains}
    # de-1999 translates en-1999-04-23 (the manifest's translation_of)
    first = chains["de-cr"].events[0]
    assert (first.edition, first.kind, first.date, first.detail) == (
        "de-1999", "first", "1999-04-23", "translates en-1999-04-23; this copy is dated 1999-04-02")
    # it-wiki names no original in the manifest: the build paired it with the English edition of its time
    first = chains["it-cr"].events[0]
    assert (first.edition, first.kind, first.date, first.detail) == (
        "it-wiki", "first", "2024-11-08", "translates en-2024-11-08; this copy is dated 2022")
    # each link of a step names both numbers, the relation, the confidence and the review (none in the seeds)
    step = chains["de-cr"].events[-1]
    assert step.links and all(set(lk) == {"old", "new", "relation", "confidence", "review"} and not lk["review"]
                              for lk in step.links)
    # an original's first edition is just that
    first = chains["en-cr"].events[0]
    assert (first.edition, first.kind, first.date, first.detail) == ("en-1999-04-23", "first", "1999-04-23", "")


def test_the_queried_editions_chain_comes_first_then_the_others_by_name(conn):
    assert [c.family for c in history(conn, "601.2c", "de-2024").chains] == ["de-cr", "en-cr", "it-cr"]
    assert [c.family for c in history(conn, "601.2c", "it-wiki").chains] == ["it-cr", "de-cr", "en-cr"]
    assert [c.family for c in history(conn, "601.2c", "en-2024-11-08").chains] == ["en-cr", "de-cr", "it-cr"]


@pytest.fixture(scope="module")
def article_in_chain(kb_db, tmp_path_factory):
    """The seed KB as built from a manifest that declares ``family = "de-cr"`` for de-article-2009."""
    path = tmp_path_factory.mktemp("family") / "kb.db"
    shutil.copy(kb_db, path)
    c = sqlite3.connect(path)
    with c:
        c.execute("update editions set family = 'de-cr' where id = 'de-article-2009'")
    yield c
    c.close()


def test_a_family_named_in_the_manifest_is_a_chain_in_date_order(article_in_chain):
    c = article_in_chain
    dates = dict(c.execute("select id, date from editions"))
    rules = [n for (n,) in c.execute("select number from rules where edition_id = 'de-2024' and section in (601, 602)")]
    assert len(rules) > 40
    for number in rules:
        h = history(c, number, "de-2024")
        assert "de-article" not in [ch.family for ch in h.chains]
        de = h.chains[0]
        assert de.family == "de-cr"
        # de-1999, then de-2024: the article (no rules) between them says nothing; it does not come after de-2024,
        # where it would say that a rule it covers was removed
        assert [e.edition for e in de.events if e.edition != "de-1999"] == ["de-2024"], number
        assert [dates[e.edition] for e in de.events] == sorted(dates[e.edition] for e in de.events)


def test_a_kb_built_without_the_later_stages_answers_without_concepts(tmp_path):
    data = tmp_path / "data"
    mini = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"
    assert add_files([mini], AddOptions(edition="en-mini"), data)[0].ok
    # a later copy declared a translation of it in the manifest (translation_of): no alignment pairs them here
    copy = tmp_path / "copy.txt"
    copy.write_text(mini.read_text(encoding="utf-8").replace("November 8, 2024", "January 10, 2025"), encoding="utf-8")
    assert add_files([copy], AddOptions(edition="xx-mini", language="xx"), data)[0].ok
    manifest = load(data / "manifest.toml")
    manifest.edition("xx-mini")[1].translation_of = "en-mini"
    save(manifest, data / "manifest.toml")
    build(tmp_path / "kb.db", data, stages=False)
    conn = sqlite3.connect(tmp_path / "kb.db")
    assert history(conn, "601.2c").edition == "xx-mini"          # (no edition named: the newest that has it)
    h = history(conn, "601.2c", "en-mini")
    assert (h.edition, h.number, h.concept, h.label, h.counterparts) == ("en-mini", "601.2c", None, "", [])
    assert render_text(h).splitlines() == [
        "601.2c (en-mini)",
        "  en-cr (en):",
        "    2024-11-08  en-mini          601.2c       first appears",
    ]
    out = CliRunner().invoke(main, ["history", "601.2c", "-e", "en-mini", "--format", "json", "--db",
                                    str(tmp_path / "kb.db")])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["concept"], data["label"]) == (None, "")
    (chain,) = history(conn, "601.2c", "xx-mini").chains
    assert [(e.edition, e.kind, e.date, e.detail) for e in chain.events] == [
        ("xx-mini", "first", "2024-11-08", "translates en-mini; this copy is dated 2025-01-10")]
    conn.close()


def test_a_change_of_symbol_notation_alone_leaves_a_rule_unchanged(kb_db, tmp_path):
    """A step compares the words as the build normalised them (``text_norm``: mana symbols in one notation), not
    as printed: here section 100 of en-1999 and en-2024, whose step is "unchanged", given one mana cost printed
    in two notations (the 1999 German PDF's "o2oW" and "{2}{W}")."""
    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    c = sqlite3.connect(path)
    last = next(ch for ch in history(c, "100.", "en-2024-11-08").chains if ch.family == "en-cr").events[-1]
    assert (last.previous, last.edition, last.kind, last.changed) == ("en-1999-04-23", "en-2024-11-08",
                                                                       "unchanged", False)
    with c:
        for edition, printed in (("en-1999-04-23", "{2}{W}"), ("en-2024-11-08", "o2oW")):
            c.execute("update rules set text = ?, text_norm = '{2}{W}' where edition_id = ? and norm = '100'",
                      (printed, edition))
    last = next(ch for ch in history(c, "100.", "en-2024-11-08").chains if ch.family == "en-cr").events[-1]
    assert (last.kind, last.changed, last.diff) == ("unchanged", False, "")
    c.close()
