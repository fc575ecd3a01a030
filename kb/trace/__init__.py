"""Traceability between rule text, engine functions and scenarios — the knowledge-base side.

The engine names the rules each function enforces (:mod:`engine.registry`) and plays the
scenarios (:mod:`engine.scenario`); this package reads both and links them to the rules:

* :func:`store` writes the links into the knowledge base (called by ``kb build``
  after the ``rules`` table exists): ``engine_functions``, ``enforces``,
  ``scenarios``, ``scenario_rules`` and the view ``engine_trace``.
* Review stamps — the SHA-256 of a rule's text when a person last checked that
  a function still does what the rule says — live in ``data/trace_reviews.toml``;
  ``kb trace --review`` writes them and ``kb trace --check`` reports links whose
  rule text has changed since ("suspect", as Doorstop calls it).
* :func:`coverage` says, per rule family, which rules are enforced by a
  function, exercised by a scenario, or neither.
"""
from __future__ import annotations

import hashlib
import pickle
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

import tomli_w

from engine import paths as engine_paths
from engine import rulesets
from engine.cards import CardError, default_db
from engine.registry import DEFAULT_EDITION, Citation, EnforcingFunction, load_all, parse_citation
from engine.rulesets import RULESETS_FILE
from engine.scenario import Result, all_files, run_file
from ingest.numbers import sort_key

from .. import paths
from ..cache import write_atomic
from ..errors import BuildError
from ..schema import insert_rows
from . import verified
from .verified import asserted, decisive

T = TypeVar("T")

REVIEWS_FILE = paths.DATA / "trace_reviews.toml"


# -- review stamps ------------------------------------------------------------------------------------------------

def load_reviews(path: Path | None = None) -> dict[tuple[str, str], str]:
    """(function qualname, rule key) -> SHA-256 of the rule text when the link was reviewed."""
    path = path or REVIEWS_FILE
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: not valid TOML ({e})") from None
    reviews = data.get("reviews", {})
    tables = reviews.values() if isinstance(reviews, dict) else [None]
    if not all(isinstance(rules, dict) and all(isinstance(sha, str) for sha in rules.values()) for rules in tables):
        raise ValueError(f"{path}: [reviews] must map each function to a table of rule key = SHA-256 (as "
                         "`kb trace --review` writes it)")
    return {(fn, key): sha for fn, rules in reviews.items() for key, sha in rules.items()}


def save_reviews(reviews: dict[tuple[str, str], str], path: Path | None = None) -> None:
    path = path or REVIEWS_FILE
    nested: dict[str, dict[str, str]] = {}
    for (fn, key), sha in sorted(reviews.items()):
        nested.setdefault(fn, {})[key] = sha
    header = ("# Review stamps of engine -> rule links: the SHA-256 of the rule text when the link was last\n"
              "# reviewed.  Written by `kb trace --review`; `kb trace --check` reports links whose rule text\n"
              "# has changed since (suspect).\n")
    path.write_text(header + tomli_w.dumps({"reviews": nested}), encoding="utf-8")


# -- the knowledge base -------------------------------------------------------------------------------------------

def rules_by_key(db, editions: Iterable[str] | None = None) -> dict[str, dict]:
    """``de-2024/601.2f`` -> row of the ``rules`` table (looked up by edition and normalised number); only the
    rules of ``editions`` when given (the engine cites a few editions; the KB may hold a hundred)."""
    out = {}
    wanted = sorted(set(editions)) if editions is not None else None
    rows = db["rules"].rows if wanted is None else db["rules"].rows_where(
        f"edition_id in ({', '.join('?' * len(wanted))})", wanted)
    for row in rows:
        norm = row.get("norm") or (row.get("number") or "").strip().rstrip(".")
        out[f"{row['edition_id']}/{norm}"] = row
    return out


@dataclass
class LinkStatus:
    link: EnforcingFunction
    citation: Citation
    rule: dict | None
    reviewed: str | None
    current: str | None

    @property
    def status(self) -> str:
        if self.rule is None:
            return "missing"
        if self.reviewed is None:
            return "unreviewed"
        return "ok" if self.reviewed == self.current else "suspect"


def link_statuses(db, registry=None) -> list[LinkStatus]:
    registry = registry or load_all()
    rules = rules_by_key(db, {c.edition for link in registry for c in link.citations})
    reviews = load_reviews()
    out = []
    for link in registry:
        for c in link.citations:
            row = rules.get(c.key)
            out.append(LinkStatus(link, c, row, reviews.get((link.qualname, c.key)),
                                  row.get("text_sha256") if row else None))
    return out


# -- scenarios ----------------------------------------------------------------------------------------------------

_SCENARIO_CACHE: list[Result] | None = None
_VERIFIED_CACHE: list[list[str]] | None = None


def scenario_files() -> list[Path]:
    """The scenarios the knowledge base plays: data/scenarios and the cases from other engines' test suites in
    its peer/ folder (docs/peer-cases.md); peer-pending/ holds cases that fail today and is not played."""
    return all_files(engine_paths.SCENARIOS_DIR) + all_files(engine_paths.SCENARIOS_DIR / "peer")


def scenario_results(refresh: bool = False, cache_dir: Path | None = None) -> list[Result]:
    """Every scenario of :func:`scenario_files`, run (with the rules each step applied); with a ``cache_dir``,
    taken from an earlier build's run when the engine and its data did not change (:func:`engine_runs`)."""
    global _SCENARIO_CACHE, _VERIFIED_CACHE
    if _SCENARIO_CACHE is None or refresh:
        _VERIFIED_CACHE = None
        _SCENARIO_CACHE = engine_runs(cache_dir, "scenarios", lambda: [run_file(p) for p in scenario_files()])
    return _SCENARIO_CACHE


def engine_inputs() -> str:
    """SHA-256 of everything a game depends on: the engine's code, the card and scenario files, the rule sets, and
    which scenario files are played (:func:`scenario_files`)."""
    h = hashlib.sha256()
    groups = (("engine", engine_paths.ROOT / "engine", "*.py"), ("cards", engine_paths.CARDS_DIR, "*"),
              ("scenarios", engine_paths.SCENARIOS_DIR, "*"), ("rulesets", RULESETS_FILE.parent, RULESETS_FILE.name))
    for name, base, pattern in groups:
        for path in sorted(Path(base).rglob(pattern)):
            if path.is_file():
                h.update(f"{name}/{path.relative_to(base)}".encode() + b"\0" + path.read_bytes() + b"\0")
    for path in scenario_files():  # and which of them are played (peer/ is, peer-pending/ is not)
        h.update(b"played/" + str(path.relative_to(engine_paths.SCENARIOS_DIR)).encode() + b"\0")
    return h.hexdigest()


#: the engine's inputs as hashed when :func:`inputs_fixed` was entered (innermost last)
_FIXED: list[str] = []


@contextmanager
def inputs_fixed() -> Iterator[None]:
    """Within, :func:`engine_runs` takes the engine's inputs as hashed on entry: a build hashes them once, not once
    per game and stage (they are not to change while it runs)."""
    _FIXED.append(engine_inputs())
    try:
        yield
    finally:
        _FIXED.pop()


def engine_runs(cache_dir: Path | None, name: str, run: Callable[[], T]) -> T:
    """``run()`` (games played by the engine), or its result of an earlier build with the same
    :func:`engine_inputs`: the games depend on nothing else, so a build that added a document need not play
    them again."""
    if cache_dir is None:
        return run()
    path = _run_path(cache_dir, name)
    try:
        return pickle.loads(path.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        pass
    result = run()
    for old in path.parent.glob(f"{name}-*.pickle"):
        old.unlink(missing_ok=True)
    write_atomic(path, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    return result


def _run_path(cache_dir: Path, name: str) -> Path:
    inputs = _FIXED[-1] if _FIXED else engine_inputs()
    return Path(cache_dir) / "engine" / f"{name}-{inputs[:32]}.pickle"


def engine_runs_cached(cache_dir: Path, *names: str) -> bool:
    """Whether :func:`engine_runs` has the results of these games (a readable file each, as far as it can tell)."""
    return all(_run_path(cache_dir, name).is_file() for name in names)


def verified_results(cache_dir: Path | None = None) -> list[list[str]]:
    """For each scenario of :func:`scenario_results`, the rule keys it verifies by failing without them
    (:func:`kb.trace.verified.decisive`); with a ``cache_dir``, from an earlier build when nothing changed."""
    global _VERIFIED_CACHE
    if _VERIFIED_CACHE is None:
        results = scenario_results(cache_dir=cache_dir)
        registry = load_all()
        how = hashlib.sha256(Path(verified.__file__).read_bytes()).hexdigest()[:12]  # its own code decides too
        _VERIFIED_CACHE = engine_runs(cache_dir, f"decisive_{how}", lambda: [decisive(r, registry) for r in results])
    return _VERIFIED_CACHE


def scenario_links() -> list[tuple[Result, str, str]]:
    """(result, rule key, how) for every rule a scenario verifies — names in an expectation ("asserted") or is
    tagged with and fails without ("decisive", :mod:`kb.trace.verified`) —, is tagged with ("tagged"), applied
    ("applied"), or whose enforcing function a step entered without applying it ("entered").  Only "asserted"
    and "decisive" count as tested."""
    out = []
    keys: dict[str, str] = {}   # a few hundred rules, cited tens of thousands of times
    for res, decided in zip(scenario_results(), verified_results()):
        out += [(res, key, "asserted") for key in asserted(res)]
        out += [(res, key, "decisive") for key in decided]
        tagged = res.scenario.rule_tags()
        for key in tagged:
            out.append((res, key, "tagged"))
        for how, rules in (("applied", res.applied()), ("entered", res.entered_only())):
            for rule in rules:
                key = keys.get(rule) or keys.setdefault(rule, parse_citation(rule).key)
                out.append((res, key, how))
    return out


#: how a scenario exercises a rule; only these count as tested (kb.trace.verified)
TESTED_HOWS = ("asserted", "decisive")
HOW_ORDER = ("asserted", "decisive", "tagged", "applied", "entered")


# -- writing the tables -------------------------------------------------------------------------------------------

def card_problem() -> str | None:
    """What is wrong with the card files (file:line), or None."""
    try:
        default_db()
    except CardError as e:
        return str(e)
    return None


def check_inputs(cache_dir: Path | None = None) -> None:
    """Card and scenario files the build cannot use stop it with their file:line message, not a traceback."""

    try:
        rulesets.load()   # every scenario reads it: one message, not one per scenario
        load_reviews()
    except (rulesets.RuleSetError, ValueError) as e:
        raise BuildError(str(e)) from None
    problem = engine_runs(cache_dir, "cards", card_problem)
    if problem:
        raise BuildError(f"card files: {problem}")
    broken = [str(r.error) for r in scenario_results(cache_dir=cache_dir)
              if r.error is not None and not r.error.internal]
    if broken:
        more = f" (and {len(broken) - 3} more)" if len(broken) > 3 else ""
        raise BuildError("scenario files: " + "; ".join(broken[:3]) + more)
    verified_results(cache_dir)


def store(db, cache_dir: Path | None = None) -> None:
    """Write engine_functions, enforces, scenarios, scenario_rules (and the view engine_trace) into ``db``; the
    games come from ``cache_dir`` when nothing they depend on changed."""
    check_inputs(cache_dir)
    registry = load_all()
    for view in ("engine_trace",):
        if view in db.view_names():
            db[view].drop()
    for table in ("scenario_rules", "scenarios", "enforces", "engine_functions"):
        if table in db.table_names():
            db[table].drop()
    functions = []
    ids = {}
    for i, link in enumerate(registry, 1):
        ids[link.qualname] = i
        functions.append({"id": i, "qualname": link.qualname, "module": link.module, "file": link.file,
                          "line": link.line, "doc": link.doc})
    db["engine_functions"].create({"id": int, "qualname": str, "module": str, "file": str, "line": int, "doc": str},
                                  pk="id")
    insert_rows(db, "engine_functions", functions)
    enforces = []
    for i, ls in enumerate(link_statuses(db, registry), 1):
        enforces.append({"id": i, "function_id": ids[ls.link.qualname], "rule_id": ls.rule["id"] if ls.rule else None,
                         "edition_id": ls.citation.edition, "number": ls.citation.number,
                         "reviewed_sha256": ls.reviewed, "current_sha256": ls.current, "status": ls.status})
    db["enforces"].create({"id": int, "function_id": int, "rule_id": int, "edition_id": str, "number": str,
                           "reviewed_sha256": str, "current_sha256": str, "status": str}, pk="id",
                          foreign_keys=[("function_id", "engine_functions", "id"), ("rule_id", "rules", "id")])
    insert_rows(db, "enforces", enforces)
    links_found = scenario_links()
    rules = rules_by_key(db, {key.split("/", 1)[0] for _, key, _ in links_found})
    scenarios, sc_ids = [], {}
    for i, res in enumerate(scenario_results(), 1):
        sc_ids[id(res)] = i
        scenarios.append({"id": i, "path": res.scenario.path, "title": res.scenario.title,
                          "tags": ", ".join(res.scenario.tags), "passes": int(res.ok)})
    db["scenarios"].create({"id": int, "path": str, "title": str, "tags": str, "passes": int}, pk="id")
    insert_rows(db, "scenarios", scenarios)
    links, seen = [], set()
    for res, key, how in links_found:
        if (id(res), key, how) in seen:
            continue
        seen.add((id(res), key, how))
        row = rules.get(key)
        edition, number = key.split("/", 1)
        links.append({"scenario_id": sc_ids[id(res)], "rule_id": row["id"] if row else None,
                      "number": number, "edition_id": edition, "how": how})
    db["scenario_rules"].create({"scenario_id": int, "rule_id": int, "number": str, "edition_id": str, "how": str},
                                foreign_keys=[("scenario_id", "scenarios", "id"), ("rule_id", "rules", "id")])
    insert_rows(db, "scenario_rules", links)
    for table, cols in (("enforces", ["rule_id"]), ("enforces", ["function_id"]), ("scenario_rules", ["rule_id"])):
        db[table].create_index(cols, if_not_exists=True)
    db.create_view("engine_trace", """
        select rules.key as rule, rules.text as rule_text, engine_functions.qualname as function,
               engine_functions.file || ':' || engine_functions.line as location, enforces.status
        from enforces
        join engine_functions on engine_functions.id = enforces.function_id
        left join rules on rules.id = enforces.rule_id
        order by enforces.edition_id, enforces.number""")


# -- queries for the CLI ------------------------------------------------------------------------------------------

def counterparts(db, rule_row: dict) -> list[dict]:
    """Rules of other editions aligned with this one (any table linking two rules, e.g. ``alignments``)."""
    out = []
    for table in db.table_names():
        if "align" not in table:
            continue
        cols = [fk.column for fk in db[table].foreign_keys if fk.other_table == "rules"]
        if len(cols) < 2:
            continue
        a, b = cols[:2]
        seen = set()
        for row in db.query(f"select * from [{table}] where [{a}] = ? or [{b}] = ?", [rule_row["id"], rule_row["id"]]):
            other = row[b] if row[a] == rule_row["id"] else row[a]
            if other is None or other in seen:
                continue
            seen.add(other)
            for r in db.query("select * from rules where id = ?", [other]):
                r["_how"] = ", ".join(str(row[k]) for k in ("relation", "score") if row.get(k) is not None)
                out.append(r)
    return out


def resolve_target(target: str) -> EnforcingFunction | Citation:
    """A rule citation or an engine function qualname."""
    registry = load_all()
    if target in registry.links:
        return registry.links[target]
    for qualname, link in registry.links.items():
        if qualname.endswith("." + target) or qualname == f"engine.{target}":
            return link
    try:
        return parse_citation(target)
    except ValueError:
        raise KeyError(target) from None


@dataclass
class FamilyCoverage:
    family: str
    rules: list[str]
    enforced: set[str]
    tested: set[str]

    @property
    def neither(self) -> list[str]:
        return [r for r in self.rules if r not in self.enforced and r not in self.tested]


def coverage(db, families=None) -> list[FamilyCoverage]:
    registry = load_all()
    enforced = {c.number for c in registry.citations() if c.edition == DEFAULT_EDITION}
    tested = {key.split("/", 1)[1] for _, key, how in scenario_links()
              if key.startswith(DEFAULT_EDITION + "/") and how in TESTED_HOWS}
    return family_coverage(db, DEFAULT_EDITION, enforced, tested, families)


def family_coverage(db, edition: str, enforced: set[str], tested: set[str], families=None,
                    chapters=None) -> list[FamilyCoverage]:
    """Per rule family (``601``) of ``edition``: its rules and subrules, with those of ``enforced`` and
    ``tested`` (numbers); only the ``families`` and ``chapters`` named, when named."""
    by_family: dict[str, list[str]] = {}
    for row in db.query("select norm, level, chapter from rules where edition_id = ?", [edition]):
        norm = row["norm"]
        if row["level"] in ("rule", "subrule") and "." in norm:
            if chapters and str(row["chapter"]) not in chapters:
                continue
            by_family.setdefault(norm.split(".")[0], []).append(norm)
    out = []
    for fam in sorted(by_family):
        if families and fam not in families:
            continue
        rules = sorted(by_family[fam], key=sort_key)
        out.append(FamilyCoverage(fam, rules, enforced & set(rules), tested & set(rules)))
    return out
