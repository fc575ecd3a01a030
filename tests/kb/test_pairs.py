"""Which editions get aligned follows from the data (kb.align.pairs), and consecutive editions align exactly."""
from __future__ import annotations

import pytest

from kb import align
from kb import diff as D
from kb.align.pairs import EditionSpec, PlannedPair, plan
from tests.kb.test_diff_planted import Planted

RULES = frozenset({"rule"})


def spec(id, lang, date, kind="cr", **kw):
    return EditionSpec(id, lang, date, kind, has=kw.pop("has", RULES), **kw)


def test_chains_by_family_and_date_whatever_the_order():
    eds = [spec("en-c", "en", "2024-11-08"), spec("en-a", "en", "1999-04-23"), spec("en-b", "en", "2003-10-01"),
           spec("de-x", "de", "2024-11-08", covers=("6",)), spec("de-w", "de", "1999-04-02")]
    chain = [(p.source, p.target) for p in plan(eds) if p.reason == "chain"]
    assert chain == [("en-a", "en-b"), ("en-b", "en-c"), ("de-w", "de-x")]


def test_translations_go_to_the_named_original_or_the_closest_one():
    eds = [spec("en-1999", "en", "1999-04-23"), spec("en-2022", "en", "2022-11-18"),
           spec("en-2024", "en", "2024-11-08"),
           spec("de-1999", "de", "1999-04-02", translation_of="en-1999"),
           spec("it-wiki", "it", "2022", covers=("6",))]
    trans = {(p.source, p.target) for p in plan(eds) if p.reason == "translation"}
    assert trans == {("de-1999", "en-1999"), ("it-wiki", "en-2022")}


def test_extra_pairs_items_and_faq_from_the_manifest_fields():
    eds = [spec("de-2024", "de", "2024-11-08"), spec("it-wiki", "it", "2022", align_with=("de-2024",)),
           spec("de-art", "de", "2009", kind="article", align_with=("de-2024",), has=frozenset({"step"})),
           spec("en-m", "en", "2007", kind="excerpt", has=frozenset({"rule", "faq"})),
           spec("de-m", "de", "2007", kind="excerpt", translation_of="en-m", has=frozenset({"rule", "faq"}))]
    got = set(plan(eds))
    assert PlannedPair("it-wiki", "de-2024", "cross-language", "extra") in got
    assert PlannedPair("de-art", "de-2024", "items", "extra") in got
    assert {PlannedPair("de-m", "en-m", "cross-language", "translation"),
            PlannedPair("de-m", "en-m", "faq-translation", "translation"),
            PlannedPair("en-m", "en-m", "faq", "faq"), PlannedPair("de-m", "de-m", "faq", "faq")} <= got
    assert not any(p.reason == "chain" for p in got)  # one edition per family: no chain


def test_an_edition_added_later_joins_its_chain():
    base = [spec("en-a", "en", "2003-10-01"), spec("en-c", "en", "2026-01-16")]
    assert [(p.source, p.target) for p in plan(base)] == [("en-a", "en-c")]
    more = [*base, spec("en-b", "en", "2019-05-03")]
    assert [(p.source, p.target) for p in plan(more)] == [("en-a", "en-b"), ("en-b", "en-c")]


@pytest.mark.parametrize("merge, split", [(("609.4a", "609.4b"), "614.9"), (("612.5", "612.6"), "612.1"),
                                          (("615.10", "615.11"), "614.8")])
def test_consecutive_editions_align_exactly_on_planted_edits(merge, split):
    """Inserted, deleted, renumbered, reworded, split and merged rules of a planted edition."""
    p = Planted(merge, split)

    def views(rules):
        return [align.make_view(r.key, r.edition, "de", r.norm, r.text_norm, r.seq, level=r.level, title=r.title)
                for r in rules]

    links = align.align_consecutive(views(p.old), views(p.new))
    got = {(lk.source.norm, lk.target.norm if lk.target else None) for lk in links}
    truth = {(a, b) for a, b, *_ in p.true_pairs()}
    assert got - {("612.3", None)} == truth
    assert ("612.3", None) in got  # the deleted rule has no counterpart
    rel = {(lk.source.norm, lk.target.norm if lk.target else None): lk.relation for lk in links}
    assert rel["611.2a", "611.2b"] == "renumbered" and rel["610.1", "610.1"] == "reworded"
    assert rel[split, split + "a"] == "split" and rel[merge[1], merge[0]] == "merged"
    # the diff classes follow: no removed rule is taken for a merge, headings stay headings
    rep = p.report([D.Pair(lk.source.key, lk.target.key if lk.target else None, lk.relation, lk.score)
                    for lk in links])
    assert rep.cls.old_class["de-2024/612.3"] == "removed"
    assert all(g.change_class != "merged" or {r.level for r in g.old} <= {"rule", "subrule"}
               for g in rep.cls.groups)


def test_concepts_survive_renumbering_split_and_merge_along_a_chain():
    p = Planted(("609.4a", "609.4b"), "614.9")

    def views(rules, edition):
        return [align.make_view(f"{edition}/{r.norm}", edition, "de", r.norm, r.text_norm, r.seq, level=r.level,
                                title=r.title) for r in rules]

    a, b = views(p.old, "ed-a"), views(p.new, "ed-b")
    c = [align.make_view(v.key.replace("ed-b", "ed-c"), "ed-c", "de", v.norm, v.text, v.seq, level=v.level,
                         title=v.title) for v in b]
    links = align.align_consecutive(a, b) + align.align_consecutive(b, c)
    concept = align.assign_concepts(links, {"ed-c": 0, "ed-b": 1, "ed-a": 2})
    assert concept["ed-a/611.2a"] == concept["ed-b/611.2b"] == concept["ed-c/611.2b"] == "ed-c/611.2b"
    assert concept["ed-a/614.9"] == concept["ed-c/614.9"]                 # split: the first part keeps it
    assert concept["ed-a/609.4b"] == concept["ed-a/609.4a"] == concept["ed-c/609.4a"]  # merged into one
    assert concept["ed-a/601.2c"] != concept["ed-a/601.2d"]


def test_a_rule_goes_where_most_of_it_went_not_where_one_sentence_of_it_went():
    """The coverage pass links an older rule to a newer one that restates one of its sentences; restating a short
    sentence word for word (score 1.0) does not carry the rule's concept away from where the rest of it went."""
    from kb.align.views import COVERAGE_METHOD, Alignment

    def v(key: str, text: str = "") -> align.AlignRule:
        edition, norm = key.split("/")
        return align.make_view(key, edition, "en", norm, text, 1, level="subrule")

    sentences = ["Announce the targets first, then the mode, then how the effect divides among them.",
                 "The same target can't be chosen twice.", "Then pay."]
    old, whole, aside = v("ed-a/409.1c", " ".join(sentences)), v("ed-b/601.2c"), v("ed-b/113.3")
    lexical = Alignment(old, whole, 0.51, "split", "xedition-lex", {"lexical": 0.6})
    one = Alignment(old, aside, 1.0, "split", COVERAGE_METHOD, {"coverage": 1.0, "evidence": sentences[1]})
    concept = align.assign_concepts([lexical, one], {"ed-b": 0, "ed-a": 1})
    assert concept["ed-a/409.1c"] == "ed-b/601.2c" and concept["ed-b/113.3"] == "ed-b/113.3"
    most = Alignment(old, aside, 0.9, "split", COVERAGE_METHOD, {"coverage": 0.9, "evidence": sentences[0]})
    assert align.assign_concepts([lexical, most], {"ed-b": 0, "ed-a": 1})["ed-a/409.1c"] == "ed-b/113.3"


def test_composed_paths_do_not_pass_an_excerpt_narrower_than_both_ends():
    """The stored pairs as a graph: the path through the one-chapter German translation is as short as the English
    chain, but it would carry only its chapter, so the English chain is taken."""
    from kb.align.ondemand import _path

    specs = {s.id: s for s in (spec("en-a", "en", "1999-04-23"), spec("en-b", "en", "2003-10-01"),
                               spec("en-c", "en", "2024-11-08"), spec("de-a", "de", "1999-04-02"),
                               spec("de-c", "de", "2024-11-08", covers=("6",)),
                               spec("it-c", "it", "2022", covers=("6",)))}
    g: dict[str, set[str]] = {}
    for x, y in [("en-a", "en-b"), ("en-b", "en-c"), ("en-a", "de-a"), ("de-a", "de-c"), ("de-c", "en-c"),
                 ("it-c", "de-c")]:
        g.setdefault(x, set()).add(y)
        g.setdefault(y, set()).add(x)
    assert _path(g, specs, "en-a", "en-c") == ["en-a", "en-b", "en-c"]
    # an excerpt that holds all of one end loses nothing: Italian chapter 6 through German chapter 6
    assert _path(g, specs, "it-c", "en-c") == ["it-c", "de-c", "en-c"]
    assert _path(g, specs, "de-a", "de-c") == ["de-a", "de-c"]
    # the ends themselves may be excerpts; with no passable path there is none
    assert _path({"en-a": {"de-c"}, "de-c": {"en-a", "en-c"}, "en-c": {"de-c"}}, specs, "en-a", "en-c") is None


def test_of_paths_of_equal_length_the_one_without_excerpts_wins():
    from kb.align.ondemand import _path

    specs = {s.id: s for s in (spec("en-a", "en", "1999-04-23"), spec("en-c", "en", "2024-11-08"),
                               spec("de-a", "de", "1999-04-02", covers=("4",)), spec("zz-a", "en", "2000-01-01"))}
    g = {"en-a": {"de-a", "zz-a"}, "de-a": {"en-a", "en-c"}, "zz-a": {"en-a", "en-c"}, "en-c": {"de-a", "zz-a"}}
    # "de-a" comes first by id and covers "4" only: not passable between two whole editions anyway
    assert _path(g, specs, "en-a", "en-c") == ["en-a", "zz-a", "en-c"]
    specs["de-a"] = spec("de-a", "de", "1999-04-02", covers=("4",))
    specs["en-c"] = spec("en-c", "en", "2024-11-08", covers=("4",))
    # now "de-a" holds all of "en-c": passable, but an excerpt, so the whole edition "zz-a" still wins the tie
    assert _path(g, specs, "en-a", "en-c") == ["en-a", "zz-a", "en-c"]
