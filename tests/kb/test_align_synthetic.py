"""The aligners on synthetic edits of the German 2024 text: renumbered runs, insertions,
deletions, splits and swaps, whose truth is known by construction."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb import align, paths
from kb.align import bench as align_bench
from kb.align.evaluate import score
from tests.helpers import views_2024

SOURCE = paths.SOURCES / "000_b7e6c10b3fc15808.txt"


@pytest.fixture(scope="module")
def base() -> list[align.AlignRule]:
    return views_2024("syn-old")


def renamed(views, edition):
    return [replace(v, key=f"{edition}/{v.norm}", edition=edition, seq=k) for k, v in enumerate(views)]


def test_identity(base):
    links = align.align_cross_language(base, renamed(base, "syn-new"))
    assert all(lk.target is not None and lk.target.norm == lk.source.norm for lk in links)
    assert {lk.relation for lk in links} == {"equivalent"}


def test_deletion_insertion_and_renumbered_run(base):
    section = [v for v in base if v.norm.startswith("607.2")]
    rest = [v for v in base if not v.norm.startswith("607.2")]
    start = base.index(section[0])
    # the newer edition drops 607.2c and inserts a rule taken from elsewhere before 607.2f:
    # every letter from there on changes
    donor = next(v for v in base if v.norm == "614.1")
    kept = [v for v in section if v.norm != "607.2c"]
    new_section, truth = [], {}
    letters = [c for c in "abcdefghijkmnpqrstu"]
    k = 0
    for v in kept:
        if v.norm == "607.2f":
            new_section.append(replace(donor, norm=f"607.2{letters[k]}"))
            k += 1
        truth[v.norm] = f"607.2{letters[k]}"
        new_section.append(replace(v, norm=f"607.2{letters[k]}"))
        k += 1
    new = renamed(base[:start] + new_section + rest[start:], "syn-new")
    got = {lk.source.norm: (lk.target.norm if lk.target else None)
           for lk in align.align_cross_language(base, new) if lk.source.norm.startswith("607.2")}
    assert got["607.2c"] is None
    for old, expected in truth.items():
        assert got[old] == expected, old
    assert got["607.2f"] != "607.2f"   # a same-number pairing would be wrong here


def test_swap_is_repaired(base):
    new = list(base)
    a = next(k for k, v in enumerate(new) if v.norm == "603.7d")
    new[a], new[a + 1] = replace(new[a + 1], norm="603.7d"), replace(new[a], norm="603.7e")
    got = {lk.source.norm: lk.target.norm for lk in align.align_cross_language(base, renamed(new, "syn-new"))
           if lk.target}
    assert got["603.7d"] == "603.7e" and got["603.7e"] == "603.7d"


def test_split_found_by_both_aligners(base):
    old = align_bench.replicate(base, len(base))
    new, truth = align_bench.derive(old, seed=3, rate=0.05)
    splits = {s for s, t in truth if sum(1 for s2, _ in truth if s2 == s) > 1}
    assert splits, "the derivation should contain splits"
    # the cross-edition aligner ignores numbers, so duplicated donor texts cost it more
    for fn, floor in ((align.align_cross_language, 0.95), (align.align_cross_edition, 0.88)):
        links = fn(old, new)
        r = score({lk.pair() for lk in links}, truth)
        assert r["f1"] >= floor, (fn.__name__, r)
        predicted = {lk.pair() for lk in links}
        found = sum(1 for s in splits if {p for p in predicted if p[0] == s} == {p for p in truth if p[0] == s})
        assert found >= len(splits) // 2, fn.__name__


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), rate=st.floats(0.01, 0.08))
def test_random_edits(base, seed, rate):
    old = align_bench.replicate(base, len(base))
    new, truth = align_bench.derive(old, seed=seed, rate=rate)
    r = score({lk.pair() for lk in align.align_cross_language(old, new)}, truth)
    assert r["f1"] >= 0.93


# --- structural cases: an edition aligned with itself, and a rule split off into a new subrule


@pytest.mark.parametrize("terms", [None, "curated"])
def test_cross_edition_identity_is_one_to_one(base, terms):
    """Near-duplicate rules (610.3d/610.4d, 613.2/613.4, 614.12/614.17d) must not be split or merged."""
    table = align.load_terminology() if terms else None
    links = align.align_cross_edition(base, renamed(base, "syn-new"), table)
    assert len(links) == len(base)
    assert all(lk.target is not None and lk.target.norm == lk.source.norm for lk in links)
    assert {lk.relation for lk in links} == {"equivalent"}


def split_off(views, number):
    """The newer edition: rule ``number`` keeps its first half of sentences, the rest becomes the new
    subrule ``number + "a"`` right after it (the way the planted diff test splits a rule)."""
    out = []
    for v in views:
        parts = align.sentences(v.text) if v.norm == number else []
        if len(parts) < 2:
            out.append(v)
            continue
        cut = len(parts) // 2
        out.append(align.make_view(v.key, v.edition, v.lang, number, " ".join(parts[:cut]), v.seq, level=v.level))
        out.append(align.make_view(v.key + "a", v.edition, v.lang, number + "a", " ".join(parts[cut:]), v.seq,
                                   level="subrule"))
    assert len(out) == len(views) + 1, number
    return renamed(out, "syn-new")


@pytest.mark.parametrize("number", ["612.1", "614.9", "614.8", "610.1"])
@pytest.mark.parametrize("fn", [align.align_cross_language, align.align_cross_edition], ids=["xlang", "xedition"])
def test_split_into_new_subrule_is_found(base, number, fn):
    links = fn(base, split_off(base, number))
    got = {lk.target.norm for lk in links if lk.source.norm == number and lk.target}
    assert got == {number, number + "a"}
    assert {lk.relation for lk in links if lk.source.norm == number} == {"split"}
    # nothing else changed: every other rule keeps its one counterpart
    others = [lk for lk in links if lk.source.norm != number]
    assert all(lk.target is not None and lk.target.norm == lk.source.norm for lk in others)
