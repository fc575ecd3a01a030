"""The CLI side of the site: rule numbers case-insensitive, `kb search`, the standalone diff report's links."""
import json

from click.testing import CliRunner

from kb.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_kb_rule_matches_case_insensitively(kb_db):
    for number in ("601.2F", "601.2f.", "601.2f"):
        result = run("rule", number, "--edition", "de-2024", "--db", kb_db)
        assert result.exit_code == 0 and result.output.startswith("[de-2024] 601.2f"), number


def test_kb_search(kb_db):
    result = run("search", "spielen", "--lang", "de", "--json", "--db", kb_db)
    data = json.loads(result.output)
    assert data["widened"][0]["also"] == "wirken" and data["hits"]
    assert "→ /rule/de-2024/601.2f" in run("search", "601.2F", "--db", kb_db).output
    assert "did you mean: Abwerfen" in run("search", "Abwerfn", "--db", kb_db).output


def test_standalone_diff_report_links(kb_db, tmp_path):
    out = tmp_path / "r.html"
    result = run("diff", "--from", "de-1999", "--to", "de-2024", "--format", "html", "-o", out, "--db", kb_db)
    assert result.exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and 'href="/rule/de-2024/601.2f"' in html
    run("diff", "--from", "de-1999", "--to", "de-2024", "--format", "html", "-o", out, "--base-url",
        "http://kb.example:8080/", "--db", kb_db)
    assert 'href="http://kb.example:8080/rule/de-2024/601.2f"' in out.read_text(encoding="utf-8")


def test_kb_serve_refuses_a_port_in_use(kb_db):
    """A port something listens on is refused with one line, before any server process starts."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for workers in ("1", "2"):
            result = run("serve", "--db", kb_db, "--port", port, "--workers", workers)
            assert result.exit_code == 1, workers
            assert f"cannot listen on 127.0.0.1:{port}" in result.output and "Traceback" not in result.output


def test_kb_search_prints_the_text_as_printed_not_as_html(kb_db):
    # de-1999 419.8c prints (Siehe Regel 421 "Wie man mit 'unendlichen' Schleifen umgeht".): the terminal shows
    # the quotes, not the HTML entities of the page's snippet
    out = run("search", "unendlichen Schleife", "--edition", "de-1999", "--db", kb_db).output
    line = next(line for line in out.splitlines() if " 419.8c " in line)
    assert "Regel 421 \"Wie man mit '*unendlichen*' *Schleifen* umgeht\"" in line, line
    assert "&#" not in out and "&quot;" not in out
