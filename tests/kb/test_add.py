"""`kb add`: documents named from their own text, validated before data/ is touched, one by one."""
from __future__ import annotations

import multiprocessing

import pytest
from click.testing import CliRunner

from ingest import metadata
from kb.add import AddError, AddOptions, add_files
from kb.cli import main
from kb.manifest import load
from tests.helpers import FIXTURES, SEEDS

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


@pytest.fixture
def data_dir(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "manifest.toml").write_text("# Kept header line one.\n# Kept header line two.\n", encoding="utf-8")
    return data


def state(data_dir) -> tuple:
    """Everything `kb add` may write: the manifest and the files under data/."""
    sources = data_dir / "sources"
    files = sorted((p.name, p.read_bytes()) for p in sources.glob("*")) if sources.exists() else []
    return (data_dir / "manifest.toml").read_bytes(), files


@pytest.mark.parametrize("line, date", [
    ("These rules are effective as of November 8, 2024.", "2024-11-08"),
    ("These rules are current as of April 23, 1999.", "1999-04-23"),
    ("Das Regelwerk ist gültig ab 8. November 2024.", "2024-11-08"),
    ("Regole in vigore dal 3 maggio 2019.", "2019-05-03"),
])
def test_effective_date_from_the_documents_own_words(line, date):
    assert metadata.effective_date(["Title", "", line]) == (date, 3)


def test_no_date_and_no_language_are_none():
    assert metadata.effective_date(["These rules are effective as of Smarch 8, 2024."]) is None
    assert metadata.guess_language(["601.2a 601.2b 601.2c"]) is None


def test_language_guessed_from_function_words():
    assert metadata.guess_language(MINI.read_text(encoding="utf-8").splitlines()) == "en"
    assert metadata.guess_language(SEEDS["000"].read_text(encoding="utf-8").splitlines()) == "de"
    assert metadata.guess_language(SEEDS["002"].read_text(encoding="utf-8").splitlines()) == "it"


def test_a_directory_with_bad_files_adds_the_good_ones(tmp_path, data_dir):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a-good.txt").write_bytes(MINI.read_bytes())
    text = MINI.read_text(encoding="utf-8")
    (inbox / "b-truncated.txt").write_text(text[: text.index("Glossary\n\nAbandon")], encoding="utf-8")
    (inbox / "c-blank.txt").write_text("\n\n\n", encoding="utf-8")
    (inbox / "d-cp1252-bytes.txt").write_bytes(b"\x81\x8d\x8f\x90\x9d" * 10)
    result = CliRunner().invoke(main, ["add", str(inbox), "--data-dir", str(data_dir)])
    assert result.exit_code == 1
    assert "1 of 4 file(s) added" in result.output
    assert "b-truncated.txt" in result.output and "truncated" in result.output
    assert "c-blank.txt" in result.output
    manifest = load(data_dir / "manifest.toml")
    assert [e.id for _, e in manifest.editions] == ["en-2024-11-08"]
    assert manifest.editions[0][1].language == "en" and manifest.editions[0][1].date == "2024-11-08"
    assert (data_dir / "manifest.toml").read_text(encoding="utf-8").startswith(
        "# Kept header line one.\n# Kept header line two.\n")
    assert [p.name for p in (data_dir / "sources").iterdir()] == ["en-2024-11-08.txt"]


@pytest.mark.parametrize("opts, message", [
    (AddOptions(edition="../evil"), "bad edition id"),
    (AddOptions(language="english"), "bad language"),
    (AddOptions(date="8 Nov 2024"), "bad date"),
    (AddOptions(parser="nope"), "unknown parser"),
])
def test_bad_arguments_are_refused_before_anything_is_written(data_dir, opts, message):
    before = state(data_dir)
    with pytest.raises(AddError, match=message):
        add_files([MINI], opts, data_dir)
    assert state(data_dir) == before


def test_the_same_file_twice_and_a_file_already_in_data_are_clear_messages(data_dir):
    assert add_files([MINI], AddOptions(), data_dir)[0].ok
    before = state(data_dir)
    again = add_files([MINI], AddOptions(edition="en-other"), data_dir)[0]
    assert not again.ok and "already in the manifest as edition en-2024-11-08" in again.message
    inside = add_files([data_dir / "sources" / "en-2024-11-08.txt"], AddOptions(edition="en-copy"), data_dir)[0]
    assert not inside.ok and "already in the manifest" in inside.message
    assert state(data_dir) == before


def test_a_document_without_rules_needs_allow_partial(tmp_path, data_dir):
    readme = tmp_path / "README.txt"
    readme.write_text("These rules are effective as of November 8, 2024.\n\nThis is a readme of the project, "
                      "not a rules document. It has some words and the usual function words of the text.\n" * 3,
                      encoding="utf-8")
    refused = add_files([readme], AddOptions(parser="morph-wiki"), data_dir)[0]
    assert not refused.ok and "no rule found" in refused.message and "README.txt:" in refused.message
    accepted = add_files([readme], AddOptions(parser="morph-wiki", allow_partial=True), data_dir)[0]
    assert accepted.ok and any("allow-partial" in n for n in accepted.notes)


def _add_variant(args) -> bool:
    data_dir, path, edition = args
    return add_files([path], AddOptions(edition=edition), data_dir)[0].ok


def test_parallel_adds_lose_no_entry(tmp_path, data_dir):
    text = MINI.read_text(encoding="utf-8")
    jobs = []
    for i in range(8):
        path = tmp_path / f"variant-{i}.txt"
        path.write_text(text.replace("hand-made miniature", f"hand-made miniature number {i}"), encoding="utf-8")
        jobs.append((data_dir, path, f"en-variant-{i}"))
    with multiprocessing.get_context("fork").Pool(4) as pool:
        assert all(pool.map(_add_variant, jobs))
    assert sorted(e.id for _, e in load(data_dir / "manifest.toml").editions) == [f"en-variant-{i}" for i in range(8)]


@pytest.mark.parametrize("seed, parser, lang", [("000", "cr-web", "de"), ("002", "it-wiki", "it"),
                                                ("003", "article", "de"), ("004", "morph-wiki", "de")])
def test_a_truncated_copy_of_a_web_page_is_refused(tmp_path, data_dir, seed, parser, lang):
    lines = SEEDS[seed].read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "half.txt"
    cut.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    before = state(data_dir)
    opts = AddOptions(parser=parser, edition="x-half", language=lang, date="2024")
    refused = add_files([cut], opts, data_dir)[0]
    last = max(n for n, line in enumerate(lines[: len(lines) // 2], 1) if line.strip())
    assert not refused.ok and f"half.txt:{last}:" in refused.message and "footer" in refused.message
    assert state(data_dir) == before
    whole = add_files([SEEDS[seed]], AddOptions(parser=parser, edition="x-whole", language=lang, date="2024"),
                      data_dir)[0]
    assert whole.ok, whole.message


def test_a_partial_document_is_built_with_a_warning(tmp_path, data_dir):
    from kb.build import build

    lines = SEEDS["004"].read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "morph-half.txt"
    cut.write_text("".join(lines[:80]), encoding="utf-8")
    opts = AddOptions(parser="morph-wiki", edition="de-morph-half", language="de", date="2007", kind="excerpt",
                      allow_partial=True)
    added = add_files([cut], opts, data_dir)[0]
    assert added.ok and "partial = true" in (data_dir / "manifest.toml").read_text(encoding="utf-8")
    report = build(tmp_path / "kb.db", data_dir, stages=False)
    assert any(w["code"] == "incomplete" for w in report.warnings)
