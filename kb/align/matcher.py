"""Lexical similarity between the rules of two editions in one language, at rule and sentence level.

The older text is rewritten into the newer terminology (``data/terminology.tsv``) word by word on
the KB's lemmas (:mod:`kb.align.tokens`, no second lemmatising); every rule becomes a bag of content
lemmas, compound heads and bigrams
(:class:`~kb.align.lexical.Vectoriser`) weighted by TF-IDF over the newer edition.  Each older rule
is also cut into sentences: a sentence is compared with every sentence of a candidate rule by the
word order of all its lemmas (function words included), so a sentence that survived into a newer
rule is found even when its content words are common and the rest of the rule moved elsewhere
(the evidence for 1→n splits).  Candidates come from the inverted index only (blocking).
"""
from __future__ import annotations

import bisect
import math
from collections import Counter
from functools import cached_property

from rapidfuzz.distance import Indel, LCSseq

from ingest import numbers

from .features import _SENT
from .lexical import LexicalIndex, Vectoriser
from .numbering import _group, _section_of
from .tokens import LemmaMap, Rewriter, lemmas_of, sentence_lemmas, tokens
from .views import AlignRule


class Companion:
    """The same two editions in another language: a second, independent path of evidence.

    ``matcher`` compares the translations; ``s_map``/``t_map`` map a source/target index of the
    main pair to the index of its translation (from the translation alignments).  Where both
    sides of a pair have a translation, its similarity there counts beside the similarity here.
    """

    def __init__(self, matcher: EditionMatcher, s_map: dict[int, int], t_map: dict[int, int], weight: float = 0.5):
        self.matcher, self.s_map, self.t_map, self.weight = matcher, s_map, t_map, weight
        self.t_inv: dict[int, list[int]] = {}
        for d, cd in t_map.items():
            self.t_inv.setdefault(cd, []).append(d)

    def rule_sim(self, i: int, d: int) -> float | None:
        ci, cd = self.s_map.get(i), self.t_map.get(d)
        if ci is None or cd is None:
            return None
        return self.matcher.rule_sim(ci, cd)

    def candidates_many(self, sources: list[int], k: int) -> list[tuple[int, list[int]]]:
        """For each source (of the main pair): the targets whose translations the translation of the
        source finds (searched all at once)."""
        m = self.matcher
        asked = [i for i in sources if self.s_map.get(i) is not None and m.has_text[self.s_map[i]]]
        found = m.index.search_many([m.s_bags[self.s_map[i]] for i in asked], k)
        return [(i, [d for _, cd in hits for d in self.t_inv.get(cd, ())]) for i, hits in zip(asked, found)]


class EditionMatcher:
    """Rule and sentence similarity between an older (``src``) and a newer (``tgt``) edition."""

    def __init__(self, src: list[AlignRule], tgt: list[AlignRule], terms: list[tuple[str, str]],
                 sentence_weight: float = 0.0, wording_floor: float = 0.3, companion: Companion | None = None):
        self.src, self.tgt, self.terms = src, tgt, terms
        self.companion = companion
        self.sentence_weight = sentence_weight
        self.wording_floor = wording_floor
        lang = tgt[0].lang
        # the KB's lemmas cut at sentence boundaries; old wording rewritten word by word (no new lemmatising)
        self.lemma_map = lm = LemmaMap(src + tgt)
        self.rewriter = rw = Rewriter(terms, lm)
        self.s_tokens = [tokens(v, lm) for v in src]
        s_lem = [lemmas_of(rw(t.words)) if terms else list(v.lemmas) for v, t in zip(src, self.s_tokens)]
        s_ex = [" ".join(lemmas_of(rw((w, w) for w in v.examples.split()))) for v in src]
        self.vec = vec = Vectoriser(lang, {w for x in s_lem for w in x} | {w for v in tgt for w in v.lemmas})
        self.t_bags = [vec.bag(vec.content(v.lemmas)) for v in tgt]
        self.s_content = [frozenset(vec.content(x)) for x in s_lem]
        self.s_bags = [vec.bag(vec.content(x)) for x in s_lem]
        self.index = LexicalIndex(self.t_bags)
        self.ex_index = LexicalIndex([vec.bag(vec.content(v.examples.split())) for v in tgt])
        self.s_vecs = [self.index.vector(b) for b in self.s_bags]
        self.s_ex_vecs = [self.index_ex_vector(x) for x in s_ex]
        self.has_text = [bool(v.text.strip()) for v in src]
        self.t_text = [bool(v.text.strip()) for v in tgt]
        self._w: dict[tuple[int, int], tuple[float, ...]] = {}
        self._sent_index: tuple[LexicalIndex, list[tuple[int, int]]] | None = None
        self._lemma_idf: dict[str, float] | None = None
        self._twins: dict[tuple, list[int]] = {}
        self._masses: dict[int, tuple[list[str], float]] = {}
        self._coded: dict[int, tuple[list[str], str]] = {}
        self._s_codes: dict[int, list[str]] = {}
        self._t_codes: dict[int, list[str]] = {}
        self._chars: dict[str, str] = {}
        self._restating: dict[tuple[int, int, int], list[tuple[int, list[int]]]] = {}
        self._rows: dict[int, tuple[list[float], list[float] | None]] = {}
        self._t_parallel: dict[tuple, list[int]] | None = None
        self._kids: dict[int, list[int]] | None = None
        self._t_by_norm = {v.norm: d for d, v in enumerate(tgt) if v.norm}
        self._t_content: dict[int, frozenset[str]] = {}
        self._pointers: dict[int, list[int]] | None = None

    # sentences (computed on first use: a companion's matcher compares whole rules only): lemma lists, bags in the
    # rules' TF-IDF space, and each sentence's share of its rule

    @cached_property
    def s_sent_words(self) -> list[list[list[str]]]:
        return [[lemmas_of(self.rewriter(s)) for s in t.sentences] for t in self.s_tokens]

    @cached_property
    def t_sent_words(self) -> list[list[list[str]]]:
        return [sentence_lemmas(v, self.lemma_map) for v in self.tgt]

    @cached_property
    def _s_sent_content(self) -> list[list[list[str]]]:
        return [[self.vec.content(w) for w in ws] for ws in self.s_sent_words]

    @cached_property
    def s_sent_size(self) -> list[list[int]]:
        """Content lemmas per sentence."""
        return [[len(c) for c in cs] for cs in self._s_sent_content]

    @cached_property
    def s_sent_bags(self) -> list[list[Counter]]:
        return [[self.vec.bag(c) for c in cs] for cs in self._s_sent_content]

    @cached_property
    def s_sent_share(self) -> list[list[float]]:
        return [_shares(self.index, bags) for bags in self.s_sent_bags]

    def index_ex_vector(self, lemmas: str) -> dict[str, float] | None:
        return self.ex_index.vector(self.vec.bag(self.vec.content(lemmas.split()))) if lemmas else None

    def title_lemmas(self, i: int) -> list[str]:
        """Lemmas of the title of source ``i`` (of its text if it has none: a subheading's text is its title),
        old terminology rewritten."""
        t = self.s_tokens[i]
        return lemmas_of(self.rewriter(t.title or t.words))

    # ------------------------------------------------------------------ similarity

    def _row(self, i: int) -> tuple[list[float], list[float] | None]:
        """Cosines of source ``i`` with every target: of the rule bags and of the examples (kept)."""
        got = self._rows.get(i)
        if got is None:
            ex = self.s_ex_vecs[i]
            got = self._rows[i] = (self.index.dots(self.s_vecs[i]).tolist(),
                                   self.ex_index.dots(ex).tolist() if ex else None)
        return got

    def rule_sim(self, i: int, d: int) -> float:
        """Cosine of the rule bags; matching examples count for a fifth when both rules have some.
        With a companion, the similarity of the two rules' translations counts too (``weight``, half by default)."""
        rules, examples = self._row(i)
        s = rules[d]
        if examples is not None and self.tgt[d].examples:
            s = 0.8 * s + 0.2 * examples[d]
        if self.companion is not None:
            c = self.companion.rule_sim(i, d)
            if c is not None:
                s = (1 - self.companion.weight) * s + self.companion.weight * c
        return s

    def wording_sims(self, i: int, d: int) -> tuple[float, ...]:
        """For every sentence of source ``i``: the word-order similarity (longest common subsequence
        of all lemmas, function words included) with the closest sentence of target ``d``.  A
        sentence that survived with its wording scores high even when its content words are common."""
        key = (i, d)
        got = self._w.get(key)
        if got is None:
            similarity = Indel.normalized_similarity
            t_sents = self._sentence_codes(self._t_codes, self.t_sent_words, d)
            got = tuple(max((similarity(s, u) for u in t_sents), default=0.0)
                        for s in self._sentence_codes(self._s_codes, self.s_sent_words, i))
            self._w[key] = got
        return got

    def sim(self, i: int, d: int) -> float:
        """Rule similarity blended with the share-weighted sentence similarities."""
        r = self.rule_sim(i, d)
        w = self.sentence_weight
        if not w or not self.s_sent_words[i]:
            return r
        floor = self.wording_floor
        ws = [max(0.0, x - floor) / (1 - floor) for x in self.wording_sims(i, d)]
        return (1 - w) * r + w * sum(x * q for x, q in zip(self.s_sent_share[i], ws))

    def twins(self, d: int, min_sim: float, k: int = 5) -> list[int]:
        """Near-duplicate rules of target ``d`` in the newer edition (cosine from ``min_sim``), from the
        index; computed on demand (only chosen targets ask, :meth:`find_twins` for many) and kept."""
        key = (d, min_sim, k)
        if key not in self._twins:
            self.find_twins([d], min_sim, k)
        return self._twins[key]

    def find_twins(self, ds: list[int], min_sim: float, k: int = 5) -> None:
        """:meth:`twins` of the targets ``ds``, searched all at once."""
        ask = [d for d in dict.fromkeys(ds) if (d, min_sim, k) not in self._twins]
        with_text = [d for d in ask if self.t_text[d]]
        found = dict(zip(with_text, self.index.search_many([self.t_bags[d] for d in with_text], k + 1)))
        for d in ask:
            self._twins[d, min_sim, k] = [e for s, e in found.get(d, []) if e != d and s >= min_sim and self.t_text[e]]

    def target_cos(self, d: int, e: int) -> float:
        """Cosine of two targets; with a companion, the better of the two languages (a pair of rules
        that is alike in either language is alike)."""
        s = self.index.dot(self.index.vecs[d], e)
        c = self.companion
        if c is not None and d in c.t_map and e in c.t_map:
            m = c.matcher
            s = max(s, m.index.dot(m.index.vecs[c.t_map[d]], c.t_map[e]))
        return s

    def parallel_twins(self, d: int, min_sim: float, step: int = 2) -> list[int]:
        """Targets that restate target ``d`` for another case in a parallel place of the numbering (kept).

        Two rules whose numbers differ in the section alone or in the rule alone (614.1 / 615.1,
        611.2 / 611.3) and that are this alike (:meth:`target_cos`) are parallel twins, and so are the
        rules numbered alike below them (601.2 / 602.2 make 601.2a / 602.2a twins): a newer edition
        that splits one older rule by case (spell / ability, replacement / prevention) numbers the
        cases in parallel; a pair of such rules below twins must be each other's closest (mutually
        the most alike among the other's siblings)."""
        key = ("parallel", d, min_sim, step)
        got = self._twins.get(key)
        if got is not None:
            return got
        got = []
        norm = self.tgt[d].norm
        if self.t_text[d] and numbers.is_number(norm):
            head, rule, letter = numbers.parts(norm)
            for e in self._parallel_numbers(head, rule, letter, step):
                if self.t_text[e] and self.target_cos(d, e) >= min_sim:
                    got.append(e)
            if letter and rule is not None:
                parent = self._t_by_norm.get(f"{head}.{rule}")
                if parent is not None:
                    for q in self.parallel_twins(parent, min_sim, step):
                        kid = self._t_by_norm.get(f"{self.tgt[q].norm}{letter}")
                        if (kid is not None and kid not in got and self.t_text[kid]
                                and self._closest_child(d, q) == kid and self._closest_child(kid, parent) == d):
                            got.append(kid)
        self._twins[key] = got
        return got

    def _closest_child(self, d: int, parent: int) -> int | None:
        """The subrule of ``parent`` most alike to target ``d`` (:meth:`target_cos`; the first of equals)."""
        if self._kids is None:
            self._kids = {}
            for e, v in enumerate(self.tgt):
                if self.t_text[e] and v.norm and numbers.is_number(v.norm) and numbers.parts(v.norm)[2]:
                    up = self._t_by_norm.get(numbers.parent(v.norm) or "")
                    if up is not None:
                        self._kids.setdefault(up, []).append(e)
        return max(self._kids.get(parent, []), key=lambda e: (self.target_cos(d, e), -e), default=None)

    def _parallel_numbers(self, head: int, rule: int | None, letter: str | None, step: int) -> list[int]:
        """Targets whose number differs from (head, rule, letter) in the section alone or the rule alone, by
        at most ``step`` (the cases of one topic are numbered next to each other)."""
        if self._t_parallel is None:
            by_rest: dict[tuple, list[int]] = {}
            for e, v in enumerate(self.tgt):
                if v.norm and numbers.is_number(v.norm):
                    h, r, x = numbers.parts(v.norm)
                    if r is not None:
                        by_rest.setdefault(("s", h // 100, r, x), []).append(e)
                        by_rest.setdefault(("r", h, x), []).append(e)
            self._t_parallel = by_rest
        if rule is None:
            return []
        out = [e for e in self._t_parallel.get(("s", head // 100, rule, letter), [])
               if 0 < abs(numbers.parts(self.tgt[e].norm)[0] - head) <= step]
        out += [e for e in self._t_parallel.get(("r", head, letter), [])
                if 0 < abs((numbers.parts(self.tgt[e].norm)[1] or 0) - rule) <= step]
        return out

    def covers_both(self, i: int, d0: int, d: int) -> float:
        """How much source ``i`` says of what tells target ``d`` from ``d0`` and of what tells ``d0`` from
        ``d``: the smaller IDF mass of the source's content lemmas in either difference (0 when the source
        names only one side).  With a companion, the better of the two languages."""
        got = _sides(self.s_content[i], self.t_content(d0), self.t_content(d), self.index.idf)
        c = self.companion
        if c is not None and i in c.s_map and d0 in c.t_map and d in c.t_map:
            m = c.matcher
            got = max(got, _sides(m.s_content[c.s_map[i]], m.t_content(c.t_map[d0]), m.t_content(c.t_map[d]),
                                  m.index.idf))
        return got

    def joint_sim(self, i: int, ds: list[int]) -> float:
        """Cosine of source ``i`` with targets ``ds`` taken together (their bags added up)."""
        bag: Counter = Counter()
        for d in ds:
            bag.update(self.t_bags[d])
        q, v = self.s_vecs[i], self.index.vector(bag)
        return sum(x * v.get(w, 0.0) for w, x in q.items())

    def neighbours(self, d: int) -> list[int]:
        """The targets with text just before and after ``d`` in document order, and ``d``'s parent rule."""
        out = [e for e in (d - 1, d + 1) if 0 <= e < len(self.tgt) and self.t_text[e]]
        norm = self.tgt[d].norm
        up = self._t_by_norm.get((numbers.parent(norm) if norm and numbers.is_number(norm) else None) or "")
        if up is not None and self.t_text[up] and up not in out:
            out.append(up)
        return out

    def pointing_to(self, d: int) -> list[int]:
        """The targets whose last sentence is a bare pointer to target ``d`` ("See rule 514.1.", "Siehe Regel
        601.2c."): a sentence of at most three words, one of them ``d``'s number.  The newer editions mark a rule
        that restates another one this way (the turn-based actions of 703.4 restate the steps of chapter 5)."""
        if self._pointers is None:
            self._pointers = {}
            for e, v in enumerate(self.tgt):
                last = _SENT.split(v.text.strip())[-1].split() if v.text.strip() else []
                if 1 < len(last) <= 3:
                    named = last[-1].strip("().,;:")
                    if named in self._t_by_norm and named != v.norm:
                        self._pointers.setdefault(self._t_by_norm[named], []).append(e)
        return self._pointers.get(d, [])

    def t_content(self, d: int) -> frozenset[str]:
        got = self._t_content.get(d)
        if got is None:
            got = self._t_content[d] = frozenset(self.vec.content(self.tgt[d].lemmas))
        return got

    # ------------------------------------------------------------------ restatement (target side)

    def restatement(self, a: list[str], b: list[str]) -> float:
        """IDF-weighted, word-order aware similarity of two lemma sequences (sentences): the IDF mass
        of their longest common subsequence over the mean mass of both (a weighted Dice).  Function
        words keep the order but weigh little; rare words shared in the same order weigh most."""
        idf = self.lemma_idf()
        wa, wb = self._mass(a, idf), self._mass(b, idf)
        if not wa or not wb:
            return 0.0
        common = sum(idf.get(w, 0.0) for op in LCSseq.opcodes(self._codes(a), self._codes(b)) if op.tag == "equal"
                     for w in a[op.src_start:op.src_end])
        return 2 * common / (wa + wb)

    def _code(self, words: list[str]) -> str:
        """A sentence's lemmas as a string, one character per distinct lemma: rapidfuzz compares the
        characters of a string faster than the items of a list, and finds the same."""
        chars = self._chars
        for w in words:
            if w not in chars:
                chars[w] = chr(len(chars) + (0x800 if len(chars) >= 0xD800 else 0))   # no surrogates
        return "".join([chars[w] for w in words])

    def _sentence_codes(self, kept: dict[int, list[str]], sent_words: list[list[list[str]]], k: int) -> list[str]:
        """:meth:`_code` of the sentences of rule ``k`` of one side (kept)."""
        got = kept.get(k)
        if got is None:
            got = kept[k] = [self._code(words) for words in sent_words[k]]
        return got

    def _codes(self, words: list[str]) -> str:
        """:meth:`_code` of a sentence (kept per sentence: the same lists are compared again and again)."""
        got = self._coded.get(id(words))
        if got is None or got[0] is not words:
            got = self._coded[id(words)] = (words, self._code(words))
        return got[1]

    def _mass(self, words: list[str], idf: dict[str, float]) -> float:
        """IDF mass of a sentence (kept per sentence: the same lists are compared again and again)."""
        got = self._masses.get(id(words))
        if got is None or got[0] is not words:
            got = self._masses[id(words)] = (words, sum(idf.get(w, 0.0) for w in words))
        return got[1]

    def lemma_idf(self) -> dict[str, float]:
        """IDF of every lemma (function words included) over the sentences of both editions."""
        if self._lemma_idf is None:
            df: Counter = Counter()
            n = 0
            for rules in (self.s_sent_words, self.t_sent_words):
                for sents in rules:
                    for words in sents:
                        df.update(set(words))
                        n += 1
            self._lemma_idf = {w: math.log((1 + n) / (1 + c)) for w, c in df.items()}
        return self._lemma_idf

    def restating_sentences(self, d: int, k: int, min_words: int,
                            wanted=None) -> list[tuple[float, int, int, int]]:
        """Source sentences that may restate target ``d``: for each sentence of ``d`` with at least
        ``min_words`` content lemmas, the top ``k`` source sentences of the sentence index (blocking),
        as ``(restatement, source rule, source sentence, target sentence)``, best first.  With
        ``wanted(i)``, only the sources it accepts are scored.  :meth:`find_restating` searches
        for many targets at once beforehand."""
        hits = self._restating.get((d, k, min_words))
        if hits is None:
            self.find_restating([d], k, min_words)
            hits = self._restating[d, k, min_words]
        flat = self._sentence_index()[1]
        out, seen = [], set()
        for u, found in hits:
            words = self.t_sent_words[d][u]
            for f in found:
                i, q = flat[f]
                if (i, q, u) in seen or (wanted is not None and not wanted(i)):
                    continue
                if self.s_sent_size[i][q] >= min_words:
                    seen.add((i, q, u))
                    out.append((self.restatement(self.s_sent_words[i][q], words), i, q, u))
        return sorted(out, reverse=True)

    def find_restating(self, ds: list[int], k: int, min_words: int) -> None:
        """Search the sentence index for the sentences of targets ``ds`` (all at once; kept)."""
        index, _ = self._sentence_index()
        vec = self.vec
        asked: list[tuple[int, int]] = []
        bags: list[Counter] = []
        for d in ds:
            self._restating[d, k, min_words] = []
            for u, words in enumerate(self.t_sent_words[d]):
                content = vec.content(words)
                if len(content) >= min_words:
                    asked.append((d, u))
                    bags.append(vec.bag(content))
        for (d, u), hits in zip(asked, index.search_many(bags, k)):
            self._restating[d, k, min_words].append((u, [f for _, f in hits]))

    def _sentence_index(self) -> tuple[LexicalIndex, list[tuple[int, int]]]:
        """The sentences of the source rules with text in one index, and (rule, sentence) of each."""
        if self._sent_index is None:
            flat = [(i, q) for i, bags in enumerate(self.s_sent_bags) if self.has_text[i] for q in range(len(bags))]
            self._sent_index = (LexicalIndex([self.s_sent_bags[i][q] for i, q in flat]), flat)
        return self._sent_index

    # ------------------------------------------------------------------ blocking

    def candidates(self, k: int, k_sentence: int) -> list[dict[int, float]]:
        """Blocking: the top ``k`` targets with text of every source rule with text, plus the top
        ``k_sentence`` of each of its sentences, from the inverted index (searched all at once)."""
        queries: list[tuple[int, Counter, int]] = []
        for i in range(len(self.src)):
            if self.has_text[i]:
                queries.append((i, self.s_bags[i], k))
                if len(self.s_sent_bags[i]) > 1:
                    queries += [(i, bag, k_sentence) for bag in self.s_sent_bags[i]]
        pools: list[set[int]] = [set() for _ in self.src]
        found = self.index.search_many([bag for _, bag, _ in queries], max(k, k_sentence))
        for (i, _, top), hits in zip(queries, found):
            pools[i].update(d for _, d in hits[:top])
        if self.companion is not None:
            for i, ds in self.companion.candidates_many([i for i in range(len(self.src)) if self.has_text[i]], k):
                pools[i].update(ds)
        return [{d: self.sim(i, d) for d in sorted(pool) if self.t_text[d]} for i, pool in enumerate(pools)]

    def add_position_candidates(self, cand: list[dict[int, float]], anchors: dict[str, Counter],
                                window: float) -> None:
        """Targets at about the same relative position inside the section pairs that anchors tie
        (the index misses the counterparts whose wording changed most)."""
        src, tgt = self.src, self.tgt
        s_pos: dict[int, float] = {}
        for members in _group(range(len(src)), lambda i: _section_of(src[i]) if self.has_text[i] else None).values():
            for k, i in enumerate(members):
                s_pos[i] = (k + 0.5) / len(members)
        t_groups = _group(range(len(tgt)), lambda d: _section_of(tgt[d]) if self.t_text[d] else None)
        rows: dict[str, list[tuple[float, int]]] = {}
        for sec, targets in anchors.items():
            union = sorted(d for t_sec in targets if t_sec for d in t_groups.get(t_sec, []))
            rows[sec] = [((k + 0.5) / len(union), d) for k, d in enumerate(union)]
        for i, pos in s_pos.items():
            row = rows.get(_section_of(src[i]), [])
            for q, d in row[bisect.bisect_left(row, (pos - window, -1)):]:
                if q > pos + window:
                    break
                if d not in cand[i]:
                    cand[i][d] = self.sim(i, d)


def _sides(source: frozenset[str], a: frozenset[str], b: frozenset[str], idf: dict[str, float]) -> float:
    """The smaller IDF mass of ``source``'s words among those only ``a`` has and among those only ``b`` has."""
    unseen = max(idf.values(), default=1.0)
    only_a = sum(idf.get(w, unseen) for w in source & (a - b))
    only_b = sum(idf.get(w, unseen) for w in source & (b - a))
    return min(only_a, only_b)


def _shares(index: LexicalIndex, bags: list[Counter]) -> list[float]:
    """Each sentence's share of its rule's TF-IDF mass (sentences carrying rare words weigh more)."""
    mass = [sum(index.idf.get(w, 1.0) * c for w, c in b.items()) for b in bags]
    total = sum(mass) or 1.0
    return [m / total for m in mass]
