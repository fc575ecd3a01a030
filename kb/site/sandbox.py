"""The SQL a request shapes runs in query processes that are killed at the time limit.

SQLite's progress handler stops a query between two steps of its virtual machine, not inside one call of a
function: ``printf('%.*c', 2147483647, 'x')`` loops for 12 s in SQLite 3.40, ``instr`` of two long strings is
quadratic, and no list of such functions is ever complete.  So every query of Datasette's own views (``?sql=``,
tables with ``_where=``, filters, facets: what a URL can shape) runs in a child process of the server
(:class:`Sandbox`): the child stops the query at the time limit itself; when it does not answer by then plus
:data:`GRACE` seconds, it is killed (SIGKILL) and a new one started in the background.  The children run at a
lower priority (``nice``), so slow queries leave the CPU to the site's pages, which use fixed SQL in the server
process (:meth:`Database.execute_fn`).

Protocol: a 4-byte length, then a pickle, each way over the child's stdin and stdout.  The child ends when its
stdin closes or its parent is gone.
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import pickle
import queue
import select
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import sqlguard

#: seconds a query process may overrun the time limit before it is killed
GRACE = 0.1
#: query processes per server process (and so queries of Datasette's views running at once)
SIZE = 4
#: niceness of the query processes: slow queries yield the CPU to the pages (at 19, eight busy query processes
#: weigh less than a fifth of one server process with the Linux scheduler)
NICENESS = 19
#: seconds a new query process may take to start (it runs at low priority)
STARTUP_TIMEOUT = 60
#: set for the duration of a request whose queries run in the sandbox (:func:`kb.site.guard.guard_app`): the
#: request's deadline (monotonic), set by its first query; all its queries together keep to one time limit
SANDBOXED: contextvars.ContextVar[list | None] = contextvars.ContextVar("kb_sandboxed", default=None)
_HEADER = struct.Struct("!I")


class QueryTimeout(Exception):
    """The query ran past its time limit (the process running it was stopped)."""


class Row(tuple):
    """A result row as Datasette uses ``sqlite3.Row``: by index, by column name, ``keys()``."""

    _columns: dict[str, int]

    def __new__(cls, values, columns: dict[str, int]):
        row = super().__new__(cls, values)
        row._columns = columns
        return row

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self._columns[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._columns)


# --------------------------------------------------------------------------- the child


def _send(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read_exact(stream, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = stream.read(n - len(out))
        if not chunk:
            raise EOFError
        out += chunk
    return out


def _receive(stream):
    (n,) = _HEADER.unpack(_read_exact(stream, _HEADER.size))
    return pickle.loads(_read_exact(stream, n))


def run_query(conn: sqlite3.Connection, request: tuple) -> tuple:
    """One request of Datasette's ``Database.execute``, answered as ``("ok", rows, truncated, description)`` or
    ``("error", class name, message)``."""
    sql, params, truncate, time_limit_ms, max_returned_rows, page_size = request
    deadline = time.perf_counter() + time_limit_ms / 1000
    conn.set_progress_handler(lambda: 1 if time.perf_counter() >= deadline else 0, 1000)
    try:
        cursor = conn.execute(sql, params if params is not None else {})
        if max_returned_rows == page_size:
            max_returned_rows += 1
        if max_returned_rows and truncate:
            rows = cursor.fetchmany(max_returned_rows + 1)
            truncated = len(rows) > max_returned_rows
            rows = rows[:max_returned_rows]
        else:
            rows, truncated = cursor.fetchall(), False
        return "ok", rows, truncated, cursor.description
    except sqlite3.Error as e:
        return "error", type(e).__name__, str(e)
    except (ValueError, TypeError, OverflowError) as e:   # parameters sqlite3 cannot bind
        return "error", "InterfaceError", str(e)
    finally:
        conn.set_progress_handler(None, 1000)


def child(db_path: str) -> None:
    """A query process: answer requests from stdin until it closes or the parent is gone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True, check_same_thread=False)
    conn.text_factory = lambda b: str(b, "utf-8", "replace")
    sqlguard.prepare(conn)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    _send(stdout, "ready")
    # the code behind the SQL function lineage (0.8 s to import): loaded once the process is ready, so that the
    # process starts as fast as before and a query rarely waits for it
    threading.Thread(target=sqlguard.load_lineage, daemon=True).start()
    while True:
        try:
            request = _receive(stdin)
        except EOFError:
            return
        _send(stdout, run_query(conn, request))


# --------------------------------------------------------------------------- the parent


class _Process:
    def __init__(self, db_path: Path):
        # lower priority before anything is imported: a process started after a kill competes with the pages
        start = f"import os; os.nice({NICENESS}); from kb.site.sandbox import child; child({str(db_path)!r})"
        self.proc = subprocess.Popen([sys.executable, "-c", start],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     close_fds=True)

    def ready(self) -> bool:
        """Wait until the process has imported what it needs and opened the database (a process still starting
        is never handed a query: its start would count against the query's time limit)."""
        assert self.proc.stdout is not None
        try:
            if select.select([self.proc.stdout], [], [], STARTUP_TIMEOUT)[0] and _receive(self.proc.stdout) == "ready":
                return True
        except (EOFError, OSError, pickle.UnpicklingError):
            pass
        self.kill()
        return False

    def ask(self, request: tuple, until: float) -> tuple:
        """Send ``request``; the answer, or :class:`QueryTimeout` when none came by ``until`` (monotonic)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        _send(self.proc.stdin, request)
        ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            raise QueryTimeout
        return _receive(self.proc.stdout)

    def kill(self) -> None:
        """SIGKILL; the caller does not wait for the process to exit (at the lowest priority, on a busy machine,
        that can take a while): :meth:`Sandbox._replace` reaps it in the background."""
        self.proc.kill()


class Sandbox:
    """:data:`SIZE` query processes over the database file ``db_path``, started by :meth:`start` (in the background)
    and replaced in the background when one is killed."""

    def __init__(self, db_path: Path, size: int = SIZE):
        self.db_path, self.size = Path(db_path), size
        self.idle: queue.Queue[_Process] = queue.Queue()
        self.threads = ThreadPoolExecutor(size, thread_name_prefix="kb-sandbox")
        self.spawner = ThreadPoolExecutor(1, thread_name_prefix="kb-sandbox-start")
        self.started = False
        self.lock = threading.Lock()
        #: processes killed at the time limit (for tests and the benchmark)
        self.killed = 0

    def start(self) -> None:
        with self.lock:
            if not self.started:
                self.started = True
                for _ in range(self.size):
                    self._replace()

    def _replace(self, dead: _Process | None = None) -> None:
        def start() -> None:
            if dead is not None:
                dead.proc.wait()
            proc = _Process(self.db_path)
            if proc.ready():
                self.idle.put(proc)
            else:     # (not started again: a process that cannot start would be started for ever)
                proc.proc.wait()
                logging.getLogger("kb.site").warning("a query process did not start: one fewer")

        self.spawner.submit(start)

    async def execute(self, request: tuple, time_limit_ms: int) -> tuple:
        """Run one request (see :func:`run_query`); :class:`QueryTimeout` past ``time_limit_ms`` (+ GRACE)."""
        self.start()
        until = time.monotonic() + time_limit_ms / 1000 + GRACE
        return await asyncio.get_running_loop().run_in_executor(self.threads, self._call, request, until)

    def _call(self, request: tuple, until: float) -> tuple:
        try:
            proc = self.idle.get(timeout=max(0.0, until - time.monotonic()))
        except queue.Empty:
            raise QueryTimeout from None
        try:
            answer = proc.ask(request, until)
        except (QueryTimeout, EOFError, OSError, pickle.UnpicklingError) as e:
            proc.kill()
            self.killed += 1
            self._replace(proc)
            if isinstance(e, QueryTimeout):
                raise
            return "error", "OperationalError", "the query process ended unexpectedly"
        self.idle.put(proc)
        return answer

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        self.spawner.shutdown(wait=True, cancel_futures=True)
        while not self.idle.empty():
            proc = self.idle.get_nowait()
            proc.kill()
            proc.proc.wait()


# --------------------------------------------------------------------------- Datasette


def install(datasette) -> None:
    """Give every database file Datasette serves a :class:`Sandbox`: its ``execute`` runs there while a request
    of Datasette's views is being answered (:data:`SANDBOXED`), in the server process otherwise."""
    for db in datasette.databases.values():
        if db.is_memory or not db.path or getattr(db, "kb_sandbox", None) is not None:
            continue
        db.kb_sandbox = Sandbox(Path(db.path))
        db.kb_sandbox.start()     # (in the background: ready before the first query comes, as a rule)
        db.execute = _execute_for(db, db.execute)


_VALUES = (str, int, float, bytes, type(None))


def _plain(params):
    """The parameters a query can bind (Datasette's canned queries also pass a CSRF token function)."""
    if isinstance(params, dict):
        return {k: v for k, v in params.items() if isinstance(v, _VALUES)}
    return params


def _execute_for(db, original):
    from datasette.database import QueryInterrupted, Results

    async def execute(sql, params=None, truncate=False, custom_time_limit=None, page_size=None,
                      log_sql_errors=True):
        # Datasette's own error line echoes the whole query and its parameters: kb.site.guard logs one short line
        deadline = SANDBOXED.get()
        if deadline is None:
            return await original(sql, params, truncate, custom_time_limit, page_size, log_sql_errors=False)
        if not deadline:
            deadline.append(time.monotonic() + db.ds.sql_time_limit_ms / 1000)
        limit = max(0, int((deadline[0] - time.monotonic()) * 1000))
        if custom_time_limit and custom_time_limit < limit:
            limit = custom_time_limit
        request = (sql, _plain(params), truncate, limit, db.ds.max_returned_rows, page_size or db.ds.page_size)
        try:
            answer = await db.kb_sandbox.execute(request, limit)
        except QueryTimeout:
            answer = ("error", "OperationalError", "interrupted")
        if answer[0] == "error":
            _, name, message = answer
            error = getattr(sqlite3, name, sqlite3.OperationalError)(message)
            if message == "interrupted":
                raise QueryInterrupted(error, sql, params)
            raise error
        _, rows, truncated, description = answer
        columns = {d[0]: i for i, d in enumerate(description or ())}
        return Results([Row(r, columns) for r in rows], truncated, description)

    return execute

