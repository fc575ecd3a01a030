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

from . import sandbox, sqlguard
from .sqlguard import MAX_FUNCTION_INPUT, MAX_SQL_STRING

log = logging.getLogger("kb.site")

__all__ = ["MAX_FUNCTION_INPUT", "MAX_SQL_STRING", "prepare", "guard_app", "handle_exception"]
#: the only methods served: the KB is read-only
METHODS = ("GET", "HEAD")
#: first path segments of the site's own pages (kb.site.pages) and of Datasette's static files
SITE_SEGMENTS = {"", "rule", "search", "glossary", "diff", "code", "scenario", "coverage", "favicon.ico"}
#: Datasette pages under /-/ that are always served (static files); the others only with debug pages on
PUBLIC_DASH = ("/-/static/", "/-/static-plugins/")


def prepare(conn: sqlite3.Connection) -> None:
    """Datasette's ``prepare_connection``: the limits of :mod:`kb.site.sqlguard`."""
    sqlguard.prepare(conn)


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
        path = scope.get("path") or "/"
        names = databases()
        refused = refusal(path, scope.get("method") or "GET", names, debug)
        if refused is None:
            # the SQL of Datasette's views is shaped by the URL: it runs where it can be stopped
            view = path.lstrip("/").split("/", 1)[0].partition(".")[0] in names
            token = sandbox.SANDBOXED.set([] if view else None)
            try:
                return await app(scope, receive, send)
            finally:
                sandbox.SANDBOXED.reset(token)
        status, reason = refused
        log.info(short(f"{scope.get('method')} {path} -> {status} ({reason})"))
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


#: longest log line the guard writes (characters): a hostile URL or query is cut, never echoed whole
MAX_LOG_LINE = 300
#: the project's own code (a failure in it is a 500: a bug to fix, not the client's fault)
PROJECT_PACKAGES = ("/kb/", "/ingest/", "/engine/")


def short(text: str, limit: int = MAX_LOG_LINE) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def classify(exception: BaseException) -> tuple[int, str, str | None]:
    """(status, message, title): Datasette's client errors keep their 4xx; its other errors (an unknown
    ``_sort`` column, a bad parameter) are the client's too (400), and so is any failure of Datasette's own
    code on the URL it was given (``/kb.csv`` without a query, ``?id__in=[1``: a ``KeyError`` or ``ValueError``
    deep in Datasette); an SQL error or a query stopped at the time limit is 400.  Only an exception raised in
    the project's own code is a 500."""
    from datasette.database import QueryInterrupted

    if isinstance(exception, Base400):
        return exception.status, str(exception.args[0] if exception.args else exception), None
    if isinstance(exception, DatasetteError):
        status = exception.status if exception.status < 500 else 400
        return status, str(exception.message), exception.title
    if isinstance(exception, QueryInterrupted):
        return 400, "the query took too long and was stopped (SQL time limit)", None
    if isinstance(exception, sqlite3.Error):
        return 400, f"SQL error: {exception}", None
    frames = traceback.extract_tb(exception.__traceback__) if exception.__traceback__ else []
    if frames and not any(any(p in f.filename for p in PROJECT_PACKAGES) and "site-packages" not in f.filename
                          for f in frames):
        return 400, f"this URL cannot be answered ({type(exception).__name__} in Datasette)", None
    return 500, f"internal error ({type(exception).__name__})", None


def log_line(request, status: int, exception: BaseException) -> str:
    where = ""
    tb = traceback.extract_tb(exception.__traceback__) if exception.__traceback__ else []
    if tb:
        where = f" at {tb[-1].filename.rsplit('/', 2)[-1]}:{tb[-1].lineno}"
    text = short(str(exception), 120)
    return short(f"{request.method} {short(request.path, 100)} -> {status} {type(exception).__name__}: {text}{where}")


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
