"""Hostile input gets a clear answer and changes nothing.

* :func:`guard_app` (the plugin's ``asgi_wrapper``): only GET and HEAD (405 otherwise, the server never
  writes); a path whose first segment is neither a page of the site nor the served database is 404
  before Datasette sees it; Datasette's debug pages (``/-/databases`` shows server paths,
  ``/-/messages`` …) and the full database download are 404 unless ``kb serve --debug-pages``.
* :func:`prepare` (the plugin's ``prepare_connection``): the SQL functions the project registers take
  bounded input (:data:`MAX_FUNCTION_INPUT` characters; longer input is an SQL error), so none of them
  can run past the SQL time limit by more than a fraction of a second; SQLite strings are limited to
  :data:`MAX_SQL_STRING` bytes, so no query can build a huge value in memory.
* :func:`handle_exception` replaces Datasette's handler (which prints a rich traceback with local
  variables, ~42 KB and ~0.3 s per error): one log line per error; client errors are 4xx, never 500.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import traceback

from datasette.utils.asgi import Base400, Response
from datasette.views.base import DatasetteError

from .. import lemmas

log = logging.getLogger("kb.site")

#: longest text (characters) a project SQL function accepts: lemmatising this much takes at most ~0.1 s
MAX_FUNCTION_INPUT = 10_000
#: longest string or blob SQLite builds in a query (the KB's longest value is a few KB)
MAX_SQL_STRING = 2_000_000
#: the only methods served: the KB is read-only
METHODS = ("GET", "HEAD")
#: first path segments of the site's own pages (kb.site.pages) and of Datasette's static files
SITE_SEGMENTS = {"", "rule", "search", "glossary", "diff", "code", "scenario", "coverage", "favicon.ico"}
#: Datasette pages under /-/ that are always served (static files); the others only with debug pages on
PUBLIC_DASH = ("/-/static/", "/-/static-plugins/")


class InputTooLong(ValueError):
    pass


def bounded(text, what: str = "text") -> str:
    text = "" if text is None else str(text)
    if len(text) > MAX_FUNCTION_INPUT:
        raise InputTooLong(f"{what} longer than {MAX_FUNCTION_INPUT} characters")
    return text


def sql_lemmatize(text, lang):
    return lemmas.lemmatize(bounded(text), lang or "de")


def sql_lemma_query(q, lang):
    """FTS5 query matching the lemmas of every word of ``q`` (all required)."""
    words = lemmas.lemmatize(bounded(q, "query")[:1000], lang or "de").split()
    return " AND ".join('lemmas : "' + w.replace('"', "") + '"' for w in words) or '""'


def sql_escape_fts(query):
    """Datasette's table search (``?_search=``), lemmatised: each word matches as printed or by its lemma
    in any of the KB's languages (the FTS index holds the lemmas beside the words)."""
    query = bounded(query, "search")[:1000]
    parts = []
    for word in query.split()[:20]:
        w = word.replace('"', "")
        if not w:
            continue
        alts = ['"' + w + '"'] + ['lemmas : "' + lemmas.lemma(w, lang).replace('"', "") + '"'
                                  for lang in lemmas.SUPPORTED if any(c.isalpha() for c in w)]
        parts.append("(" + " OR ".join(dict.fromkeys(alts)) + ")")
    return " AND ".join(parts) or '""'


#: how much of the database file a connection maps into memory (address space, not resident memory)
MMAP_BYTES = 1 << 30


def prepare(conn: sqlite3.Connection) -> None:
    # an error in a project function is an SQL error for the client, not a traceback in the log
    sqlite3.enable_callback_tracebacks(False)
    # pages of the immutable file come from the OS page cache, shared by every connection and worker,
    # instead of each connection's small private cache (2 MB against a KB of tens of MB)
    conn.execute(f"pragma mmap_size = {MMAP_BYTES}")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_SQL_STRING)
    conn.create_function("lemmatize", 2, sql_lemmatize, deterministic=True)
    conn.create_function("lemma_query", 2, sql_lemma_query, deterministic=True)
    conn.create_function("escape_fts", 1, sql_escape_fts, deterministic=True)


# --------------------------------------------------------------------------- the ASGI guard


async def _send(send, status: int, body: str, headers: dict | None = None, json_body: bool = False) -> None:
    data = body.encode("utf-8")
    hdrs = [(b"content-type", b"application/json" if json_body else b"text/html; charset=utf-8"),
            (b"content-length", str(len(data)).encode())]
    hdrs += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": hdrs})
    await send({"type": "http.response.body", "body": data})


def refusal(path: str, method: str, databases: set[str], debug: bool) -> tuple[int, str] | None:
    """(status, reason) for a request the guard answers itself; None to pass it on."""
    if method not in METHODS:
        return 405, f"method {method} not allowed: the knowledge base is read-only (GET and HEAD only)"
    first = path.lstrip("/").split("/", 1)[0]
    if first == "-":
        if debug or path.startswith(PUBLIC_DASH):
            return None
        return 404, "debug pages are off (kb serve --debug-pages turns them on)"
    name, _, fmt = first.partition(".")
    if first in SITE_SEGMENTS or name in SITE_SEGMENTS:
        return None
    if name in databases:
        if fmt == "db" and not debug:
            return 404, "the database download is off (kb serve --debug-pages turns it on)"
        return None
    return 404, f"no page {path!r}: see the home page"


def guard_app(app, databases, debug: bool):
    """ASGI middleware applying :func:`refusal`; ``databases()`` gives the served database names."""

    async def guarded(scope, receive, send):
        if scope.get("type") != "http":
            return await app(scope, receive, send)
        refused = refusal(scope.get("path") or "/", scope.get("method") or "GET", databases(), debug)
        if refused is None:
            return await app(scope, receive, send)
        status, reason = refused
        log.info("%s %s -> %d (%s)", scope.get("method"), scope.get("path"), status, reason)
        headers = {"allow": ", ".join(METHODS)} if status == 405 else {}
        if (scope.get("path") or "").endswith(".json"):
            return await _send(send, status, json.dumps({"ok": False, "status": status, "error": reason}),
                               headers, json_body=True)
        return await _send(send, status, _error_page(status, reason), headers)

    return guarded


def _error_page(status: int, reason: str) -> str:
    from markupsafe import escape

    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{status}</title></head><body>"
            f"<h1>{status}</h1><p>{escape(reason)}</p><p><a href='/'>MTG rules knowledge base: home</a></p>"
            f"</body></html>")


# --------------------------------------------------------------------------- exceptions


def classify(exception: BaseException) -> tuple[int, str, str | None]:
    """(status, message, title): Datasette's client errors keep their 4xx; its other errors (an unknown
    ``_sort`` column, a bad parameter) are the client's too (400); anything else is a 500."""
    if isinstance(exception, Base400):
        return exception.status, str(exception.args[0] if exception.args else exception), None
    if isinstance(exception, DatasetteError):
        status = exception.status if exception.status < 500 else 400
        return status, str(exception.message), exception.title
    return 500, f"internal error ({type(exception).__name__})", None


def log_line(request, status: int, exception: BaseException) -> str:
    where = ""
    tb = traceback.extract_tb(exception.__traceback__) if exception.__traceback__ else []
    if tb:
        where = f" at {tb[-1].filename.rsplit('/', 2)[-1]}:{tb[-1].lineno}"
    text = " ".join(str(exception).split())[:200]
    return f"{request.method} {request.path} -> {status} {type(exception).__name__}: {text}{where}"


def handle_exception(datasette, request, exception):
    """Datasette's ``handle_exception`` without the traceback: one log line, the error page."""

    async def inner():
        status, message, title = classify(exception)
        (log.error if status >= 500 else log.info)(log_line(request, status, exception))
        info = {"ok": False, "error": message, "status": status, "title": title}
        if request.path.split("?")[0].endswith(".json"):
            return Response.json(info, status=status)
        template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
        return Response.html(await template.render_async(dict(
            info, urls=datasette.urls, app_css_hash=datasette.app_css_hash(), menu_links=lambda: [])),
            status=status)

    return inner


def replace_default_exception_handler() -> None:
    """Unregister Datasette's own handler (it prints a rich traceback with locals for every error)."""
    import datasette.handle_exception as default
    from datasette.plugins import pm

    if pm.is_registered(default):
        pm.unregister(default)
