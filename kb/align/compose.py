"""Links composed along a path of editions, without letting doubt multiply.

The one rule every view of a long-range link follows (:mod:`kb.align.ondemand` composes pairs the build did not
align; a lineage reads the same function):

* a step's links carry a rule to the next edition; a rule whose text did not change in a step is linked with
  confidence 1 (:mod:`kb.align.consecutive`: only the rules that changed in a step are aligned in that step), so
  it carries its link over as it is;
* a composed link keeps the **weakest** confidence along its path (:func:`step`): a doubtful step makes the link
  doubtful, but a hundred certain steps do not make it more so.

A composed link is not checked against a direct comparison of its two ends.  That check (the aligner run on the two
end editions: a composed link it contradicted was dropped, and where the chain was silent its links were taken) was
measured and deleted: it earned F1 +0.055 (English 1999 → 2024) and +0.066 (German detour) on the tuning fold, but
cost 1–2.5 s a pair, and a rule page reaches a hundred editions, so no view could serve it; a per-rule check through
an index of the language's texts, cheap enough for every view, earned +0.006 and +0.028, within noise
(docs/lineage.md, "The direct check").  So every view and ``kb align-eval`` read this one composition.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

#: a rule reached along a path: rule id -> (confidence, relation so far)
Frontier = dict[int, tuple[float, str]]
#: the links of one step: rule id -> [(target rule id, confidence, relation, ...)]
StepLinks = Callable[[int], Sequence[tuple]]


def start(rule_id: int) -> Frontier:
    """The frontier of a rule before the first step."""
    return {rule_id: (1.0, "")}


def step(frontier: Frontier, links: StepLinks) -> Frontier:
    """The rules the frontier reaches in one more step.  A link keeps the weakest confidence along its path; of
    two paths to one rule, the more confident wins.  A split or a merge on the way makes the relation a split or a
    merge; otherwise the last step's relation stands."""
    out: Frontier = {}
    for rule, (confidence, rel) in frontier.items():
        for link in links(rule):   # (a link may carry more than these three: the first three are read)
            target, link_confidence, link_rel = link[0], link[1], link[2]
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
