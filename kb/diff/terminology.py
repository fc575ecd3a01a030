"""The curated terminology table (``data/terminology.tsv``): loading it, its lemmatised index for
the word diff's folding (:func:`term_index`), and the table of an edition pair
(:func:`terminology_table`): each old → new term, how often the shift happened and in which rules,
how often the old term survives in the new edition, and frequent one-word substitutions that the
curated table does not list yet (candidates)."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from ingest import numbers

from ..terminology import TERMINOLOGY, Term, load
from .model import Group
from .tokens import TermIndex, lemma, words


def load_terms(path: Path | str = TERMINOLOGY, lang: str = "de") -> list[Term]:
    """The curated terminology table (see :mod:`kb.terminology`)."""
    return load(path, lang)


# --------------------------------------------------------------------------- the index for folding

# separable verb particles: "ankündigen -> ansagen" also folds "kündigt ... an" -> "sagt ... an"
_PARTICLES = ("zurück", "heraus", "hinzu", "nach", "aus", "auf", "ein", "mit", "vor", "weg", "an", "ab", "zu")


def term_index(terms: Sequence[Term], lang: str) -> TermIndex | None:
    """The lemmatised index of a terminology table; None for an empty table (nothing folds)."""
    return _term_index(tuple(terms), lang) if terms else None


@lru_cache(maxsize=64)
def _term_index(terms: tuple[Term, ...], lang: str) -> TermIndex:
    """Lemmatised term pairs.  Besides the curated pairs, two kinds are derived from them:

    * a phrase pair that differs in one word implies that word pair ("Fähigkeit spielen →
      Fähigkeit aktivieren" gives "spielen → aktivieren"); an old word may thus have several new
      words, and the one found in the new text is used;
    * a verb pair with the same separable particle also folds the split-off verb ("ankündigen →
      ansagen" gives "kündigen → sagen", for "kündigt ... an").
    """
    entries: list[tuple[tuple[str, ...], tuple[str, ...], Term]] = []
    derived: list[tuple[tuple[str, ...], tuple[str, ...], Term]] = []
    new_phrases = set()
    for t in terms:
        if not t.new:
            continue
        o = _term_lemmas(t.old, lang)
        n = _term_lemmas(t.new, lang)
        if not o or not n:
            continue
        entries.append((o, n, t))
        if len(n) > 1:
            new_phrases.add(n)
        if len(o) == len(n) > 1:
            diff_at = [k for k in range(len(o)) if o[k] != n[k]]
            if len(diff_at) == 1:
                derived.append(((o[diff_at[0]],), (n[diff_at[0]],), t))
        if len(o) == 1 and len(n) == 1 and lang == "de":
            for p in _PARTICLES:
                if o[0].startswith(p) and n[0].startswith(p) and len(o[0]) > len(p) + 2 and len(n[0]) > len(p) + 2:
                    derived.append(((o[0][len(p):],), (n[0][len(p):],), t))
                    break
    entries.extend(derived)
    seen, unique = set(), []
    for e in entries:
        if (e[0], e[1]) not in seen:
            seen.add((e[0], e[1]))
            unique.append(e)
    unique.sort(key=lambda e: -len(e[0]))
    return TermIndex(unique, sorted(new_phrases, key=len, reverse=True))


def _term_lemmas(text: str, lang: str) -> tuple[str, ...]:
    return tuple(lemma(w, lang, base_form=True) for w in words(text))


# --------------------------------------------------------------------------- the table of an edition pair


def terminology_table(groups: Sequence[Group], terms: Sequence[Term], lang: str,
                      min_candidate: int = 2) -> tuple[list[dict], list[dict]]:
    """Each curated old → new term: shifts found in the diffs (and where), survivals of the old term.

    Also *candidates*: one-word substitutions (lemma → lemma) not in the table that recur in at
    least ``min_candidate`` groups, a hint for curating the table.
    """
    tindex = term_index(terms, lang)
    known_pairs = {(" ".join(o), " ".join(n)) for o, n, _ in (tindex.old if tindex else ())}
    # counted per (old rule, new rule) row: a pair inside a many-to-many cluster appears in
    # both its split and its merged group, so each row keeps the larger of the two counts
    shifts: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    forms: dict[tuple[str, str], dict[str, Counter]] = defaultdict(dict)
    cand: dict[tuple[str, str], set[str]] = defaultdict(set)
    for g in groups:
        if not g.diff:
            continue
        local, local_forms = _group_shifts(g, lang, known_pairs, cand)
        for k, per_row in local.items():
            for where, c in per_row.items():
                if c > shifts[k].get(where, 0):
                    shifts[k][where] = c
                    forms[k][where] = local_forms[k][where]
    kept, gone = _survivals(groups, terms, lang)
    table = [_table_row(t, shifts, forms, kept, gone) for t in terms
             if shifts.get((t.old, t.new)) or gone.get((t.old, t.new))]
    table.sort(key=lambda r: (-r["count"], r["old"].lower(), r["old"], r["new"]))
    return table, _candidates(groups, cand, lang, min_candidate)


def _group_shifts(g: Group, lang: str, known_pairs: set[tuple[str, str]], cand: dict[tuple[str, str], set[str]]
                  ) -> tuple[dict[tuple[str, str], Counter], dict[tuple[str, str], dict]]:
    """Term shifts of one group's diff per (old rule → new rule) row, and their printed forms;
    one-word substitutions not in the table are added to ``cand``."""
    row = (", ".join(g.old_numbers), ", ".join(g.new_numbers))
    local: dict[tuple[str, str], Counter] = defaultdict(Counter)
    local_forms: dict[tuple[str, str], dict] = defaultdict(lambda: defaultdict(Counter))
    for s in g.diff or ():
        if s.op == "part":
            row = (g.old_numbers[0], s.label) if len(g.new) > 1 else (s.label, g.new_numbers[0])
        elif s.op == "term" and "→" in s.label:
            old_t, new_t = (x.strip() for x in s.label.split("→", 1))
            where = f"{row[0]} → {row[1]}"
            local[old_t, new_t][where] += 1
            local_forms[old_t, new_t][where][f"{s.old.strip()} → {s.new.strip()}"] += 1
        elif s.op == "replace":
            wo, wn = words(s.old), words(s.new)
            if len(wo) == 1 and len(wn) == 1 and not wo[0][0].isdigit() and not wn[0][0].isdigit():
                lo, ln = lemma(wo[0], lang), lemma(wn[0], lang)
                if lo != ln and (lo, ln) not in known_pairs:
                    cand[lo, ln].add(f"{row[0]} → {row[1]}")
    return local, local_forms


def _survivals(groups: Sequence[Group], terms: Sequence[Term], lang: str
               ) -> tuple[dict[tuple[str, str], list[str]], dict[tuple[str, str], list[str]]]:
    """The old term still printed in the new edition (kept); vanished terms in the old one (gone)."""
    kept: dict[tuple[str, str], list[str]] = defaultdict(list)
    gone: dict[tuple[str, str], list[str]] = defaultdict(list)
    if not terms:
        return kept, gone
    term_lemmas = [(t, _term_lemmas(t.old, lang)) for t in terms]
    # a term whose old and new wording share their lemmas is a spelling shift: match the spelling
    spelling = {t: re.compile(rf"(?<!\w){re.escape(t.old)}(?!\w)", re.IGNORECASE)
                for t, o in term_lemmas if t.new and o == _term_lemmas(t.new, lang)}
    seen: set[str] = set()
    for g in groups:
        for side, rules in (("new", g.new), ("old", g.old)):
            for r in rules:
                if r.key in seen:
                    continue
                seen.add(r.key)
                lem = [lemma(w, lang) for w in words(r.full_text)]
                lem_set = set(lem)
                for t, o in term_lemmas:
                    if not o or o[0] not in lem_set:
                        continue
                    if not (spelling[t].search(r.full_text) if t in spelling else _contains(lem, o)):
                        continue
                    if side == "new":
                        kept[t.old, t.new].append(r.label)
                    elif not t.new and g.new:
                        gone[t.old, t.new].append(f"{r.label} → {', '.join(g.new_numbers)}")
    return kept, gone


def _table_row(t: Term, shifts: dict, forms: dict, kept: dict, gone: dict) -> dict:
    k = (t.old, t.new)
    all_forms: Counter = Counter()
    for c in forms.get(k, {}).values():
        all_forms.update(c)
    rules = list(shifts[k]) if shifts.get(k) else gone.get(k, [])
    return {"old": t.old, "new": t.new, "note": t.note,
            "count": sum(shifts[k].values()) if shifts.get(k) else len(set(gone.get(k, []))),
            "rules": sorted(set(rules), key=_where_key),
            "forms": dict(all_forms.most_common()),
            "kept": len(set(kept.get(k, []))), "kept_in": sorted(set(kept.get(k, [])), key=_num_key),
            "gone": not t.new}


def _candidates(groups: Sequence[Group], cand: dict[tuple[str, str], set[str]], lang: str,
                min_candidate: int) -> list[dict]:
    """Recurring one-word substitutions, without function words (lemmas in over a quarter of the rules)."""
    df: Counter = Counter()
    n_rules = 0
    for g in groups:
        for r in g.old + g.new:
            n_rules += 1
            df.update(set(r.lemmas.split()) if r.lemmas else {lemma(w, lang) for w in words(r.full_text)})
    common = {w for w, c in df.items() if c > n_rules / 4}
    candidates: list[dict[str, Any]] = [{"old": o, "new": n, "count": len(w), "rules": sorted(w, key=_where_key)}
                  for (o, n), w in cand.items() if len(w) >= min_candidate and o not in common and n not in common]
    candidates.sort(key=lambda r: (-r["count"], r["old"], r["new"]))
    return candidates


def _contains(seq: list[str], sub: tuple[str, ...]) -> bool:
    n = len(sub)
    return any(tuple(seq[i:i + n]) == sub for i in range(len(seq) - n + 1))


def _num_key(n: str):
    return numbers.sort_key(n) if numbers.is_number(n) else (99, 0, 0, n)


def _where_key(w: str):
    """Old rule number first, then the whole "old → new" text: a total, repeatable order."""
    return _num_key(w.split(" → ")[0].split(",")[0].strip()), w
