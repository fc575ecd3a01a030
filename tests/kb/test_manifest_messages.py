"""What a person editing the manifest by hand is told: the file, the line of the value at fault and what is wrong
with it, in words (every message written out here); a manifest that is right reads back as written.

Small hand-made manifests of one or two documents (the hand-made miniature of the official text)."""
from __future__ import annotations

import pytest

from kb.manifest import Document, EditionEntry, Manifest, ManifestError, load, save, sha256_of, validate
from tests.helpers import FIXTURES

SHA = sha256_of(FIXTURES / "cr_text" / "MagicCompRules-mini.txt")


def document(doc: str = "", edition: str = "", name: str = "mini", edition_id: str = "en-mini") -> str:
    """A [[document]] with one [[document.edition]], lines added to each."""
    return (f'[[document]]\nid = "{name}"\npath = "sources/{name}.txt"\nsha256 = "{SHA}"\nparser = "cr-text"\n'
            f'encoding = "auto"\n{doc}\n[[document.edition]]\nid = "{edition_id}"\nlanguage = "en"\n'
            f'date = "2024-11-08"\nkind = "cr"\n{edition}')


def refused(tmp_path, text: str | bytes) -> str:
    path = tmp_path / "manifest.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as e:
        load(path)
    message = str(e.value)
    assert message.startswith(f"{path}:"), message
    return message[len(str(path)):]


def line_of(text: str, needle: str) -> int:
    return next(no for no, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_file_that_is_no_manifest(tmp_path):
    with pytest.raises(ManifestError) as e:
        load(tmp_path / "none.toml")
    assert str(e.value) == f"{tmp_path / 'none.toml'}: manifest not found"
    assert refused(tmp_path, b"# comment\n\n[[document]]\nid = \"caf\xe9\"\n") == ":4: not UTF-8"
    # a file that begins with an empty line: that line is counted too
    assert refused(tmp_path, b"\n# comment\n\n[[document]]\nid = \"caf\xe9\"\n") == ":5: not UTF-8"
    bad = refused(tmp_path, "# comment\n[[document]]\nid = \n")
    assert bad.startswith(": ") and "line 3" in bad
    assert refused(tmp_path, "# comment\n\ntitle = \"Rules\"\n" + document()) == (
        ":3: a manifest holds [[document]] tables only")
    assert refused(tmp_path, "document = 5\n") == ":1: a manifest holds [[document]] tables only"


def test_tables_and_keys(tmp_path):
    assert refused(tmp_path, 'document = ["x"]\n') == ":1: [[document]] must be a table"
    text = "# one\n" + document().split("\n[[document.edition]]")[0] + '\nedition = ["x"]\n'
    assert refused(tmp_path, text) == ":2: [[document.edition]] must be a table"     # (its document's line)
    # editions written inline, a key of the document after them: still checked
    text = document().split("\n[[document.edition]]")[0] + (
        '\nedition = [{id = "en-mini", language = "en", date = "2024", kind = "cr"}]\nsince = "1999"\n')
    assert refused(tmp_path, text) == (f":{line_of(text, 'since')}: [[document]]: unknown key 'since' (known: "
                                       "encoding, id, notes, parser, partial, path, sha256, source)")
    text = document().split("\n[[document.edition]]")[0] + "\n"
    assert refused(tmp_path, "# one\n" + text) == ":2: [[document]] without a [[document.edition]]"
    text = document(doc='since = "1999"\n')
    assert refused(tmp_path, text) == (f":{line_of(text, 'since')}: [[document]]: unknown key 'since' (known: "
                                       "encoding, id, notes, parser, partial, path, sha256, source)")
    text = document(edition='since = "1999"\n')
    assert refused(tmp_path, text) == (f":{line_of(text, 'since')}: [[document.edition]]: unknown key 'since' "
                                       "(known: align_with, covers, date, family, id, kind, language, title, "
                                       "translation_of)")
    text = document().replace('language = "en"\ndate = "2024-11-08"\n', "")
    assert refused(tmp_path, text) == (f":{line_of(text, '[[document.edition]]')}: [[document.edition]]: "
                                       "missing language, date")
    text = document().replace(f'sha256 = "{SHA}"\n', "")
    assert refused(tmp_path, text) == ":1: [[document]]: missing sha256"


@pytest.mark.parametrize("doc, edition, key, message", [
    ("partial = \"yes\"\n", "", "partial", "[[document]]: partial = 'yes' must be true or false"),
    ("notes = 5\n", "", "notes", "[[document]]: notes = 5 must be a string"),
    ("", "covers = \"6\"\n", "covers", "[[document.edition]]: covers = '6' must be a list of strings"),
    ("", "align_with = [1]\n", "align_with", "[[document.edition]]: align_with = [1] must be a list of strings"),
    ("", "title = true\n", "title", "[[document.edition]]: title = True must be a string"),
])
def test_a_value_of_the_wrong_type(tmp_path, doc, edition, key, message):
    text = document(doc=doc, edition=edition)
    assert refused(tmp_path, text) == f":{line_of(text, key + ' =')}: {message}"


@pytest.mark.parametrize("old, new, message", [
    ('id = "mini"', 'id = "Mini"', "document Mini: bad id 'Mini' (lower-case letters, digits and '-')"),
    ('path = "sources/mini.txt"', 'path = "../mini.txt"',
     "document mini: bad path '../mini.txt': a file under the data folder (e.g. sources/en-2024-11-08.txt)"),
    ('path = "sources/mini.txt"', 'path = "/etc/mini.txt"',
     "document mini: bad path '/etc/mini.txt': a file under the data folder (e.g. sources/en-2024-11-08.txt)"),
    ('path = "sources/mini.txt"', 'path = ""',
     "document mini: bad path '': a file under the data folder (e.g. sources/en-2024-11-08.txt)"),
    (f'sha256 = "{SHA}"', f'sha256 = "{SHA.upper()}"', f"document mini: bad sha256 '{SHA.upper()}': 64 hex digits"),
    (f'sha256 = "{SHA}"', f'sha256 = "{SHA[:-1]}"', f"document mini: bad sha256 '{SHA[:-1]}': 64 hex digits"),
    ('parser = "cr-text"', 'parser = "pdf"', "document mini: unknown parser 'pdf' (known: article, cr-1999-pdf, "
                                             "cr-text, cr-web, it-wiki, morph-wiki)"),
    ('encoding = "auto"', 'encoding = "klingon"', "document mini: unknown encoding 'klingon' (\"auto\" or a Python "
                                                  "codec name such as utf-8, cp1252)"),
    ('id = "en-mini"', 'id = "en_mini"', "edition en_mini: bad id 'en_mini' (lower-case letters, digits and '-')"),
    ('language = "en"', 'language = "eng"',
     "edition en-mini: bad language 'eng': a two-letter ISO 639-1 code such as en, de, it"),
    ('date = "2024-11-08"', 'date = "2024-13-08"', "edition en-mini: bad date '2024-13-08': month must be in 1..12"),
    ('date = "2024-11-08"', 'date = "2023-02-29"', "edition en-mini: bad date '2023-02-29': day is out of range "
                                                   "for month"),
    ('date = "2024-11-08"', 'date = "8.11.2024"', "edition en-mini: bad date '8.11.2024': YYYY-MM-DD (or YYYY-MM, "
                                                  "YYYY)"),
    ('kind = "cr"', 'kind = "book"', "edition en-mini: kind 'book' not one of cr, article, excerpt"),
    ('kind = "cr"', 'kind = "cr"\ntranslation_of = "en-1800"',
     "edition en-mini: translation_of names no edition of the manifest: en-1800"),
    ('kind = "cr"', 'kind = "cr"\nalign_with = ["en-mini", "x-1", "x-2"]',
     "edition en-mini: align_with names no edition of the manifest: x-1, x-2"),
])
def test_a_wrong_value_is_named_with_its_line_and_what_is_wrong(tmp_path, old, new, message):
    text = document()
    assert old in text
    text = text.replace(old, new, 1)
    assert refused(tmp_path, text) == f":{line_of(text, new.splitlines()[-1])}: {message}"


def test_two_editions_with_one_id_and_editions_named_before_they_are_declared(tmp_path):
    text = document() + "\n" + document(name="other", edition_id="en-mini")
    second = [no for no, line in enumerate(text.splitlines(), 1) if line == 'id = "en-mini"'][-1]
    assert refused(tmp_path, text) == f":{second}: edition en-mini: edition id 'en-mini' used twice"
    # an edition may name one declared further down
    text = document(edition='translation_of = "en-other"\nalign_with = ["en-other"]\n') + "\n" + document(
        name="other", edition_id="en-other")
    (tmp_path / "manifest.toml").write_text(text, encoding="utf-8")
    assert [e.id for _, e in load(tmp_path / "manifest.toml").editions] == ["en-mini", "en-other"]


def test_a_manifest_not_read_from_a_file_is_named_as_given():
    doc = Document("mini", "sources/mini.txt", SHA, "cr-text", [EditionEntry("en-mini", "en", "2024", "novel")])
    with pytest.raises(ManifestError) as e:
        validate(Manifest([doc]))
    assert str(e.value) == "manifest:1: edition en-mini: kind 'novel' not one of cr, article, excerpt"
    with pytest.raises(ManifestError) as e:
        validate(Manifest([doc]), "data/manifest.toml")
    assert str(e.value).startswith("data/manifest.toml:1: edition en-mini: kind 'novel'")


def test_what_is_saved_reads_back_and_only_what_was_said_is_written(tmp_path):
    path = tmp_path / "manifest.toml"
    path.write_text("# first comment\n# second comment\n\n" + document(), encoding="utf-8")
    doc = Document("two", "sources/two.txt", SHA, "cr-web", [
        EditionEntry("de-two", "de", "2024-11-08", "cr", "Zwei", covers=["6", "702.34"], translation_of="en-mini"),
        EditionEntry("en-two", "en", "2024", "excerpt", family="en-cr", align_with=["en-mini"])],
        encoding="cp1252", source='a "quoted" source = scraped', partial=True)
    save(Manifest([*load(path).documents, doc]), path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# first comment\n# second comment\n\n[[document]]\n")
    assert load(path).documents[1] == doc
    written = text.split("\n\n[[document]]\n")[2]
    assert written.splitlines() == [
        'id = "two"', 'path = "sources/two.txt"', f'sha256 = "{SHA}"', 'parser = "cr-web"', 'encoding = "cp1252"',
        'source = "a \\"quoted\\" source = scraped"', "partial = true", "", "[[document.edition]]", 'id = "de-two"',
        'language = "de"', 'date = "2024-11-08"', 'kind = "cr"', 'title = "Zwei"', 'translation_of = "en-mini"',
        'covers = ["6", "702.34"]', "", "[[document.edition]]", 'id = "en-two"', 'language = "en"', 'date = "2024"',
        'kind = "excerpt"', 'family = "en-cr"', 'align_with = ["en-mini"]']
    assert not list(tmp_path.glob(".*.tmp"))      # (written to a temporary file, then renamed)
    fresh = tmp_path / "new.toml"
    save(Manifest([doc]), fresh)
    assert fresh.read_text(encoding="utf-8").startswith(
        "# Source documents of the knowledge base. Managed by `kb add`; see kb/manifest.py.\n\n[[document]]\n")
