"""The incremental build: parsed documents and lemmas cached by content, skipped builds, clean-ups."""
from __future__ import annotations

import dataclasses
import os
import sqlite3
import threading

import pytest

from ingest import registry
from kb.add import AddOptions, add_files
from kb.build import build
from tests.helpers import FIXTURES, SEEDS

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


@pytest.fixture
def data_dir(tmp_path):
    """A data folder with two documents: the hand-made cr-text miniature and the 2009 article."""
    data = tmp_path / "data"
    (data / "sources").mkdir(parents=True)
    (data / "manifest.toml").write_text("# test manifest\n", encoding="utf-8")
    results = add_files([MINI], AddOptions(edition="en-mini"), data)
    results += add_files([SEEDS["003"]], AddOptions(parser="article", edition="de-article", language="de",
                                                    date="2009-12-28", kind="article"), data)
    assert all(r.ok for r in results), [r.message for r in results]
    return data


def dump(db_path) -> list:
    conn = sqlite3.connect(db_path)
    try:
        return [conn.execute(f"select * from {t} order by 1, 2").fetchall()
                for t in ("rules", "items", "refs", "source_lines", "warnings", "editions")]
    finally:
        conn.close()


def run(data_dir, db, **kw):
    return build(db, data_dir, stages=False, **kw)


def test_unchanged_documents_come_from_the_cache(data_dir, tmp_path):
    db = tmp_path / "build" / "kb.db"
    first = run(data_dir, db)
    assert (first.parsed, first.cached, first.up_to_date) == (2, 0, False)
    assert first.lemmatised > 0
    again = run(data_dir, db)
    assert again.up_to_date and again.parsed == 0
    forced = run(data_dir, db, force=True)
    assert (forced.parsed, forced.cached, forced.lemmatised) == (0, 2, 0)
    fresh = tmp_path / "fresh" / "kb.db"
    run(data_dir, fresh)
    assert dump(db) == dump(fresh)  # the cache changes nothing in the output


def test_a_changed_document_is_parsed_again(data_dir, tmp_path):
    db = tmp_path / "build" / "kb.db"
    run(data_dir, db)
    changed = tmp_path / "mini-changed.txt"
    changed.write_text(MINI.read_text(encoding="utf-8").replace("Game Concepts", "Game Concept"), encoding="utf-8")
    assert add_files([changed], AddOptions(edition="en-mini-2"), data_dir)[0].ok
    report = run(data_dir, db)
    assert (report.parsed, report.cached) == (1, 2)
    editions = {r[0] for r in sqlite3.connect(db).execute("select edition_id from rules")}
    assert editions == {"en-mini", "en-mini-2"}


def test_a_renamed_edition_is_not_taken_from_the_cache(data_dir, tmp_path):
    """The cache keeps rows, which carry the edition id: the manifest entry is part of the key."""
    db = tmp_path / "build" / "kb.db"
    run(data_dir, db)
    manifest = data_dir / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"en-mini"', '"en-mini-renamed"'),
                        encoding="utf-8")
    report = run(data_dir, db)
    assert (report.parsed, report.cached) == (1, 1)
    conn = sqlite3.connect(db)
    editions = {r[0] for r in conn.execute("select edition_id from rules")}
    assert "en-mini-renamed" in editions and "en-mini" not in editions
    assert conn.execute("select count(*) from rules where key like 'en-mini/%'").fetchone() == (0,)


def test_rows_numbered_per_document_are_written_as_numbered_in_one_pass(data_dir, tmp_path):
    """Rows come from the cache numbered from 1 and the inserts move their ids into place: the database holds
    the ids, parents and references of numbering every document's rows in one pass."""
    from ingest import parse_lines, read_lines
    from kb.manifest import load
    from kb.rows import Ids, document_rows

    db = tmp_path / "kb.db"
    run(data_dir, db)
    one_pass = Ids()
    expected: dict[str, list[dict]] = {"rules": [], "items": [], "refs": [], "unparsed": [], "source_lines": []}
    for doc in load(data_dir / "manifest.toml").documents:
        lines = read_lines(doc.file(data_dir), doc.encoding)
        rows = document_rows(doc, lines=lines, ids=one_pass,
                             parsed=parse_lines(lines, doc.path, doc.parser, doc.editions[0].language))
        for table, columns in rows.columns.items():
            expected[table] += [dict(zip(columns, values)) for values in zip(*columns.values())]
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    for table, rows in expected.items():
        written = conn.execute(f"select * from {table} order by rowid").fetchall()
        assert [{k: row[k] for k in expected_row} for row, expected_row in zip(written, rows, strict=True)] == rows
    assert one_pass.last["rules"] > 0 and one_pass.last["refs"] > 0 and one_pass.last["items"] > 0
    assert conn.execute("select max(id) from rules").fetchone()[0] == one_pass.last["rules"]


def test_a_parser_version_bump_reparses_its_documents_only(data_dir, tmp_path, monkeypatch):
    db = tmp_path / "build" / "kb.db"
    run(data_dir, db)
    spec = registry.PARSERS["article"]
    monkeypatch.setitem(registry.PARSERS, "article", dataclasses.replace(spec, version=spec.version + 1))
    report = run(data_dir, db, force=True)
    assert (report.parsed, report.cached) == (1, 1)


def test_leftovers_of_an_interrupted_build_are_removed(data_dir, tmp_path):
    db = tmp_path / "build" / "kb.db"
    db.parent.mkdir(parents=True)
    dead = db.parent / ".kb.db.999999999.tmp"     # no such process
    mine = db.parent / f".kb.db.{os.getpid()}.tmp.other"
    dead.write_bytes(b"x" * 1000)
    mine.write_bytes(b"")
    run(data_dir, db)
    assert not dead.exists() and mine.exists()


def test_two_builds_of_one_database_take_turns(data_dir, tmp_path):
    db = tmp_path / "build" / "kb.db"
    messages: list[str] = []
    reports = []

    def one():
        reports.append(run(data_dir, db, progress=messages.append, workers=1))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.up_to_date for r in reports) == [False, True]  # the second waited, then found it done
    assert dump(db)[0]


def test_games_are_played_again_only_when_the_engine_or_its_data_change(tmp_path, monkeypatch):
    from kb import trace

    calls = []

    def play():
        calls.append(1)
        return ["result", len(calls)]

    assert trace.engine_runs(tmp_path, "games", play) == ["result", 1]
    assert trace.engine_runs(tmp_path, "games", play) == ["result", 1] and len(calls) == 1
    monkeypatch.setattr(trace, "engine_inputs", lambda: "f" * 64)      # a card, scenario or engine file changed
    assert trace.engine_runs(tmp_path, "games", play) == ["result", 2]
    assert len(list((tmp_path / "engine").glob("games-*.pickle"))) == 1  # the stale entry is gone
    next((tmp_path / "engine").glob("games-*.pickle")).write_bytes(b"not a pickle")
    assert trace.engine_runs(tmp_path, "games", play) == ["result", 3]
    assert trace.engine_runs(None, "games", play) == ["result", 4]       # no cache: always played


def test_engine_inputs_change_with_a_card_a_scenario_or_the_rule_sets(tmp_path, monkeypatch):
    import shutil

    from engine import paths as engine_paths
    from kb import trace

    cards, scenarios, rulesets = tmp_path / "cards", tmp_path / "scenarios", tmp_path / "rulesets.toml"
    shutil.copytree(engine_paths.CARDS_DIR, cards)
    shutil.copytree(engine_paths.SCENARIOS_DIR, scenarios)
    shutil.copyfile(trace.RULESETS_FILE, rulesets)
    monkeypatch.setattr(engine_paths, "CARDS_DIR", cards)
    monkeypatch.setattr(engine_paths, "SCENARIOS_DIR", scenarios)
    monkeypatch.setattr(trace, "RULESETS_FILE", rulesets)
    seen = {trace.engine_inputs()}
    for changed in (next(cards.glob("*.toml")), next(scenarios.glob("*.scenario")), rulesets):
        changed.write_text(changed.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
        seen.add(trace.engine_inputs())
    assert len(seen) == 4
