"""`kb add` keeps what the manifest already says, and refuses what would make it say two things at once.

The real manifest (data/manifest.toml: lists such as `covers`, a document holding two editions, comments) is
the case: after `kb add` every document it had is read back as it was."""
import shutil

import pytest
from click.testing import CliRunner

import ingest
from kb.cli import main
from kb.manifest import ManifestError, load, sha256_of
from tests.helpers import FIXTURES, ROOT

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


@pytest.fixture
def data(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(ROOT / "data" / "manifest.toml", data / "manifest.toml")
    return data


def add(data, path, *flags):
    return CliRunner().invoke(main, ["add", str(path), "--data-dir", str(data), *flags])


def test_kb_add_keeps_every_document_and_comment_of_the_manifest(data):
    before = load(data / "manifest.toml")
    header = [line for line in (data / "manifest.toml").read_text(encoding="utf-8").splitlines()
              if line.startswith("#")][:3]
    assert any(e.covers for _, e in before.editions) and any(len(d.editions) > 1 for d in before.documents)
    out = add(data, MINI, "--edition", "en-mini")
    assert out.exit_code == 0, out.output
    after = load(data / "manifest.toml")
    assert after.documents[:-1] == before.documents
    assert [e.id for e in after.documents[-1].editions] == ["en-mini"]
    assert (data / "manifest.toml").read_text(encoding="utf-8").splitlines()[:len(header)] == header


def test_another_file_under_an_edition_id_already_there_is_refused(data, tmp_path):
    assert add(data, MINI, "--edition", "en-mini").exit_code == 0
    manifest = (data / "manifest.toml").read_bytes()
    other = tmp_path / "other.txt"
    other.write_text(MINI.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    for edition in ("en-mini", "de-2024"):
        out = add(data, other, "--edition", edition)
        assert out.exit_code == 1 and f"edition '{edition}' is already in the manifest" in out.output, out.output
    assert (data / "manifest.toml").read_bytes() == manifest
    # a file in the way that the manifest does not know is not overwritten
    ok = add(data, other, "--edition", "en-other")
    assert ok.exit_code == 0, ok.output
    path = data / load(data / "manifest.toml").edition("en-other")[0].path
    path_bytes = path.read_bytes()
    (data / "manifest.toml").write_bytes(manifest)       # the manifest forgets it; the file stays
    again = add(data, other, "--edition", "en-other")
    assert again.exit_code == 1 and "exists and is not in the manifest" in again.output
    assert path.read_bytes() == path_bytes


def test_editions_are_found_by_id_and_by_language():
    manifest = load(ROOT / "data" / "manifest.toml")
    doc, ed = manifest.edition("de-2024")
    assert ed.id == "de-2024" and "de-2024" in [e.id for e in doc.editions]
    with pytest.raises(ManifestError, match=r"unknown edition 'xx-1'; known: .*de-2024, "):
        manifest.edition("xx-1")
    morph = next(d for d in manifest.documents if len(d.editions) > 1)   # the Morph page: German and English
    langs = [e.language for e in morph.editions]
    assert [morph.edition_for(lang).language for lang in langs] == langs
    assert morph.edition_for(None) == morph.editions[0]
    with pytest.raises(ManifestError, match=rf"document {morph.id}: no edition for language 'it'"):
        morph.edition_for("it")
    single = manifest.edition("de-2024")[0]
    assert single.edition_for("it") == single.editions[0]    # a one-edition document has it whatever the language


def test_kb_add_records_what_it_was_told_and_what_the_text_says(tmp_path):
    data = tmp_path / "data"
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    # a file name with another date than its text's, and no extension
    named = inbox / "MagicCompRules 2020-01-01"
    named.write_bytes(MINI.read_bytes())
    out = add(data, named, "--title", "Mini", "--source", "hand-made", "--encoding", "utf-8")
    assert out.exit_code == 0, out.output
    assert "2024-11-08" in out.output and "2020-01-01" in out.output   # both dates are said
    rules = sum(r.kind == "rule" for r in ingest.parse_document(MINI, "cr-text", "en").records)
    assert f"{rules} rules" in out.output
    (doc,) = load(data / "manifest.toml").documents
    assert (doc.id, doc.path, doc.parser, doc.encoding, doc.source, doc.partial) == (
        "en-2024-11-08", "sources/en-2024-11-08.txt", "cr-text", "utf-8", "hand-made", False)
    assert doc.sha256 == sha256_of(MINI) and (data / doc.path).read_bytes() == MINI.read_bytes()
    (ed,) = doc.editions
    assert (ed.id, ed.language, ed.date, ed.kind, ed.title) == ("en-2024-11-08", "en", "2024-11-08", "cr", "Mini")


def test_one_edition_id_for_two_files_is_refused_before_reading_them(tmp_path):
    data = tmp_path / "data"
    out = add(data, MINI, "--edition", "en-mini")
    both = CliRunner().invoke(main, ["add", str(MINI), str(MINI), "--edition", "en-x", "--data-dir", str(data)])
    assert out.exit_code == 0 and both.exit_code == 1
    assert "--edition names one edition: give it with a single file" in both.output
