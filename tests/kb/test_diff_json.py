"""The renumbering map (`kb diff --format json`, key "renumbering"): every old rule with its new numbers, its
class, and where it sits (level, chapter, section), in the old edition's order."""
import sqlite3

import sqlite_utils

from ingest import numbers
from kb import diff as D
from kb.diff.classes import renumbering_map


def test_the_renumbering_map_names_every_old_rule_with_its_place(kb_db):
    rows = renumbering_map(D.compare(sqlite_utils.Database(kb_db), "de-1999", "de-2024", tables=False).cls)
    with sqlite3.connect(kb_db) as db:
        old = db.execute("select number, level, chapter, section from rules where edition_id = 'de-1999' "
                         "order by seq").fetchall()
    assert len(rows) == len(old)
    for row, (number, level, chapter, section) in zip(rows, old):
        assert numbers.normalize(row["old"]) == numbers.normalize(number)
        assert (row["level"], row["chapter"], row["section"]) == (level, chapter, section)
    by_old = {r["old"]: r for r in rows}
    # gold (data/gold/de-1999__de-2024.tsv): section 409 became 601 (casting) and 602 (activating)
    assert by_old["409"]["new"] == ["601", "602"] and by_old["409"]["class"] == "split"
