"""Measure the aligners against the curated gold alignments in ``data/gold/``, beside two baselines.

Scores are strict: a prediction is one (source rule, target rule) pair, "no counterpart"
is the pair (source rule, nothing), and only exact pairs count.  Precision, recall and F1
are computed over the source rules the gold covers.  Baselines run on the same gold:

* ``same number`` — pair every rule with the rule that has the same number (what readers of
  translated rules do today);
* ``difflib`` — the matcher of Academy Ruins' CR differ: word-level ``get_close_matches``
  (cutoff 0.4) for every old rule, scored with ``SequenceMatcher.ratio``, then the best
  remaining pair is taken greedily until no candidate edge is left.

For a pair of two editions of one language, the concept ids the build stored (``rules.concept_id``) are scored as a
method too (``concept ids``): a rule paired with the rules of the other edition that share its concept, which is
what ``kb history`` follows through every edition in between.

Held-out report: ``tuning.toml`` in the gold directory names, per gold file, the fold that the
cross-edition aligner's parameters were tuned on (the German 1999 gold: the sections with an even
number).  The gold rows of the other fold were not looked at while tuning, so the F1 on that fold
(subset ``held-out (odd)``) is the honest estimate; the full-gold F1 beside it is optimistic.  A
gold file of a cross-edition pair that ``tuning.toml`` does not name was never tuned on: all of it
is held out (subset ``held-out (all)``).  The split is fixed and deterministic: the fold of a
source rule is the parity of its three-digit section number (409.2f -> 409 -> odd).
"""
from __future__ import annotations

import difflib
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import align, paths, tsv
from . import ondemand
from .pairs import rule_pair_kind

GOLD_DIR = paths.DATA / "gold"

#: the folds a source rule can fall into (see :func:`fold_of`)
FOLDS = ("even", "odd")


def tuned_folds(gold_dir: Path) -> dict[str, str]:
    """Gold file name -> the fold the aligners were tuned on (``tuning.toml``; missing: none was)."""
    path = Path(gold_dir) / "tuning.toml"
    if not path.exists():
        return {}
    try:
        tuned = tomllib.loads(path.read_text(encoding="utf-8")).get("tuned", {})
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: {e}") from None
    bad = {name: f for name, f in tuned.items() if f not in FOLDS}
    if bad:
        raise ValueError(f"{path}: [tuned] folds must be one of {', '.join(FOLDS)}, not {bad}")
    return tuned


def held_out_subsets(gold: set, tuned: str | None) -> dict[str, set]:
    """All of a folded gold set, its tuning fold and its held-out fold; all of it is held out if none was tuned on."""
    if tuned is None:
        return {"held-out (all)": gold}
    held = next(f for f in FOLDS if f != tuned)
    return {"all": gold, f"tuning ({tuned})": fold(gold, tuned), f"held-out ({held})": fold(gold, held)}


def gold_sets(gold_dir: Path, runs: dict) -> list[tuple[str, str, str, tuple[str, str, str]]]:
    """(file name, source edition, target edition, key of the aligner run) of every gold file.

    A gold file is named ``<source edition>__<target edition>.tsv``; the run is the aligned pair of
    those two editions in ``runs`` (:func:`align.run_all`, completed by :func:`with_on_demand`).  Files
    of pairs without a run are left out."""
    out = []
    for path in sorted(Path(gold_dir).glob("*__*.tsv")):
        src_ed, _, tgt_ed = path.stem.partition("__")
        key = next((k for k in runs if k[0] == src_ed and k[1] == tgt_ed), None)
        if key is not None:
            out.append((path.name, src_ed, tgt_ed, key))
    return out


def with_on_demand(db, gold_dir: Path, runs: dict) -> tuple[dict, dict[tuple[str, str, str], str]]:
    """``runs`` with a run for every gold file whose two editions the KB holds but did not align as a pair (a
    KB with an English chain between the two originals composes along it): what ``kb align export`` answers,
    and for each added run its method (``composed, N steps`` or ``aligner`` when aligned now).  The answer is
    :func:`kb.lineage.pair`'s, the one every view reads."""
    from .. import lineage

    specs = {e.id: e for e in align.edition_specs(db)}
    runs, methods = dict(runs), {}
    for path in sorted(Path(gold_dir).glob("*__*.tsv")):
        src_ed, _, tgt_ed = path.stem.partition("__")
        if src_ed not in specs or tgt_ed not in specs or any(k[:2] == (src_ed, tgt_ed) for k in runs):
            continue
        answer = lineage.pair(db, src_ed, tgt_ed)
        kind = rule_pair_kind(specs[src_ed], specs[tgt_ed])
        runs[src_ed, tgt_ed, kind] = answer.links
        methods[src_ed, tgt_ed, kind] = (f"composed, {len(answer.path) - 1} steps" if answer.method == "composed"
                                         else "aligner")
    return runs, methods


def folded(run_key: tuple[str, str, str]) -> bool:
    """Gold sets of two editions of one language with different numberings get the two-fold report."""
    return run_key[2] == "cross-edition"


@dataclass(frozen=True)
class GoldRow:
    source_number: str
    target_number: str | None
    relation: str
    note: str
    source_line: int | None


#: the columns a gold file must have (``note`` and ``source_line`` may be left out)
GOLD_COLUMNS = ("source_number", "target_number", "relation")


def load_gold(path: Path) -> list[GoldRow]:
    """The rows of a gold file (see ``data/gold/README.md``).  ``ValueError`` naming the file and line for a file
    that is not UTF-8 or lacks a column (:func:`kb.tsv.read`), and for a row with neither a source number nor a
    source line (an item has no number), an unknown relation, a target on a "no counterpart" row (or none on
    another), or a ``source_line`` that is not a line number."""
    out = []
    for n, _, row in tsv.read(path, GOLD_COLUMNS, empty_ok=False):
        source, target, relation, note, line = (row.get(c, "") for c in (*GOLD_COLUMNS, "note", "source_line"))
        problems = {
            "neither a source_number nor a source_line": not source and not line,
            f"unknown relation {relation!r} (one of {', '.join(align.RELATIONS)})": relation not in align.RELATIONS,
            "a target_number on a 'no counterpart' row": relation == "no counterpart" and bool(target),
            f"no target_number for relation {relation!r}": relation != "no counterpart" and not target,
            f"source_line {line!r} is not a line number": bool(line) and not line.isdigit(),
        }
        problem = next((what for what, wrong in problems.items() if wrong), None)   # (the first, in this order)
        if problem:
            raise ValueError(f"{path}:{n}: {problem}")
        out.append(GoldRow(source, target or None, relation, note, int(line) if line else None))
    return out


def resolve_gold(rows: list[GoldRow], src: list[align.AlignRule], tgt: list[align.AlignRule]):
    """Gold pairs as (source key, target key or None); rows whose rules are not in the KB are reported."""
    by_line = {v.line: v for v in src}
    by_norm: dict[str, align.AlignRule] = {}
    for v in src:
        by_norm.setdefault(v.norm, v)
    tgt_by_norm: dict[str, align.AlignRule] = {}
    for v in tgt:
        tgt_by_norm.setdefault(v.norm, v)
    pairs: set[tuple[str, str | None]] = set()
    missing = []
    for r in rows:
        s = by_line.get(r.source_line) if r.source_line is not None else None
        if s is None or (r.source_number not in ("", s.norm) and s.kind == "rule"):
            s = by_norm.get(r.source_number) if s is None or s.kind == "rule" else s
        if s is None:
            missing.append(r)
            continue
        if r.target_number is None:
            pairs.add((s.key, None))
        elif r.target_number in tgt_by_norm:
            pairs.add((s.key, tgt_by_norm[r.target_number].key))
        else:
            missing.append(r)
    return pairs, missing


def score(pred: set, gold: set) -> dict:
    """Strict precision/recall/F1 of predicted pairs over the gold's source rules, and the F1's 95 % bootstrap
    interval (:func:`f1_interval`)."""
    sources = {s for s, _ in gold}
    pred = {p for p in pred if p[0] in sources}
    tp = len(pred & gold)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "f1_ci": f1_interval(pred, gold), "tp": tp, "predicted": len(pred),
            "gold": len(gold)}


#: bootstrap replicates behind :func:`f1_interval`, and the seed that makes the interval the same on every run
BOOTSTRAP = {"replicates": 2000, "seed": 0}


def f1_interval(pred: set, gold: set, level: float = 0.95) -> tuple[float, float]:
    """The ``level`` percentile bootstrap interval of the strict F1: the gold's source rules are drawn with
    replacement (a rule brings all its pairs, which are not independent of each other), and the F1 of each
    draw is 2 TP / (predicted + gold).  The spread says how far the F1 of another set of rules like these could
    lie: how much a difference of a few hundredths on a fold of some hundred rules means.  As in :func:`score`,
    predictions for rules the gold does not cover are left out."""
    sources = sorted({s for s, _ in gold})
    if not sources:
        return (0.0, 0.0)
    at = {s: n for n, s in enumerate(sources)}
    counts = np.zeros((3, len(sources)))   # per source rule: true pairs, predicted pairs, gold pairs
    for row, pairs in ((0, pred & gold), (1, pred), (2, gold)):
        for s, _ in pairs:
            if s in at:
                counts[row, at[s]] += 1
    rng = np.random.default_rng(BOOTSTRAP["seed"])
    draws = rng.multinomial(len(sources), np.full(len(sources), 1 / len(sources)), size=BOOTSTRAP["replicates"])
    tp, predicted, wanted = (draws @ counts.T).T
    total = predicted + wanted
    f1 = np.divide(2 * tp, total, out=np.zeros_like(total), where=total > 0)
    lo, hi = np.quantile(f1, [(1 - level) / 2, (1 + level) / 2])
    return (round(float(lo), 3), round(float(hi), 3))


def fold_of(number: str) -> str:
    """``even`` or ``odd``: the parity of the three-digit section of a rule number (``409.2f`` -> odd)."""
    head = number.split("/")[-1].split(".")[0].split("#")[0]
    return "even" if head.isdigit() and int(head) % 2 == 0 else "odd"


def fold(gold: set, name: str) -> set:
    """The gold pairs whose source rule lies in fold ``name``."""
    return {(s, t) for s, t in gold if fold_of(s) == name}


def differing(gold: set, src: list[align.AlignRule], tgt: list[align.AlignRule]) -> set:
    """Gold pairs of the source rules whose counterpart does not carry the same number."""
    norm = {v.key: v.norm for v in src} | {v.key: v.norm for v in tgt}
    bad = {s for s, t in gold if t is None or norm[t] != norm[s]}
    return {(s, t) for s, t in gold if s in bad}


# --------------------------------------------------------------------------- baselines


def baseline_same_number(src: list[align.AlignRule], tgt: list[align.AlignRule]) -> list[align.Alignment]:
    by_norm: dict[str, align.AlignRule] = {}
    for v in tgt:
        by_norm.setdefault(v.norm, v)
    return [align.Alignment(v, by_norm.get(v.norm), 1.0 if v.norm in by_norm else 0.0,
                       "equivalent" if v.norm in by_norm else "no counterpart", "baseline-same-number")
            for v in src]


def baseline_difflib(src: list[align.AlignRule], tgt: list[align.AlignRule],
                     cutoff: float = 0.4) -> list[align.Alignment]:
    """Academy Ruins style: identical same-number rules pruned, close matches by words, greedy pairing."""
    by_norm = {v.norm: v for v in tgt}
    links, old, new = [], [], list(tgt)
    for v in src:
        twin = by_norm.get(v.norm)
        if twin is not None and twin.text == v.text and twin in new:
            links.append(align.Alignment(v, twin, 1.0, "equivalent", "baseline-difflib"))
            new.remove(twin)
        else:
            old.append(v)
    new_words = [v.text.split(" ") for v in new]
    edges = []
    for v in old:
        words = v.text.split(" ")
        for match in difflib.get_close_matches(words, new_words, cutoff=cutoff):
            ratio = difflib.SequenceMatcher(None, match, words).ratio()
            for t in new:
                if t.text.split(" ") == match:
                    edges.append((ratio, v.key, t.key, v, t))
    edges.sort(key=lambda e: -e[0])
    used_s, used_t = set(), set()
    for ratio, sk, tk, v, t in edges:
        if sk in used_s or tk in used_t:
            continue
        used_s.add(sk)
        used_t.add(tk)
        links.append(align.Alignment(v, t, round(ratio, 3), "renumbered" if v.norm != t.norm else "equivalent",
                                "baseline-difflib"))
    for v in old:
        if v.key not in used_s:
            links.append(align.Alignment(v, None, 0.0, "no counterpart", "baseline-difflib"))
    return links


# --------------------------------------------------------------------------- report


def evaluate(db, gold_dir: Path = GOLD_DIR, runs: dict | None = None) -> list[dict]:
    """One result row per (gold set, method, subset); ``runs`` reuses an :func:`align.run_all` result."""
    tuned = tuned_folds(gold_dir)
    t = time.perf_counter()
    runs = runs if runs is not None else align.run_all(db)
    seconds = time.perf_counter() - t
    runs, on_demand = with_on_demand(db, gold_dir, runs)
    results = []
    for name, src_ed, tgt_ed, run_key in gold_sets(gold_dir, runs):
        path = gold_dir / name
        tgt = align.views_from_db(db, tgt_ed)
        if run_key[2] == "items":
            src = align.items_from_db(db, src_ed, ("step", "example", "paragraph"))
        else:
            src = align.views_from_db(db, src_ed)
        gold, missing = resolve_gold(load_gold(path), src, tgt)
        methods = {on_demand.get(run_key, "aligner"): runs[run_key]}
        if folded(run_key) and src:
            # the same aligner on the two editions alone, without the other language's path of evidence
            methods["aligner, direct"] = align.align_cross_edition(src, tgt, align.load_terminology(lang=src[0].lang))
            if (other := ondemand.detour(db, src_ed, tgt_ed)) is not None:
                # the stored links of the other path alone (the translations and the chain of their language)
                methods[f"composed, {len(other.path) - 1} steps"] = other.links
        if run_key[2] != "items":
            methods["baseline same number"] = baseline_same_number(src, tgt)
            methods["baseline difflib"] = baseline_difflib(src, tgt)
        subsets = held_out_subsets(gold, tuned.get(name)) if folded(run_key) else {"all": gold}
        if run_key[2] == "cross-language":
            subsets["numbers differ"] = differing(gold, src, tgt)
        predicted = {method: {link.pair() for link in links} for method, links in methods.items()}
        if folded(run_key):
            predicted["concept ids"] = concept_pairs(db, src_ed, tgt_ed)
        for method, pred in predicted.items():
            for subset, g in subsets.items():
                results.append({"pair": f"{src_ed} -> {tgt_ed}", "method": method, "subset": subset,
                                **score(pred, g), "missing_gold": len(missing)})
    results.append({"pair": "all", "method": "aligner", "subset": "time", "seconds": seconds})
    return results


def step_report(db, gold_dir: Path = GOLD_DIR, tuning_only: bool = False) -> list[dict]:
    """Per step of each composed answer scored against a gold file (the pair composed along a chain, or the detour
    of a pair the build aligned): how many links of that step join rules that changed in it, and how many of the
    gold's false composed pairs have their weakest link there (:func:`kb.align.compose.weakest_steps`).  The gold
    has no step of its own, so this says which steps the composed pairs' errors come from.  With ``tuning_only``
    only the tuning fold's rules count (a gold file held out as a whole is left out)."""
    from . import compose

    tuned = tuned_folds(gold_dir)
    specs = {e.id: e for e in align.edition_specs(db)}
    out = []
    for path in sorted(Path(gold_dir).glob("*__*.tsv")):
        src_ed, _, tgt_ed = path.stem.partition("__")
        if src_ed not in specs or tgt_ed not in specs or specs[src_ed].language != specs[tgt_ed].language:
            continue
        if tuning_only and path.name not in tuned:
            continue
        direct = ondemand.between(db, src_ed, tgt_ed)
        answer = direct if direct.method == "composed" else ondemand.detour(db, src_ed, tgt_ed)
        if answer is None or len(answer.path) < 3:
            continue
        src, tgt = align.views_from_db(db, src_ed), align.views_from_db(db, tgt_ed)
        gold, _ = resolve_gold(load_gold(path), src, tgt)
        if tuning_only:
            gold = fold(gold, tuned[path.name])
        sources = {s for s, _ in gold}
        steps = ondemand.path_steps(db, answer.path)
        by_key, target_key = {v.key: v for v in src}, {v.id: v.key for v in tgt}
        t_id = {v.key: v.id for v in tgt}
        blamed = [0] * len(steps)
        for link in answer.links:
            s, t = link.pair()
            if s not in sources or t is None or (s, t) in gold:
                continue
            rule_id = by_key[s].id
            reached = compose.weakest_steps(rule_id, [links for links, _ in steps]) if rule_id is not None else {}
            at = next((w for d, (_, w) in reached.items() if target_key.get(d) == t), -1)
            if at >= 0:
                blamed[at] += 1
        predicted = {lk.pair() for lk in answer.links}
        missed = [(i, d) for s, t in gold if t is not None and (s, t) not in predicted
                  and (i := by_key[s].id) is not None and (d := t_id[t]) is not None]
        broken, elsewhere = _breaks(db, answer.path, [links for links, _ in steps], missed)
        pair = f"{src_ed} -> {tgt_ed}"
        for k, ((_, changed), false) in enumerate(zip(steps, blamed)):
            out.append({"pair": pair, "step": f"{answer.path[k]} -> {answer.path[k + 1]}", "changed": changed,
                        "false_pairs": false, "missed": broken[k]})
        out.append({"pair": pair, "step": ELSEWHERE_STEP, "changed": 0, "false_pairs": 0, "missed": elsewhere})
    return out


def _breaks(db, path: list[str], steps: list, missed: list[tuple[int, int]]) -> tuple[list[int], int]:
    """Where the chain loses each missed gold pair (source rule id, target rule id), read forward: the first step
    where the source's lineage ends (it links to nothing) or the step where the target's lineage begins (a rule
    no rule of the previous edition links to, born in that step), whichever comes first; per step, how many
    pairs it lost, and how many pairs the chain loses neither way (it links both ends to other rules)."""
    back: list[dict[int, list[int]]] = []
    for x, y in zip(path, path[1:]):
        rev: dict[int, list[int]] = {}
        for s, t, *_ in ondemand._stored_links(db, x, y) or []:
            if t is not None:
                rev.setdefault(t, []).append(s)
        back.append(rev)
    broken, elsewhere = [0] * len(steps), 0
    for source, target in missed:
        ends = born = None
        reached = {source}
        for k, links in enumerate(steps):
            reached = {t for r in reached for t, _, _ in links(r)}
            if not reached:
                ends = k
                break
        reached = {target}
        for k in range(len(steps) - 1, -1, -1):
            reached = {s for r in reached for s in back[k].get(r, ())}
            if not reached:
                born = k
                break
        at = min((k for k in (ends, born) if k is not None), default=None)
        if at is None:
            elsewhere += 1
        else:
            broken[at] += 1
    return broken, elsewhere


#: the step report's row for the missed gold pairs whose two ends the chain links to other rules
ELSEWHERE_STEP = "chain links both ends elsewhere"


def format_steps(rows: list[dict]) -> str:
    """:func:`step_report` as text: per pair, its steps with a false or a missed pair and the steps that aligned most
    rules, then the false pairs no step holds and the missed pairs no step lost."""
    lines = []
    extra = (ELSEWHERE_STEP,)
    for pair in dict.fromkeys(r["pair"] for r in rows):
        mine = [r for r in rows if r["pair"] == pair and r["step"] not in extra]
        rest = [r for r in rows if r["pair"] == pair and r["step"] in extra]
        busy = sorted(mine, key=lambda r: -r["changed"])[:3]
        lines.append(f"{pair}: {len(mine)} steps, {sum(r['changed'] for r in mine)} links of changed rules, "
                     f"{sum(r['false_pairs'] for r in mine + rest)} false composed pairs (by the step of their "
                     f"weakest link), {sum(r['missed'] for r in mine + rest)} missed gold pairs (by the step that "
                     "lost them)")
        lines += [f"  {r['step']:34} {r['changed']:6d} changed {r['false_pairs']:4d} false {r['missed']:4d} missed"
                  for r in mine if r["false_pairs"] or r["missed"] or r in busy]
        lines += [f"  {r['step']:49} {r['false_pairs']:4d} false {r['missed']:4d} missed" for r in rest]
    return "\n".join(lines)


def tuning_rows(results: list[dict]) -> list[dict]:
    """``results`` without a held-out figure: of a gold set with a held-out subset only its tuning fold's rows are
    kept (its ``all`` rows contain the held-out fold too), so that tuning cannot see the held-out fold by accident."""
    held = {r["pair"] for r in results if str(r.get("subset", "")).startswith("held-out")}
    return [r for r in results if r["pair"] not in held or str(r["subset"]).startswith("tuning")]


def concept_pairs(db, src_ed: str, tgt_ed: str) -> set[tuple[str, str | None]]:
    """The pairs the KB's concept ids make of two editions: each rule of ``src_ed`` with every rule of ``tgt_ed`` that
    shares its concept (the rule's life as ``kb history`` tells it), or with none."""
    conn = getattr(db, "conn", db)
    members: dict[int, list[str]] = {}
    for key, concept in conn.execute("select key, concept_id from rules where edition_id = ?", [tgt_ed]):
        members.setdefault(concept, []).append(key)
    out: set[tuple[str, str | None]] = set()
    for key, concept in conn.execute("select key, concept_id from rules where edition_id = ?", [src_ed]):
        out.update((key, t) for t in members.get(concept, [None]))
    return out


def format_table(results: list[dict]) -> str:
    lines = [f"{'edition pair':32} {'method':22} {'subset':15} {'P':>6} {'R':>6} {'F1':>6} {'F1 95% CI':>12} "
             f"{'TP':>5} {'pred':>5} {'gold':>5}"]
    for r in results:
        if r["subset"] == "time":
            lines.append(f"all alignments of the KB computed in {r['seconds']:.2f}s")
            continue
        ci = "{:.3f}-{:.3f}".format(*r["f1_ci"])
        lines.append(f"{r['pair']:32} {r['method']:22} {r['subset']:15} {r['precision']:6.3f} {r['recall']:6.3f} "
                     f"{r['f1']:6.3f} {ci:>12} {r['tp']:5d} {r['predicted']:5d} {r['gold']:5d}")
    return "\n".join(lines)


def errors(db, name: str, gold_dir: Path = GOLD_DIR, fold_name: str = "all",
           runs: dict | None = None, tuning_only: bool = False) -> list[str]:
    """Human-readable differences between the aligner and one gold set (for curation and debugging).

    ``fold_name`` (``even``/``odd``) restricts the listing to the source rules of one fold (see
    :func:`fold_of`), so that tuning can look at the tuning fold's errors only; ``tuning_only`` does so with the
    fold ``tuning.toml`` names for a gold set with a held-out fold (and refuses one that all is held out);
    ``runs`` reuses an :func:`align.run_all` result."""
    runs, _ = with_on_demand(db, gold_dir, runs if runs is not None else align.run_all(db))
    spec = next((g for g in gold_sets(gold_dir, runs) if g[0] == name), None)
    if spec is None:
        raise ValueError(f"no gold file {name} in {gold_dir} for two editions the KB holds")
    _, src_ed, tgt_ed, run_key = spec
    if tuning_only and folded(run_key):
        tuned = tuned_folds(gold_dir).get(name)
        if tuned is None:
            raise ValueError(f"{name}: no fold of it was tuned on ({gold_dir / 'tuning.toml'}), so all of it is "
                             "held out")
        fold_name = tuned
    tgt = align.views_from_db(db, tgt_ed)
    src = (align.items_from_db(db, src_ed, ("step", "example", "paragraph")) if run_key[2] == "items"
           else align.views_from_db(db, src_ed))
    gold, _ = resolve_gold(load_gold(gold_dir / name), src, tgt)
    pred = {link.pair(): link for link in runs[run_key]}
    sources = {s for s, _ in gold if fold_name == "all" or fold_of(s) == fold_name}
    out = []
    for s in sorted(sources, key=lambda k: next(v.seq for v in src if v.key == k)):
        g = sorted(str(t) for ss, t in gold if ss == s)
        p = sorted(str(t) for ss, t in pred if ss == s)
        if g != p:
            ev = [pred[s, None if t == "None" else t].evidence for t in p]
            out.append(f"{s}: gold {g} predicted {p} {ev}")
    return out
