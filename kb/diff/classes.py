"""Change classes from the aligned pairs of two editions (:func:`classify`).

Every rule of the old edition and every rule of the new edition gets exactly one class:

``removed``
    an old rule without any aligned counterpart.
``added``
    a new rule that no old rule is aligned to.
``split``
    an old rule aligned to several new rules (1→n), and each of those new rules when it has no
    other source.
``merged``
    a new rule that several old rules are aligned to (n→1), and each of those old rules when this
    is its only target.  Many-to-many clusters follow the same degree rule: an old rule with
    several targets is ``split``, a new rule with several sources is ``merged``.
``moved``
    a one-to-one pair whose new rule lies outside the place its siblings went to.  The *expected
    place* of an old section is computed from the alignment itself: the new sections its heading
    is aligned to, plus every new section that receives at least a quarter of the pairs of its
    rules and subrules (``SECTION_SHARE``).  So the 1999 section 409 maps to 601 *and* 602
    (casting and activating became two sections) and 418 to 611 and 613; a 1999 rule 419.7c
    whose counterpart is in 609 has *moved*, while 413.2a → 608.2b has not (413 → 608 is where
    the whole section went).  For a section the expected place is the chapter(s) its chapter
    maps to, computed the same way (1999 chapter 4 → 2024 chapter 6 is the systematic shift, not
    a move); chapters never move.
``renumbered``
    a one-to-one pair in the expected place whose number is not the systematic one: the old
    number with its section replaced by the mapped section (413.2a → 608.2a expected, 608.2b
    found), or, for editions with the same numbering, simply a different number.
``unchanged``
    a one-to-one pair in the expected place, with the expected number and the same text
    (whitespace and mana-symbol notation aside).
``reworded``
    the same, with other words.  Across languages the words cannot be compared: a pair is
    ``reworded`` when the aligner said so (relation ``reworded``), otherwise ``unchanged``.

``moved`` and ``renumbered`` win over the text classes; the group keeps ``text_changed`` so a
report can say "renumbered, and reworded".

Before classifying, :func:`refine_pairs` completes the splits and merges an aligner missed, from
word evidence (same language only).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache
from itertools import chain
from typing import Iterable, Sequence

from ingest import numbers

from ..terminology import Term
from .model import Classification, EditionInfo, Group, Pair, Rule
from .terminology import term_index
from .tokens import folded_keys

#: a new section receiving at least this share of an old section's pairs is one of its expected places
SECTION_SHARE = 0.25
#: split/merge completion (same language): the pair alone covers at most COVER_ALONE of the
#: whole's words, with the neighbour at least COVER_WITH, and the neighbour's words come from
#: the whole at least NEIGHBOUR_FROM
COVER_ALONE, COVER_WITH, NEIGHBOUR_FROM = 0.8, 0.9, 0.8


def _index(rules: Sequence[Rule]) -> dict[str, Rule]:
    idx: dict[str, Rule] = {}
    for r in rules:
        idx.setdefault(r.norm, r)
        idx.setdefault(r.number, r)
    for r in rules:
        idx[r.key] = r
    return idx


def _settles(o: Rule, n: Rule) -> bool:
    """A one-to-one pair that no refinement touches and whose class is its place alone: the same full text (not
    empty) and the same words (:func:`_same_text`)."""
    return o.full_text == n.full_text and bool(o.full_text.strip()) and _same_text(o, n)


def _same_text(a: Rule, b: Rule) -> bool:
    ta, tb = a.text_norm or a.text, b.text_norm or b.text
    return a.title == b.title and ta == tb or _spaced(a.title, ta) == _spaced(b.title, tb)


@lru_cache(maxsize=1 << 15)
def _spaced(title: str | None, text: str) -> str:
    """Title and text with whitespace collapsed (cached: consecutive editions repeat texts)."""
    return " ".join(f"{title or ''} {text}".split())


def _linked(old: list[Rule], new: list[Rule], pairs: Iterable[Pair | tuple]
            ) -> tuple[dict[str, list[Rule]], dict[str, list[Rule]], dict[tuple[str, str], Pair]]:
    """Old key -> new rules, new key -> old rules (each in edition order) and (old, new) -> its pair."""
    oi, ni = _index(old), _index(new)
    targets: dict[str, list[Rule]] = defaultdict(list)
    sources: dict[str, list[Rule]] = defaultdict(list)
    info: dict[tuple[str, str], Pair] = {}
    for p in pairs:
        p = p if isinstance(p, Pair) else Pair(*p)
        if p.old is None or p.new is None:
            continue
        o, n = oi[p.old], ni[p.new]
        if (o.key, n.key) in info:
            continue
        info[o.key, n.key] = p
        targets[o.key].append(n)
        sources[n.key].append(o)
    for linked in (*targets.values(), *sources.values()):
        if len(linked) > 1:
            linked.sort(key=lambda r: r.seq)
    return targets, sources, info


def classify(old: Sequence[Rule], new: Sequence[Rule], pairs: Iterable[Pair | tuple], *,
             cross_language: bool = False, old_covers: Sequence[str] = (),
             new_covers: Sequence[str] = (), settled: Sequence[tuple[Rule, Rule, Pair]] = ()) -> Classification:
    """Change classes of every rule of two editions from their aligned pairs (see the module doc).

    ``pairs`` are :class:`Pair` or plain tuples ``(old, new, relation, score)``; rules are named by
    key or normalised number.  Unknown names raise ``KeyError`` (a pair must point at real rules).
    ``old_covers``/``new_covers`` are the editions' coverages (number prefixes, empty: the whole
    rules): a rule without counterpart in a part the other edition does not cover is ``outside``.
    ``settled``: pairs of :func:`settled_pairs` left out of ``old``, ``new`` and ``pairs`` (and of the
    result): they count for the expected places, :func:`place_class` gives their classes.
    """
    old, new = list(old), list(new)
    targets, sources, info = _linked(old, new, pairs)
    section_map, chapter_map = _place_maps(chain([(o, n) for o in old for n in targets.get(o.key, [])],
                                                 [(o, n) for o, n, _ in settled]))
    old_class: dict[str, str] = {}
    new_class: dict[str, str] = {}
    groups: list[Group] = []

    def agg(o_rules, n_rules) -> tuple[float | None, str, str]:
        ps = [info[o.key, n.key] for o in o_rules for n in n_rules if (o.key, n.key) in info]
        scores = [p.score for p in ps if p.score is not None]
        rels = sorted({p.relation for p in ps if p.relation})
        methods = sorted({p.method for p in ps if p.method})
        return (min(scores) if scores else None), ",".join(rels), ",".join(methods)

    def links(o_rules, n_rules) -> list[tuple[str, str, str, float | None]]:
        return [(o.number or o.norm, n.number or n.norm, info[o.key, n.key].relation, info[o.key, n.key].score)
                for o in o_rules for n in n_rules if (o.key, n.key) in info]

    cluster_changed = None if cross_language else True     # a split or merge rewrites the words
    kept_places: tuple[set, set] | None = None   # the sections and chapters of the old rules with a counterpart
    for o in old:
        ts = targets.get(o.key, [])
        if not ts:
            if _old_covered(o, new_covers, section_map, chapter_map):
                old_class[o.key] = "removed"
                if kept_places is None:   # made for the first removed rule only
                    kept = [r for r in old if targets.get(r.key)] + [o for o, _, _ in settled]
                    kept_places = {r.section for r in kept}, {r.chapter for r in kept}
                groups.append(Group("removed", [o], [], note=_removed_note(o, *kept_places)))
            else:
                old_class[o.key] = "outside"
                groups.append(Group("outside", [o], [], note="outside the newer edition's coverage"))
        elif len(ts) > 1:
            old_class[o.key] = "split"
            groups.append(Group("split", [o], list(ts), *agg([o], ts), text_changed=cluster_changed,
                                links=links([o], ts)))
            for n in ts:
                if len(sources[n.key]) == 1:
                    new_class[n.key] = "split"
        elif len(sources[ts[0].key]) > 1:
            old_class[o.key] = "merged"
        else:
            n = ts[0]
            pair = info[o.key, n.key]
            score, rel, method = pair.score, pair.relation or "", pair.method or ""
            g = _one_to_one(o, n, section_map, chapter_map, cross_language, rel)
            g.score, g.relation, g.method = score, rel, method
            g.links = [(o.number or o.norm, n.number or n.norm, rel, score)]
            old_class[o.key] = new_class[n.key] = g.change_class
            groups.append(g)
    for n in new:
        ss = sources.get(n.key, [])
        if not ss:
            if _new_covered(n, old_covers, section_map):
                new_class[n.key] = "added"
                groups.append(Group("added", [], [n]))
            else:
                new_class[n.key] = "outside"
                groups.append(Group("outside", [], [n], note="outside the older edition's coverage"))
        elif len(ss) > 1:
            new_class[n.key] = "merged"
            groups.append(Group("merged", list(ss), [n], *agg(ss, [n]), text_changed=cluster_changed,
                                links=links(ss, [n])))
    groups.sort(key=lambda g: g.sort_key)
    return Classification(old, new, groups, old_class, new_class, section_map, chapter_map,
                          dict(targets), dict(sources), info, list(settled))


def _old_covered(o: Rule, covers: Sequence[str], section_map: dict, chapter_map: dict) -> bool:
    """Would the newer edition have this old rule, by its coverage?  Judged where the rule's section
    (or chapter) went, when the alignment says; else by its own number."""
    if not covers:
        return True
    if o.section is not None and section_map.get(o.section):
        return any(numbers.covered(str(s), covers) for s in section_map[o.section])
    if o.chapter is not None and chapter_map.get(o.chapter):
        return any(numbers.covered(str(c), covers) for c in chapter_map[o.chapter])
    return numbers.covered(o.norm, covers) if o.norm and numbers.is_number(o.norm) else True


def _new_covered(n: Rule, covers: Sequence[str], section_map: dict) -> bool:
    """Would the older edition have this new rule: its section is where an old section went, or its
    number is inside the older edition's coverage."""
    if not covers:
        return True
    if n.section is not None and any(n.section in places for places in section_map.values()):
        return True
    return numbers.covered(n.norm, covers) if n.norm and numbers.is_number(n.norm) else True


def _removed_note(o: Rule, kept_sections: set, kept_chapters: set) -> str:
    """Say when the whole section (or chapter) of a removed rule has no counterpart at all."""
    if o.chapter is not None and o.chapter not in kept_chapters:
        return f"no rule of chapter {o.chapter} has a counterpart"
    if o.level in ("rule", "subrule") and o.section is not None and o.section not in kept_sections:
        return f"no rule of section {o.section} has a counterpart"
    return ""


def _place_maps(links: Iterable[tuple[Rule, Rule]]) -> tuple[dict, dict]:
    """Expected new sections of every old section, expected new chapters of every old chapter, from the
    (old rule, new rule) links."""
    sec_votes: dict[int, Counter] = defaultdict(Counter)
    chap_votes: dict[int, Counter] = defaultdict(Counter)
    sec_heading: dict[int, set] = defaultdict(set)
    chap_heading: dict[int, set] = defaultdict(set)
    # the links counted by what decides their votes first (thousands of links, a few hundred kinds)
    kinds = Counter([(o.level, o.section, o.chapter, n.section, n.chapter) for o, n in links])
    for (level, o_section, o_chapter, n_section, n_chapter), count in kinds.items():
        if level == "section" and o_section is not None:
            if n_section is not None:
                sec_heading[o_section].add(n_section)
        elif level in ("rule", "subrule") and o_section is not None and n_section is not None:
            sec_votes[o_section][n_section] += count
        if level == "chapter" and o_chapter is not None and n_chapter is not None:
            chap_heading[o_chapter].add(n_chapter)
        elif o_chapter is not None and n_chapter is not None:
            chap_votes[o_chapter][n_chapter] += count

    def combine(votes, heading) -> dict[int, list[int]]:
        out = {}
        for key in set(votes) | set(heading):
            v = votes.get(key, Counter())
            total = sum(v.values())
            keep = {s for s, c in v.items() if c >= SECTION_SHARE * total}
            out[key] = sorted(keep | heading.get(key, set()))
        return out

    return combine(sec_votes, sec_heading), combine(chap_votes, chap_heading)


#: :func:`ingest.numbers.is_number`, once per number (every pair asks for each rule)
_is_number = lru_cache(maxsize=1 << 16)(numbers.is_number)


def expected_numbers(o: Rule, section_map: dict, chapter_map: dict) -> list[str]:
    """The numbers a rule would carry if only its section (or chapter) had been renumbered."""
    if not o.norm or not _is_number(o.norm) or o.level is None:
        return [o.norm]
    if o.level in ("rule", "subrule") and o.section is not None:
        rest = o.norm[len(str(o.section)):]
        places = section_map.get(o.section, [o.section])
        return [f"{places[0]}{rest}"] if len(places) == 1 else [f"{s}{rest}" for s in places]
    if o.level == "section" and o.section is not None:
        return [str(c * 100 + o.section % 100) for c in chapter_map.get(o.chapter, [o.chapter])]
    return [o.norm]


def is_moved(o: Rule, n: Rule, section_map: dict, chapter_map: dict) -> bool:
    if o.level in ("rule", "subrule") and o.section is not None and n.section is not None:
        return n.section not in section_map.get(o.section, [o.section])
    if o.level == "section" and o.chapter is not None and n.chapter is not None:
        return n.chapter not in chapter_map.get(o.chapter, [o.chapter])
    return False


def _one_to_one(o: Rule, n: Rule, section_map, chapter_map, cross_language: bool, relation: str) -> Group:
    if cross_language:
        changed = "reworded" in relation.split(",")
    else:
        changed = not _same_text(o, n)
    cls, note, expected = place_class(o, n, section_map, chapter_map, changed)
    return Group(cls, [o], [n], text_changed=changed, expected=expected, note=note)


def place_class(o: Rule, n: Rule, section_map: dict, chapter_map: dict, changed: bool
                ) -> tuple[str, str, list[str]]:
    """Class, note and expected numbers of a one-to-one pair (``changed``: do the words differ?)."""
    expected = expected_numbers(o, section_map, chapter_map)
    if is_moved(o, n, section_map, chapter_map):
        where = section_map.get(o.section) if o.level in ("rule", "subrule") else chapter_map.get(o.chapter)
        unit = "section" if o.level in ("rule", "subrule") else "chapter"
        note = f"{unit} {o.section if unit == 'section' else o.chapter} went to {', '.join(map(str, where or []))}"
        return "moved", note, expected
    if n.norm not in expected:
        return "renumbered", f"expected {' or '.join(expected)}", expected
    return ("reworded" if changed else "unchanged"), "", expected


#: the maps :func:`settled_places` last answered for and its memo
_PLACES: list = [None, {}]
#: at most this many settled places are remembered
_PLACES_MAX = 1 << 16


def settled_places(section_map: dict, chapter_map: dict) -> dict[tuple, tuple[str, str | None]]:
    """A memo of the classes and notes (None: no note) of settled pairs under these maps: :func:`place_class`
    (unchanged words) of a pair depends only on the maps and on the old rule's ``norm``, ``level``, ``section`` and
    ``chapter`` and the new rule's ``norm``, ``section`` and ``chapter``, in that order the memo's key.
    Consecutive edition pairs have the same maps and mostly the same numbers: the memo goes on while they do."""
    maps = (section_map, chapter_map)
    if _PLACES[0] != maps or len(_PLACES[1]) > _PLACES_MAX:
        # copies: the memo must not follow a later change of the caller's maps
        _PLACES[:] = [tuple({k: list(v) for k, v in m.items()} for m in maps), {}]
    return _PLACES[1]


def settled_pairs(old: Sequence[Rule], new: Sequence[Rule], pairs: Sequence[Pair]) -> list[tuple[Rule, Rule, Pair]]:
    """The pairs whose two rules have no other pair and the same words (same language and symbol scheme
    assumed): no refinement touches them and their class is :func:`place_class` alone.  Empty unless every
    pair names its rules by key (a number could name a rule of another pair)."""
    old_by_key, new_by_key = {r.key: r for r in old}, {r.key: r for r in new}
    links = []
    for p in pairs:
        if p.old is None or p.new is None:
            continue
        o, n = old_by_key.get(p.old), new_by_key.get(p.new)
        if o is None or n is None:
            return []
        links.append((o, n, p))
    n_old, n_new = Counter(o.key for o, _, _ in links), Counter(n.key for _, n, _ in links)
    return [(o, n, p) for o, n, p in links if n_old[o.key] == 1 and n_new[n.key] == 1 and _settles(o, n)]


def renumbering_map(cls: Classification) -> list[dict]:
    """Every old rule with its new number(s) and class, in old order (the map old → new)."""
    out = []
    for o in cls.old:
        ts = cls.targets.get(o.key, [])
        out.append({"old": o.label, "new": [t.label for t in ts], "class": cls.old_class[o.key],
                    "level": o.level, "chapter": o.chapter, "section": o.section})
    return out


# --------------------------------------------------------------------------- completing splits and merges


def _free(nb: Rule, level: str | None, linked: dict) -> bool:
    """Can this neighbour complete a rule of this level (it has no counterpart, and a fitting level)?  ``linked``:
    rule key -> its number of counterparts."""
    return not linked.get(nb.key) and (nb.level == level or nb.level in ("rule", "subrule"))


def _free_neighbour(seq: list[Rule], at: int, level: str | None, linked: dict) -> bool:
    """Is the rule before or after ``seq[at]`` free (:func:`_free`)?  Else nothing completes it."""
    return any(0 <= j < len(seq) and _free(seq[j], level, linked) for j in (at - 1, at + 1))


def _completing_neighbours(keys, whole: Counter, first: Rule, seq: list[Rule], at: int, level: str | None,
                           linked: dict) -> list[tuple[Rule, Counter]]:
    """Neighbours of ``seq[at]`` (``first``) without a counterpart that, with it, cover ``whole``
    (an empty list unless together they cover it at least ``COVER_WITH``); ``keys(rule)`` gives words."""
    parts = [keys(first)]
    if _cover(whole, *parts) > COVER_ALONE:
        return []
    found = []
    for step in (1, -1):
        j = at + step
        while 0 <= j < len(seq):
            nb = seq[j]
            if not _free(nb, level, linked):
                break
            kn = keys(nb)
            if not kn or _cover(kn, whole) < NEIGHBOUR_FROM or _cover(whole, *parts, kn) <= _cover(whole, *parts):
                break
            parts.append(kn)
            found.append((nb, kn))
            j += step
    return found if found and _cover(whole, *parts) >= COVER_WITH else []


def refine_pairs(old: list[Rule], new: list[Rule], pairs: list[Pair], old_e: EditionInfo, new_e: EditionInfo,
                 terms: Sequence[Term] = ()) -> list[Pair]:
    """Complete splits and merges the alignment missed, from word evidence (same language only).

    An aligner that pairs an old rule with only the first half of its split (and leaves the
    second half "added") is corrected here: for a one-to-one pair (o, m) whose words differ, a
    neighbour N of m (next or previous rule of the new edition) without any source joins the
    pair as a split part when o's words are covered by m alone at most ``COVER_ALONE`` but by m
    and N together at least ``COVER_WITH``, and at least ``NEIGHBOUR_FROM`` of N's words come
    from o.  Merges mirror this with old neighbours without a counterpart.  Added pairs carry
    ``method="diff-refine"`` and their coverage as score.
    """
    return refine_and_settle(old, new, pairs, old_e, new_e, terms)[0]


def refine_and_settle(old: list[Rule], new: list[Rule], pairs: list[Pair], old_e: EditionInfo, new_e: EditionInfo,
                      terms: Sequence[Term] = (), settle: bool = False
                      ) -> tuple[list[Pair], list[tuple[Rule, Rule, Pair]]]:
    """:func:`refine_pairs` and, with ``settle``, the :func:`settled_pairs` of its result, found on the way: a
    one-to-one pair with the same words is left alone by the refinement, and no pair it adds touches its rules
    (an added pair joins a pair whose words differ and a rule that had no counterpart)."""
    lang = new_e.language
    tindex = term_index(terms, lang)
    cache: dict[tuple[str, str], Counter] = {}

    def keys(r: Rule, side: str) -> Counter:
        if (r.key, side) not in cache:
            scheme = old_e.scheme if side == "old" else new_e.scheme
            cache[r.key, side] = folded_keys(r.full_text, lang, scheme, tindex, side, ("word", "term", "symbol"), 3)
        return cache[r.key, side]

    def complete(whole: Counter, first: Rule, seq: list[Rule], at: int, level: str | None, side: str,
                 linked: dict) -> list[tuple[Rule, Counter]]:
        return _completing_neighbours(lambda r: keys(r, side), whole, first, seq, at, level, linked)

    linked = _links(old, new, pairs)
    # settled pairs need every pair to name its rules by key (a number could name a rule of another pair)
    settled: list[tuple[Rule, Rule, Pair]] | None = (
        [] if settle and all(o.key == p.old and n.key == p.new for o, n, p in linked) else None)
    # how many counterparts each rule has (a rule without any is free to complete a neighbour)
    targets: Counter[str] = Counter(o.key for o, _, _ in linked)
    sources: Counter[str] = Counter(n.key for _, n, _ in linked)
    old_pos: dict[str, int] = {}
    new_pos: dict[str, int] = {}
    extra: list[Pair] = []
    for o, m, p in linked:
        if targets[o.key] != 1 or sources[m.key] != 1:
            continue
        if _same_text(o, m):
            if settled is not None and _settles(o, m):
                settled.append((o, m, p))
            continue
        if not new_pos:   # positions only for a pair whose words differ
            old_pos.update((r.key, i) for i, r in enumerate(old))
            new_pos.update((r.key, i) for i, r in enumerate(new))
        # split: new neighbours without a source complete the old rule (words only read when there is one)
        if _free_neighbour(new, new_pos[m.key], m.level, sources):
            ko = keys(o, "old")
            split = complete(ko, m, new, new_pos[m.key], m.level, "new", sources)
            for nb, kn in split:
                targets[o.key] += 1
                sources[nb.key] += 1
                extra.append(Pair(o.key, nb.key, "split", round(_cover(kn, ko), 3), "diff-refine"))
            if split:
                continue
        # merge: old neighbours without a counterpart are part of the new rule
        if not _free_neighbour(old, old_pos[o.key], o.level, targets):
            continue
        km = keys(m, "new")
        for nb, kn in complete(km, o, old, old_pos[o.key], o.level, "old", targets):
            targets[nb.key] += 1
            sources[m.key] += 1
            extra.append(Pair(nb.key, m.key, "merged", round(_cover(kn, km), 3), "diff-refine"))
    return pairs + extra, settled or []


def _links(old: list[Rule], new: list[Rule], pairs: list[Pair]) -> list[tuple[Rule, Rule, Pair]]:
    """(old rule, new rule, pair) of every pair with two sides, in order; the rules found by key, or by number when a
    pair names one so (:func:`_index`: a key names its rule either way)."""
    oi: dict[str, Rule] = {r.key: r for r in old}
    ni: dict[str, Rule] = {r.key: r for r in new}
    try:
        return [(oi[p.old], ni[p.new], p) for p in pairs if p.old is not None and p.new is not None]
    except KeyError:
        oi, ni = _index(old), _index(new)
        return [(oi[p.old], ni[p.new], p) for p in pairs if p.old is not None and p.new is not None]


def _cover(whole: Counter, *parts: Counter) -> float:
    """Share of the words of ``whole`` found in the parts together."""
    total = sum(whole.values())
    if not total:
        return 0.0
    joined: Counter = parts[0] if len(parts) == 1 else Counter()
    if len(parts) > 1:
        for p in parts:
            joined.update(p)
    return sum(min(c, joined[w]) for w, c in whole.items()) / total
