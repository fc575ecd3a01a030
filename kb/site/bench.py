"""Load benchmark of the site: ``python -m kb.site.bench`` (or ``kb serve-bench``).

Starts ``kb serve`` on a free 127.0.0.1 port (nothing else is ever a target), then for 8 and 16
concurrent clients (threads, one keep-alive ``http.client`` connection each) requests every URL
of four lists once: rule pages (every rule of the KB), the site's search page, table searches and
``lemma_search`` queries (words of the rule texts).  Each URL is requested for the first time in the 8-client
round ("cold": nothing cached) and again in the 16-client round ("warm": the server keeps whole
responses of the immutable KB); ``--cold-only`` defeats the cache by a distinct query string per
request.  Prints p50/p95/p99 and error counts per list and client count.  Bounded: at most
``--requests`` requests per list and round, and a per-request timeout.

``--adversarial`` runs the rule pages (cold: a distinct query string each) beside hostile traffic, for as long
as the pages take: ``--slow-sql`` clients each sending, one after the other, queries that run past the SQL time
limit inside one SQLite call (``printf('%.*c', 2147483647, 'x')``, a quadratic ``instr``) or in many steps (an
endless recursive CTE), and ``--slow-clients`` connections that send a request's headers a line a second and
never finish them (reconnecting when the server closes them).  It prints the pages' figures, how long the slow
queries took (the time limit + at most 0.5 s) and how many slow connections the server closed.
"""
from __future__ import annotations

import argparse
import http.client
import re
import socket
import sqlite3
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

from .. import paths
from .server import running

TIMEOUT = 30
#: seconds of hostile traffic per client count of --adversarial (at least: whole lists of pages are fetched)
ADVERSARIAL_SECONDS = 15
#: SQL that outruns the time limit: inside one call of a function, or in many steps of the virtual machine
SLOW_SQL = ["select length(printf('%.*c', 2147483647, 'x')) as n{}",
            "select instr(printf('%.*c', 1999999, 'x'), printf('%.*c', 1000000, 'x') || 'y') as n{}",
            "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) as n{} from c"]


def url_lists(db_path: Path, limit: int) -> dict[str, list[str]]:
    """Rule pages, table searches and lemma searches over the KB's own rules and words."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    name = Path(db_path).stem
    rules = [f"/rule/{quote(e)}/{quote(n)}" for e, n in conn.execute(
        "select edition_id, norm from rules order by edition_id, seq")]
    words: list[tuple[str, str]] = []
    seen: set[str] = set()
    for lang, text in conn.execute("select language, text from rules where text is not null order by id"):
        for w in re.findall(r"[^\W\d_]{5,}", text):
            if w.lower() not in seen:
                seen.add(w.lower())
                words.append((lang, w))
    conn.close()
    step = max(1, len(words) // limit)
    words = words[::step][:limit]
    return {
        "words": [w for _, w in words[:1]],
        "rule page": rules[:: max(1, len(rules) // limit)][:limit],
        "site search": [f"/search?q={quote(w)}" for _, w in words],
        "table search": [f"/{name}/rules?_search={quote(w)}" for _, w in words],
        "lemma_search": [f"/{name}/lemma_search?q={quote(w)}&lang={lang}" for lang, w in words],
    }


def run(base: str, urls: list[str], clients: int) -> tuple[list[float], int]:
    """Latencies (s) and error count of ``urls`` fetched by ``clients`` threads."""
    host, port = base.split("//")[1].split(":")
    assert host == "127.0.0.1", "the benchmark only ever targets this machine"
    local = threading.local()
    lock = threading.Lock()
    latencies: list[float] = []
    errors = [0]

    def fetch(url: str) -> None:
        if getattr(local, "conn", None) is None:
            local.conn = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        t0 = time.perf_counter()
        try:
            local.conn.request("GET", url)
            resp = local.conn.getresponse()
            resp.read()
            ok = resp.status < 400 or (resp.status == 404 and url.startswith("/rule/"))
        except (OSError, http.client.HTTPException):
            local.conn.close()
            local.conn = None
            ok = False
        dt = time.perf_counter() - t0
        with lock:
            latencies.append(dt)
            if not ok:
                errors[0] += 1

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(fetch, urls))
    return latencies, errors[0]


class Adversaries:
    """Hostile traffic in threads until :meth:`stop`: slow queries and slow clients (see the module doc)."""

    def __init__(self, base: str, db_name: str, slow_sql: int, slow_clients: int):
        host, port = base.split("//")[1].split(":")
        assert host == "127.0.0.1", "the benchmark only ever targets this machine"
        self.host, self.port, self.db_name = host, int(port), db_name
        self.halt = threading.Event()
        self.lock = threading.Lock()
        self.sql_times: list[float] = []
        self.sql_statuses: dict[int, int] = {}
        self.closed = 0
        self.threads = [threading.Thread(target=self._slow_sql, args=(i,), daemon=True) for i in range(slow_sql)]
        self.threads += [threading.Thread(target=self._slow_client, daemon=True) for _ in range(slow_clients)]
        for t in self.threads:
            t.start()

    def _slow_sql(self, i: int) -> None:
        n = 0
        while not self.halt.is_set():
            sql = SLOW_SQL[(i + n) % len(SLOW_SQL)].format(f"{i}_{n}")
            n += 1
            conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
            t0 = time.perf_counter()
            try:
                conn.request("GET", f"/{self.db_name}.json?sql={quote(sql)}")
                resp = conn.getresponse()
                resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                status = 0
            finally:
                conn.close()
            with self.lock:
                self.sql_times.append(time.perf_counter() - t0)
                self.sql_statuses[status] = self.sql_statuses.get(status, 0) + 1

    def _slow_client(self) -> None:
        while not self.halt.is_set():
            try:
                with socket.create_connection((self.host, self.port), timeout=TIMEOUT) as s:
                    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    k = 0
                    while not self.halt.wait(1.0):
                        s.sendall(f"X-Slow-{k}: {k}\r\n".encode())
                        k += 1
            except OSError:     # the server closed the connection (a send fails): count it, start again
                with self.lock:
                    self.closed += 1

    def stop(self) -> str:
        self.halt.set()
        for t in self.threads:
            t.join(TIMEOUT + 5)
        times = sorted(self.sql_times)
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(self.sql_statuses.items()))
        return (f"slow SQL: {len(times)} queries ({statuses}), took p50 {pct(times, 50):.2f} s, "
                f"max {max(times, default=0):.2f} s; slow connections closed by the server: {self.closed}")


def pct(values: list[float], p: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def report(kind: str, clients: int, phase: str, lat: list[float], errors: int) -> str:
    ms = [x * 1000 for x in lat]
    return (f"{kind:<13} {clients:>2} clients {phase:<5} n={len(ms):<5} p50 {pct(ms, 50):7.1f} ms  "
            f"p95 {pct(ms, 95):7.1f} ms  p99 {pct(ms, 99):7.1f} ms  errors {errors}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kb.site.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, default=paths.DEFAULT_DB)
    ap.add_argument("--requests", type=int, default=400, help="URLs per list and round (default 400)")
    ap.add_argument("--clients", default="8,16", help="client counts, comma-separated (default 8,16)")
    ap.add_argument("--cold-only", action="store_true", help="every request misses the response cache")
    ap.add_argument("--adversarial", action="store_true",
                    help="rule pages (cold) beside slow SQL and slow clients (see the module doc)")
    ap.add_argument("--slow-sql", type=int, default=8, help="slow-SQL clients of --adversarial (default 8)")
    ap.add_argument("--slow-clients", type=int, default=50,
                    help="slow connections of --adversarial (default 50)")
    args = ap.parse_args(argv)
    if args.adversarial:
        return adversarial(args)
    lists = url_lists(args.db, args.requests)
    counts = [int(c) for c in args.clients.split(",")]
    warmup = lists.pop("words")
    with running(args.db) as base:
        print(f"kb serve at {base}; {', '.join(f'{len(v)} {k} URLs' for k, v in lists.items())}")
        # the first rule page and search load what later ones read
        run(base, [lists["rule page"][0], f"/search?q={quote(warmup[0])}"], 1)
        for n, clients in enumerate(counts):
            for kind, urls in lists.items():
                if args.cold_only:
                    urls = [u + ("&" if "?" in u else "?") + f"_bench={clients}" for u in urls]
                lat, errors = run(base, urls, clients)
                phase = "cold" if args.cold_only or n == 0 else "warm"
                print(report(kind, clients, phase, lat, errors), flush=True)
    return 0


def adversarial(args) -> int:
    pages = url_lists(args.db, args.requests)["rule page"]
    with running(args.db) as base:
        print(f"kb serve at {base}; {len(pages)} rule pages per round beside {args.slow_sql} slow-SQL clients "
              f"and {args.slow_clients} slow connections")
        run(base, pages[:2], 1)
        for clients in [int(c) for c in args.clients.split(",")]:
            hostile = Adversaries(base, Path(args.db).stem, args.slow_sql, args.slow_clients)
            time.sleep(1.0)     # the slow queries are running
            lat: list[float] = []
            errors, started, rounds = 0, time.perf_counter(), 0
            # long enough for the server to close slow connections (kb.site.http.REQUEST_TIMEOUT) several times
            while rounds == 0 or time.perf_counter() - started < ADVERSARIAL_SECONDS:
                more, failed = run(base, [u + f"?_bench=adv{clients}-{rounds}" for u in pages], clients)
                lat, errors, rounds = lat + more, errors + failed, rounds + 1
            summary = hostile.stop()
            print(report("rule page", clients, "cold", lat, errors), flush=True)
            print(f"   {summary}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
