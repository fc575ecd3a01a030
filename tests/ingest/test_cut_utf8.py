"""A UTF-8 document cut inside a multi-byte character is truncated, and refused as such: it is not decoded as
cp1252 (the other encoding the plain-text rules were published in), which reads the file as mojibake — and adds
it, when no byte of it is one that cp1252 lacks (issue 33).

The cases: each real UTF-8 document without a byte-order mark (the seeds; the English 2024 rules without their
BOM) cut after the first byte of its last non-ASCII character, as a download that stopped a few bytes short."""
from pathlib import Path

import pytest
from click.testing import CliRunner

import ingest
from ingest import SourceError
from kb.cli import main
from tests.helpers import SEEDS

ENGLISH_2024 = Path(__file__).resolve().parents[1] / "corpus" / "crs" / "en-2024-11-08.txt"
CASES = {  # document, its parser, its language, its last non-ASCII character
    "de-2024": (SEEDS["000"], "cr-web", "de", "ü"),
    "de-article-2009": (SEEDS["003"], "article", "de", "ü"),
    "morph-wiki": (SEEDS["004"], "morph-wiki", "de", "ä"),
    "en-2024-11-08": (ENGLISH_2024, "cr-text", "en", "©"),
}


def cut(source: Path, char: str, to: Path) -> Path:
    data = source.read_bytes().removeprefix(b"\xef\xbb\xbf")
    to.parent.mkdir(parents=True, exist_ok=True)
    to.write_bytes(data[:data.rindex(char.encode("utf-8")) + 1])   # after the first byte of that character
    return to


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_parser_says_truncated_at_the_last_line(case, tmp_path):
    source, parser, lang, char = CASES[case]
    path = cut(source, char, tmp_path / f"{case}-cut.txt")
    with pytest.raises(SourceError) as e:
        ingest.parse_document(path, parser, lang)
    assert e.value.line == path.read_bytes().count(b"\n") + 1
    assert "truncated" in e.value.message and str(path) in str(e.value)


def test_kb_add_refuses_it_and_writes_nothing(tmp_path):
    path = cut(SEEDS["003"], "ü", tmp_path / "inbox" / "artikel-cut.txt")
    data = tmp_path / "data"
    data.mkdir()
    manifest = data / "manifest.toml"
    manifest.write_text("# kept as it is\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["add", str(path), "--data-dir", str(data), "--parser", "article", "--kind",
                                    "article", "--language", "de", "--date", "2009-12-28"])
    assert out.exit_code == 1, out.output
    assert path.name in out.output and "truncated" in out.output, out.output
    assert manifest.read_text(encoding="utf-8") == "# kept as it is\n"
    assert not (data / "sources").exists() or not any((data / "sources").iterdir())
