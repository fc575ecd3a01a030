"""`kb add` on a machine whose locale is not UTF-8 (a server with LANG=C and no UTF-8 mode): the manifest is
read and written as UTF-8 all the same, so the German and Italian titles and sources of the real manifest
(data/manifest.toml: "Das Ausführliche Regelwerk", "revisioni 2016–2022") and its comments come back as they
were, and nothing ends in a UnicodeError."""
import locale

import pytest

from kb.add import AddOptions, add_files
from kb.manifest import load
from tests.helpers import FIXTURES, ROOT

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


@pytest.fixture
def ascii_locale():
    """The C locale for the text encoding (ASCII), as on a server without a UTF-8 locale; restored after."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        assert locale.getpreferredencoding(False) in ("ANSI_X3.4-1968", "US-ASCII", "ascii")
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


def test_kb_add_under_an_ascii_locale_keeps_the_manifest_utf8(tmp_path, ascii_locale):
    data = tmp_path / "data"
    data.mkdir()
    text = "# Quellen – Kommentar mit Umlauten: Ausführliche Regeln\n" + (
        ROOT / "data" / "manifest.toml").read_text(encoding="utf-8")
    (data / "manifest.toml").write_text(text, encoding="utf-8")
    before = load(data / "manifest.toml")
    (result,) = add_files([MINI], AddOptions(edition="en-mini", title="Mini – Regelwerk für Tests"), data)
    assert result.ok, result.message
    written = (data / "manifest.toml").read_bytes().decode("utf-8")
    assert written.startswith("# Quellen – Kommentar mit Umlauten: Ausführliche Regeln\n# Source documents")
    after = load(data / "manifest.toml")
    assert after.documents[:-1] == before.documents
    assert after.edition("en-mini")[1].title == "Mini – Regelwerk für Tests"
    assert "Das Ausführliche Regelwerk, Kapitel 6 (gültig ab 8. November 2024)" in [
        e.title for _, e in after.editions]
