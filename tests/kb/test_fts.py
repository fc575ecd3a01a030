"""The full-text indexes built in a side process (kb.fts) are the indexes sqlite-utils builds in the KB itself."""
import sqlite3

import sqlite_utils

from kb import fts

#: two documents' rows as the build hands them over: columns per table, and the ids the documents before used
DOCUMENTS = [
    ({"rules": {"id": [1, 2], "number": ["601.", "601.2f"], "title": ["Zaubersprüche wirken", None],
                "text": ["", "Der Spieler bestimmt die Gesamtkosten."],
                "lemmas": ["zauberspruch wirken", "der spieler bestimmen die gesamtkosten"]},
      "items": {"id": [1], "title": [None], "text": ["Beispiel: Ein Zauberspruch kostet {2}{R}."],
                "lemmas": ["beispiel ein zauberspruch kosten 2 r"]}}, {}),
    ({"rules": {"id": [1], "number": ["601.2g"], "title": [None], "text": ["Il giocatore attiva le abilità di mana."],
                "lemmas": ["il giocatore attivare il abilità di mana"]}}, {"rules": 2, "items": 1}),
]


def _kb(path):
    """A KB with the rows of DOCUMENTS (ids moved by each document's base) and no full-text index yet."""
    db = sqlite_utils.Database(path)
    for columns, base in DOCUMENTS:
        for table, values in columns.items():
            rows = [dict(zip(values, row)) for row in zip(*values.values())]
            for row in rows:
                row["id"] += base.get(table, 0)
            db.table(table).insert_all(rows, pk="id")
    return db


def _fts_rows(db):
    """The rows of the full-text tables and their shadow tables, and the SQL that created them."""
    names = [name for name in db.table_names() if "_fts" in name]
    return {name: (db.execute("select sql from sqlite_master where name = ?", [name]).fetchone(),
                   db.execute(f"select * from [{name}]").fetchall()) for name in names}


def test_side_index_copied_equals_the_index_built_in_place(tmp_path):
    direct = _kb(tmp_path / "direct.db")
    for table, cols in fts.FTS.items():
        direct.table(table).enable_fts(cols, tokenize=fts.TOKENIZE)
    copied = _kb(tmp_path / "copied.db")
    fts.finish(copied, fts.start(tmp_path / "side.db", lambda: DOCUMENTS))
    assert _fts_rows(copied) == _fts_rows(direct)
    assert not (tmp_path / "side.db").exists()
    for table in fts.FTS:
        copied.execute(f"insert into {table}_fts({table}_fts) values ('integrity-check')")
    hits = copied.execute("select rowid from rules_fts where rules_fts match 'lemmas : abilità'").fetchall()
    assert hits == [(3,)]


def _fail():
    raise RuntimeError("the side process fails")


def test_kb_indexes_itself_when_the_side_process_fails(tmp_path):
    db = _kb(tmp_path / "kb.db")
    fts.finish(db, fts.start(tmp_path / "side.db", _fail))
    hits = db.execute("select rowid from items_fts where items_fts match 'zauberspruch'").fetchall()
    assert hits == [(1,)]
    db.execute("insert into rules_fts(rules_fts) values ('integrity-check')")


def test_no_side_index_builds_in_place(tmp_path):
    db = _kb(tmp_path / "kb.db")
    fts.finish(db, None)
    conn = sqlite3.connect(tmp_path / "kb.db")
    assert conn.execute("select count(*) from rules_fts where rules_fts match 'spieler'").fetchone() == (1,)
