"""The default data holds every official English edition of the archive (issue 32): read from data/ alone, without
building it (the tests build the seeds and their originals: tests.helpers.seed_data)."""
from __future__ import annotations

from kb.manifest import load, sha256_of
from tests.helpers import ROOT

DATA = ROOT / "data"


def test_the_default_data_holds_110_english_editions_byte_for_byte():
    manifest = load(DATA / "manifest.toml")
    english = [(d, e) for d, e in manifest.editions if d.parser == "cr-text" and e.language == "en"]
    dates = sorted(e.date for _, e in english)
    assert len(english) == len(set(dates)) == 110          # 112 files: one duplicate, one truncated left out
    assert dates[0] == "1999-04-23" and dates[-1] == "2026-01-16"
    for doc, _ in english:
        assert sha256_of(DATA / doc.path) == doc.sha256, doc.path
    listed = {doc.path.split("/")[-1] for doc in manifest.documents}
    assert {p.name for p in (DATA / "sources").iterdir()} == listed   # nothing in sources/ the manifest lacks


def test_the_manifest_says_which_archive_files_are_left_out_and_why():
    header = [line for line in (DATA / "manifest.toml").read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    text = " ".join(header)
    assert "en-2013-02-01.txt: truncated" in text and "en-2009-07-11.txt: the same text as en-2009-07-08.txt" in text
