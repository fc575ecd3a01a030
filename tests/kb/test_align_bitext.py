"""The bead alignment of two sequences (kb.align.bitext) on small hand-made inputs: a split, a merge, a reordering
and a rule without counterpart.  The texts are short made-up rules; the similarity is the Dice coefficient of their
word sets, the sides of a bead taken together (what a caller's similarity does with bags of words).  Leaving a rule
alone costs a percentile of what the old rules cost against unrelated rules of other topics (:data:`ELSEWHERE`), as
the consecutive aligner samples rules half an edition away."""
from kb.align import bitext


def dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 0.0


#: rules of other topics: what a rule costs against a rule that is not its counterpart
ELSEWHERE = ["A player with ten or more poison counters loses the game",
             "Each creature has power and toughness printed in its lower right corner",
             "The mulligan rule lets a player shuffle a hand back and draw again",
             "Planeswalkers have loyalty abilities activated once each turn",
             "A deck for constructed play contains at least sixty cards"]


def aligner(old: list[str], new: list[str]):
    words_old = [set(t.lower().split()) for t in old]
    words_new = [set(t.lower().split()) for t in new]

    def similarity(xs, ys):
        return dice(set().union(*(words_old[x] for x in xs)), set().union(*(words_new[y] for y in ys)))

    unrelated = [1 - dice(w, set(t.lower().split())) for w in words_old for t in ELSEWHERE]
    return bitext.align(len(old), len(new), similarity, bitext.skip_cost(unrelated))


def test_a_rule_split_in_two_consecutive_rules_is_one_bead():
    old = ["Players may cast spells during their main phase when the stack is empty",
           "Each player draws a card in the draw step"]
    new = ["Players may cast spells during their main phase",
           "A spell can be cast only when the stack is empty",
           "Each player draws a card in the draw step"]
    assert aligner(old, new) == [((0,), (0, 1)), ((1,), (2,))]


def test_two_rules_merged_into_one_are_one_bead():
    old = ["Tokens are permanents that are not cards",
           "A token that leaves the battlefield ceases to exist",
           "Each player untaps their permanents in the untap step"]
    new = ["Tokens are permanents that are not cards and a token that leaves the battlefield ceases to exist",
           "Each player untaps their permanents in the untap step"]
    assert aligner(old, new) == [((0, 1), (0,)), ((2,), (1,))]


def test_a_rule_without_counterpart_is_left_alone_and_its_neighbours_stay_paired():
    old = ["The active player untaps all permanents",
           "Ante is played only in casual games with a shared pot",
           "The active player draws a card"]
    new = ["The active player untaps all permanents they control",
           "The active player draws a card from the library"]
    beads = aligner(old, new)
    assert ((1,), ()) in beads
    assert [b for b in beads if b[0] and b[1]] == [((0,), (0,)), ((2,), (1,))]


def test_a_reordering_keeps_the_order_and_leaves_the_moved_rule_to_the_caller():
    """The alignment is monotone: of two rules that swapped places it pairs the two rules around them and one of the
    two, and leaves the other alone on both sides (the cross-edition aligner's competitive linking takes it)."""
    old = ["Combat damage is dealt simultaneously by all creatures",
           "Trample lets excess damage be assigned to the defending player",
           "Flying creatures can be blocked only by creatures with flying or reach",
           "The end step begins after combat"]
    new = ["Combat damage is dealt simultaneously by all creatures",
           "Flying creatures can be blocked only by creatures with flying or reach",
           "Trample lets excess damage be assigned to the defending player",
           "The end step begins after combat"]
    beads = aligner(old, new)
    pairs = [b for b in beads if b[0] and b[1]]
    assert pairs[0] == ((0,), (0,)) and pairs[-1] == ((3,), (3,)) and len(pairs) == 3
    left = [b for b in beads if not (b[0] and b[1])]
    assert sorted(left) == sorted([((1,), ()), ((), (2,))]) or sorted(left) == sorted([((2,), ()), ((), (1,))])


def test_the_cost_of_leaving_a_rule_alone_is_a_percentile_of_the_pairs_own_costs():
    costs = [0.9, 0.1, 0.5, 0.3, 0.7, 0.95, 0.2, 0.8, 0.6, 0.4]
    assert bitext.skip_cost(costs, 0.2) == 0.3 / 2     # the third cheapest of ten, halved
    assert bitext.skip_cost(costs, 0.0) == 0.1 / 2
    assert bitext.skip_cost([], 0.2) == 0.5


def test_a_bead_without_evidence_is_never_taken():
    beads = bitext.align(2, 2, lambda xs, ys: None, 0.4)
    assert all(not (a and b) for a, b in beads) and len(beads) == 4


def test_a_rule_printed_again_with_other_quote_marks_is_the_same_rule_carried_over():
    """Editions of 2005, 2008 and 2019 changed every quote mark (curly, straight, or "?" for a lost character) or
    marked italics with underscores, and no word: such a rule is unchanged and keeps its link with confidence 1;
    a changed word is still a change.  Texts: 100.1b and 100.2a of tests/corpus/crs/en-2024-11-08.txt."""
    from kb import align

    printed = ["A multiplayer game is a game that begins with more than two players. "
               "See section 8, “Multiplayer Rules.”",
               "In constructed play, each deck has a minimum deck size of 60 cards.",
               "Each player’s deck may contain any number of basic land cards."]
    again = ["A multiplayer game is a game that begins with more than two players. "
             "See section 8, ?Multiplayer Rules.?",
             "In _constructed_ play, each deck has a minimum deck size of 60 cards.",
             "Each player's deck may contain any number of basic snow land cards."]

    def views(edition, texts):
        return [align.make_view(f"{edition}/100.{n + 1}", edition, "en", f"100.{n + 1}", t, n, level="rule")
                for n, t in enumerate(texts)]

    links = {lk.source.norm: lk for lk in align.align_consecutive(views("a", printed), views("b", again))}
    assert [(links[n].relation, links[n].score) for n in ("100.1", "100.2")] == [("equivalent", 1.0)] * 2
    assert links["100.3"].relation == "reworded" and links["100.3"].score < 1.0
