"""Serve the KB in Datasette: one function builds the configured instance for ``kb serve`` and tests."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from datasette.app import Datasette

from .query import require
from .site.http import GuardedH11Protocol

TEMPLATES = Path(__file__).parent / "templates"

CANNED = {
    "rule_by_number": {
        "title": "A rule by number in every edition",
        "description": "Every edition's rule with this number (e.g. 601.2f), newest edition first.",
        "sql": """select r.edition_id, e.language, e.date, r.number, r.title, r.text, r.key
from rules r join editions e on e.id = r.edition_id
where r.norm = lower(trim(:number, '. ')) order by e.date desc, r.seq""",
    },
    "citing_rules": {
        "title": "Rules and items that cite a rule",
        "description": "Everything that refers to rule :number (optionally in one :edition).",
        "sql": """select refs.edition_id, coalesce(r.number, i.kind || ' of ' || coalesce(o.number, '-')) as cited_from,
  refs.raw, coalesce(r.text, i.text) as text
from refs left join rules r on r.id = refs.from_rule_id
left join items i on i.id = refs.from_item_id left join rules o on o.id = i.rule_id
where refs.target = lower(trim(:number, '. ')) and (:edition = '' or refs.edition_id = :edition)
order by refs.edition_id, refs.id""",
    },
    "unresolved_references": {
        "title": "Unresolved references",
        "description": "Targets that are not rules of the citing edition "
                       "(often outside the excerpt: data, not errors).",
        "sql": """select edition_id, target, count(*) as times, group_concat(distinct raw) as printed
from refs where resolved = 0 group by edition_id, target order by edition_id, times desc""",
    },
    "lemma_search": {
        "title": "Lemma search (German, Italian, English inflections)",
        "description": "Finds every inflected form: 'Zauberspruch' finds 'Zaubersprüche', 'wirken' finds 'gewirkt', "
                       "'magia' finds 'magie'; a rule number finds that rule. :lang is the language of the "
                       "editions searched (de, it or en). The site's search (/search) also widens a query through "
                       "the terminology table.",
        "sql": """with hits as (
  select 'rule' as kind, r.edition_id, r.number, r.title, r.text from rules r
  where r.norm = lower(trim(:q, '. '))
  union all
  select 'rule', r.edition_id, r.number, r.title, r.text from rules_fts join rules r on r.rowid = rules_fts.rowid
  where rules_fts match lemma_query(:q, coalesce(nullif(:lang, ''), 'de'))
  union all
  select i.kind, i.edition_id, o.number, i.title, i.text from items_fts
  join items i on i.rowid = items_fts.rowid left join rules o on o.id = i.rule_id
  where items_fts match lemma_query(:q, coalesce(nullif(:lang, ''), 'de'))
  limit 200
), notes as (
  select 'note' as kind, null as edition_id, null as number, null as title,
    'unknown language ' || quote(:lang) || ': the editions are in ' ||
    (select group_concat(language, ', ') from (select distinct language from editions order by language)) as text
  where coalesce(nullif(:lang, ''), 'de') not in (select language from editions)
  union all
  select 'note', null, null, null, 'no rule or text matches ' || quote(:q) || ' in language '
    || coalesce(nullif(:lang, ''), 'de') || '; the site search (/search) suggests near terms'
  where not exists (select 1 from hits)
)
select * from notes union all select * from hits""",
    },
}


def metadata(db_name: str = "kb", debug_pages: bool = False) -> dict:
    from . import align as align_mod
    from . import diff as diff_mod

    return {
        "title": "MTG rules knowledge base",
        "description_html": (
            "Every rule, example, note, glossary and index entry, FAQ bullet and article paragraph of the ingested "
            "Magic: The Gathering rules documents (German 2024, German 1999, Italian wiki, 2009 article, Morph page). "
            "The site's <a href='/'>home page</a> lists the editions with their contents, search and rule lookup."
        ),
        "source": "data/manifest.toml (source documents byte-for-byte in data/sources)",
        "plugins": {"kb": {"debug_pages": debug_pages}},
        "databases": {db_name: {
            "queries": {**CANNED, **align_mod.CANNED_QUERIES, **diff_mod.canned_queries()},
            "tables": {
                "documents": {"description": "Source documents with SHA-256 as checked by the build."},
                "editions": {"description": "Editions (a document holds one, the Morph page two).",
                             "facets": ["language", "kind"], "label_column": "id"},
                "rules": {
                    "description": "Rule nodes: chapter, section, rule, subrule. Printed number, normalised number "
                                   "and text are kept apart; text_norm has canonical mana symbols.",
                    # no default facet and 20 rows: a facet is a query and a block of the page on every
                    # search ("Facet by this" on a column adds one; the site's /search groups by edition)
                    "label_column": "key", "sort": "id", "size": 20,
                    "columns": {
                        "key": "edition/normalised number (#line for a duplicate number); links to the rule page",
                        "number": "number exactly as printed", "norm": "normalised number",
                        "level": "chapter, section, rule or subrule", "parent_id": "nearest existing ancestor",
                        "text": "text as printed (wrapped lines joined)",
                        "text_norm": "text with mana symbols in one notation ({W}{U}{B}{R}{G}{X}{2}{T}{Q})",
                        "lemmas": "lemmas of title and text, for inflection-aware search",
                        "seq": "order in the edition", "line_start": "first source line",
                        "line_end": "last source line",
                        "text_sha256": "SHA-256 of text (engine trace links are reviewed against it)",
                    },
                },
                "items": {
                    "description": "Everything that is not a rule: examples, notes, FAQ bullets, glossary and index "
                                   "entries, article paragraphs and steps, headings, table of contents, boilerplate.",
                    "facets": ["edition_id", "kind"], "sort": "id", "size": 25,
                    "columns": {"rule_id": "the rule this item hangs off", "label": "printed label (Beispiel, ...)",
                                "title": "heading, glossary or index term", "meta": "format-specific details (JSON)"},
                },
                "refs": {"description": "Cross-references found in text, index and glossary; ranges expanded to every "
                                        "existing member; unresolved when the target is not in the same edition.",
                         "facets": ["edition_id", "resolved", "kind"]},
                "unparsed": {"description": "Source lines no parser rule explains, with the reason.",
                             "facets": ["document_id"]},
                "warnings": {"description": "Source defects kept visible (duplicate or backwards numbers, missing "
                                            "spaces, trailing dots, lost placeholders ...).",
                             "facets": ["document_id", "code"]},
                **align_mod.TABLE_METADATA,
                "diffs": diff_mod.metadata(),
                "source_lines": {"description": "Every non-blank source line (or part of one) and the record it "
                                                "belongs to: the lossless ingestion, checkable.",
                                 "facets": ["document_id", "record_table", "kind"]},
            },
        }},
    }


#: Datasette's SQL time limit; no SQL function of the project runs longer than a fraction of it per call
SQL_TIME_LIMIT_MS = 3000


def settings(debug_pages: bool = False) -> dict:
    """Datasette settings: read-only, time-limited; downloads of whole tables or the file only when debugging."""
    return {"default_page_size": 100, "sql_time_limit_ms": SQL_TIME_LIMIT_MS, "facet_time_limit_ms": 200,
            "suggest_facets": False, "allow_download": debug_pages, "allow_csv_stream": debug_pages,
            "max_returned_rows": 1000}


def make_datasette(db_path: Path, debug_pages: bool = False) -> Datasette:
    """The configured Datasette over the KB file ``db_path`` (any file name: the database is named after it)."""
    db_path = require(db_path)
    return Datasette(
        immutables=[str(db_path)], metadata=metadata(db_path.stem, debug_pages), template_dir=str(TEMPLATES),
        settings=settings(debug_pages),
    )


def _quiet_logging() -> None:
    """One short line per event: the guard's lines (kb.site), uvicorn's warnings, and not Datasette's stray
    "coroutine ... was never awaited" warnings (its facets, when a query before them fails)."""
    import logging
    import warnings

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)


def default_workers() -> int:
    """One server process per CPU, at most 2: the Python part of a request holds one core."""
    return max(1, min(2, os.cpu_count() or 1))


def serve(db_path: Path, host: str = "127.0.0.1", port: int = 8001, debug_pages: bool = False,
          workers: int | None = None) -> None:
    """Serve the KB; with several ``workers``, each is a process of its own with its own listening socket."""
    import uvicorn

    _quiet_logging()
    workers = workers or default_workers()
    ds = make_datasette(db_path, debug_pages)   # checks the file before anything listens
    _check_port(host, port)
    note = ("  (debug pages on)" if debug_pages else "") + (f"  ({workers} processes)" if workers > 1 else "")
    banner = f"Serving {db_path} read-only at http://{host}:{port}/{note}"
    if workers == 1 or not hasattr(socket, "SO_REUSEPORT"):
        asyncio.run(ds.invoke_startup())
        print(banner, flush=True)
        uvicorn.run(ds.app(), host=host, port=port, log_level="warning", lifespan="on", workers=1,
                    http=GuardedH11Protocol)
        return
    print(f"Starting {workers} server processes (each loads the lemma dictionaries first) …", flush=True)
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    workers_ready = [ctx.Event() for _ in range(workers)]
    procs = [ctx.Process(target=_worker, args=(Path(db_path).resolve(), host, port, debug_pages, ready, go),
                         daemon=True) for ready in workers_ready]
    _supervise(procs, workers_ready, go, banner)


class ServeError(Exception):
    pass


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _check_port(host: str, port: int) -> None:
    """Refuse a port something already listens on — a worker would fail, or, if that is another ``kb serve``,
    share the port with it — before starting any worker."""
    probe = socket.socket(_family(host), socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # connections in TIME_WAIT do not count
    try:
        probe.bind((host, port))
    except OSError as e:
        raise ServeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    finally:
        probe.close()


def _worker(db_path: Path, host: str, port: int, debug_pages: bool, ready, go) -> None:
    """One server process.  Each binds its own socket to the same address (``SO_REUSEPORT``), so the kernel
    spreads the connections over the processes (with one shared socket, the first process to wake up
    accepts a whole burst of keep-alive connections and the others stay idle).  All of them start to
    listen together, once every one has loaded what it serves from: a process still starting would
    otherwise leave the first connections to the others."""
    import uvicorn

    _exit_with_parent()
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on connections of such a socket, and without it
    # every response waits ~40 ms for the client's delayed ACK (Nagle's algorithm)
    sock = socket.socket(_family(host), socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))   # a bound socket that does not listen yet receives no connection
    except OSError as e:
        print(f"kb serve: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    _quiet_logging()
    ds = make_datasette(db_path, debug_pages)
    asyncio.run(ds.invoke_startup())
    ready.set()
    go.wait()
    uvicorn.Server(uvicorn.Config(ds.app(), log_level="warning", lifespan="on", http=GuardedH11Protocol)).run(
        sockets=[sock])


def _exit_with_parent() -> None:
    """End this worker when the ``kb serve`` process that started it is gone (killed with SIGKILL, say): a
    worker must not go on serving the port alone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="kb-parent-watch").start()


def _supervise(procs: list, ready: list, go, banner: str) -> None:
    """Start the worker processes, let them listen once all are ready, and run them until one ends or the
    server is stopped (Ctrl-C, SIGTERM); then stop them all."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    for p in procs:
        p.start()
    try:
        while not stop.is_set() and all(p.is_alive() for p in procs):
            if not go.is_set() and all(r.is_set() for r in ready):
                go.set()
                print(banner, flush=True)
            stop.wait(0.05 if not go.is_set() else 0.5)
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(10)
    failed = [p.exitcode for p in procs if p.exitcode not in (0, -signal.SIGTERM, None)]
    if failed and not stop.is_set():
        raise SystemExit(f"a server process ended with exit code {failed[0]}; the server stopped")
