"""Twin splits of the cross-edition aligner on planted cases: an older rule that states two cases at
once (replacement and prevention) must find both rules the newer edition gives them, and a rule naming
one case only must not.  (611.2 / 611.3 are twins in the KB through their English translations, not in
German alone.)"""
from __future__ import annotations

from dataclasses import replace

import pytest

from kb import align
from tests.helpers import views_2024

#: only the twin pass may add a second target: sentence votes, coverage and neighbours off
TWINS_ONLY = {"vote_min": 2.0, "coverage": False, "neighbours": False}
#: ... and with the twin pass off too
NO_TWINS = {**TWINS_ONLY, "twin_sides": 1e9, "twin_ratio": 1e9}


@pytest.fixture(scope="module")
def base() -> list[align.AlignRule]:
    return views_2024("new")


def older(base, first: str, second: str, text: str | None = None, k: int = 1):
    """The older edition: the newer one without ``second``, ``first`` stating both cases (``text``: the first
    ``k`` sentences of ``first`` and the first sentence of ``second`` by default)."""
    by = {v.norm: v for v in base}
    if text is None:
        text = " ".join(align.sentences(by[first].text)[:k] + align.sentences(by[second].text)[:1])
    out = []
    for v in base:
        if v.norm == second:
            continue
        if v.norm == first:
            v = align.make_view(v.key, v.edition, v.lang, v.norm, text, v.seq, level=v.level, title=v.title)
        out.append(v)
    return [replace(v, key=f"old/{v.norm}", edition="old", seq=k) for k, v in enumerate(out)]


def targets_of(links, number):
    return {lk.target.norm for lk in links if lk.source.norm == number and lk.target}


@pytest.mark.parametrize("first, second, k", [("614.3", "615.3", 1), ("614.6", "615.6", 1), ("614.6", "615.6", 2)])
def test_rule_of_two_cases_finds_both_twins(base, first, second, k):
    old = older(base, first, second, k=k)
    links = align.align_cross_edition(old, base, params=TWINS_ONLY)
    assert targets_of(links, first) == {first, second}
    assert all(lk.relation == "split" for lk in links if lk.source.norm == first)
    # the twin pass is what finds the second case
    assert targets_of(align.align_cross_edition(old, base, params=NO_TWINS), first) == {first}


def test_rule_of_one_case_keeps_one_target(base):
    """Without the other case's words the twin stays out, however alike the twins are."""
    by = {v.norm: v for v in base}
    old = older(base, "614.3", "615.3", text=by["614.3"].text)
    assert targets_of(align.align_cross_edition(old, base, params=TWINS_ONLY), "614.3") == {"614.3"}


def test_parallel_twins_are_found_from_the_numbering_and_the_text(base):
    mt = align.EditionMatcher(base, base, [])
    at = {v.norm: d for d, v in enumerate(base)}

    def twins(number):
        return {base[e].norm for e in mt.parallel_twins(at[number], align.XEDITION["twin_parallel"],
                                                        align.XEDITION["twin_step"])}

    assert "615.3" in twins("614.3") and "614.3" in twins("615.3")
    # rules numbered in parallel but saying different things are no twins
    assert "615.5" not in twins("614.5")
    # the subrules of twins are twins when each is the other's closest: 601.2 / 602.2 -> 601.2a / 602.2a
    assert "602.2a" in twins("601.2a")


@pytest.mark.parametrize("first, second", [("614.3", "615.3"), ("614.6", "615.6")])
def test_a_twin_that_another_older_rule_states_stays_that_rules(base, first, second):
    """The older edition already states the second case in a rule of its own: the rule of both cases does not take
    that rule's counterpart as its twin."""
    stated = older(base, first, second)   # ``first`` states both cases
    by = {v.norm: v for v in base}
    own = replace(by[second], key=f"old/{second}", edition="old", seq=len(stated))   # and ``second`` its own
    old = [*stated, own]
    links = align.align_cross_edition(old, base, params=TWINS_ONLY)
    assert targets_of(links, second) == {second}
    assert targets_of(links, first) == {first}
    without = align.align_cross_edition(old, base, params={**TWINS_ONLY, "twin_untaken": False})
    assert targets_of(without, first) == {first, second}   # what the rule prevents
