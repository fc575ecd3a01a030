"""Hostile input gets a clear answer and changes nothing: no 5xx, no write, limits enforced by design."""
import hashlib
import json
import socket
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb import serve
from kb.site import guard, http, sandbox, sqlguard
from tests.helpers import ROOT

from .conftest import Client

HOSTILE_GET = [
    "/rule/de-2024/601.2f/extra", "/rule/de-2024/601.2f/extra/more", "/rule/%00/%ff", "/rule/de-2024/" + "9" * 5000,
    "/kb/rules?_sort=nope", "/kb/rules?_sort_desc=nope", "/kb/rules?_size=-1", "/kb/rules?_size=abc",
    "/kb/rules?_facet=nope", "/kb/rules?_search=%22", "/kb/rules?_search=" + "NEAR(" * 300,
    "/kb/rules?_where=1)%20union%20select", "/kb/nope", "/kb/rules/999999999", "/nope/rules", "/a/b/c/d/e",
    "/kb/lemma_search?q=601.2f&lang=xx", "/kb/lemma_search?q=" + "wort%20" * 3000,
    "/kb?sql=select+lemmatize(printf('%25.*c',+10000000,+'a'),+'de')",
    "/kb?sql=select+lemmatize(printf('%25.*c',+100000,+'a'),+'de')",
    "/kb?sql=select+length(printf('%25.*c',+100000000,+'a'))",
    "/kb?sql=drop+table+rules", "/kb?sql=delete+from+rules", "/kb?sql=insert+into+editions(id)+values('x')",
    "/kb?sql=pragma+writable_schema=1", "/kb?sql=attach+database+'/tmp/x.db'+as+x", "/kb?sql=select+(((",
    "/search?q=" + "%22" * 5000, "/search?q=601.2f&edition=../../etc", "/search.json?q=&lang=" + "x" * 500,
    "/glossary/nope", "/glossary/de-1999?q=" + "a" * 5000, "/diff/x/y", "/diff/de-1999/de-2024?rule=..%2F..",
    "/code/..", "/code/engine.casting.%2e%2e", "/scenario/0", "/scenario/99999999", "/-/databases",
    "/-/messages", "/-/permissions", "/-/threads", "/-/settings", "/-/plugins", "/-/versions", "/-/metadata",
    "/-/allow-debug", "/-/actor", "/kb.db", "/_internal", "/kb/rules.csv?_stream=on", "/favicon.ico",
]
WRITES = [("POST", "/kb/editions/-/insert"), ("POST", "/kb/rules/-/drop"), ("POST", "/kb/lemma_search"),
          ("POST", "/-/messages"), ("PUT", "/kb/rules"), ("DELETE", "/kb/rules/1"), ("PATCH", "/"),
          ("POST", "/kb?sql=drop+table+rules"), ("OPTIONS", "/rule/de-2024/601.2f")]


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def before(kb_db):
    return sha(kb_db)


@pytest.mark.parametrize("path", HOSTILE_GET)
def test_hostile_get_never_5xx(site, path):
    r = site.get(path)
    assert r.status_code < 500, (path, r.status_code, r.text[:300])


@pytest.mark.parametrize("method,path", WRITES)
def test_every_write_method_is_405(site, method, path):
    r = site.request(method, path)
    assert r.status_code == 405 and "GET" in r.headers["allow"]


def test_unknown_paths_are_404(site):
    for path in ("/rule/de-2024/601.2f/extra", "/nope", "/a/b/c/d", "/kb/rules/1/2/3/4", "/-/databases", "/kb.db"):
        assert site.get(path).status_code == 404, path


def test_bad_sort_column_is_a_client_error(site):
    r = site.get("/kb/rules?_sort=nope")
    assert r.status_code == 400 and "Cannot sort" in r.text


def test_nothing_was_written(site, kb_db, before):
    for path in HOSTILE_GET:
        site.get(path)
    for method, path in WRITES:
        site.request(method, path)
    assert sha(kb_db) == before
    assert site.ds.databases[kb_db.stem].is_mutable is False


def test_limits_are_enforced_by_design():
    # the SQL time limit is set, and no project SQL function accepts more than a bounded input
    assert serve.settings()["sql_time_limit_ms"] == serve.SQL_TIME_LIMIT_MS <= 3000
    assert guard.MAX_FUNCTION_INPUT <= 10_000
    conn = sqlite3.connect(":memory:")
    guard.prepare(conn)
    assert conn.execute("select lemmatize('Zaubersprüche', 'de')").fetchone()[0] == "zauberspruch"
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("select lemmatize(printf('%.*c', ?, 'a'), 'de')", (guard.MAX_FUNCTION_INPUT + 1,)).fetchone()
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("select lemma_query(printf('%.*c', ?, 'a'), 'de')", (guard.MAX_FUNCTION_INPUT + 1,)).fetchone()
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("select escape_fts(printf('%.*c', ?, 'a'))", (guard.MAX_FUNCTION_INPUT + 1,)).fetchone()
    # no query builds a huge string: SQLite refuses (or gives NULL) past the length limit
    with pytest.raises(sqlite3.DataError):
        conn.execute("select length(zeroblob(?))", (guard.MAX_SQL_STRING + 1,)).fetchone()
    assert conn.execute("select printf('%.*c', ?, 'a')", (guard.MAX_SQL_STRING + 1,)).fetchone()[0] is None


def test_debug_pages_and_downloads_only_when_asked(site, kb_db):
    assert site.get("/-/databases").status_code == 404 and site.get("/kb.db").status_code == 404
    assert serve.settings()["allow_download"] is False and serve.settings()["allow_csv_stream"] is False
    debug = Client(kb_db, debug_pages=True)
    try:
        assert debug.get("/-/databases").status_code == 200
        assert debug.get("/kb.db").status_code == 200
        assert debug.request("POST", "/kb/rules/-/drop").status_code == 405    # still read-only
    finally:
        debug.close()


def test_an_error_is_one_log_line(site, caplog):
    caplog.set_level("INFO", logger="kb.site")
    site.get("/kb/rules?_sort=nope")
    lines = [r.getMessage() for r in caplog.records if r.name == "kb.site"]
    assert lines and all("\n" not in line for line in lines)
    assert "GET /kb/rules -> 400 DatasetteError: Cannot sort table by nope" in lines[-1]


def test_the_guard_refuses_by_rule():
    dbs = {"kb"}
    assert guard.refusal("/rule/x/y", "POST", dbs, False)[0] == 405
    assert guard.refusal("/-/static/app.css", "GET", dbs, False) is None
    assert guard.refusal("/-/databases", "GET", dbs, True) is None
    assert guard.refusal("/kb/rules", "GET", dbs, False) is None
    assert guard.refusal("/kb.json", "GET", dbs, False) is None
    assert guard.refusal("/favicon.ico", "GET", dbs, False) is None
    assert guard.refusal("/search.json", "GET", dbs, False) is None
    assert guard.refusal("/other/rules", "GET", dbs, False)[0] == 404


# --------------------------------------------------------------------------- issue 30: Datasette's URL forms

BASES = ["/kb", "/kb/rules", "/kb/rules/1", "/kb/editions", "/kb/editions/de-2024", "/kb/rule_by_number",
         "/kb/lemma_search", "/kb/rules_fts", "/kb/nope", "/kb/items/1,2"]
SUFFIXES = ["", ".json", ".csv", ".blah"]
QUERIES = ["", "_shape=array", "_shape=objects", "_shape=object", "_shape=arrayfirst", "_shape=nope", "sql=select+1",
           "sql=", "sql=%00", "_size=max", "_facet=language", "_facet=nope", "_facet_array=number", "_facet_date=date",
           "_sort=nope", "_labels=on", "_col=nope", "_where=nope", "_where=id%3E1&_where=(", "_next=1,2,3",
           "_stream=on", "_nl=on", "_json=text", "_trace=1", "_timelimit=1", "_search=x", "id__in=[1",
           "id__arraycontains=1", "_through=nope", "_through=%7B%22table%22:1%7D", "number=601.2f",
           "sql=select+*+from+pragma_database_list"]
URL_FORMS = [b + s + ("?" + q if q else "") for b in BASES for s in SUFFIXES for q in QUERIES]


def test_no_datasette_url_form_is_a_server_error_or_shows_a_server_path(site, kb_db):
    """Every URL form of Datasette's views the guard lets through (tables, rows, canned queries, the database;
    HTML, JSON, CSV; shapes, facets, filters, SQL): a 4xx at worst, and no answer names where the server keeps
    its files (``GET /kb.csv`` was a 500, ``pragma_database_list`` showed the path)."""
    where = str(kb_db.parent)
    bad = []
    for path in URL_FORMS + HOSTILE_GET:
        r = site.get(path)
        if r.status_code >= 500 or where in r.text:
            bad.append((path, r.status_code, where in r.text))
    assert bad == []


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql=st.text(max_size=200), fmt=st.sampled_from(["", ".json", ".csv"]))
def test_any_sql_text_is_at_worst_a_client_error(site, sql, fmt):
    r = site.get(f"/kb{fmt}", params={"sql": sql})
    assert r.status_code < 500, (sql, r.status_code, r.text[:300])


def test_the_server_path_reads_as_null(site, kb_db):
    r = site.get("/kb.json", params={"sql": "select * from pragma_database_list", "_shape": "array"})
    assert r.status_code == 200 and r.json() == [{"seq": 0, "name": "main", "file": None}]
    assert str(kb_db) not in site.get("/kb", params={"sql": "select file from pragma_database_list"}).text


def test_a_query_that_outruns_the_time_limit_inside_one_call_is_stopped_by_killing_its_process(site):
    """SQLite 3.40's printf('%.*c', 2147483647, 'x') loops 2^31 times inside one call, where the progress
    handler cannot stop it: the query process running it is killed at the limit (+ sandbox.GRACE)."""
    box = site.ds.databases["kb"].kb_sandbox
    killed = box.killed
    r = site.get("/kb.json", params={"sql": "select length(printf('%.*c', 2147483647, 'x'))"})
    assert r.status_code == 400 and "too long" in r.json()["error"]
    assert box.killed == killed + 1
    # the next query gets a fresh process and answers
    assert site.get("/kb.json", params={"sql": "select 41 + 1", "_shape": "array"}).json() == [{"41 + 1": 42}]


def test_the_sql_of_datasette_views_runs_in_the_query_processes_with_the_same_limits(site):
    r = site.get("/kb.json", params={"sql": f"select length(zeroblob({guard.MAX_SQL_STRING + 1}))"})
    assert r.status_code == 400 and "too big" in r.json()["error"]
    r = site.get("/kb.json", params={"sql": "select lemmatize('Zaubersprüche', 'de') as l", "_shape": "array"})
    assert r.json() == [{"l": "zauberspruch"}]
    r = site.get("/kb.json", params={"sql": "select 'x' like ?", "_shape": "array"})
    assert r.status_code == 400     # an unbound parameter: an SQL error, not a 500


def test_limits_of_a_request_by_design():
    assert sandbox.GRACE <= 0.5 and sandbox.SIZE >= 1 and sandbox.NICENESS > 0
    assert http.REQUEST_TIMEOUT <= 10
    assert sqlguard.MAX_LIKE_PATTERN <= 1000
    conn = sqlite3.connect(":memory:")
    guard.prepare(conn)
    with pytest.raises(sqlite3.OperationalError, match="too complex"):
        conn.execute("select 'a' like ?", ("%" * (sqlguard.MAX_LIKE_PATTERN + 1),)).fetchone()
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        conn.execute("attach database ':memory:' as other")


def test_a_sandbox_row_reads_like_sqlite3_row():
    row = sandbox.Row((1, "a"), {"id": 0, "name": 1})
    assert row[0] == 1 and row["name"] == "a" and row.keys() == ["id", "name"] and dict(row) == {"id": 1, "name": "a"}
    assert json.loads(json.dumps(row)) == [1, "a"] and list(row) == [1, "a"] and row[-1] == "a"


def test_a_huge_parameter_makes_one_short_log_line(site, caplog):
    caplog.set_level("INFO", logger="kb.site")
    site.get("/kb/rules", params={"_sort": "x" * 50_000})
    site.get("/" + "y" * 50_000)
    lines = [r.getMessage() for r in caplog.records if r.name == "kb.site"]
    assert len(lines) == 2 and all("\n" not in line and len(line) <= guard.MAX_LOG_LINE for line in lines), lines


def test_an_exception_in_datasette_on_a_crafted_url_is_400_in_the_project_500():
    def raise_in(filename):
        code = compile("def f():\n    raise KeyError('columns')\n", filename, "exec")
        namespace: dict = {}
        exec(code, namespace)
        try:
            namespace["f"]()
        except KeyError as e:
            return e

    assert guard.classify(raise_in("/x/site-packages/datasette/views/base.py"))[0] == 400
    assert guard.classify(raise_in(str(ROOT / "kb" / "site" / "pages.py")))[0] == 500


# --------------------------------------------------------------------------- issue 30: a real server


@pytest.fixture(scope="module")
def logged_server(kb_db, tmp_path_factory):
    from kb.site.server import running

    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with running(kb_db, log=log) as base:
        yield int(base.rsplit(":", 1)[1]), log


def raw(port: int, data: bytes) -> bytes:
    """Send ``data``, read until the server closes the connection (30 s at most: a hang guard)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_an_incomplete_request_is_closed_by_the_server(logged_server):
    port, _ = logged_server
    assert raw(port, b"GET / HTTP/1.1\r\nHost: x\r\n") == b""          # headers never finished
    answer = raw(port, b"GET /search HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")   # body never finished
    assert b"\r\n\r\n" in answer or answer == b""


def test_a_malformed_request_is_400_and_one_log_line(logged_server):
    port, log = logged_server
    for method in (b"GET /", b"POST /kb", b"GET /kb.json?sql=select+1"):
        answer = raw(port, method + b" HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400")
    assert raw(port, b"\x16\x03\x01 not http\r\n\r\n").startswith(b"HTTP/1.1 400")
    assert raw(port, b"GET /rule/de-2024/601.2f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200")
    text = log.read_text()
    assert "Traceback" not in text and all(len(line) <= guard.MAX_LOG_LINE for line in text.splitlines())
