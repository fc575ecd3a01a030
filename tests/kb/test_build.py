"""The built KB on the real seed documents: lossless, defects visible, references, symbols, search."""
import re
from collections import defaultdict

import pytest
import sqlite_utils

from kb.build import BuildError, build
from kb.manifest import load
from tests.helpers import seed_data

ROWS_BY_NAME = True  # the conn fixture (tests/conftest.py) gives rows by name


def q(conn, sql, *params):
    return [dict(r) for r in conn.execute(sql, params)]


def test_every_document_is_rebuilt_exactly_from_its_records(conn, seed_data_dir):
    manifest = load(seed_data_dir / "manifest.toml")
    for doc in manifest.documents:
        with open(seed_data_dir / doc.path, encoding="utf-8-sig", newline="") as f:
            source = re.split(r"\r\n|\r|\n", f.read())
        expected = {no: line for no, line in enumerate(source, 1) if line.strip()}
        segments = defaultdict(list)
        for row in q(conn, "select * from source_lines where document_id = ? order by line, col_start", doc.id):
            segments[row["line"]].append(row)
        assert set(segments) == set(expected), doc.id
        for no, segs in segments.items():
            assert segs[0]["col_start"] == 0
            assert all(a["col_end"] == b["col_start"] for a, b in zip(segs, segs[1:])), (doc.id, no)
            assert "".join(s["text"] for s in segs) == expected[no], (doc.id, no)


def test_every_line_points_at_a_record_and_nothing_is_unparsed(conn):
    for table in ("rules", "items", "unparsed"):
        orphans = q(conn, f"select s.* from source_lines s left join {table} t on t.id = s.record_id "
                          f"where s.record_table = ? and t.id is null", table)
        assert orphans == []
    assert q(conn, "select * from unparsed") == []


def test_record_text_keeps_every_word_of_its_lines(conn):
    """No parser drops words: each word of a record's source lines is in its number, title, label or text."""
    raw = defaultdict(str)
    for row in q(conn, "select record_table, record_id, text from source_lines"):
        raw[row["record_table"], row["record_id"]] += " " + row["text"]
    for table in ("rules", "items"):
        cols = "number, title, text" if table == "rules" else "label, title, text, meta"
        for row in q(conn, f"select id, {cols} from {table}"):
            have = " ".join(str(v) for k, v in row.items() if k != "id" and v).lower()
            text = re.sub(r"\d{3}\.\d+[a-z]?", " ", raw[table, row["id"]])  # "608.2hSe": number glued to text
            words = set(re.findall(r"[^\W\d_]{3,}", text.lower()))
            missing = [w for w in words if w not in have]
            assert not missing, (table, row["id"], missing[:5])


def test_italian_defects_are_kept_and_flagged(conn):
    dup = q(conn, "select line_start from rules where edition_id = 'it-wiki' and norm = '616.1f' order by seq")
    assert [r["line_start"] for r in dup] == [429, 433]
    assert q(conn, "select * from warnings where document_id = 'cr-it-wiki' and code = 'duplicate-number' "
                   "and number = '616.1f' and line = 433")
    mis = q(conn, "select r.line_start, p.norm as parent from rules r left join rules p on p.id = r.parent_id "
                  "where r.edition_id = 'it-wiki' and r.number = '613.13c'")
    assert mis and mis[0]["line_start"] == 390
    assert q(conn, "select * from warnings where document_id = 'cr-it-wiki' and code = 'number-backwards' "
                   "and line = 390")


def test_rule_model(conn):
    r = q(conn, "select r.*, p.norm as parent from rules r join rules p on p.id = r.parent_id "
                "where r.key = 'de-2024/601.2a'")[0]
    got = (r["number"], r["level"], r["parent"], r["chapter"], r["line_start"])
    assert got == ("601.2a", "subrule", "601.2", 6, 19)
    sec = q(conn, "select r.title, p.norm as parent from rules r join rules p on p.id = r.parent_id "
                  "where r.key = 'de-2024/601'")[0]
    assert sec == {"title": "Zaubersprüche wirken", "parent": "6"}
    old = q(conn, "select number, text from rules where key = 'de-1999/409.2f'")[0]
    assert old["number"] == "409.2f" and "Teilzahlungen sind nicht erlaubt" in old["text"]
    examples = q(conn, "select i.label from items i join rules r on r.id = i.rule_id "
                       "where r.key = 'de-2024/601.2h' and i.kind = 'example'")
    assert [e["label"] for e in examples] == ["Beispiel"]


def targets(conn, key, kind=None):
    sql = ("select refs.target, refs.resolved from refs join rules r on r.id = refs.from_rule_id "
           "where r.key = ? order by refs.id")
    return [(x["target"], x["resolved"]) for x in q(conn, sql, key)]


def test_references_expand_ranges_and_keep_unresolved_targets(conn):
    got = targets(conn, "de-2024/601.2")
    assert [t for t, ok in got if ok] == ["601.2a", "601.2b", "601.2c", "601.2d", "601.2e",
                                          "601.2f", "601.2g", "601.2h", "601.3"]
    assert ("730", 0) in got
    # 1999 "(Siehe Regeln 306-311 ...)" expands to every section that exists
    old = [t for t, ok in targets(conn, "de-1999/410.9") if ok]
    assert old[:6] == ["306", "307", "308", "309", "310", "311"]
    # Italian "vedi regola 700.2" is outside the chapter-6 excerpt: unresolved, with its target
    assert ("700.2", 0) in targets(conn, "it-wiki/601.2b")


def test_index_entries_reference_rules(conn):
    rows = q(conn, "select refs.target from refs join items i on i.id = refs.from_item_id "
                   "where i.kind = 'index' and i.title = 'Globale Verzauberung' and refs.resolved = 1")
    assert [r["target"] for r in rows] == ["214.8a", "214.8b"]
    ranged = q(conn, "select refs.target from refs join items i on i.id = refs.from_item_id "
                     "where i.kind = 'index' and i.title = 'Lokale Verzauberung' and refs.resolved = 1")
    assert [r["target"] for r in ranged][:8] == ["214.8a", "214.8c", "214.8d", "214.8e", "214.8f", "214.8g",
                                                  "214.8h", "214.8i"]


def test_symbols_normalised_beside_the_printed_text(conn):
    ex = q(conn, "select i.text, i.text_norm from items i join rules r on r.id = i.rule_id "
                 "where r.key = 'de-2024/601.2h'")[0]
    assert "{1}{s}" in ex["text"] and "{1}{B}" in ex["text_norm"]
    old = q(conn, "select text, text_norm from rules where key = 'de-1999/203.2'")[0]
    assert "o2oWoB" in old["text"] and "{2}{W}{B}" in old["text_norm"]
    it = q(conn, "select i.text_norm from items i join rules r on r.id = i.rule_id where r.key = 'it-wiki/601.2h'")[0]
    assert "{1}{B}" in it["text_norm"]


@pytest.mark.parametrize("lemma,inflected,edition", [
    ("zauberspruch", "Zaubersprüche", "de-2024"), ("wirken", "gewirkt", "de-2024"), ("magia", "magie", "it-wiki"),
])
def test_full_text_search_on_lemmas_finds_inflected_forms(conn, lemma, inflected, edition):
    rows = q(conn, "select r.text from rules_fts join rules r on r.rowid = rules_fts.rowid "
                   "where rules_fts match ? and r.edition_id = ?", f'lemmas : "{lemma}"', edition)
    assert any(re.search(rf"\b{inflected}\b", r["text"]) for r in rows)


def test_changed_source_is_refused_and_old_database_kept(tmp_path):
    data = seed_data(tmp_path / "data")
    target = data / "sources" / "000_b7e6c10b3fc15808.txt"
    target.write_bytes(target.read_bytes().replace(b"Teilzahlungen", b"Teilzahlung!n", 1))
    db = tmp_path / "kb.db"
    db.write_bytes(b"previous build")
    with pytest.raises(BuildError) as e:
        build(db, data, stages=False)
    assert "data/sources/000_b7e6c10b3fc15808.txt" in str(e.value) and "SHA-256" in str(e.value)
    assert db.read_bytes() == b"previous build"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_strict_build_fails_on_source_warnings(tmp_path, seed_data_dir):
    with pytest.raises(BuildError, match=r"--strict; first: data/sources/\S+:\d+: "):
        build(tmp_path / "kb.db", seed_data_dir, strict=True, stages=False)
    assert not (tmp_path / "kb.db").exists()


def test_a_build_that_fails_after_the_diffs_began_stops_their_workers_and_keeps_the_old_database(tmp_path,
                                                                                                 monkeypatch,
                                                                                                 seed_data_dir):
    import multiprocessing

    import kb.rulesets

    began = []
    real_start = __import__("kb.diff.table", fromlist=["start"]).start

    def start(db, *args, **kwargs):
        began.append(real_start(db, *args, **kwargs))
        return began[-1]

    def planted(db, cache_dir=None):
        assert began and began[0].pool is not None   # the diffs' workers run while this stage does
        raise RuntimeError("planted failure in the rule set stage")

    monkeypatch.setattr("kb.diff.table.start", start)
    monkeypatch.setattr(kb.rulesets, "store", planted)
    db = tmp_path / "kb.db"
    db.write_bytes(b"previous build")
    before = set(multiprocessing.active_children())   # (what other tests of this process may have left running)
    with pytest.raises(RuntimeError, match="planted failure"):
        build(db, seed_data_dir, workers=2)
    assert db.read_bytes() == b"previous build"
    assert began[0].pool is None and set(multiprocessing.active_children()) <= before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_the_views_made_while_the_rules_are_written_are_those_the_kb_gives_back(tmp_path, monkeypatch,
                                                                                 seed_data_dir):
    import importlib

    from kb.align.views import views_from_db

    module = importlib.import_module("kb.align.store")   # (kb.align.store is also the name of its function)
    made: dict = {}
    real_store = module.store

    def store(db, *args, views=None, **kwargs):
        made.update(views or {})
        return real_store(db, *args, views=views, **kwargs)

    monkeypatch.setattr(module, "store", store)
    build(tmp_path / "kb.db", seed_data_dir)
    db = sqlite_utils.Database(tmp_path / "kb.db")
    editions = [e for (e,) in db.execute("select distinct edition_id from rules order by 1")]
    assert len(editions) >= 5 and sorted(made) == editions
    for edition in editions:
        assert made[edition] == views_from_db(db, edition), edition
    assert sum(1 for e in editions for v in made[e] if v.examples) > 10   # the examples' lemmas are joined in


TERMS_HEADER = "# comment\nold_term\tnew_term\tlang\tnote\n"


@pytest.mark.parametrize("body, where, says", [
    (TERMS_HEADER + "spielen\twirken\tde\tnote\nbroken\n", ":4:", "not a row of"),
    (TERMS_HEADER + "\twirken\tde\t\n", ":3:", "the old term first"),
    ("old_term\tnew_term\tnote\nspielen\twirken\t\n", ":1:", "no column lang"),
])
def test_a_broken_terminology_line_is_named_and_never_read_as_a_vanished_term(tmp_path, body, where, says):
    from kb import terminology

    path = tmp_path / "terminology.tsv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        terminology.load(path)
    assert str(e.value).startswith(f"{path}{where}") and says in str(e.value)
    path.write_bytes(TERMS_HEADER.encode() + "daß\tdass\tde\t\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"terminology.tsv:3: not UTF-8"):
        terminology.load(path)
    # an empty new term is a concept that is gone: a row, not an error
    path.write_text(TERMS_HEADER + "Pseudospruch\t\tde\tgone\nplay\tcast\ten\t\n", encoding="utf-8")
    assert [(t.old, t.new) for t in terminology.load(path, "de")] == [("Pseudospruch", "")]


def test_a_broken_terminology_table_stops_the_build_before_the_database_is_touched(tmp_path, monkeypatch,
                                                                                  seed_data_dir):
    from kb import terminology

    path = tmp_path / "terminology.tsv"
    path.write_text(TERMS_HEADER + "spielen wirken de\n", encoding="utf-8")
    monkeypatch.setattr(terminology, "TERMINOLOGY", path)
    db = tmp_path / "kb.db"
    db.write_bytes(b"previous build")
    with pytest.raises(BuildError, match=r"terminology.tsv:3: not a row of"):
        build(db, seed_data_dir, stages=False)
    assert db.read_bytes() == b"previous build"
