"""`kb add`, step by step as a user meets it: which files a folder stands for, the arguments refused before anything
is read (each message written out), a file's edition named from its own text unless the flags say otherwise, what
the manifest records, and a file refused on its own with data/ left as it was — also when the file changes while it
is being added, or the manifest cannot be written.

The hand-made miniature of the official text (tests/fixtures/cr_text), edited where a case needs it."""
from __future__ import annotations

import pytest

import ingest
from kb import add as A
from kb.add import AddError, AddOptions, add_files, expand
from kb.manifest import load, save
from tests.helpers import FIXTURES

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"
TEXT = MINI.read_text(encoding="utf-8")
STATED = "These rules are effective as of November 8, 2024."


@pytest.fixture
def data(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "manifest.toml").write_text("# header\n", encoding="utf-8")
    return data


def state(data) -> tuple:
    """The manifest and every file under data/ (the lock file that `kb add` takes aside)."""
    return (data / "manifest.toml").read_bytes(), sorted((p.name, p.read_bytes()) for p in data.rglob("*")
                                                         if p.is_file() and p.name not in ("manifest.toml",
                                                                                           ".manifest.lock"))


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_folder_stands_for_its_text_files_in_name_order(tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "sub").mkdir(parents=True)
    for name in ("b.txt", "A.TXT", "notes.md", "sub/c.txt", "c.txt.bak"):
        (inbox / name).write_text("x", encoding="utf-8")
    single = tmp_path / "single.md"
    assert expand([single, inbox, MINI]) == [single, inbox / "A.TXT", inbox / "b.txt", MINI]


@pytest.mark.parametrize("opts, files, message", [
    (AddOptions(parser="nope"), 1,
     "unknown parser 'nope'; known parsers: article, cr-1999-pdf, cr-text, cr-web, it-wiki, morph-wiki"),
    (AddOptions(edition="en-x"), 2,
     "--edition names one edition: give it with a single file (the others are named from their own text)"),
    (AddOptions(edition="-en"), 1, "bad edition id '-en': lower-case letters, digits and '-', starting with a "
                                   "letter or digit (e.g. en-2024-11-08)"),
    (AddOptions(edition="e" * 65), 1, f"bad edition id '{'e' * 65}': lower-case letters, digits and '-', starting "
                                      "with a letter or digit (e.g. en-2024-11-08)"),
    (AddOptions(language="EN"), 1, "bad language 'EN': a two-letter ISO 639-1 code such as en, de, it"),
    (AddOptions(date="2024-11-31"), 1, "bad date '2024-11-31': day is out of range for month"),
    (AddOptions(kind="book"), 1, "bad kind 'book': one of cr, article, excerpt"),
    (AddOptions(encoding="klingon"), 1,
     "unknown encoding 'klingon' (\"auto\" or a Python codec name such as utf-8, cp1252)"),
])
def test_bad_arguments_are_refused_with_what_is_wrong(data, opts, files, message):
    before = state(data)
    with pytest.raises(AddError) as e:
        add_files([MINI] * files, opts, data)
    assert str(e.value) == message
    assert state(data) == before


def test_the_longest_edition_id_and_every_kind_are_taken(data):
    for kind in ("cr", "article", "excerpt"):
        A.check_options(AddOptions(edition="e" * 64, kind=kind, language="de", date="2024-02"), 1)


def test_the_edition_is_named_from_the_documents_own_text(tmp_path, data):
    upper = write(tmp_path, "MINI.TXT", TEXT)
    (added,) = add_files([upper], AddOptions(), data)
    assert added.ok and added.edition == "en-2024-11-08" and added.path == upper
    assert added.message.startswith("added as edition en-2024-11-08 (") and added.message.endswith(
        "sources/en-2024-11-08.txt)")
    (doc,) = load(data / "manifest.toml").documents
    (ed,) = doc.editions
    assert (doc.id, doc.path, doc.parser, doc.encoding, doc.source, doc.partial) == (
        "en-2024-11-08", "sources/en-2024-11-08.txt", "cr-text", "auto", "", False)
    assert (ed.id, ed.language, ed.date, ed.kind, ed.title) == (
        "en-2024-11-08", "en", "2024-11-08", "cr",
        "Magic: The Gathering Comprehensive Rules (effective as of November 8, 2024)")
    assert (data / doc.path).read_bytes() == upper.read_bytes()


def test_the_flags_say_what_the_text_does_not(tmp_path, data):
    undated = write(tmp_path, "undated.txt", TEXT.replace(STATED, "These rules are effective from now on."))
    refused = add_files([undated], AddOptions(), data)[0]
    assert not refused.ok and refused.message == (
        f"{undated}: the document does not state its date (\"These rules are effective as of …\"); give --date")
    (added,) = add_files([undated], AddOptions(date="2024-11", language="de", kind="excerpt", title="Auszug"), data)
    assert added.ok and added.edition == "de-2024-11"
    ed = load(data / "manifest.toml").edition("de-2024-11")[1]
    assert (ed.language, ed.date, ed.kind, ed.title) == ("de", "2024-11", "excerpt", "Auszug")
    # the flags win over the text
    (named,) = add_files([MINI], AddOptions(edition="en-mini", date="2024-12-01"), data)
    assert named.ok and load(data / "manifest.toml").edition("en-mini")[1].date == "2024-12-01"
    assert not any("file name says" in n for n in named.notes)
    # a date given with --date is not compared with the file name's
    stamped = write(tmp_path, "MagicCompRules-2020-01-24.txt", TEXT.replace("miniature", "miniature, dated"))
    (dated,) = add_files([stamped], AddOptions(edition="en-dated", date="2024-11-08"), data)
    assert dated.ok and not any("file name says" in n for n in dated.notes)


def test_what_is_said_about_the_file(tmp_path, data):
    stamped = write(tmp_path, "MagicCompRules 20200124.txt", TEXT)     # a date, but not as YYYY-MM-DD
    (added,) = add_files([stamped], AddOptions(), data)
    assert added.ok and not any("file name" in n for n in added.notes)
    parsed = ingest.parse_document(MINI, "cr-text", "en")
    rules = sum(r.kind == "rule" for r in parsed.records)
    assert added.notes == [f"{len(parsed.records)} records, {rules} rules, {len(parsed.warnings)} warnings"]
    named = write(tmp_path, "MagicCompRules-2020-01-24.txt", TEXT.replace("hand-made miniature", "miniature"))
    (added,) = add_files([named], AddOptions(edition="en-named"), data)
    assert added.notes[0] == "its own text says 2024-11-08 (line 3); the file name says 2020-01-24"


def test_a_file_that_cannot_be_named_is_refused(tmp_path, data):
    before = state(data)
    missing = tmp_path / "missing.txt"
    (refused,) = add_files([missing], AddOptions(), data)
    assert (refused.path, refused.ok, refused.message) == (missing, False, f"{missing}: no such file")
    numbers = write(tmp_path, "numbers.txt", f"{STATED}\n" + "601.2 602.1 603.4\n" * 30)
    assert add_files([numbers], AddOptions(), data)[0].message == (
        f"{numbers}: cannot tell the document's language; give --language")
    impossible = write(tmp_path, "feb.txt", TEXT.replace(STATED, "These rules are effective as of February 30, 2023."))
    assert add_files([impossible], AddOptions(), data)[0].message == (
        f"{impossible}:3: bad date '2023-02-30': day is out of range for month; give --date")
    assert state(data) == before


def test_a_data_folder_that_does_not_exist_yet_is_made(tmp_path):
    data = tmp_path / "new" / "kb" / "data"
    assert add_files([MINI], AddOptions(), data)[0].ok
    assert [e.id for _, e in load(data / "manifest.toml").editions] == ["en-2024-11-08"]


def test_an_empty_manifest_is_a_manifest_without_documents(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "manifest.toml").write_text("\n\n", encoding="utf-8")
    assert add_files([MINI], AddOptions(), data)[0].ok
    assert [e.id for _, e in load(data / "manifest.toml").editions] == ["en-2024-11-08"]


def test_an_edition_id_that_names_a_document_is_refused(tmp_path, data):
    assert add_files([MINI], AddOptions(), data)[0].ok         # document and edition en-2024-11-08
    manifest = load(data / "manifest.toml")
    manifest.documents[0].editions[0].id = "en-mini"          # as a hand-edited manifest may have it
    save(manifest, data / "manifest.toml")
    before = state(data)
    other = write(tmp_path, "other.txt", TEXT + "\nOne more line.\n")
    refused = add_files([other], AddOptions(edition="en-2024-11-08"), data)[0]
    assert not refused.ok and refused.message == (f"{other}: edition 'en-2024-11-08' is already in the manifest "
                                                  "(give another --edition to keep both)")
    assert state(data) == before


def test_a_file_that_changes_while_it_is_added_is_refused_and_leaves_nothing(tmp_path, data, monkeypatch):
    changing = write(tmp_path, "changing.txt", TEXT)
    prepare = A._prepare

    def edited_meanwhile(path, opts, data_dir):
        found = prepare(path, opts, data_dir)
        path.write_text(TEXT + "\nA line written while kb add was reading.\n", encoding="utf-8")
        return found

    monkeypatch.setattr(A, "_prepare", edited_meanwhile)
    before = state(data)
    (refused,) = add_files([changing], AddOptions(), data)
    assert not refused.ok and refused.message == f"{changing}: the file changed while it was being added; try again"
    assert state(data) == before


def test_a_manifest_that_cannot_be_written_leaves_no_copied_file(tmp_path, data, monkeypatch):
    def full_disk(manifest, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(A, "save", full_disk)
    before = state(data)
    with pytest.raises(OSError, match="No space left"):
        add_files([MINI], AddOptions(), data)
    assert state(data) == before
