"""A hand-edited manifest in which two documents declare the same edition id is refused with a clear message
naming the manifest and the id, and the knowledge base stays as it was (issue 33: with the check dropped, `kb
build` ended in an sqlite IntegrityError traceback)."""
import shutil

from click.testing import CliRunner

from kb.cli import main
from kb.manifest import sha256_of
from tests.helpers import FIXTURES

MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"


def document(name: str, sha: str, edition: str) -> str:
    return (f'\n[[document]]\nid = "{name}"\npath = "sources/{name}.txt"\nsha256 = "{sha}"\nparser = "cr-text"\n'
            f'\n[[document.edition]]\nid = "{edition}"\nlanguage = "en"\ndate = "2024-11-08"\nkind = "cr"\n')


def test_two_documents_with_one_edition_id_are_refused_and_the_kb_is_kept(tmp_path):
    data = tmp_path / "data"
    (data / "sources").mkdir(parents=True)
    for name in ("mini-a", "mini-b"):
        shutil.copy(MINI, data / "sources" / f"{name}.txt")
    sha = sha256_of(MINI)
    manifest = data / "manifest.toml"
    manifest.write_text("# hand-written\n" + document("mini-a", sha, "en-mini"), encoding="utf-8")
    db = tmp_path / "kb.db"
    db.write_bytes(before := b"the knowledge base built before the manifest was edited")
    manifest.write_text(manifest.read_text(encoding="utf-8") + document("mini-b", sha, "en-mini"), encoding="utf-8")
    again = CliRunner().invoke(main, ["build", "-q", "--force", "--data-dir", str(data), "--db", str(db)])
    assert again.exit_code == 1, again.output
    assert isinstance(again.exception, SystemExit) and "Traceback" not in again.output   # a message, not a crash
    assert "manifest.toml" in again.output and "'en-mini'" in again.output, again.output
    assert db.read_bytes() == before
