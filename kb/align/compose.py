"""Links composed along a path of editions, without letting doubt multiply.

The one rule every view of a long-range link follows (:mod:`kb.align.ondemand` composes pairs the build did not
align; a lineage reads the same function):

* a step's links carry a rule to the next edition; a rule whose text did not change in a step is linked with
  confidence 1 (:mod:`kb.align.consecutive`: only the rules that changed in a step are aligned in that step), so
  it carries its link over as it is;
* a composed link keeps the **weakest** confidence along its path (:func:`step`): a doubtful step makes the link
  doubtful, but a hundred certain steps do not make it more so;
* a composed link is **dropped when a direct comparison of its two ends contradicts it** (:func:`uncontradicted`):
  the aligner, run on the two ends themselves, links the source to other rules, and the two ends' own similarity
  is below the aligner's threshold for any counterpart;
* where the chain is **silent**, the direct comparison decides (:func:`where_silent`), the mirror of the rule
  before: a rule the chain gives no ancestor in the first edition (born on the way: a later edition restating an
  older rule in a new rule, the life total's 119.6 beside 1999's 102.1) takes the direct link to it, and a source
  whose lineage ends on the way takes all its direct links.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

#: a rule reached along a path: rule id -> (confidence, relation so far)
Frontier = dict[int, tuple[float, str]]
#: the links of one step: rule id -> [(target rule id, confidence, relation)]
StepLinks = Callable[[int], list[tuple[int, float, str]]]


def start(rule_id: int) -> Frontier:
    """The frontier of a rule before the first step."""
    return {rule_id: (1.0, "")}


def step(frontier: Frontier, links: StepLinks) -> Frontier:
    """The rules the frontier reaches in one more step.  A link keeps the weakest confidence along its path; of
    two paths to one rule, the more confident wins.  A split or a merge on the way makes the relation a split or a
    merge; otherwise the last step's relation stands."""
    out: Frontier = {}
    for rule, (confidence, rel) in frontier.items():
        for target, link_confidence, link_rel in links(rule):
            c = min(confidence, link_confidence)
            r = rel if rel in ("split", "merged") else (link_rel if link_rel in ("split", "merged") else rel)
            if target not in out or c > out[target][0]:
                out[target] = (c, r)
    return out


def compose(rule_id: int, steps: Iterable[StepLinks]) -> Frontier:
    """The rules of the last edition that ``rule_id`` reaches along ``steps``, with their weakest confidence."""
    frontier = start(rule_id)
    for links in steps:
        frontier = step(frontier, links)
        if not frontier:
            break
    return frontier


def contradicted(target: int, direct_targets: set[int], similarity: float, threshold: float) -> bool:
    """Does a direct comparison of a composed link's two ends contradict it?  Yes when the aligner, run on the two
    ends, links the source to other rules (``direct_targets``, not holding ``target``) and the two ends' own
    ``similarity`` is below its ``threshold`` for any counterpart."""
    return bool(direct_targets) and target not in direct_targets and similarity < threshold


def uncontradicted(frontier: Frontier, direct_targets: set[int], similarity: Callable[[int], float],
                   threshold: float) -> Frontier:
    """``frontier`` without the links a direct comparison contradicts (:func:`contradicted`); a link held with
    confidence 1 all along (the same text in every edition) is never in doubt."""
    return {t: x for t, x in frontier.items()
            if x[0] >= 1.0 or not contradicted(t, direct_targets, similarity(t), threshold)}


def descendants(rules: Iterable[int], steps: Iterable[StepLinks]) -> set[int]:
    """The rules of the last edition that any of ``rules`` (of the first edition) reaches along ``steps``: those the
    chain gives an ancestor."""
    reached = set(rules)
    for links in steps:
        reached = {target for rule in reached for target, _, _ in links(rule)}
    return reached


def where_silent(frontier: Frontier, direct: dict[int, float], has_ancestor: Callable[[int], bool]) -> Frontier:
    """``frontier`` completed by the direct comparison (``direct``: target -> the aligner's score, the score becoming
    the link's confidence) where the chain is silent: a source the chain leads nowhere (``frontier`` empty: its
    lineage ended on the way) takes all the direct links; any source takes the direct links to rules the chain gives
    no ancestor in the first edition (``has_ancestor`` false, :func:`descendants`: born on the way).  A direct link
    to a rule that descends from another one is left out: there the chain speaks (and :func:`uncontradicted` has
    weighed the two)."""
    if not frontier:
        return {t: (score, "") for t, score in direct.items()}
    born = {t: (score, "") for t, score in direct.items() if t not in frontier and not has_ancestor(t)}
    return {**frontier, **born} if born else frontier


def weakest_steps(rule_id: int, steps: Iterable[StepLinks]) -> dict[int, tuple[float, int]]:
    """The rules of the last edition that ``rule_id`` reaches (as :func:`compose` finds them), each with its
    confidence and the index of the step that holds its weakest link (-1: none below 1): where a doubtful composed
    link came from."""
    frontier: dict[int, tuple[float, int]] = {rule_id: (1.0, -1)}
    for k, links in enumerate(steps):
        out: dict[int, tuple[float, int]] = {}
        for rule, (confidence, at) in frontier.items():
            for target, link_confidence, _ in links(rule):
                c, w = (confidence, at) if confidence <= link_confidence else (link_confidence, k)
                if target not in out or c > out[target][0]:
                    out[target] = (c, w)
        frontier = out
    return frontier
