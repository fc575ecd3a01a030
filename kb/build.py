"""Build the knowledge base: manifest -> parsed records -> SQLite.

``build()`` is the one entry point (``kb build`` is a thin layer over it).  It checks every
source file against the manifest's SHA-256, parses what the cache does not hold yet (both cores
at once), turns each document into rows (parents, examples, cross-references; :mod:`kb.rows`),
lemmatises each distinct text once (:mod:`kb.cache`), writes the rows document by document
(:mod:`kb.schema`), runs the later stages (engine trace links, alignments, diffs) and moves the
new database over the old one only when everything succeeded.

A build whose inputs (manifest, sources, data files, code) did not change since the database
was written is skipped ("up to date"); ``force=True`` builds anyway.
"""
from __future__ import annotations

import fcntl
import hashlib
import multiprocessing
import os
import sqlite3
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Iterator

import sqlite_utils

import ingest
from ingest import SourceError, UnknownParser, get_parser
from ingest.model import ParseWarning

from . import fts, paths, schema, terminology
from . import rows as rows_module
from .cache import LemmaStore, ParseCache, code_version, lemmatiser_version
from .errors import BuildError
from .gcpause import collector_paused
from .manifest import Document, Manifest, ManifestError, load, sha256_of
from .rows import DocumentRows, Ids, cacheable_rows, lemma_text, texts_of


def stages(cache_root: Path, workers: int, scope: ExitStack, views: dict | None = None,
           data_dir: Path = paths.DATA) -> list[tuple[str, Callable[[sqlite_utils.Database], object]]]:
    """The later stages, called with the database once rules, items and refs exist.

    The diffs' workers start as soon as the alignments' rows are written: they compute while this process writes
    the concepts and the rule set comparisons, which leave what the diffs read as it is.  ``scope`` stops them if
    the build fails before the diffs stage.  ``views``: the aligners' views of the editions, made while the rules
    were written (:func:`_write_documents`), let go of once the alignments are stored."""
    trace_store, align_store, paths_store, rulesets_store, diff_start = _stage_functions()
    diffs = scope.enter_context(_Begun(partial(diff_start, cache_dir=cache_root, workers=workers)))
    known = views if views is not None else {}

    def alignments(db: sqlite_utils.Database) -> object:
        from .align.reviews import ReviewError

        try:
            return align_store(db, cache_dir=cache_root, workers=workers, rows_written=diffs.begin, views=known,
                               reviews_file=Path(data_dir) / "alignment_reviews.tsv")
        except ReviewError as e:   # a review the KB cannot follow: its file and line, the old database kept
            raise BuildError(str(e)) from None
        finally:
            known.clear()

    return [
        ("engine trace links", partial(trace_store, cache_dir=cache_root)),
        ("alignments", alignments),
        ("lineage paths", paths_store),
        ("rule set comparisons", partial(rulesets_store, cache_dir=cache_root)),
        ("diffs", diffs.write),
    ]


class _Begun:
    """A stage that an earlier stage begins (:meth:`begin`: ``start(db)`` returns an object whose ``write()``
    finishes it and whose ``close()`` abandons it); :meth:`write` begins it first if nothing did."""

    def __init__(self, start: Callable[[sqlite_utils.Database], Any]):
        self.start = start
        self.pending: Any = None

    def begin(self, db: sqlite_utils.Database) -> None:
        self.pending = self.start(db)

    def write(self, db: sqlite_utils.Database) -> None:
        if self.pending is None:
            self.begin(db)
        self.pending.write()

    def __enter__(self) -> _Begun:
        return self

    def __exit__(self, *exc) -> None:
        if self.pending is not None:
            self.pending.close()


def _stage_functions() -> tuple[Callable, ...]:
    """The later stages' entry points.  Their modules (the engine, the aligners, the diffs) are imported here, not
    when kb.build is: a build imports them while its workers parse (:meth:`_Later.prepare`), not before it starts
    any."""
    from .align.store import store as align_store
    from .diff.table import start as diff_start
    from .lineage_store import store as paths_store
    from .rulesets import store as rulesets_store
    from .trace import store as trace_store

    return trace_store, align_store, paths_store, rulesets_store, diff_start


#: the code and data whose change makes a database out of date (besides the manifest and sources)
INPUT_TREES = ("ingest", "kb", "engine")
#: (language, title, text) of a rule or item
TextKey = tuple[str, str | None, str | None]
#: fewer texts than this are lemmatised in-process (some 30 µs a text: starting workers would cost more than it
#: saves, the more so while the games' process holds the other core)
PARALLEL_TEXTS = 10_000


@dataclass
class BuildReport:
    db_path: Path
    counts: dict = field(default_factory=dict)
    warnings: list[dict] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    #: True when the database was already built from the same inputs (nothing was written)
    up_to_date: bool = False
    parsed: int = 0
    cached: int = 0
    lemmatised: int = 0


def _echo(msg: str) -> None:
    pass


def build(db_path: Path = paths.DEFAULT_DB, data_dir: Path = paths.DATA, strict: bool = False,
          stages: bool = True, progress: Callable[[str], None] = _echo, force: bool = False,
          workers: int | None = None, cache_dir: Path | None = None) -> BuildReport:
    """Build the KB from ``data_dir/manifest.toml`` into ``db_path``; raises :class:`BuildError`.

    ``cache_dir`` (default: ``cache/`` beside the database) holds the parsed documents and the
    lemmas; ``workers`` (default: the number of CPUs, at most 2) parse and lemmatise in parallel.
    """
    t0 = time.perf_counter()
    data_dir, db_path = Path(data_dir), Path(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    _children_die_with_parent()
    with _exclusive(db_path, progress):
        _remove_leftovers(db_path, Path(cache_dir) if cache_dir else db_path.parent / "cache")
        try:
            manifest = load(data_dir / "manifest.toml")
            terminology.load(terminology.TERMINOLOGY)   # a broken line of the curated table stops the build here
        except (ManifestError, ValueError) as e:
            raise BuildError(str(e)) from None
        return _build(db_path, data_dir, manifest, strict, stages, progress, force, workers, cache_dir, t0)


#: the builds of this process, by lock file: POSIX locks are per process, so threads take turns here first
_THREAD_LOCKS: dict[str, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


@contextmanager
def _exclusive(db_path: Path, progress: Callable[[str], None]):
    """One build at a time per database: a second build waits for the first (and may then be up to date).

    The lock is a POSIX record lock (``lockf``), which belongs to the build's own process: its workers do not
    inherit it (as they inherit an ``flock``), so a build killed with SIGKILL leaves no lock behind, whatever
    became of its workers; the kernel releases it with the process."""
    lock_path = db_path.with_name(f".{db_path.name}.lock")
    with _THREAD_LOCKS_GUARD:
        in_process = _THREAD_LOCKS.setdefault(str(lock_path.resolve()), threading.Lock())
    waiting = f"another build of {db_path} is running; waiting for it to finish"
    if not in_process.acquire(blocking=False):
        progress(waiting)
        in_process.acquire()
    try:
        with open(lock_path, "a+") as fh:
            try:
                fcntl.lockf(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                progress(waiting)
                fcntl.lockf(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(fh, fcntl.LOCK_UN)
    finally:
        in_process.release()


_WATCHING = False


def _children_die_with_parent() -> None:
    """Every process this one forks from now on (parsing and lemma workers, the games, the full-text index, the
    alignment and diff workers) ends when this process is gone, even killed with SIGKILL: a thread of each
    child watches its parent (a killed build must not leave workers running)."""
    global _WATCHING
    if not _WATCHING:
        _WATCHING = True
        os.register_at_fork(after_in_child=_watch_parent)


#: seconds between two looks of a child at its parent
WATCH_INTERVAL = 0.2


def _watch_parent() -> None:
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="kb-parent-watch").start()


def _build(db_path: Path, data_dir: Path, manifest: Manifest, strict: bool, with_stages: bool,
           progress: Callable[[str], None], force: bool, workers: int | None, cache_dir: Path | None,
           t0: float) -> BuildReport:
    report = BuildReport(db_path)
    fingerprint = _fingerprint(manifest, data_dir, strict, with_stages)
    if not force and _built_from(db_path) == fingerprint:
        report.up_to_date = True
        report.counts = _counts(sqlite_utils.Database(db_path))
        report.warnings = [dict(r) for r in sqlite_utils.Database(db_path).query("select * from warnings order by id")]
        report.timings["total"] = time.perf_counter() - t0
        progress(f"{db_path} is up to date (same manifest, sources, data and code); `kb build --force` rebuilds")
        return report
    workers = workers or min(2, os.cpu_count() or 1)
    cache_root = Path(cache_dir) if cache_dir else db_path.parent / "cache"
    parse_cache = ParseCache(cache_root)
    later = _Later(cache_root if with_stages else None)
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    side_path = db_path.with_name(f".{db_path.name}.fts.{os.getpid()}.tmp")
    side: fts.SideIndex | None = None
    try:
        t = time.perf_counter()
        keys = _parse_missing(manifest, data_dir, parse_cache, workers, report, progress, later.prepare)
        if report.parsed:
            progress(f"parsed {report.parsed} document(s) ({time.perf_counter() - t:.2f}s)")
        tmp.unlink(missing_ok=True)
        db = sqlite_utils.Database(tmp)
        schema.create(db, manifest)
        store = LemmaStore(cache_root, lemmatiser_version())
        views: dict | None = {} if with_stages else None
        with collector_paused():   # (the side index's process and the lemmatising workers fork with it paused)
            side = _write_documents(db, side_path, manifest, keys, parse_cache, store, workers, report, progress,
                                    views)
        store.save()
        parse_cache.prune(keys.values())
        if strict and report.warnings:
            first = report.warnings[0]
            raise BuildError(f"{len(report.warnings)} source warnings and --strict; first: "
                             f"{first['path']}:{first['line']}: {first['message']}")
        t = time.perf_counter()
        schema.finish(db)
        fts.finish(db, side)
        progress(f"indexes and full-text search ({time.perf_counter() - t:.2f}s)")
        if with_stages:
            for name, func in stages(cache_root, workers, later.scope, views, data_dir):
                later.before(name)
                t = time.perf_counter()
                func(db)
                report.timings[name] = time.perf_counter() - t
                progress(f"{name} ({report.timings[name]:.2f}s)")
        report.counts = _counts(db)
        db.table("build_info").insert({"key": "fingerprint", "value": fingerprint}, pk="key")
        db.execute("pragma analysis_limit = 1000")   # the planner's statistics from a sample: a tenth of the time
        db.execute("analyze")
        db.close()
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
        later.close()
        if side is not None and side.process.is_alive():   # (a failed build leaves no process behind)
            side.process.terminate()
            side.process.join()
        side_path.unlink(missing_ok=True)
    report.timings["total"] = time.perf_counter() - t0
    progress(f"wrote {db_path} in {report.timings['total']:.2f}s")
    return report


class _Later:
    """What the later stages need before the documents are written, done while they are parsed (:meth:`prepare`).

    The engine's games (the scenarios and the rule-set comparisons) depend on the engine and its data only, and the
    stages that need them take them from the cache (:func:`kb.trace.engine_runs`): processes of their own play
    them meanwhile, one per stage (:func:`_games`), so that cores that would idle play them and a stage waits for
    its own games only (:meth:`before`).
    """

    def __init__(self, games_cache: Path | None):
        #: where the games are cached (None: a build without the later stages)
        self.games_cache = games_cache
        #: stage name -> the process playing its games
        self.games: dict[str, multiprocessing.process.BaseProcess] = {}
        self.scope = ExitStack()

    def prepare(self, todo: list[Document]) -> None:
        """While workers parse ``todo``: import the later stages' modules, then fork the games' processes from here
        (they inherit them and the engine's inputs, hashed once for the whole build), then load, once, the tokenizer
        rules and dictionaries the new texts need (the lemma stage runs here or in workers forked from here, which
        inherit them)."""
        _stage_functions()
        from . import lemmas  # (simplemma: imported here, not before the workers start, nor when up to date)

        if self.games_cache is not None:
            from .trace import engine_runs_cached, inputs_fixed

            self.scope.enter_context(inputs_fixed())
            for stage, (names, play) in _games(self.games_cache).items():
                if not engine_runs_cached(self.games_cache, *names):
                    self.games[stage] = multiprocessing.get_context("fork").Process(target=_play, args=(play,),
                                                                                    daemon=True)
                    self.games[stage].start()
        for lang in sorted({e.language for doc in todo for e in doc.editions}):
            lemmas.warm(lang)

    def before(self, stage: str) -> None:
        """Wait until the games ``stage`` needs are played."""
        if stage in self.games:
            self.games[stage].join()

    def close(self) -> None:
        for proc in self.games.values():
            if proc.is_alive():
                proc.terminate()
                proc.join()
        self.scope.close()


def _games(cache_root: Path) -> dict[str, tuple[tuple[str, ...], Callable[[], object]]]:
    """The games each later stage takes from the cache at ``cache_root``, by stage name: their names in the cache
    (:func:`kb.trace.engine_runs`) and what plays them into it."""
    from .rulesets import comparison_results
    from .trace import card_problem, engine_runs, scenario_results

    return {"engine trace links": (("cards", "scenarios"), lambda: (engine_runs(cache_root, "cards", card_problem),
                                                                    scenario_results(cache_dir=cache_root))),
            "rule set comparisons": (("comparisons",), lambda: comparison_results(cache_root))}


def _play(games: Callable[[], object]) -> None:
    try:
        games()
    except Exception:   # noqa: BLE001 - the stages play the games again and report what is wrong with file:line
        pass


def _counts(db: sqlite_utils.Database) -> dict[str, int]:
    return {name: db.table(name).count for name in db.table_names()
            if not name.endswith(("_fts", "_fts_data", "_fts_idx", "_fts_docsize", "_fts_config"))}


# -- up to date? ----------------------------------------------------------------------------------------------------

def _fingerprint(manifest: Manifest, data_dir: Path, strict: bool, stages: bool) -> str:
    """SHA-256 over everything the database is made from; checks each source against the manifest."""
    h = hashlib.sha256(f"strict={strict} stages={stages}\n".encode())
    h.update((data_dir / "manifest.toml").read_bytes())
    for doc in manifest.documents:
        _check_source(doc, data_dir)
    sources = (data_dir / "sources").resolve()
    files = [p for p in sorted(Path(data_dir).rglob("*"))
             if p.is_file() and sources not in p.resolve().parents and p.name != "manifest.toml"]
    for tree in INPUT_TREES:
        files += sorted(p for p in (paths.ROOT / tree).rglob("*")
                        if p.is_file() and p.suffix in (".py", ".html", ".css", ".js", ".toml", ".json"))
    for p in files:
        h.update(f"{p.relative_to(p.anchor)}\0".encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _built_from(db_path: Path) -> str | None:
    """The fingerprint stored in an existing database, or None."""
    if not db_path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            row = conn.execute("select value from build_info where key = 'fingerprint'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:  # an old or damaged database is simply rebuilt
        return None
    return row[0] if row else None


def _remove_leftovers(db_path: Path, cache_root: Path) -> None:
    """What interrupted builds left: every temporary database of ``db_path`` (the caller holds the build lock,
    so no other build of it is running) and the temporary cache files of processes that are gone."""
    for tmp in db_path.parent.glob(f".{db_path.name}.*.tmp"):
        tmp.unlink(missing_ok=True)
    if cache_root.is_dir():
        for tmp in cache_root.rglob(".*.tmp"):
            pid = tmp.name.rsplit(".", 2)[-2]
            if pid.isdigit() and not _alive(int(pid)):
                tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# -- parsing --------------------------------------------------------------------------------------------------------

def _check_source(doc: Document, data_dir: Path) -> None:
    path = doc.file(data_dir)
    shown = paths.shown(path)
    if not path.exists():
        raise BuildError(f"{shown}: file listed in the manifest is missing")
    actual = sha256_of(path)
    if actual != doc.sha256:
        raise BuildError(
            f"{shown}: SHA-256 {actual[:16]}… differs from the manifest ({doc.sha256[:16]}…). "
            "Source documents are kept byte-for-byte; add a new version with `kb add` instead of editing."
        )


def _cache_key(doc: Document) -> str:
    try:
        spec = get_parser(doc.parser)
    except UnknownParser as e:
        raise BuildError(f"data/{doc.path}: {e.args[0]}") from None
    entry = repr((doc.id, doc.path, doc.encoding, doc.partial, [(e.id, e.language) for e in doc.editions]))
    return ParseCache.key(doc.sha256, spec.name, spec.version, entry + _rows_code())


def _rows_code() -> str:
    """The code that turns parsed records into rows (the normalisers of ingest and kb/rows.py)."""
    rows_code = hashlib.sha256(Path(rows_module.__file__).read_bytes()).hexdigest()
    return code_version(Path(ingest.__file__).parent) + rows_code


def _parse_missing(manifest: Manifest, data_dir: Path, cache: ParseCache, workers: int, report: BuildReport,
                   progress: Callable[[str], None], meanwhile: Callable[[list[Document]], None]) -> dict[str, str]:
    """Parse the documents the cache lacks (in parallel, while this process does ``meanwhile``); document id ->
    cache key."""
    keys = {doc.id: _cache_key(doc) for doc in manifest.documents}
    todo = [doc for doc in manifest.documents if not cache.has(keys[doc.id])]
    report.cached = len(manifest.documents) - len(todo)
    report.parsed = len(todo)
    jobs = [(doc, data_dir, cache.dir.parent, keys[doc.id]) for doc in todo]
    if jobs and workers > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            running = pool.map(_parse_job, jobs)
            meanwhile(todo)
            results = list(running)
    else:
        meanwhile(todo)
        results = [_parse_job(job) for job in jobs]
    for doc, (error, message) in zip(todo, results, strict=True):
        if error:
            raise BuildError(message)
        progress(f"parsed {paths.shown(doc.file(data_dir))} with {doc.parser}: {message}")
    if report.cached:
        progress(f"{report.cached} document(s) unchanged (parsed records from the cache)")
    return keys


def _parse_job(job: tuple[Document, Path, Path, str]) -> tuple[bool, str]:
    """Parse one document into the cache: (False, summary) or (True, error message)."""
    with collector_paused():
        return _parse_into_cache(*job)


def _parse_into_cache(doc: Document, data_dir: Path, cache_root: Path, key: str) -> tuple[bool, str]:
    t = time.perf_counter()
    shown = paths.shown(doc.file(data_dir))
    try:
        lines = ingest.read_lines(doc.file(data_dir), doc.encoding, shown)
        parsed = ingest.parse_lines(lines, shown, doc.parser, doc.editions[0].language)
    except SourceError as e:
        return True, str(e)
    missing = ingest.incomplete(parsed, lines, doc.parser)
    if missing and not doc.partial:
        return True, f"{shown}:{ingest.last_line(lines)}: {missing} (`kb add --allow-partial` accepts it)"
    if missing:
        parsed.warnings.append(ParseWarning(ingest.last_line(lines), "incomplete", missing))
    ParseCache(cache_root).put(key, cacheable_rows(doc, parsed, lines), texts_of(doc, parsed))
    n = len(parsed.warnings)
    return False, (f"{len(parsed.records)} records, {n} warning{'' if n == 1 else 's'} "
                   f"({time.perf_counter() - t:.2f}s)")


# -- rows, lemmas, writing ------------------------------------------------------------------------------------------

def _write_documents(db: sqlite_utils.Database, side_path: Path, manifest: Manifest, keys: dict[str, str],
                     cache: ParseCache, store: LemmaStore, workers: int, report: BuildReport,
                     progress: Callable[[str], None], views: dict | None = None) -> fts.SideIndex:
    """Rows of each document, lemmatised and written, while a process of their own indexes their text
    (:mod:`kb.fts`, in ``side_path``); only one document's records are in memory at a time.

    ``views`` (if given) gets the aligners' views of each edition's rules, made from the rows as they are written
    (:func:`kb.align.views.views_from_rows`): the alignment stage would read them back otherwise, with the other
    core idle.  An edition whose rules come from several documents is left out (the stage reads it)."""
    t = time.perf_counter()
    from . import lemmas

    _lemmatise_missing(manifest, keys, cache, store, workers, report)
    lemmas.release()
    if report.lemmatised:
        progress(f"lemmatised {report.lemmatised} new distinct texts ({time.perf_counter() - t:.2f}s)")
    t = time.perf_counter()
    side = fts.start(side_path,
                     lambda: ((r.columns, base) for _, r, base in _document_rows(manifest, keys, cache, store)))
    last = Ids()
    shared: set[str] = set()
    for doc, rows, base in _document_rows(manifest, keys, cache, store, last):
        for w in rows.warnings:
            w["id"] = last.next("warnings")
        schema.insert_document(db, doc.id, rows, base)
        report.warnings += rows.warnings
        if views is not None:
            _add_views(views, shared, rows, base)
    if views is not None:
        for edition in shared:
            del views[edition]
    progress(f"wrote {last.last['rules']} rules, {last.last['items']} items and {last.last['refs']} cross-references "
             f"({time.perf_counter() - t:.2f}s)")
    return side


def _add_views(views: dict, shared: set[str], rows: DocumentRows, base: dict[str, int]) -> None:
    """The aligners' views of the rules of one document's ``rows`` into ``views`` (by edition; an edition that an
    earlier document had too into ``shared``)."""
    from .align.views import views_from_rows  # (imported by a build with the later stages only)

    if rules := rows.columns.get("rules"):
        for edition, found in views_from_rows(rules, rows.columns.get("items"), base).items():
            if edition in views:
                shared.add(edition)
            views[edition] = found


def _document_rows(manifest: Manifest, keys: dict[str, str], cache: ParseCache, store: LemmaStore,
                   ids: Ids | None = None) -> Iterator[tuple[Document, DocumentRows, dict[str, int]]]:
    """Each document's rows with their lemmas, and the ids the documents before it used (see
    :meth:`DocumentRows.claim`); only one document's rows are in memory at a time."""
    ids = ids if ids is not None else Ids()
    lemmas_of: dict[TextKey, str] = {}  # consecutive editions repeat most texts
    for doc in manifest.documents:
        rows = _rows_of(doc, keys[doc.id], cache)
        base = rows.claim(ids)
        for table in ("rules", "items"):
            if columns := rows.columns.get(table):
                columns["lemmas"] = _lemmas(columns, store, lemmas_of)
        yield doc, rows, base


def _lemmas(columns: dict[str, list], store: LemmaStore, known: dict[TextKey, str]) -> list[str]:
    """The lemmas of each rule or item row; ``known`` keeps those of the texts seen so far in the build."""
    keys = columns["language"], columns["title"], columns["text"]
    for lang, title, text in set(zip(*keys)).difference(known):
        known[lang, title, text] = store.get(lang, lemma_text(title, text))
    return list(map(known.__getitem__, zip(*keys)))


def _rows_of(doc: Document, key: str, cache: ParseCache) -> DocumentRows:
    rows = cache.get(key)
    if rows is None:
        raise BuildError(f"data/{doc.path}: the parse cache lost this document during the build; build again")
    return rows


def _lemmatise_missing(manifest: Manifest, keys: dict[str, str], cache: ParseCache, store: LemmaStore,
                       workers: int, report: BuildReport) -> None:
    """Lemmatise every distinct text the store lacks (on the workers when there are many)."""
    wanted: dict[str, dict[str, None]] = {}   # per language, its distinct texts in first-seen order
    for doc in manifest.documents:
        doc_texts = cache.texts(keys[doc.id])
        if doc_texts is None:
            raise BuildError(f"data/{doc.path}: the parse cache lost this document during the build; build again")
        for lang, run in groupby(doc_texts, key=itemgetter(0)):
            wanted.setdefault(lang, {}).update(dict.fromkeys(map(itemgetter(1), run)))
    missing = [(lang, texts) for lang, all_texts in wanted.items() if (texts := store.missing(lang, all_texts))]
    if not missing:
        return
    if workers > 1 and sum(len(t) for _, t in missing) >= PARALLEL_TEXTS:
        # every language in as many slices as there are workers, so that one language alone (an archive of
        # English editions) keeps them all busy; the workers are forked from this process, which loaded the
        # dictionaries while the documents were parsed (:func:`_parse_missing`)
        jobs = [(lang, texts[k::workers]) for lang, texts in missing for k in range(workers)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_lemmatise_job, jobs))
    else:
        jobs, results = missing, [_lemmatise_job(job) for job in missing]
    for (lang, texts), lems in zip(jobs, results, strict=True):
        store.add(lang, texts, lems)
        report.lemmatised += len(texts)


def _lemmatise_job(job: tuple[str, list[str]]) -> list[str]:
    from . import lemmas

    lang, texts = job
    return lemmas.lemmatize_many(texts, lang)
