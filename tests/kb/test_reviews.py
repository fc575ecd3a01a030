"""Review as data: data/alignment_reviews.tsv confirms, rejects or adds links of the lineage; the build applies it,
composition respects it, every view shows it, and a review of a rule the KB lacks stops the build with file and line.

The reviewed case is German 1999 409.2f ("pay all costs"), which data/gold/de-1999__de-2024.tsv splits into 2024
601.2f (total cost), 601.2g (mana abilities first) and 601.2h (pay): the aligner links 601.2f and 601.2h.  The
reviews below confirm 601.2f and add 601.2g as that gold file says, and reject 601.2h to see a rejection work."""
from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner

from kb import lineage
from kb.align.reviews import ReviewError, load
from kb.build import BuildError, build
from kb.cli import main
from tests.helpers import seed_data

HEADER = "# test reviews\nsource\ttarget\tverdict\treviewer\tdate\tnote\n"
REVIEWS = HEADER + (
    "de-1999/409.2f\tde-2024/601.2f\tconfirm\ttester\t2026-11-28\tgold: total cost\n"
    "de-1999/409.2f\tde-2024/601.2g\tadd\ttester\t2026-11-28\tgold: mana abilities before paying\n"
    "de-1999/409.2f\tde-2024/601.2h\treject\ttester\t2026-11-28\tto see a rejection\n"
    # a pair the build does not store: composed through the English originals
    "de-1999/409.2f\ten-2024-11-08/601.2g\tadd\ttester\t2026-11-28\tthe composed pair\n")


def _id(conn, edition, number):
    return conn.execute("select id from rules where edition_id = ? and norm = ?", [edition, number]).fetchone()[0]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    root = tmp_path_factory.mktemp("reviewed")
    data = seed_data(root / "data")
    (data / "alignment_reviews.tsv").write_text(REVIEWS, encoding="utf-8")
    build(root / "kb.db", data)
    c = sqlite3.connect(root / "kb.db")
    yield root / "kb.db", c
    c.close()


def test_the_build_applies_the_reviews_to_the_stored_pair(reviewed):
    _, conn = reviewed
    links = {lk.target_number: lk for lk in lineage.of_rule(conn, _id(conn, "de-1999", "409.2f"))
             if lk.target_edition == "de-2024"}
    assert set(links) == {"601.2f", "601.2g"}                       # 601.2h rejected, 601.2g added
    assert links["601.2f"].review == "confirmed by tester on 2026-11-28" and links["601.2f"].confidence == 1.0
    assert links["601.2g"].review.startswith("added by tester") and links["601.2g"].relation == "split"
    table = conn.execute("select verdict, line from alignment_reviews order by id").fetchall()
    assert table == [("confirm", 3), ("add", 4), ("reject", 5), ("add", 6)]


def test_composition_respects_the_reviews(reviewed):
    _, conn = reviewed
    # through de-2024: the Italian counterparts follow the reviewed links (601.2g now, 601.2h no longer)
    it = {lk.target_number for lk in lineage.of_rule(conn, _id(conn, "de-1999", "409.2f"))
          if lk.target_edition == "it-wiki"}
    assert "601.2g" in it and "601.2h" not in it
    # a review of a pair the build did not store meets it where it is composed
    en = {lk.target_number: lk for lk in lineage.of_rule(conn, _id(conn, "de-1999", "409.2f"))
          if lk.target_edition == "en-2024-11-08"}
    assert en["601.2g"].review.startswith("added by tester") and en["601.2g"].confidence == 1.0
    answer = lineage.pair(conn, "de-1999", "en-2024-11-08")
    got = {lk.target.norm: lk for lk in answer.links_of("de-1999/409.2f") if lk.target is not None}
    assert got["601.2g"].evidence["review"] == en["601.2g"].review and got["601.2g"].relation == en["601.2g"].relation


def test_the_views_mark_reviewed_links(reviewed):
    db, _ = reviewed
    out = CliRunner().invoke(main, ["align", "export", "--from", "de-1999", "--to", "de-2024", "--db", str(db)])
    rows = {tuple(line.split("\t")[:2]): line.split("\t") for line in out.output.splitlines()}
    assert rows["409.2f", "601.2f"][6] == "confirmed by tester on 2026-11-28" and ("409.2f", "601.2h") not in rows
    out = CliRunner().invoke(main, ["align", "review", "de-1999", "de-2024", "-n", "500", "--db", str(db)])
    assert out.exit_code == 0 and "de-1999/409.2f\tde-2024/601.2f" not in out.output   # reviewed: not listed
    listed = [float(line.split()[2]) for line in out.output.splitlines() if line.startswith("[")]
    assert len(listed) > 20 and listed == sorted(listed)                                # least confident first
    import asyncio

    from kb.serve import make_datasette

    ds = make_datasette(db, False)
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(ds.invoke_startup())
        page = loop.run_until_complete(ds.client.get("/rule/de-1999/409.2f")).text
    finally:
        loop.close()
    card = page.split('<h4><a href="/rule/de-2024/601.2f"')[1].split('class="kb-card')[0]
    assert "reviewed: confirmed by tester on 2026-11-28" in card and "confidence" not in card
    other = page.split('<h4><a href="/rule/it-wiki/601.2f"')[1].split('class="kb-card')[0]
    assert "confidence 0." in other


@pytest.mark.parametrize("row, says", [
    ("de-1999/409.2f\tde-2024/699.9z\tconfirm\ttester\t\t\n", ":3: target de-2024/699.9z: edition de-2024 has no rule"),
    ("xx-1999/409.2f\tde-2024/601.2f\tconfirm\ttester\t\t\n", ":3: source xx-1999/409.2f: no edition 'xx-1999'"),
    ("de-1999/409.2f\tde-2024/601.2f\tmaybe\ttester\t\t\n", ":3: verdict 'maybe' is not one of confirm, reject"),
    ("409.2f\tde-2024/601.2f\tconfirm\ttester\t\t\n", ":3: source '409.2f' is not EDITION/NUMBER"),
])
def test_a_review_the_kb_cannot_follow_is_an_error_with_file_and_line(kb_db, tmp_path, row, says):
    path = tmp_path / "alignment_reviews.tsv"
    path.write_text("source\ttarget\tverdict\treviewer\tdate\tnote\n\n" + row, encoding="utf-8")
    with pytest.raises(ReviewError) as e:
        load(sqlite3.connect(kb_db), path)
    assert str(e.value).startswith(f"{path}{says.split(':')[0]}:") and says in str(e.value)


def test_a_bad_review_stops_the_build_and_keeps_the_old_database(tmp_path):
    data = seed_data(tmp_path / "data")
    (data / "alignment_reviews.tsv").write_text(HEADER + "de-1999/409.2f\tde-2024/699.9z\tadd\ttester\t\t\n",
                                                encoding="utf-8")
    db = tmp_path / "kb.db"
    db.write_bytes(b"previous build")
    with pytest.raises(BuildError, match=r"alignment_reviews\.tsv:3: target de-2024/699\.9z: edition de-2024 has no"):
        build(db, data)
    assert db.read_bytes() == b"previous build"


def test_the_concepts_follow_the_reviewed_lineage(reviewed):
    """A rule's concept follows its best link of the lineage as stored, reviews applied: 409.2f shares its concept
    with 601.2g, which no aligner linked to it (a person added the link, confidence 1.0), never with the rejected
    601.2h."""
    _, conn = reviewed
    sql = "select concept_id from rules where edition_id = ? and norm = ?"
    concept = {no: conn.execute(sql, [ed, no]).fetchone()[0]
               for ed, no in (("de-1999", "409.2f"), ("de-2024", "601.2g"), ("de-2024", "601.2h"))}
    assert concept["409.2f"] == concept["601.2g"] != concept["601.2h"]


def test_a_rejected_link_no_longer_ties_two_concepts():
    """Hand-made: rule a/1 was linked to b/1 (0.9) and b/2 (0.5); a person rejects a/1 → b/1, and the concepts,
    read again from the stored links, put a/1 with b/2.  Rejecting that too leaves a/1 a concept of its own."""
    from kb.align.concepts import Concepts

    db = sqlite3.connect(":memory:")
    db.execute("create table rules (id integer primary key, key text, text text)")
    db.execute("create table alignments (id integer primary key, source_rule_id int, target_rule_id int, score real,"
               " evidence text, source_edition text, target_edition text)")
    db.executemany("insert into rules values (?, ?, ?)", [(1, "a/1", "x y z"), (2, "b/1", "x y"), (3, "b/2", "z")])
    db.executemany("insert into alignments (source_rule_id, target_rule_id, score, evidence, source_edition,"
                   " target_edition) values (?, ?, ?, '{}', 'a', 'b')", [(1, 2, 0.9), (1, 3, 0.5)])
    concepts = Concepts()
    concepts.merge({"a/1": "a", "b/1": "b", "b/2": "b"}, {"a/1": ("b/1", 0.9)})
    assert concepts.assign()["a/1"] == concepts.assign()["b/1"]
    kinds = {("a", "b"): "cross-edition"}
    db.execute("delete from alignments where target_rule_id = 2")
    concepts.reread(db, [1, 2], kinds)
    got = concepts.assign()
    assert got["a/1"] == got["b/2"] != got["b/1"]
    db.execute("delete from alignments where target_rule_id = 3")
    concepts.reread(db, [1, 3], kinds)
    got = concepts.assign()
    assert len({got["a/1"], got["b/1"], got["b/2"]}) == 3
