"""The kb command line on the real KB and on small hand-made data folders."""
import json
import shutil

import pytest
from click.testing import CliRunner

from kb.cli import main
from tests.helpers import ROOT

FIXTURE = ROOT / "tests/fixtures/cr_text/MagicCompRules-mini.txt"


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def test_editions_json(kb_db):
    result = run("editions", "--json", "--db", kb_db)
    assert result.exit_code == 0
    rows = {r["id"]: r for r in json.loads(result.output)}
    assert set(rows) == {"de-2024", "de-1999", "it-wiki", "de-article-2009", "de-morph-2007", "en-morph-2007",
                         "en-1999-04-23", "en-2024-11-08"}
    assert rows["de-1999"] == {**rows["de-1999"], "language": "de", "date": "1999-04-02", "kind": "cr",
                               "parser": "cr-1999-pdf", "source": "data/sources/001_0c3355379ebe2b1a.txt"}


def test_rule_prints_text_examples_citations(kb_db):
    result = run("rule", "601.2h", "--edition", "de-2024", "--db", kb_db)
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    assert "Teilzahlungen sind nicht erlaubt" in out
    assert "Beispiel: Du wirkst Ernte des Altars" in out
    assert "cited by: 601.2," in out


def test_rule_in_every_edition_and_unknown_rule(kb_db):
    result = run("rule", "601.2c", "--db", kb_db)
    assert "[de-2024] 601.2c" in result.output and "[it-wiki] 601.2c" in result.output
    missing = run("rule", "999.9", "--db", kb_db)
    assert missing.exit_code == 1 and "no rule 999.9" in missing.output


def test_stats_reports_every_document_fully_attributed(kb_db):
    result = run("stats", "--json", "--db", kb_db)
    rows = json.loads(result.output)
    assert len(rows) == 7
    assert all(r["share"] == 1.0 and r["kinds"]["unparsed"] == 0 for r in rows)
    assert rows[0]["nonblank_lines"] > 0


def test_parsers_lists_every_format():
    out = run("parsers").output
    for name in ("cr-text", "cr-web", "cr-1999-pdf", "it-wiki", "article", "morph-wiki"):
        assert name in out


def test_missing_database_is_a_clear_error(tmp_path):
    result = run("stats", "--db", tmp_path / "nope.db")
    assert result.exit_code == 1 and "run `kb build` first" in result.output


@pytest.fixture
def data_dir(tmp_path):
    data = tmp_path / "data"
    (data / "sources").mkdir(parents=True)
    (data / "manifest.toml").write_text("")
    return data


def test_add_then_build_ingests_the_new_document(tmp_path, data_dir):
    result = run("add", FIXTURE, "--parser", "cr-text", "--edition", "en-mini", "--language", "en",
                 "--date", "2024-11-08", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    assert (data_dir / "sources" / "en-mini.txt").read_bytes() == FIXTURE.read_bytes()
    assert 'parser = "cr-text"' in (data_dir / "manifest.toml").read_text()
    db = tmp_path / "kb.db"
    assert run("build", "--data-dir", data_dir, "--db", db, "-q").exit_code == 0
    out = run("rule", "601.2c", "--db", db).output
    assert "[en-mini] 601.2c" in out and "Example:" in out
    again = run("add", FIXTURE, "--parser", "cr-text", "--edition", "en-mini", "--language", "en",
                "--date", "2024-11-08", "--data-dir", data_dir)
    assert again.exit_code == 1 and "already in the manifest" in again.output


def test_add_refuses_unknown_parser(data_dir):
    result = run("add", FIXTURE, "--parser", "nope", "--edition", "x", "--language", "en", "--date", "2024",
                 "--data-dir", data_dir)
    assert result.exit_code == 1 and "unknown parser 'nope'" in result.output and "cr-text" in result.output


def test_build_reports_bad_input_with_file_and_line(tmp_path, data_dir):
    text = FIXTURE.read_text(encoding="utf-8")
    bad = tmp_path / "cut.txt"
    bad.write_text(text[: text.index("Glossary\n\nAbandon")], encoding="utf-8")
    assert run("add", bad, "--parser", "cr-text", "--edition", "en-cut", "--language", "en", "--date", "2024",
               "--data-dir", data_dir).exit_code == 1  # kb add already refuses it
    shutil.copy(bad, data_dir / "sources" / "cut.txt")
    import hashlib
    digest = hashlib.sha256(bad.read_bytes()).hexdigest()
    (data_dir / "manifest.toml").write_text(
        f'[[document]]\nid = "cut"\npath = "sources/cut.txt"\nsha256 = "{digest}"\nparser = "cr-text"\n'
        f'[[document.edition]]\nid = "en-cut"\nlanguage = "en"\ndate = "2024"\nkind = "cr"\n')
    db = tmp_path / "kb.db"
    result = run("build", "--data-dir", data_dir, "--db", db)
    assert result.exit_code == 1
    line = text[: text.index("Glossary\n\nAbandon")].count("\n")
    assert f"data/sources/cut.txt:{line}: truncated file" in result.output
    assert not db.exists()


def test_lazy_commands_name_every_command_of_their_modules():
    """kb/cli.py lists the commands of other modules by name (so that it need not import them to start): the
    list names each module's COMMANDS exactly, and every one of them runs under its name."""
    import importlib

    from kb.cli import LAZY_COMMANDS

    for module in set(LAZY_COMMANDS.values()):
        defined = {c.name for c in importlib.import_module(module).COMMANDS}
        assert defined == {name for name, m in LAZY_COMMANDS.items() if m == module}, module
    result = run("--help")
    assert result.exit_code == 0 and all(name in result.output for name in LAZY_COMMANDS)
    assert run("align-eval", "--help").exit_code == 0


def test_starting_the_cli_does_not_import_what_build_does_not_need():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys, kb.cli; print(sorted({'networkx', 'kb.graph.cli', "
                          "'kb.site.cli'} & set(sys.modules)))"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_program_flushes_its_output_and_keeps_exit_codes(kb_db):
    """``python -m kb`` leaves without the interpreter's teardown (kb.cli.run): piped output still arrives whole
    and the exit codes are click's."""
    import subprocess
    import sys

    def kb(*args):
        return subprocess.run([sys.executable, "-m", "kb", *map(str, args)], capture_output=True, text=True,
                              cwd=ROOT)

    listed = kb("editions", "--json", "--db", kb_db)
    assert listed.returncode == 0 and {r["id"] for r in json.loads(listed.stdout)} >= {"de-2024", "de-1999"}
    missing = kb("rule", "999.9z", "--db", kb_db)
    assert missing.returncode == 1 and "no rule 999.9z" in missing.stderr
    assert kb("no-such-command").returncode == 2


def test_a_file_or_output_the_system_refuses_is_an_error_message_not_a_traceback(kb_db, tmp_path):
    import subprocess
    import sys

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "kb", "graph", "export", "--db", str(kb_db),
                          "--out", str(blocker / "graph.graphml")], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"Error: {blocker}: ") and len(out.stderr.splitlines()) == 1
    with open("/dev/full", "w") as full:   # a full disk under the output
        out = subprocess.run([sys.executable, "-m", "kb", "history", "601.2c", "--db", str(kb_db)], stdout=full,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert out.returncode == 1 and out.stderr.strip() == "Error: output: No space left on device"
