"""The lineage's per-process snapshot of the stored pairs (kb/align/kbcache.py) reads what the per-rule queries read,
and is read again when the KB changes; the history's dict is :func:`dataclasses.asdict`'s.

Real data: the seed KB (German 1999 409.2f, split into German 2024 601.2f and its neighbours) and the English chain
of the sample editions (tests/corpus/crs)."""
from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3

import sqlite_utils

from kb import history, lineage
from kb.align import kbcache, ondemand


def _id(conn, edition, number):
    return conn.execute("select id from rules where edition_id = ? and norm = ?", [edition, number]).fetchone()[0]


def _stored_of_rule(conn, rule, x):
    """The stored links of a rule to edition ``x``, either way round, read by the rule's id."""
    ahead = conn.execute("""select target_rule_id, score, relation, method, coalesce(review, '') from alignments
                            where source_rule_id = ? and target_edition = ? and target_rule_id is not null
                            order by id""", [rule, x]).fetchall()
    back = conn.execute("""select source_rule_id, score, relation, method, coalesce(review, '') from alignments
                           where target_rule_id = ? and source_edition = ? and source_rule_id is not null
                           order by id""", [rule, x]).fetchall()
    flip = {"split": "merged", "merged": "split"}
    return ahead + [(t, s, flip.get(rel, rel), m, rv) for t, s, rel, m, rv in back]


def test_each_stored_pair_reads_as_its_per_rule_queries(english_chain_db, kb_db):
    """Read rule by rule (as a process that shows a few rules does) and each pair whole (as a server reads them
    before its first request), the links are the same."""
    checked = 0
    for db in (english_chain_db, kb_db):
        conn = sqlite3.connect(db)
        by_rule, whole = kbcache.fresh(conn), kbcache.fresh(conn)
        whole.read_all()
        pairs = sorted(whole.stored())
        assert len(pairs) >= 4
        for a, b in pairs:
            for x, y in ((a, b), (b, a)):
                one_by_one = ondemand._links_of_rule(conn, x, y)
                for snap in (by_rule, whole):
                    step, direct = snap.step(x, y), snap.direct(x, y)
                    for (rule,) in conn.execute("select id from rules where edition_id = ?", [x]):
                        assert [link[:3] for link in step.get(rule, [])] == one_by_one(rule), (x, y, rule)
                        assert direct.get(rule, []) == _stored_of_rule(conn, rule, y), (x, y, rule)
                        checked += bool(step.get(rule))
        assert isinstance(whole.step(*pairs[0]), dict) and isinstance(by_rule.step(*pairs[0]), kbcache.ByRule)
    assert checked > 2000


def test_a_kb_changed_since_is_read_again(kb_db, tmp_path):
    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rule = _id(reader, "de-1999", "409.2f")
    before = [lk for lk in lineage.of_rule(reader, rule) if lk.target_edition == "de-2024"]
    assert {lk.relation for lk in before} == {"split"}
    writer = sqlite3.connect(path)
    writer.execute("update alignments set relation = 'reworded' where source_rule_id = ? and target_edition = ?",
                   [rule, "de-2024"])
    writer.commit()
    writer.close()
    after = [lk for lk in lineage.of_rule(reader, rule) if lk.target_edition == "de-2024"]
    assert [lk.target_id for lk in after] == [lk.target_id for lk in before]
    assert {lk.relation for lk in after} == {"reworded"}


def test_uncommitted_changes_of_the_connection_itself_are_read(kb_db, tmp_path):
    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    conn = sqlite3.connect(path)
    rule = _id(conn, "de-1999", "409.2f")
    assert any(lk.target_edition == "de-2024" for lk in lineage.of_rule(conn, rule))
    conn.execute("delete from alignments where source_rule_id = ? and target_edition = ?", [rule, "de-2024"])
    assert not any(lk.target_edition == "de-2024" for lk in lineage.of_rule(conn, rule))


def test_the_history_dict_is_asdict(english_chain_db, kb_db):
    for db, edition, number in ((english_chain_db, "en-2026-01-16", "103.8"), (english_chain_db, "en-1999-04-23",
                                                                             "101.4"), (kb_db, "de-2024", "601.2f")):
        conn = sqlite3.connect(db)
        h = history.history(conn, number, edition)
        assert sum(len(c.events) for c in h.chains) >= 2
        mine, theirs = h.as_dict(), dataclasses.asdict(h)
        assert json.dumps(mine) == json.dumps(theirs)      # (the same keys in the same order)
        assert mine == theirs


def test_a_connection_to_no_file_keeps_nothing(kb_db):
    mem = sqlite3.connect(":memory:")
    sqlite3.connect(kb_db).backup(mem)
    assert kbcache.key(mem) is None
    assert kbcache.snapshot(mem) is not kbcache.snapshot(mem)
    rule = _id(mem, "de-1999", "409.2f")
    assert lineage.of_rule(mem, rule) == lineage.of_rule(sqlite_utils.Database(kb_db), rule)


def test_the_built_paths_are_the_paths_found_now(english_chain_db, tmp_path):
    from kb.lineage import order
    from kb.lineage_store import TABLE

    conn = sqlite3.connect(english_chain_db)
    db = sqlite_utils.Database(conn)
    specs = {e.id: e for e in ondemand.edition_specs(db)}
    graph = ondemand._graph(db)
    stored = kbcache.snapshot(conn).stored()
    built = {(s, t): json.loads(p) for s, t, p in conn.execute(f"select * from {TABLE}")}
    assert len(built) >= 40
    for a in specs:
        for b in specs:
            if a == b or (a, b) in stored or (b, a) in stored or not order(specs[a]) < order(specs[b]):
                assert (a, b) not in built
                continue
            found = ondemand._path(graph, specs, a, b)
            assert built.get((a, b)) == (found if found and len(found) >= 3 else None), (a, b)
    # a KB without the table (built before it existed) finds the same paths, so the same links
    path = tmp_path / "old.db"
    shutil.copy(english_chain_db, path)
    old = sqlite3.connect(path)
    old.execute(f"drop table {TABLE}")
    old.commit()
    for edition, number in (("en-2026-01-16", "103.8"), ("en-1999-04-23", "101.4"), ("en-2019-05-03", "702.19c")):
        rule = _id(conn, edition, number)
        assert len(lineage.of_rule(conn, rule)) >= 5
        assert lineage.of_rule(conn, rule) == lineage.of_rule(old, rule)
