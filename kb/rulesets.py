"""Rule sets on the knowledge-base side: their editions checked against the KB, rules linked across rule sets
through the alignment, and comparisons of scenario games (``kb scenario compare``) made readable.

The engine only knows what its code cites (``de-1999/310.2`` for a 1999 variant, ``en-2024-11-08/510.1a``
for a rule enforced once for both sets); the counterpart of a rule in the other rule set is found here, by
following the stored alignments from the rule's edition through the two sets' ``original`` editions
(data/rulesets.toml) — for the word diff, between the two originals.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.registry import parse_citation
from engine.rulesets import RuleSet, RuleSetError
from engine.rulesets import load as load_rulesets
from engine.scenario.compare import Comparison, Divergence

from . import manifest
from .align.ondemand import Answer, between
from .site.urls import Urls


def known_editions(db=None) -> set[str]:
    """The editions of the KB ``db`` (or, without one, of data/manifest.toml, which the KB is built from)."""
    if db is not None and "editions" in db.table_names():
        return {row["id"] for row in db["editions"].rows}
    return {entry.id for _, entry in manifest.load().editions}


def check_editions(rs: RuleSet, known: set[str]) -> None:
    """RuleSetError when the rule set names an edition the KB does not have."""
    for edition in (*rs.follows, rs.original):
        if edition and edition not in known:
            raise RuleSetError(f"{rs.source}: rule set {rs.name} names the edition {edition!r}, which is not in the "
                               f"knowledge base (editions: {', '.join(sorted(known))})")


def ruleset(name: str | None, db=None) -> RuleSet:
    """The rule set ``name`` (default: the default set), its editions checked against the KB."""
    rs = load_rulesets().get(name)
    check_editions(rs, known_editions(db))
    return rs


@dataclass
class RuleLink:
    """A rule applied in a game, with its counterparts in the other rule set and where to read both."""

    key: str
    edition: str
    number: str
    url: str
    counterparts: list[tuple[str, str]] = field(default_factory=list)  # (rule key, relation)
    diff_url: str | None = None

    def as_dict(self) -> dict:
        return {"rule": self.key, "edition": self.edition, "number": self.number, "url": self.url,
                "alignment": [{"rule": k, "relation": rel} for k, rel in self.counterparts],
                "diff_url": self.diff_url}


class Linker:
    """Links rules across two rule sets through the KB's alignments (answers cached per edition pair)."""

    def __init__(self, db, urls: Urls | None = None):
        self.db = db
        self.urls = urls or Urls()
        self._pairs: dict[tuple[str, str], Callable[[str], list[tuple[str, str]]]] = {}
        self._dates = {row["id"]: row.get("date") or "" for row in db["editions"].rows} if db is not None else {}

    def _pair(self, a: str, b: str) -> Callable[[str], list[tuple[str, str]]]:
        """The rule counterparts of a rule of ``a`` in ``b`` (key and relation), each rule's found when asked for
        (a pair composed along a long chain composes the few rules a rule set asks for, not all)."""
        if (a, b) not in self._pairs:
            try:
                answer: Answer | None = between(self.db, a, b)
            except LookupError:
                answer = None
            memo: dict[str, list[tuple[str, str]]] = {}

            def counterparts(key: str) -> list[tuple[str, str]]:
                if key not in memo:
                    memo[key] = [(lk.target.key, lk.relation) for lk in (answer.links_of(key) if answer else [])
                                 if lk.target is not None and lk.source.kind == "rule" and lk.target.kind == "rule"]
                return memo[key]

            self._pairs[(a, b)] = counterparts
        return self._pairs[(a, b)]

    def follow(self, key: str, path: list[str]) -> list[tuple[str, str]]:
        """The rules ``key`` reaches along the editions of ``path`` (its own edition first)."""
        frontier = [(key, "")]
        for a, b in zip(path, path[1:]):
            step = self._pair(a, b)
            frontier = [(t, rel if rel in ("split", "merged") or not prev else prev)
                        for k, prev in frontier for t, rel in step(k)]
        return list(dict.fromkeys(frontier))

    def link(self, rule: str, own: RuleSet, other: RuleSet) -> RuleLink:
        """A rule of the set's own editions links to its counterpart in the other set; a rule cited through an
        ``unchanged`` edition (enforced once for both sets) links to the rule of the set's own edition it stands
        for."""
        c = parse_citation(rule)
        source, target = (own, other) if c.edition in own.editions else (other, own)
        path = _path([c.edition, source.original, target.original, target.editions[0]])
        counterparts = self.follow(c.key, path) if self.db is not None and len(path) > 1 else []
        return RuleLink(c.key, c.edition, c.number, self.urls.rule(c.edition, c.number), counterparts,
                        self.diff_url(c.key, own, other))

    def diff_url(self, key: str, own: RuleSet, other: RuleSet) -> str | None:
        """The word diff of the rule between the two sets' originals, from the older to the newer."""
        if self.db is None or own.original == other.original:
            return None
        older, newer = sorted((own, other), key=lambda rs: self._dates.get(rs.original, ""))
        c = parse_citation(key)
        if c.edition == older.original:
            number = c.number
        else:
            found = self.follow(key, _path([c.edition, own.original, older.original]))
            if not found:
                return None
            number = parse_citation(found[0][0]).number
        return self.urls.diff(older.original, newer.original, number)


def _path(editions: list[str]) -> list[str]:
    out: list[str] = []
    for e in editions:
        if e and (not out or out[-1] != e):
            out.append(e)
    return out


def _step_view(d: Divergence, sets: tuple[RuleSet, RuleSet], linker: Linker | None) -> dict:
    sides = []
    for i, step in enumerate((d.left, d.right)):
        own, other = sets[i], sets[1 - i]
        theirs = set((d.right, d.left)[i].rules)
        rules = [{**(linker.link(r, own, other).as_dict() if linker is not None
                     else RuleLink(r, parse_citation(r).edition, parse_citation(r).number, "").as_dict()),
                  "only_here": r not in theirs}
                 for r in step.rules]
        sides.append({"rule_set": own.name, "outcome": step.outcome,
                      "state": {k: d.differences[k][i] for k in d.differences}, "rules": rules})
    return {"line": d.line, "step": d.text, "differs": sorted(d.differences), "sides": sides}


def comparison_view(cmp: Comparison, linker: Linker | None) -> dict:
    """The comparison as plain data (``--format json``; the text output prints the same)."""
    sets = (load_rulesets().get(cmp.rulesets[0]), load_rulesets().get(cmp.rulesets[1]))
    errors = [str(r.error) for r in cmp.results if r.error is not None]
    return {"scenario": cmp.path, "title": cmp.title, "rule_sets": list(cmp.rulesets),
            "passes": {r.rules: r.ok for r in cmp.results}, "errors": errors,
            "diverges": cmp.divergence is not None,
            "first_divergence": _step_view(cmp.divergence, sets, linker) if cmp.divergence else None,
            "divergent_steps": [d.line for d in cmp.steps]}


# -- coverage per rule set ---------------------------------------------------------------------------------------

def _source_set(edition: str, rs: RuleSet) -> RuleSet:
    """The rule set whose own editions include ``edition`` (``rs`` itself when it does, or none does)."""
    if edition in rs.editions:
        return rs
    return next((s for s in load_rulesets().sets.values() if edition in s.editions), rs)


def own_numbers(linker: Linker, rs: RuleSet, rule: str) -> set[str]:
    """The rule numbers of the rule set's first edition that the citation ``rule`` stands for under ``rs``: itself
    when it is of that edition; through the alignment when it is cited through an unchanged edition; none when
    the set does not have the rule."""
    try:
        c = parse_citation(rule)
    except ValueError:
        return set()
    edition = rs.editions[0]
    if rs.lacks(c) is not None:
        return set()
    if c.edition == edition:
        return {c.number}
    src = _source_set(c.edition, rs)
    found = linker.follow(c.key, _path([c.edition, src.original, rs.original, edition]))
    return {number for k, _ in found if k.startswith(edition + "/") and (number := _rule_number(k))}


def _rule_number(key: str) -> str | None:
    """The rule number of a rule key, None for a heading the alignment reached (a chapter: "de-1999/1")."""
    try:
        return parse_citation(key).number
    except ValueError:
        return None


def enforced_through_alignment(db, linker: Linker | None = None) -> list[dict]:
    """For each rule set whose editions the engine does not cite directly for an unchanged rule: the rules of the
    set's first edition each engine function enforces through the alignment — rows of rule key, function, the
    citation it stands for (``via``) and the rule set."""
    from engine.registry import load_all

    linker = linker or Linker(db)
    out = []
    for rs in load_rulesets().sets.values():
        if not rs.unchanged:
            continue
        for link in load_all():
            for c in link.citations:
                if c.edition in rs.editions:
                    continue
                for number in sorted(own_numbers(linker, rs, c.key)):
                    out.append({"rule": f"{rs.editions[0]}/{number}", "function": link.qualname, "file": link.file,
                                "line": link.line, "via": c.key, "rule_set": rs.name})
    return out


def ruleset_coverage(db, rs: RuleSet, families=None, chapters=None):
    """Per rule family of the set's first edition: the rules the engine enforces under the set (cited directly
    or through the alignment of an unchanged rule) and the rules a scenario tests under it (a scenario that
    passes when played under the set applied the rule, or is tagged with it)."""
    from engine.registry import load_all
    from engine.scenario import run_file

    from .trace import family_coverage, scenario_files

    linker = Linker(db)
    edition = rs.editions[0]
    enforced: set[str] = set()
    for c in load_all().citations():
        enforced |= own_numbers(linker, rs, c.key)
    tested: set[str] = set()
    for path in scenario_files():
        res = run_file(path, rules=rs)
        if res.ok:
            for rule in [*res.applied(), *res.scenario.rule_tags()]:
                tested |= own_numbers(linker, rs, rule)
    return family_coverage(db, edition, enforced, tested, families, chapters)


# -- the knowledge base: where the games of the comparison scenarios diverge, rule by rule -------------------------

def comparison_scenarios() -> list:
    """The scenario files played under two or more rule sets (``rulesets:`` header)."""
    from engine.scenario import ScenarioError, all_files, load

    out = []
    for path in all_files():
        try:
            if len(load(path).rulesets) >= 2:
                out.append(path)
        except ScenarioError:  # a broken scenario stops the build earlier, in kb.trace.check_inputs
            continue
    return out


def _summary(d: Divergence, flip: bool) -> str:
    """``Alice life: 0 ↔ 1; Alice lost: yes ↔ no`` (this side first)."""
    return "; ".join(f"{k}: {v[1] if flip else v[0]} ↔ {v[0] if flip else v[1]}" for k, v in d.differences.items())


def divergence_rows(db, comparisons: list[Comparison], linker: Linker | None = None) -> list[dict]:
    """One row per (rule, scenario step): a rule a variant function applied on one side of a step where the games
    diverge — and the same for the rules it is aligned with (``via``: the rule applied)."""
    from engine.variants import variant_citations

    variant_rules = {c.key for c in variant_citations()}
    linker = linker or Linker(db)
    sets = load_rulesets()
    out = []
    for cmp in comparisons:
        pair = (sets.get(cmp.rulesets[0]), sets.get(cmp.rulesets[1]))
        for d in cmp.steps:
            for side in (0, 1):
                own, other = pair[side], pair[1 - side]
                mine = (d.left, d.right)[side].rules
                theirs = set((d.right, d.left)[side].rules)
                for rule in mine:
                    key = parse_citation(rule).key
                    if key not in variant_rules or rule in theirs:
                        continue
                    base = {"scenario": cmp.path, "title": cmp.title, "rule_set": own.name,
                            "other_rule_set": other.name, "line": d.line, "step": d.text,
                            "differs": _summary(d, side == 1)}
                    out.append({**base, "rule": key, "via": None})
                    c = parse_citation(key)
                    for path in (_path([c.edition, own.original]),
                                 _path([c.edition, own.original, other.original]),
                                 _path([c.edition, own.original, other.original, other.editions[0]])):
                        for target, _ in linker.follow(key, path) if len(path) > 1 else []:
                            out.append({**base, "rule": target, "via": key})
    seen, unique = set(), []
    for row in out:
        k = (row["rule"], row["scenario"], row["line"], row["rule_set"])
        if k not in seen:
            seen.add(k)
            unique.append(row)
    return unique


def comparison_results(cache_dir=None) -> list[Comparison]:
    """The games of every comparison scenario, played under each rule set (from ``cache_dir`` when nothing they
    depend on changed: :func:`kb.trace.engine_runs`)."""
    from engine.scenario.compare import compare

    from .trace import engine_runs

    return engine_runs(cache_dir, "comparisons", lambda: [compare(p) for p in comparison_scenarios()])


def store(db, cache_dir=None) -> None:
    """Write ``rule_divergences``: for each rule that makes a comparison scenario's games diverge, the scenario,
    the step and how the games differ there (the rule pages' "in play" and the diff reports read it).  The games
    come from ``cache_dir`` when nothing they depend on changed (:func:`kb.trace.engine_runs`)."""
    if "rule_divergences" in db.table_names():
        db["rule_divergences"].drop()
    scenario_ids = ({row["path"]: row["id"] for row in db.query("select id, path from scenarios")}
                    if "scenarios" in db.table_names() else {})
    comparisons = comparison_results(cache_dir)
    linker = Linker(db)   # one for both: an edition pair composed along a long chain is worth composing once
    found = divergence_rows(db, comparisons, linker)
    aligned = enforced_through_alignment(db, linker)
    rules = _rule_ids(db, {row["rule"] for row in found} | {row["rule"] for row in aligned})
    rows = []
    for row in found:
        edition, _, number = row["rule"].partition("/")
        rows.append({**row, "rule_id": rules.get(row["rule"]), "edition_id": edition, "number": number,
                     "scenario_id": scenario_ids.get(row["scenario"])})
    db["rule_divergences"].create({"rule_id": int, "rule": str, "edition_id": str, "number": str, "via": str,
                                   "scenario_id": int, "scenario": str, "title": str, "rule_set": str,
                                   "other_rule_set": str, "line": int, "step": str, "differs": str},
                                  foreign_keys=[("rule_id", "rules", "id"), ("scenario_id", "scenarios", "id")])
    db["rule_divergences"].insert_all(rows)
    db["rule_divergences"].create_index(["rule_id"], if_not_exists=True)
    db["rule_divergences"].create_index(["rule"], if_not_exists=True)
    _store_aligned_enforces(db, rules, aligned)


def _rule_ids(db, keys: set[str]) -> dict[str, int]:
    """Rule key -> id, for the keys asked for only (the KB may hold a hundred editions)."""
    wanted = sorted(keys)
    out: dict[str, int] = {}
    for i in range(0, len(wanted), 500):
        chunk = wanted[i:i + 500]
        out.update(db.execute(f"select key, id from rules where key in ({', '.join('?' * len(chunk))})",
                              chunk).fetchall())
    return out


def _store_aligned_enforces(db, rules: dict[str, int], aligned: list[dict]) -> None:
    """``aligned_enforces``: rules enforced once for both rule sets, found through the alignment (a 1999 rule and
    the engine function that enforces today's counterpart)."""
    if "aligned_enforces" in db.table_names():
        db["aligned_enforces"].drop()
    functions = ({row["qualname"]: row["id"] for row in db.query("select id, qualname from engine_functions")}
                 if "engine_functions" in db.table_names() else {})
    rows = [{**row, "rule_id": rules.get(row["rule"]), "function_id": functions.get(row["function"])}
            for row in aligned]
    db["aligned_enforces"].create({"rule_id": int, "rule": str, "function_id": int, "function": str, "file": str,
                                   "line": int, "via": str, "rule_set": str},
                                  foreign_keys=[("rule_id", "rules", "id"), ("function_id", "engine_functions", "id")])
    db["aligned_enforces"].insert_all(rows)
    db["aligned_enforces"].create_index(["rule_id"], if_not_exists=True)
