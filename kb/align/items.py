"""Items (article steps and examples, FAQ bullets) linked to the rules they explain."""
from __future__ import annotations

from .lexical import LexicalIndex, Vectoriser
from .tokens import LemmaMap, Rewriter, lemmas_of, tokens
from .views import Alignment, AlignRule

# --------------------------------------------------------------------------- items → rules


def align_items(items: list[AlignRule], rules: list[AlignRule], terms: list[tuple[str, str]] | None = None, *,
                threshold: float = 0.12, method: str = "item-lex") -> list[Alignment]:
    """Link items (article steps and examples, FAQ bullets) to the rules they explain.

    Each item takes the rule with the most similar lemmas (words and character 4-grams, old
    terminology rewritten).  A run of consecutive ``step`` items is a step list in rule order,
    so it is aligned with a monotone dynamic program (a step may share its rule with the next).
    """
    if not items or not rules:
        return [Alignment(v, None, 0.0, "no counterpart", method, {}) for v in items]
    lang = rules[0].lang
    terms = terms or []
    lm = LemmaMap(items + rules)
    rw = Rewriter(terms, lm)
    i_lem = [lemmas_of(rw(tokens(v, lm).words)) if terms else list(v.lemmas) for v in items]
    vec = Vectoriser(lang, {w for x in i_lem for w in x} | {w for v in rules for w in v.lemmas})
    index = LexicalIndex([vec.bag(vec.content(v.lemmas)) for v in rules])
    qs = [index.vector(vec.bag(vec.content(x))) for x in i_lem]
    sims = [[index.dot(q, k) for k in range(len(rules))] for q in qs]
    choice: dict[int, int] = {}
    k = 0
    while k < len(items):
        if items[k].kind != "step":
            best = max(range(len(rules)), key=lambda r: sims[k][r])
            choice[k] = best
            k += 1
            continue
        end = k
        while end < len(items) and items[end].kind == "step":
            end += 1
        for offset, r in enumerate(_monotone(sims[k:end])):
            choice[k + offset] = r
        k = end
    links = []
    for k, v in enumerate(items):
        r = choice[k]
        s = sims[k][r]
        if s < (threshold if v.kind != "step" else 1e-9):
            links.append(Alignment(v, None, round(s, 3), "no counterpart", method, {}))
        else:
            links.append(Alignment(v, rules[r], round(s, 3), "equivalent", method, {"lexical": round(s, 3)}))
    return links


def _monotone(sims: list[list[float]]) -> list[int]:
    """Targets for a run of rows with non-decreasing target index maximising the summed similarity."""
    n, m = len(sims), len(sims[0])
    best = [row[:] for row in sims]
    back = [[0] * m for _ in range(n)]
    for i in range(1, n):
        run, arg = float("-inf"), 0
        for j in range(m):
            if best[i - 1][j] > run:
                run, arg = best[i - 1][j], j
            best[i][j] = sims[i][j] + run
            back[i][j] = arg
    j = max(range(m), key=lambda x: best[-1][x])
    out = [j]
    for i in range(n - 1, 0, -1):
        j = back[i][j]
        out.append(j)
    return out[::-1]
