"""Benchmark the aligners on synthetic editions of growing size (300, 3,000, 30,000 rules).

A synthetic pair of editions is made from the German 2024 rules: the base is copied as often
as needed (each copy renumbered into other sections and marked with its own token, so copies
are distinguishable), then the "newer" edition is derived by the edits real editions show —
rules deleted, rules inserted, a rule split in two at a sentence boundary, and new subrules
inserted so that the letters after them are renumbered.  The truth of the derivation is kept,
so every run reports F1 beside its time.  Time must grow near-linearly: both aligners only
look at a band (cross-language) or at blocked candidates (cross-edition), never all pairs.

Run: ``python -m kb.align.bench`` (``--sizes 300 3000 30000``, ``--db`` for the base KB).
"""
from __future__ import annotations

import argparse
import random
import string
import time
from dataclasses import replace
from pathlib import Path

from ingest import numbers

from .. import align, paths
from .evaluate import score

SIZES = (300, 3000, 30000)


def base_views(db_path: Path = paths.DEFAULT_DB, edition: str | None = None) -> list[align.AlignRule]:
    """The rules and subrules of ``edition`` (default: the newer edition of the benchmarks' pair,
    :func:`kb.diff.load.widest_pair`)."""
    import sqlite_utils

    from ..diff.load import widest_pair

    if not Path(db_path).exists():
        raise SystemExit(f"{db_path} does not exist: run `kb build` first")
    db = sqlite_utils.Database(db_path)
    if edition is None:
        widest = widest_pair(db.conn)
        if widest is None:
            raise SystemExit(f"{db_path} aligns no two editions of one language: name an edition")
        edition = widest[1]
    views = align.views_from_db(db, edition)
    return [v for v in views if v.level in ("rule", "subrule") and v.text.strip()]


def _renumber(norm: str, section: int, offset: int) -> str:
    _, rule, letter = numbers.parts(norm)
    return f"{section}.{(rule or 0) + offset}{letter or ''}"


def replicate(base: list[align.AlignRule], size: int, edition: str = "syn-old") -> list[align.AlignRule]:
    """``size`` rules: copies of ``base`` in fresh sections, each copy with a marker token."""
    sections = sorted({numbers.parts(v.norm)[0] for v in base})
    out: list[align.AlignRule] = []
    copy = 0
    while len(out) < size:
        rnd = random.Random(copy)
        marker = "karte" + "".join(rnd.choice(string.ascii_lowercase) for _ in range(6))
        # every copy after the first gets its own "dialect": half of its words carry the copy's tag,
        # so copies are as distinct from each other as unrelated rules are
        dialect = {w: (f"{w}{copy}" if copy and rnd.random() < 0.5 else w) for v in base for w in v.lemmas}
        for v in base:
            slot = copy * len(sections) + sections.index(numbers.parts(v.norm)[0])
            section, offset = 100 + slot % 900, 40 * (slot // 900)
            norm = _renumber(v.norm, section, offset)
            out.append(replace(v, key=f"{edition}/{norm}", edition=edition, norm=norm, seq=len(out),
                               text=f"{v.text} {marker.capitalize()}.",
                               lemmas=tuple(dialect[w] for w in v.lemmas) + (marker,), id=None,
                               line=None, examples=""))
            if len(out) == size:
                break
        copy += 1
    return out


def derive(old: list[align.AlignRule], seed: int = 7, rate: float = 0.04, edition: str = "syn-new"):
    """A newer edition of ``old`` and the true pairs (old key, new key or None)."""
    rnd = random.Random(seed)
    new: list[align.AlignRule] = []
    truth: set[tuple[str, str | None]] = set()
    pending_shift: dict[str, int] = {}   # rule (without letter) -> letters shifted so far

    def emit(v: align.AlignRule, norm: str, text: str, lemmas: tuple) -> str:
        key = f"{edition}/{norm}"
        new.append(replace(v, key=key, edition=edition, norm=norm, seq=len(new), text=text, lemmas=lemmas))
        return key

    for v in old:
        head, rule, letter = numbers.parts(v.norm)
        base = f"{head}.{rule}"
        shift = pending_shift.get(base, 0)
        norm = f"{base}{_shift(letter, shift)}" if letter else v.norm
        roll = rnd.random()
        if roll < rate:                                   # deleted: no counterpart
            truth.add((v.key, None))
            if letter:
                pending_shift[base] = shift - 1
            continue
        if letter and roll < 2 * rate:                    # a new subrule before this one: renumbered run
            donor = old[rnd.randrange(len(old))]
            emit(donor, norm, donor.text + " Neu.", donor.lemmas + ("neu",))
            shift += 1
            pending_shift[base] = shift
            norm = f"{base}{_shift(letter, shift)}"
        sentences = align.sentences(v.text)
        if letter and roll > 1 - rate and len(sentences) >= 2:   # split in two rules
            cut = len(sentences) // 2
            first, second = " ".join(sentences[:cut]), " ".join(sentences[cut:])
            k = max(1, round(len(v.lemmas) * len(first) / max(1, len(v.text))))
            truth.add((v.key, emit(v, norm, first, v.lemmas[:k])))
            shift += 1
            pending_shift[base] = shift
            truth.add((v.key, emit(v, f"{base}{_shift(letter, shift)}", second, v.lemmas[k:])))
            continue
        truth.add((v.key, emit(v, norm, v.text, v.lemmas)))
    return new, truth


def _shift(letter: str, by: int) -> str:
    letters = [c for c in string.ascii_lowercase if c not in "lo"]
    k = letters.index(letter) + by if letter in letters else ord(letter) - 97 + by
    k = max(0, k)
    return letters[k] if k < len(letters) else f"{letters[-1]}{k}"


def run(sizes=SIZES, db_path: Path = paths.DEFAULT_DB, seed: int = 7) -> list[dict]:
    base = base_views(db_path)
    rows = []
    for size in sizes:
        old = replicate(base, size)
        new, truth = derive(old, seed=seed)
        new = [v for v in new if numbers.is_number(v.norm)]
        for name, fn in (("cross-language (banded DP)", align.align_cross_language),
                         ("cross-edition (blocked)", align.align_cross_edition)):
            t = time.perf_counter()
            links = fn(old, new)
            seconds = time.perf_counter() - t
            r = score({link.pair() for link in links}, truth)
            rows.append({"rules": size, "aligner": name, "seconds": seconds, "f1": r["f1"],
                         "us_per_rule": 1e6 * seconds / size})
    return rows


def format_table(rows: list[dict]) -> str:
    lines = [f"{'rules':>7}  {'aligner':28} {'seconds':>8} {'µs/rule':>8} {'F1':>6}"]
    for r in rows:
        lines.append(f"{r['rules']:>7}  {r['aligner']:28} {r['seconds']:8.2f} {r['us_per_rule']:8.0f} {r['f1']:6.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--db", type=Path, default=paths.DEFAULT_DB)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    print(format_table(run(args.sizes, args.db, args.seed)))


if __name__ == "__main__":
    main()
