"""Links composed along a path of editions (kb.align.compose): the weakest confidence along the path, and a rule
whose text did not change carries its link over.  Small hand-made steps, then the default KB's German 1999 -> 2024
detour through the English editions, checked against the gold (data/gold/de-1999__de-2024.tsv)."""
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


def test_the_detour_through_the_english_editions_follows_the_chain_and_nothing_else(kb_db):
    """German 1999 410.10d (leaves-play triggers look back in time) reaches 603.10a along the English editions (gold),
    each of its links with the weakest confidence of its path, as the steps give it (no direct comparison of the two
    ends decides; see kb/align/compose.py).  419.1 reaches its gold targets 614.1, 614.1a and 615.1a."""
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
    assert targets("419.1") >= {"614.1", "614.1a", "615.1a"}
    steps = [links for links, _ in ondemand.path_steps(db, answer.path)]
    src = {v.key: v.id for v in ondemand._rules_of(db)("de-1999")}
    for lk in answer.links_of("de-1999/410.10d"):
        assert lk.target is not None and compose.compose(src["de-1999/410.10d"], steps)[lk.target.id][0] == lk.score
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
                                         "en-2024-11-08 -> de-2024", ev.ELSEWHERE_STEP]
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
    # each missed gold pair (with a target) is counted once: on the step that lost it, or as linked elsewhere
    predicted = {lk.pair() for lk in detour.links}
    missed = {(s, t) for s, t in gold if t is not None and (s, t) not in predicted}
    assert missed and sum(r["missed"] for r in rows) == len(missed)
    assert rows[-1]["step"] == ev.ELSEWHERE_STEP
    # the two translations lose no pair (every German rule has its English original); the 25-year step loses them
    assert rows[0]["missed"] == rows[2]["missed"] == 0 < rows[1]["missed"]
    tuning = [r for r in ev.step_report(db, tuning_only=True) if r["pair"] == "de-1999 -> de-2024"]
    assert sum(r["false_pairs"] for r in tuning) == len({p for p in false if ev.fold_of(p[0]) == "even"})
