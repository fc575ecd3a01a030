"""When a rule goes: `kb history` says so in the edition where it went, once, and names chains after the families
the manifest declares.

Real case: the English 1999 rules' "set aside" (217.7a: cards removed from the game "set aside" by some spells),
a term the 2024 rules no longer know: the English 2024 edition is a whole edition (no `covers`), so 217.7a is
*removed* there.  The later steps are hand-made on a copy of the seed KB (an editions row added or changed, as a
manifest adding an edition or declaring a `family` would give): a rule that went is not said to go again in every
later edition that lacks it too, and a declared family names the chain.

A step is named by the relation of its links: 601.2c of 2024 took 409.2c and 409.2d of the German 1999 rules
(merged) and 409.1c and 409.1d of the English ones (split).  When the links of one step carry several relations
(hand-made here: one link's relation changed, as a reviewer's mark can), the split or merge among them names it, and
else all of them do."""
from __future__ import annotations

import shutil
import sqlite3

import pytest

from kb.history import history, render_text


@pytest.fixture
def copy(kb_db, tmp_path):
    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    c = sqlite3.connect(path)
    yield c
    c.close()


def english(h):
    return next(c for c in h.chains if c.language == "en" and "en-1999-04-23" in [e.edition for e in c.events])


def test_set_aside_of_1999_is_removed_in_the_whole_2024_edition(conn):
    h = history(conn, "217.7a", "en-1999-04-23")
    chain = english(h)
    assert chain.family == "en-cr"
    assert [(e.edition, e.kind, e.numbers) for e in chain.events] == [
        ("en-1999-04-23", "first", ["217.7a"]), ("en-2024-11-08", "removed", [])]
    gone = chain.events[-1]
    assert gone.detail == "no counterpart of 217.7a" and gone.previous == "en-1999-04-23"
    assert gone.date == "2024-11-08"
    assert "en-2024-11-08" in render_text(h) and "removed: no counterpart of 217.7a" in render_text(h)


def test_a_removed_rule_is_removed_once_though_later_editions_lack_it_too(copy):
    # a later English edition (whole: no covers) that holds no rule of the lineage of 217.7a either
    copy.execute("insert into editions (id, document_id, language, date, kind, title) "
                 "values ('en-2025-11-14', 'en-2025-11-14', 'en', '2025-11-14', 'cr', 'later edition')")
    chain = english(history(copy, "217.7a", "en-1999-04-23"))
    assert [(e.edition, e.kind) for e in chain.events] == [("en-1999-04-23", "first"), ("en-2024-11-08", "removed")]
    # a rule the 2024 edition still has goes in the later one, once, from 2024
    chain = english(history(copy, "601.2c", "en-2024-11-08"))
    assert [(e.edition, e.kind) for e in chain.events][-1] == ("en-2025-11-14", "removed")
    assert chain.events[-1].previous == "en-2024-11-08"
    assert [e.kind for e in chain.events].count("removed") == 1
    # 1999 409.1f went to several rules of 2024 (601.2f and more): the removal names every one of them
    chain = english(history(copy, "409.1f", "en-1999-04-23"))
    before, gone = chain.events[-2:]
    assert before.edition == "en-2024-11-08" and len(before.numbers) > 1 and "601.2f" in before.numbers
    assert (gone.edition, gone.kind) == ("en-2025-11-14", "removed")
    assert gone.detail == "no counterpart of " + ", ".join(before.numbers)


def test_a_declared_family_names_the_chain(copy):
    copy.execute("update editions set family = 'en-comprehensive' where id in ('en-1999-04-23', 'en-2024-11-08')")
    h = history(copy, "601.2c", "en-2024-11-08")
    assert h.chains[0].family == "en-comprehensive"   # the queried edition's own chain first
    assert [e.edition for e in h.chains[0].events] == ["en-1999-04-23", "en-2024-11-08"]
    assert "en-cr" not in [c.family for c in h.chains]
    assert "  en-comprehensive (en):" in render_text(h)


def relink(c, old_edition: str, old: str, new_edition: str, new: str, relation: str) -> None:
    """The stored alignment of two rules given another relation."""
    ids = [c.execute("select id from rules where edition_id = ? and norm = ?", [ed, n]).fetchone()[0]
           for ed, n in ((old_edition, old), (new_edition, new))]
    assert c.execute("update alignments set relation = ? where source_rule_id = ? and target_rule_id = ?",
                     [relation, *ids]).rowcount == 1


def step(c, family: str):
    h = history(c, "601.2c", "de-2024")
    event = next(ch for ch in h.chains if ch.family == family).events[-1]
    return event.kind, [(lk["old"], lk["relation"]) for lk in event.links]


def test_a_step_is_named_by_its_split_or_merge_else_by_all_its_relations(copy):
    assert step(copy, "de-cr") == ("merged", [("409.2c", "merged"), ("409.2d", "merged")])
    assert step(copy, "en-cr") == ("split", [("409.1c", "split"), ("409.1d", "split")])
    relink(copy, "de-1999", "409.2d", "de-2024", "601.2c", "reworded")
    relink(copy, "en-1999-04-23", "409.1d", "en-2024-11-08", "601.2c", "equivalent")
    assert step(copy, "de-cr") == ("merged", [("409.2c", "merged"), ("409.2d", "reworded")])
    assert step(copy, "en-cr") == ("split", [("409.1c", "split"), ("409.1d", "equivalent")])
    relink(copy, "de-1999", "409.2c", "de-2024", "601.2c", "equivalent")
    assert step(copy, "de-cr") == ("equivalent, reworded", [("409.2c", "equivalent"), ("409.2d", "reworded")])
    relink(copy, "de-1999", "409.2d", "de-2024", "601.2c", "equivalent")
    assert step(copy, "de-cr")[0] == "equivalent"
