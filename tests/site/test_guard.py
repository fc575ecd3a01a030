"""Hostile input gets a clear answer and changes nothing: no 5xx, no write, limits enforced by design."""
import hashlib
import sqlite3

import pytest

from kb import serve
from kb.site import guard

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
