"""What one SQL connection of the server may do: bounded project functions, SQLite's own limits, no server path.

Shared by the server's connections (:func:`kb.site.guard.prepare`, Datasette's ``prepare_connection``) and the
query processes of :mod:`kb.site.sandbox`, so it imports nothing of Datasette.

* the SQL functions the project registers (``lemmatize``, ``lemma_query``, the lemmatising ``escape_fts``) take
  at most :data:`MAX_FUNCTION_INPUT` characters (longer input is an SQL error);
* SQLite builds no string or blob over :data:`MAX_SQL_STRING` bytes and no LIKE/GLOB pattern over
  :data:`MAX_LIKE_PATTERN` characters;
* the authorizer hides the file column of ``pragma_database_list`` (the server's path) and refuses ``ATTACH``.

A single call of some built-in functions still costs more than its input's size (SQLite 3.40's ``printf('%.*c',
2147483647, 'x')`` loops 2^31 times, ``instr`` and ``trim`` are quadratic); no list of such functions is complete,
so the SQL that a request shapes runs in a process that is killed at the time limit (:mod:`kb.site.sandbox`).
"""
from __future__ import annotations

import sqlite3
from functools import partial

#: longest text (characters) a project SQL function accepts: lemmatising this much takes at most ~0.1 s
MAX_FUNCTION_INPUT = 10_000
#: longest string or blob SQLite builds in a query (the KB's longest value is a few KB)
MAX_SQL_STRING = 2_000_000
#: longest LIKE or GLOB pattern (SQLite's default is 50,000; a search box never needs more than a line)
MAX_LIKE_PATTERN = 1_000
#: how much of the database file a connection maps into memory (address space, not resident memory)
MMAP_BYTES = 1 << 30
#: (table, column) reads that would show where the server keeps its files: read as NULL
HIDDEN_COLUMNS = {("pragma_database_list", "file")}


class InputTooLong(ValueError):
    pass


def bounded(text, what: str = "text") -> str:
    text = "" if text is None else str(text)
    if len(text) > MAX_FUNCTION_INPUT:
        raise InputTooLong(f"{what} longer than {MAX_FUNCTION_INPUT} characters")
    return text


def sql_lemmatize(text, lang):
    from .. import lemmas

    return lemmas.lemmatize(bounded(text), lang or "de")


def sql_lemma_query(q, lang):
    """FTS5 query matching the lemmas of every word of ``q`` (all required)."""
    from .. import lemmas

    words = lemmas.lemmatize(bounded(q, "query")[:1000], lang or "de").split()
    return " AND ".join('lemmas : "' + w.replace('"', "") + '"' for w in words) or '""'


def sql_escape_fts(query):
    """Datasette's table search (``?_search=``), lemmatised: each word matches as printed or by its lemma
    in any of the KB's languages (the FTS index holds the lemmas beside the words)."""
    from .. import lemmas

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


def authorize(action: int, arg1, arg2, db_name, trigger) -> int:
    """SQLite authorizer: a hidden column reads as NULL; ATTACH is refused (the KB is the only database)."""
    if action == sqlite3.SQLITE_READ and (arg1, arg2) in HIDDEN_COLUMNS:
        return sqlite3.SQLITE_IGNORE
    if action == sqlite3.SQLITE_ATTACH:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def load_lineage():
    """The module behind the SQL function ``lineage`` (:mod:`kb.lineage`: the alignment code, a second to import)."""
    from .. import lineage

    return lineage


def sql_lineage(conn: sqlite3.Connection, rule_id) -> str:
    """The SQL function ``lineage(rule_id)`` (:func:`kb.lineage.sql_lineage`), imported when first called (a query
    process loads it once it is ready: :func:`kb.site.sandbox.child`)."""
    return load_lineage().sql_lineage(conn, rule_id)


def prepare(conn: sqlite3.Connection) -> None:
    # an error in a project function is an SQL error for the client, not a traceback in the log
    sqlite3.enable_callback_tracebacks(False)
    # pages of the immutable file come from the OS page cache, shared by every connection and worker,
    # instead of each connection's small private cache (2 MB against a KB of tens of MB)
    conn.execute(f"pragma mmap_size = {MMAP_BYTES}")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_SQL_STRING)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, MAX_LIKE_PATTERN)
    conn.create_function("lemmatize", 2, sql_lemmatize, deterministic=True)
    conn.create_function("lemma_query", 2, sql_lemma_query, deterministic=True)
    conn.create_function("escape_fts", 1, sql_escape_fts, deterministic=True)
    conn.create_function("lineage", 1, partial(sql_lineage, conn))
    conn.set_authorizer(authorize)
