"""Load benchmark of the site: ``python -m kb.site.bench`` (or ``kb serve-bench``).

Starts ``kb serve`` on a free 127.0.0.1 port (nothing else is ever a target), then for 8 and 16
concurrent clients (threads, one keep-alive ``http.client`` connection each) requests every URL
of four lists once: rule pages (every rule of the KB), the site's search page, table searches and
``lemma_search`` queries (words of the rule texts).  Each URL is requested for the first time in the 8-client
round ("cold": nothing cached) and again in the 16-client round ("warm": the server keeps whole
responses of the immutable KB); ``--cold-only`` defeats the cache by a distinct query string per
request.  Prints p50/p95/p99 and error counts per list and client count.  Bounded: at most
``--requests`` requests per list and round, and a per-request timeout.
"""
from __future__ import annotations

import argparse
import http.client
import re
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
    args = ap.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
