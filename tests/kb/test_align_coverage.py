"""The target-side coverage pass of the cross-edition aligner on planted cases: a newer rule that is a
near-verbatim copy of one sentence of a longer older rule must be found as that rule's split target,
and must not be taken from a section the learnt priors do not tie to it."""
from __future__ import annotations

from dataclasses import replace

import pytest

from ingest import numbers
from kb import align, paths
from kb.align.crossedition import as_headings
from kb.align.matcher import EditionMatcher
from kb.align.structure import heading_titles, title_tied
from tests.helpers import views_2024

SOURCE = paths.SOURCES / "000_b7e6c10b3fc15808.txt"
#: sentence votes off, so that only the coverage pass can find a split target
NO_VOTES = {"vote_min": 2.0}


@pytest.fixture(scope="module")
def base() -> list[align.AlignRule]:
    return views_2024("old")


def near_copy(sentence: str) -> str:
    """A near-verbatim restatement: the second word is dropped."""
    words = sentence.split()
    return " ".join(words[:1] + words[2:])


def planted(views, donor: str, k: int, host: str, new_number: str):
    """The newer edition: sentence ``k`` leaves rule ``donor`` and comes back, nearly verbatim, as the
    new rule ``new_number`` at the end of section ``host``.  Returns the edition and the sentence."""
    out, moved = [], None
    for v in views:
        if v.norm == donor:
            parts = align.sentences(v.text)
            moved = parts[k]
            v = align.make_view(v.key, v.edition, v.lang, v.norm, " ".join(parts[:k] + parts[k + 1:]), v.seq,
                                level=v.level, title=v.title)
        out.append(v)
    assert moved is not None
    last = max(k for k, v in enumerate(out) if v.norm.split(".")[0] == host)
    new = align.make_view("x", "new", "de", new_number, near_copy(moved), 0, level=numbers.level(new_number))
    out.insert(last + 1, new)
    assert new_number not in {v.norm for v in views}
    return [replace(v, key=f"new/{v.norm}", edition="new", seq=k) for k, v in enumerate(out)], moved


def targets_of(links, number):
    return {lk.target.norm for lk in links if lk.source.norm == number and lk.target}


@pytest.mark.parametrize("donor, k", [("611.2c", 3), ("614.9", 1), ("603.6", 4)])
def test_planted_sentence_is_found_as_split_target(base, donor, k):
    host = donor.split(".")[0]
    new_number = f"{host}.99"
    new, moved = planted(base, donor, k, host, new_number)
    links = align.align_cross_edition(base, new, params=NO_VOTES)
    assert targets_of(links, donor) == {donor, new_number}
    found = [lk for lk in links if lk.source.norm == donor and lk.target.norm == new_number]
    assert [lk.method for lk in found] == ["xedition-coverage"]
    assert found[0].relation == "split"
    assert found[0].evidence["evidence"] == moved
    # nothing else changed: every other rule keeps its one counterpart and no other pair was added
    others = [lk for lk in links if lk.source.norm != donor]
    assert all(lk.target is not None and lk.target.norm == lk.source.norm for lk in others)
    # without the coverage pass the planted rule has no counterpart: the pass is what finds it
    ablated = align.align_cross_edition(base, new, params={**NO_VOTES, "coverage": False})
    assert targets_of(ablated, donor) == {donor}


@pytest.mark.parametrize("donor, k", [("611.2c", 3), ("614.9", 1)])
def test_default_parameters_find_the_split_too(base, donor, k):
    host = donor.split(".")[0]
    new, _ = planted(base, donor, k, host, f"{host}.99")
    assert targets_of(align.align_cross_edition(base, new), donor) == {donor, f"{host}.99"}


def test_untied_section_is_not_a_source(base):
    """The same planted sentence in a section that no anchor ties to the donor's section stays unclaimed."""
    new, _ = planted(base, "614.9", 1, "611", "611.99")
    links = align.align_cross_edition(base, new, params=NO_VOTES)
    assert not any(lk.target is not None and lk.target.norm == "611.99" for lk in links)
    assert targets_of(links, "614.9") == {"614.9"}


def test_sentence_already_restated_adds_nothing(base):
    """A copy of a sentence that the donor's own counterpart still restates is no split target."""
    donor = next(v for v in base if v.norm == "611.2c")
    sentence = align.sentences(donor.text)[3]
    out = list(base)
    last = max(k for k, v in enumerate(out) if v.norm.startswith("611."))
    out.insert(last + 1, align.make_view("x", "new", "de", "611.99", near_copy(sentence), 0, level="rule"))
    new = [replace(v, key=f"new/{v.norm}", edition="new", seq=k) for k, v in enumerate(out)]
    links = align.align_cross_edition(base, new, params=NO_VOTES)
    assert targets_of(links, "611.2c") == {"611.2c"}
    assert not any(lk.method == "xedition-coverage" for lk in links)


def test_restatement_weighs_rare_words_and_order(base):
    old = base[:40]
    mt = align.EditionMatcher(old, [replace(v, key=f"new/{v.norm}", edition="new") for v in old], [])
    words = max((w for rule in mt.s_sent_words for w in rule), key=len)
    assert mt.restatement(words, words) == pytest.approx(1.0)
    # the same lemmas in reverse order keep much less than the original order
    assert mt.restatement(words, words[::-1]) < 0.5
    idf = mt.lemma_idf()
    rare = max(set(words), key=lambda w: idf[w])
    common = min(set(words), key=lambda w: idf[w])
    # losing the rarest lemma costs more than losing the most common one
    without_rare = [w for w in words if w != rare]
    without_common = [w for w in words if w != common]
    assert mt.restatement(words, without_rare) < mt.restatement(words, without_common)


def test_a_heading_takes_the_one_heading_that_prints_its_title_over_where_its_children_went():
    """1999's "Draw Step" section: its rule is restated among the turn-based actions of another section, but the newer
    edition prints the title "Draw Step" once, as does the older one: that is the section's counterpart."""
    def v(ed, norm, text, seq, level="rule", title=None):
        return align.make_view(f"{ed}/{norm}", ed, "en", norm, text, seq, level=level, title=title)

    acts = "the active player draws a card as the turn based action of this step"
    old = [v("a", "3", "", 0, "chapter", "Turn Structure"), v("a", "304", "", 1, "section", "Draw Step"),
           v("a", "304.1", f"First, {acts}.", 2), v("a", "305", "", 3, "section", "Main Phase"),
           v("a", "305.1", "The main phase has no steps and players may cast sorcery spells during it.", 4)]
    new = [v("b", "5", "", 0, "chapter", "Turn Structure"), v("b", "504", "", 1, "section", "Draw Step"),
           v("b", "504.1", "Priority is given to the active player once the draw is done.", 2),
           v("b", "505", "", 3, "section", "Main Phase"),
           v("b", "505.1", "The main phase has no steps and players may cast sorcery spells during it.", 4),
           v("b", "703", "", 5, "section", "Turn Based Actions"), v("b", "703.4", f"Immediately, {acts}.", 6)]
    got: dict[str, set] = {}
    for lk in align.align_cross_edition(old, new):
        got.setdefault(lk.source.norm, set()).update([lk.target.norm] if lk.target else [])
    assert got["304.1"] == {"703.4"}          # where the rule's words went
    assert got["304"] == {"504"}              # where the title went
    assert got["305"] == {"505"}


def test_a_rule_that_prints_a_bare_title_over_its_subrules_takes_the_heading_that_prints_it():
    """1999's 214.6 "Artifacts" is a rule whose text is only the title of its subrules; 2024 prints that title as
    section 301.  It restates no sentence, so it is aligned like a heading: by the title, at any level below the
    chapters, while its subrules keep their own links; a rule whose short text is a sentence stays a rule."""
    def v(ed, norm, text, seq, level="rule", title=None):
        return align.make_view(f"{ed}/{norm}", ed, "en", norm, text, seq, level=level, title=title)

    old = [v("a", "2", "", 0, "chapter", "Cards"), v("a", "214", "", 1, "section", "Permanent Types"),
           v("a", "214.5", "Permanents can be tapped.", 2),
           v("a", "214.6", "Artifacts", 3),
           v("a", "214.6a", "Artifacts have no special characteristics and artifact spells are usually colorless.", 4,
             "subrule"),
           v("a", "214.7", "Creatures", 5),
           v("a", "214.7a", "A creature attacks and blocks during the combat phase of a turn.", 6, "subrule")]
    new = [v("b", "3", "", 0, "chapter", "Card Types"), v("b", "301", "", 1, "section", "Artifacts"),
           v("b", "301.1", "A player who has priority may cast an artifact card from their hand.", 2),
           v("b", "301.2", "Artifacts have no special characteristics and artifact spells are usually colorless.", 3),
           v("b", "302", "", 4, "section", "Creatures"),
           v("b", "302.1", "A creature attacks and blocks during the combat phase of a turn.", 5),
           v("b", "302.2", "Permanents can be tapped.", 6)]
    got: dict[str, set] = {}
    for lk in align.align_cross_edition(old, new):
        got.setdefault(lk.source.norm, set()).update([lk.target.norm] if lk.target else [])
    assert got["214.6"] == {"301"}
    assert got["214.7"] == {"302"}
    assert got["214.6a"] == {"301.2"}
    assert got["214.5"] == {"302.2"}       # short, but a sentence: a rule like any other


def test_the_rules_below_a_heading_are_tied_to_the_rules_below_the_one_heading_that_prints_its_title():
    """The title a heading shares with one heading of the other edition ties their subtrees like an anchored section
    pair: 214.6a (under the subheading "Artifacts") may go anywhere, but 301.x (under the section "Artifacts") gets the
    full prior; a rule under a heading whose title the newer edition does not print keeps the learnt prior."""
    def v(ed, norm, text, seq, level="rule", title=None):
        return align.make_view(f"{ed}/{norm}", ed, "en", norm, text, seq, level=level, title=title)

    old = as_headings([v("a", "214", "", 0, "section", "Permanent Types"), v("a", "214.5", "Permanents can tap.", 1),
                       v("a", "214.6", "Artifacts", 2), v("a", "214.6a", "Artifacts are colorless.", 3, "subrule")], 6)
    new = as_headings([v("b", "301", "", 0, "section", "Artifacts"), v("b", "301.1", "Artifacts are cast.", 1),
                       v("b", "301.1a", "Artifacts are colorless.", 2, "subrule"),
                       v("b", "302", "", 3, "section", "Creatures"), v("b", "302.1", "Creatures can tap.", 4)], 6)
    mt = EditionMatcher(old, new, [])
    has_text = [bool(x.text) for x in old]
    heads = heading_titles(old, new, has_text, mt.vec, mt.title_lemmas)
    tied = title_tied(lambda i, d: 0.4, old, new, has_text, heads, 1.0)
    assert [tied(3, d) for d in range(len(new))] == [0.4, 1.0, 1.0, 0.4, 0.4]   # 301.1 and 301.1a, not 301 itself
    assert [tied(1, d) for d in range(len(new))] == [0.4] * 5                  # "Permanent Types": printed once only


def test_a_rule_that_ends_pointing_to_a_chosen_target_and_restates_the_source_joins_it():
    """2024 restates the untap of 502.3 among the turn-based actions (703.4c) and marks it with a bare "See rule
    502.3.": 1999 302.1 goes to both.  A rule pointing to 502.3 that is far from 302.1 stays out; a pointer inside a
    longer sentence is no such mark."""
    def v(ed, norm, text, seq, level="rule", title=None):
        return align.make_view(f"{ed}/{norm}", ed, "en", norm, text, seq, level=level, title=title)

    untap = "the active player determines which permanents they control will untap. Then they untap them all at once."
    old = [v("a", "302", "", 0, "section", "Untap Step"), v("a", "302.1", f"First, {untap}", 1),
           v("a", "302.2", "No player receives priority during the untap step.", 2)]
    new = [v("b", "502", "", 0, "section", "Untap Step"), v("b", "502.3", f"Third, {untap}", 1),
           v("b", "502.4", "No player receives priority during the untap step. See rule 117.3a.", 2),
           v("b", "703", "", 3, "section", "Turn-Based Actions"),
           v("b", "703.4c", f"Immediately after the phasing action, {untap} See rule 502.3.", 4),
           v("b", "703.4d", "Immediately after the draw step begins, a player draws. See rule 502.3.", 5),
           v("b", "703.4e", f"Whenever a game begins, {untap} This is described in rule 502.3.", 6)]
    mt = EditionMatcher(old, new, [])
    assert sorted(new[e].norm for e in mt.pointing_to(1)) == ["703.4c", "703.4d"]
    got: dict[str, set] = {}
    for lk in align.align_cross_edition(old, new):
        got.setdefault(lk.source.norm, set()).update([lk.target.norm] if lk.target else [])
    assert got["302.1"] == {"502.3", "703.4c"}
    assert got["302.2"] == {"502.4"}
    off = {lk.target.norm for lk in align.align_cross_edition(old, new, params={"pointer_ratio": 0})
           if lk.source.norm == "302.1" and lk.target}
    assert off == {"502.3"}


def test_alike_titles_printed_once_tie_their_headings_and_a_title_printed_twice_does_not():
    """1999 "Permanent Type" became 2024 "Permanents": no heading prints the same title, but the two titles are each
    other's most alike and each is printed once, so their rules are tied like those below equal titles.  "General",
    printed by two sections of the newer edition, ties nothing."""
    def v(ed, norm, text, seq, level="rule", title=None):
        return align.make_view(f"{ed}/{norm}", ed, "en", norm, text, seq, level=level, title=title)

    old = [v("a", "212", "", 0, "section", "Card Type"), v("a", "213", "", 1, "section", "Spell Type"),
           v("a", "214", "", 2, "section", "Permanent Type"), v("a", "214.1", "Permanents stay in play.", 3),
           v("a", "215", "", 4, "section", "General"), v("a", "215.1", "Rules apply.", 5)]
    new = [v("b", "100", "", 0, "section", "General"), v("b", "100.1", "Rules apply.", 1),
           v("b", "110", "", 2, "section", "Permanents"), v("b", "110.1", "Permanents stay on the battlefield.", 3),
           v("b", "500", "", 4, "section", "General"), v("b", "500.1", "Turns have phases.", 5)]
    mt = EditionMatcher(old, new, [])
    has_text = [bool(x.text) for x in old]
    tied = title_tied(lambda i, d: 0.4, old, new, has_text, heading_titles(old, new, has_text, mt.vec, mt.title_lemmas,
                                                                          0.65), 1.0)
    assert [tied(3, d) for d in range(len(new))] == [0.4, 0.4, 0.4, 1.0, 0.4, 0.4]
    assert [tied(5, d) for d in range(len(new))] == [0.4] * 6
    equal_only = title_tied(lambda i, d: 0.4, old, new, has_text,
                            heading_titles(old, new, has_text, mt.vec, mt.title_lemmas, 0.0), 1.0)
    assert [equal_only(3, d) for d in range(len(new))] == [0.4] * 6


def test_only_a_rule_over_subrules_whose_text_is_a_short_bare_title_becomes_a_heading():
    def v(norm, text, level="rule", title=None):
        return align.make_view(f"a/{norm}", "a", "en", norm, text, 0, level=level, title=title)

    views = [v("214", "", "section", "Permanent Type"),
             v("214.6", "Artifacts"), v("214.6a", "Artifacts are colorless.", "subrule"),
             v("214.7", "Creatures"),                                            # no subrules: a rule
             v("214.8", "The parts of an enchantment are:"), v("214.8a", "Its name.", "subrule"),   # a sentence
             v("214.9", "Lands that tap for mana of any color and type"), v("214.9a", "They can.", "subrule")]
    got = as_headings(views, 6)
    assert [(x.norm, x.title, x.text) for x, y in zip(got, views) if x is not y] == [("214.6", "Artifacts", "")]
    assert as_headings(views, 0) is views
