"""Links composed along a path of editions (kb.align.compose): the weakest confidence along the path, a rule whose
text did not change carries its link over, and a link that a direct comparison of its two ends contradicts is
dropped.  Small hand-made steps, then the default KB's German 1999 -> 2024 detour through the English editions,
checked against the gold (data/gold/de-1999__de-2024.tsv)."""
import sqlite_utils

from kb.align import compose


def steps_of(*tables: dict[int, list[tuple[int, float, str]]]):
    return [lambda rule, t=t: t.get(rule, []) for t in tables]


def test_a_link_keeps_the_weakest_confidence_along_its_path_not_the_product():
    got = compose.compose(1, steps_of({1: [(2, 0.9, "reworded")]}, {2: [(3, 0.4, "renumbered")]},
                                      {3: [(4, 0.8, "reworded")]}))
    assert got == {4: (0.4, "")}   # the product would be 0.288: doubt does not multiply


def test_a_rule_whose_text_never_changed_carries_its_link_over_through_a_hundred_steps():
    same = {n: [(n + 1, 1.0, "equivalent")] for n in range(1, 101)}
    got = compose.compose(1, steps_of(*[same] * 100))
    assert got == {101: (1.0, "")}


def test_of_two_paths_to_one_rule_the_more_confident_wins_and_a_split_stays_a_split():
    got = compose.compose(1, steps_of({1: [(2, 0.9, "split"), (3, 0.3, "split")]},
                                      {2: [(4, 0.7, "reworded")], 3: [(4, 1.0, "equivalent"), (5, 1.0, "equivalent")]}))
    assert got == {4: (0.7, "split"), 5: (0.3, "split")}


def test_a_rule_without_counterpart_on_the_way_reaches_nothing():
    assert compose.compose(1, steps_of({1: [(2, 0.8, "reworded")]}, {}, {2: [(3, 1.0, "equivalent")]})) == {}


def test_a_link_that_the_direct_comparison_of_its_ends_contradicts_is_dropped():
    reached = {7: (0.6, "split"), 8: (0.3, "split"), 9: (1.0, "split")}
    similarity = {7: 0.5, 8: 0.05, 9: 0.0}.__getitem__
    # the aligner on the two ends links the source to 7 only: 8, below its threshold, is contradicted; 9 came
    # with the same text through every edition and is never in doubt
    assert compose.uncontradicted(reached, {7}, similarity, 0.13) == {7: (0.6, "split"), 9: (1.0, "split")}
    # a link the direct comparison also finds, or any link of a source it links to nothing, stands
    assert compose.uncontradicted(reached, {8}, similarity, 0.13) == reached
    assert compose.uncontradicted(reached, set(), similarity, 0.13) == reached
    assert compose.uncontradicted(reached, {7}, similarity, 0.01) == reached


def test_where_the_chain_is_silent_the_direct_comparison_decides():
    # the chain: 1 -> 2 -> 4, 3 -> 2; in the last edition, 5 was born on the way (no rule of the first reaches it)
    steps = steps_of({1: [(2, 0.9, "reworded")], 3: [(2, 0.5, "merged")]}, {2: [(4, 1.0, "equivalent")]})
    have = compose.descendants([1, 3], steps)
    assert have == {4}
    reached = compose.compose(1, steps)
    # the direct comparison links the source to 4, 5 and 6; 6 descends from another rule of the first edition: there
    # the chain speaks, and only 5 joins, with the aligner's score
    got = compose.where_silent(reached, {4: 0.7, 5: 0.4, 6: 0.3}, lambda t: t in have | {6})
    assert got == {4: (0.9, ""), 5: (0.4, "")}
    # a source the chain leads nowhere (its lineage ended on the way) takes every direct link
    assert compose.where_silent({}, {5: 0.4, 6: 0.3}, lambda t: t == 6) == {5: (0.4, ""), 6: (0.3, "")}
    assert compose.where_silent(reached, {}, lambda t: False) is reached


def test_the_detour_through_the_english_editions_drops_what_the_german_texts_contradict(kb_db):
    """German 1999 410.10d (leaves-play triggers look back in time) reaches 603.10a along the English editions (gold)
    and, through a split on the way, 603.10e and 603.10f, which the gold does not list and whose German texts share
    too little with it: they are dropped.  419.1 keeps its four gold targets and loses 614.15."""
    from kb.align import ondemand
    from kb.align.evaluate import GOLD_DIR, load_gold

    gold: dict[str, set[str]] = {}
    for row in load_gold(GOLD_DIR / "de-1999__de-2024.tsv"):
        gold.setdefault(row.source_number, set()).add(row.target_number or "")
    db = sqlite_utils.Database(kb_db)
    answer = ondemand.detour(db, "de-1999", "de-2024")
    assert answer is not None and answer.path[1:-1] == ["en-1999-04-23", "en-2024-11-08"]

    def targets(number: str) -> set[str]:
        return {lk.target.norm for lk in answer.links_of(f"de-1999/{number}") if lk.target is not None}

    assert "603.10a" in targets("410.10d") & gold["410.10d"]
    assert not targets("410.10d") & {"603.10e", "603.10f"} and not {"603.10e", "603.10f"} & gold["410.10d"]
    assert targets("419.1") >= {"614.1", "614.1a", "615.1a"} and "614.15" not in targets("419.1")
    assert all(0 < lk.score <= 1 for lk in answer.links if lk.target is not None)


def test_the_step_report_puts_every_false_composed_pair_on_one_step_of_its_path(kb_db):
    """`kb align-eval --steps`: per step of the German detour (3 steps in the default KB), the links of rules that
    changed in it, and each composed pair with a target that the gold does not list, on the step of its weakest
    link."""
    from kb.align import evaluate as ev
    from kb.align import ondemand

    db = sqlite_utils.Database(kb_db)
    rows = [r for r in ev.step_report(db) if r["pair"] == "de-1999 -> de-2024"]
    assert [r["step"] for r in rows] == ["de-1999 -> en-1999-04-23", "en-1999-04-23 -> en-2024-11-08",
                                         "en-2024-11-08 -> de-2024", ev.BORN_STEP, ev.ELSEWHERE_STEP]
    # a translation and a 25-year step: no rule is carried over as is
    assert all(r["changed"] > 100 for r in rows[:3])
    src = ev.align.views_from_db(db, "de-1999")
    gold, _ = ev.resolve_gold(ev.load_gold(ev.GOLD_DIR / "de-1999__de-2024.tsv"), src,
                              ev.align.views_from_db(db, "de-2024"))
    sources = {s for s, _ in gold}
    detour = ondemand.detour(db, "de-1999", "de-2024")
    assert detour is not None
    false = {lk.pair() for lk in detour.links if lk.source.key in sources and lk.target is not None} - gold
    assert false and sum(r["false_pairs"] for r in rows) == len(false)
    # the false pairs no step holds are the direct comparison's links where the chain is silent: links the chain
    # does not make (to a rule no rule of the first edition reaches, born on the way, or of a source whose composed
    # links were all contradicted or that the chain leads nowhere)
    steps = [links for links, _ in ondemand.path_steps(db, detour.path)]
    t_id = {v.key: v.id for v in ev.align.views_from_db(db, "de-2024")}
    s_id = {v.key: v.id for v in src}
    silent = {(s, t) for s, t in false if t_id[t] not in compose.compose(s_id[s], steps)}
    assert silent and rows[-2]["false_pairs"] == len(silent)
    assert any(t_id[t] not in compose.descendants([v.id for v in src], steps) for _, t in silent)
    # each missed gold pair (with a target) is counted once: on the step that lost it, or as linked elsewhere
    predicted = {lk.pair() for lk in detour.links}
    missed = {(s, t) for s, t in gold if t is not None and (s, t) not in predicted}
    assert missed and sum(r["missed"] for r in rows) == len(missed)
    assert rows[-1]["step"] == ev.ELSEWHERE_STEP
    # the two translations lose no pair (every German rule has its English original); the 25-year step loses them
    assert rows[0]["missed"] == rows[2]["missed"] == 0 < rows[1]["missed"]
    tuning = [r for r in ev.step_report(db, tuning_only=True) if r["pair"] == "de-1999 -> de-2024"]
    assert sum(r["false_pairs"] for r in tuning) == len({p for p in false if ev.fold_of(p[0]) == "even"})
