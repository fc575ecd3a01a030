"""Word diff of two texts (:func:`word_diff`) and of a split or merged group (:func:`group_diff`),
and its HTML fragments (:func:`inline_html`, :func:`side_html`).

Two passes: pass one matches the printed tokens exactly; pass two re-aligns only what pass one
found different, on *folded* keys (:func:`kb.diff.tokens.units`: lemmas, canonical mana symbols,
straight quotes, the old edition's terms rewritten by the terminology table).  What pass two
finds equal is a ``term`` segment: a pure terminology, spelling, case, inflection or
symbol-notation shift.  Renderers show it either as a change (``fold=False``) or as the new
word, marked (``fold=True``), so the real changes of meaning stand out.
"""
from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any, Sequence

from markupsafe import Markup, escape

from ..terminology import Term
from .model import EditionInfo, Group, Seg
from .terminology import TermIndex, term_index
from .tokens import Token, Unit, folded_keys, is_word, join_tokens, tokenize, units, words

_CHANGE = ("delete", "insert", "replace")
_GRAMMAR = ("inflection", "case")


def word_diff(old: str, new: str, *, lang: str = "de", old_scheme: str = "none", new_scheme: str = "none",
              terms: Sequence[Term] = (), index: TermIndex | None = None) -> list[Seg]:
    """Word diff of two texts in reading order.

    ``term`` segments are the differences that fold away (see :class:`Seg`); everything else that
    differs is ``delete``/``insert``/``replace``.  ``old_scheme``/``new_scheme`` name the symbol
    schemes of :mod:`ingest.symbols` so "ocT" and "{tap}" both read as {T}.  ``index``: the terms'
    :func:`term_index` when the caller made it (a report diffs many pairs with one table).
    """
    if old == new and old_scheme == new_scheme:
        # the same text (most rules of consecutive editions): one equal segment, no matching needed
        kept = _kept(old)
        return [kept] if kept is not None else []
    a, b = tokenize(old), tokenize(new)
    tindex = index if index is not None else term_index(terms, lang)
    ops: list[tuple[str, int, int, int, int, str]] = []
    sm = SequenceMatcher(None, [t.text for t in a], [t.text for t in b], autojunk=False)
    first = [(("equal" if tag == "equal" else "replace"), i1, i2, j1, j2, "")
             for tag, i1, i2, j1, j2 in sm.get_opcodes()]
    for op in _cleanup(first, a, b):
        if op[0] == "equal":
            ops.append(op)
        else:
            _, i1, i2, j1, j2, _ = op
            ops.extend(_fold_region(a, b, i1, i2, j1, j2, lang, old_scheme, new_scheme, tindex))
    # a grammatical fold (inflection, case) next to a change is part of that rewrite, not a shift
    for k, op in enumerate(ops):
        if op[0] == "term" and op[5] in _GRAMMAR and (
                (k > 0 and ops[k - 1][0] in _CHANGE) or (k + 1 < len(ops) and ops[k + 1][0] in _CHANGE)):
            ops[k] = ("replace", *op[1:5], "")
    return _segments(a, b, ops)


@lru_cache(maxsize=1 << 15)
def _kept(text: str) -> Seg | None:
    """The one segment of a diff that keeps the whole text (None: no tokens), cached: consecutive editions
    repeat most texts.  Its text as its tokens print it is ``join_tokens(tokenize(text))``, made without
    tokenising (tokens hold no whitespace and cover every other character, so only runs of whitespace
    become one space)."""
    joined = " ".join(text.split())
    if not joined:
        return None
    joined += " " if text[-1].isspace() else ""
    return Seg("equal", old=joined, new=joined)


def kept_text(text: str) -> str:
    """A text as the one segment of its diff with itself prints it (:func:`word_diff`); the text must have tokens."""
    kept = _kept(text)
    assert kept is not None, "a text without tokens"
    return kept.new


@lru_cache(maxsize=1 << 15)
def _n_words(text: str) -> int:
    return len(words(text))


def _cleanup(ops: list[tuple], a: Sequence[Token], b: Sequence[Token]) -> list[tuple]:
    """Semantic cleanup (as in diff-match-patch): a short stretch of kept words between two larger
    changes is a coincidence ("das", "ein"), not a correspondence; it joins the changes around it.

    An equality goes when it holds at most two words, none longer than four letters (a content
    word in common is evidence, never a coincidence), and its characters are at most the larger
    side of the change on its left and at most that of the change on its right.
    """
    def short(op) -> bool:
        kept = [t.text for t in a[op[1]:op[2]] if is_word(t.text)]
        return len(kept) <= 2 and all(len(w) <= 4 for w in kept)

    def size(op) -> int:
        if op[0] == "equal" or op[0] == "term":
            return len(join_tokens(a[op[1]:op[2]]).strip())
        return max(len(join_tokens(a[op[1]:op[2]]).strip()), len(join_tokens(b[op[3]:op[4]]).strip()))

    ops = list(ops)
    k = 1
    while k < len(ops) - 1:
        left, mid, right = ops[k - 1], ops[k], ops[k + 1]
        if mid[0] == "equal" and left[0] in _CHANGE and right[0] in _CHANGE and short(mid) \
                and size(mid) <= size(left) and size(mid) <= size(right):
            ops[k - 1:k + 2] = [("replace", left[1], right[2], left[3], right[4], "")]
            k = max(1, k - 1)
        else:
            k += 1
    return ops


def _fold_region(a, b, i1, i2, j1, j2, lang, old_scheme, new_scheme, tindex):
    """Pass two over a region pass one found different: equal folded keys become ``term`` ops.

    (:func:`word_diff` then turns grammatical folds next to a change back into changes; curated
    terminology, spelling and symbol notation always fold.)
    """
    if i1 == i2 or j1 == j2:
        return [("delete" if i1 < i2 else "insert", i1, i2, j1, j2, "")]
    ub = units(b[j1:j2], lang, new_scheme, tindex, "new")
    ua = units(a[i1:i2], lang, old_scheme, tindex, "old", frozenset(u.key for u in ub))
    out = []
    sm = SequenceMatcher(None, [u.key for u in ua], [u.key for u in ub], autojunk=False)
    for tag, p1, p2, q1, q2 in sm.get_opcodes():
        if tag == "equal":
            for u, v in zip(ua[p1:p2], ub[q1:q2]):
                ta = [t.text for t in a[i1 + u.start:i1 + u.end]]
                tb = [t.text for t in b[j1 + v.start:j1 + v.end]]
                span = (i1 + u.start, i1 + u.end, j1 + v.start, j1 + v.end)
                if ta == tb:
                    out.append(("equal", *span, ""))
                else:
                    out.append(("term", *span, _fold_label(u, ta, tb)))
        else:
            s1 = i1 + (ua[p1].start if p1 < len(ua) else i2 - i1)
            s2 = i1 + (ua[p2 - 1].end if p2 > p1 else (ua[p1].start if p1 < len(ua) else i2 - i1))
            t1 = j1 + (ub[q1].start if q1 < len(ub) else j2 - j1)
            t2 = j1 + (ub[q2 - 1].end if q2 > q1 else (ub[q1].start if q1 < len(ub) else j2 - j1))
            if s1 == s2:
                out.append(("insert", s1, s1, t1, t2, ""))
            elif t1 == t2:
                out.append(("delete", s1, s2, t1, t1, ""))
            else:
                out.append(("replace", s1, s2, t1, t2, ""))
    return _cleanup(out, a, b)


def _fold_label(u: Unit, ta: list[str], tb: list[str]) -> str:
    if u.term is not None:
        return f"{u.term.old} → {u.term.new}"
    if u.kind == "symbol":
        return "symbol notation"
    if u.kind == "punct":
        return "typography"
    if [t.lower() for t in ta] == [t.lower() for t in tb]:
        return "case"
    if len(ta) == 1 and len(tb) == 1 and ta[0].lower().replace("ß", "ss") == tb[0].lower().replace("ß", "ss"):
        return "spelling"
    return "inflection"


def _segments(a, b, ops) -> list[Seg]:
    """Token-level ops -> segments."""
    segs: list[Seg] = []

    def add(op, old="", new="", label=""):
        if segs and segs[-1].op == op and segs[-1].label == label:
            last = segs.pop()
            segs.append(Seg(op, last.old + old, last.new + new, label))
        else:
            segs.append(Seg(op, old, new, label))

    for op, i1, i2, j1, j2, label in ops:
        if op in ("equal", "term"):
            add(op, join_tokens(a[i1:i2]), join_tokens(b[j1:j2]), label)
        else:
            add("delete", join_tokens(a[i1:i2]))
            add("insert", new=join_tokens(b[j1:j2]))
    # consecutive changes read as one replacement
    out: list[Seg] = []
    for s in segs:
        if s.op in ("delete", "insert") and not (s.old or s.new):
            continue
        if s.op in _CHANGE and out and out[-1].op in _CHANGE:
            prev = out.pop()
            old, new = prev.old + s.old, prev.new + s.new
            out.append(Seg("replace" if old and new else ("delete" if old else "insert"), old, new))
        else:
            out.append(s)
    return out


def changed(segs: Sequence[Seg], fold: bool = True) -> bool:
    """Does the diff contain a change (a folded shift counts only when ``fold`` is False)?"""
    real = set(_CHANGE) | (set() if fold else {"term"})
    return any(s.op in real for s in segs)


def diff_stats(segs: Sequence[Seg], kept: bool = True) -> dict[str, int]:
    """Words deleted, inserted, folded and (with ``kept``) kept."""
    out: Counter[str] = Counter()
    for s in segs:
        if s.op in ("delete", "replace"):
            out["deleted"] += len(words(s.old))
        if s.op in ("insert", "replace"):
            out["inserted"] += len(words(s.new))
        if s.op == "term":
            out["folded"] += 1
        if s.op == "equal" and kept:
            out["kept"] += _n_words(s.new)
    return dict(out)


# --------------------------------------------------------------------------- split and merged groups

_SENTENCE = re.compile(r"(?<=[.!?:])[\"“”)]*\s+(?=[A-ZÄÖÜ„\"(])")


def sentences(text: str) -> list[str]:
    """Sentences of a rule text (a split point is an end mark followed by a capital)."""
    parts, pos = [], 0
    for m in _SENTENCE.finditer(text or ""):
        parts.append(text[pos:m.end()].strip())
        pos = m.end()
    parts.append((text or "")[pos:].strip())
    return [p for p in parts if p]


def group_diff(g: Group, old_e: EditionInfo, new_e: EditionInfo, terms: Sequence[Term],
               index: TermIndex | None = None) -> list[Seg]:
    """Word diff of a group.

    A one-to-one pair is one word diff.  A split is one word diff per new part: every sentence of
    the old rule goes to the part it shares most (folded) words with, so each part is compared
    with the old sentences it took over; a merge is the same the other way round.  Each part
    starts with a ``part`` segment (``old``/``new``: the two rule numbers of that row).  ``index``: see
    :func:`word_diff`.
    """
    index = index if index is not None else term_index(terms, new_e.language)
    kw: dict[str, Any] = dict(lang=new_e.language, old_scheme=old_e.scheme, new_scheme=new_e.scheme, terms=terms,
                              index=index)
    if len(g.old) == 1 and len(g.new) == 1:
        return word_diff(g.old[0].full_text, g.new[0].full_text, **kw)
    # the whole rule on one side, its parts on the other
    side, other = ("old", "new") if len(g.new) > 1 else ("new", "old")
    whole, parts = (g.old[0], g.new) if side == "old" else (g.new[0], g.old)
    scheme = {"old": old_e.scheme, "new": new_e.scheme}
    sents = sentences(whole.full_text)
    assign = _assign(sents, [p.full_text for p in parts], side, scheme[side], scheme[other], new_e.language, index)
    segs: list[Seg] = []
    for k, part in enumerate(parts):
        text = {side: " ".join(s for s, x in zip(sents, assign) if x == k), other: part.full_text}
        label = {side: whole.label, other: part.label}
        segs.append(Seg("part", old=label["old"], new=label["new"], label=part.label))
        segs.extend(word_diff(text["old"], text["new"], **kw))
    return segs


def _assign(sents: list[str], parts: list[str], side: str, s_scheme: str, p_scheme: str, lang: str,
            tindex: TermIndex | None) -> list[int]:
    """Index of the part each sentence is most similar to (cosine of folded words of 4+ letters);
    ties and sentences sharing nothing stay with the previous sentence's part."""
    other = "new" if side == "old" else "old"
    part_keys = [folded_keys(p, lang, p_scheme, tindex, other, ("word", "term"), 4) for p in parts]
    out: list[int] = []
    for s in sents:
        k = folded_keys(s, lang, s_scheme, tindex, side, ("word", "term"), 4)
        scores = [_cosine(k, pk) for pk in part_keys]
        best = max(scores) if scores else 0.0
        prev = out[-1] if out else None
        if best == 0.0 or (prev is not None and scores[prev] == best):
            out.append(prev if prev is not None else 0)
        else:
            out.append(scores.index(best))
    return out


def _cosine(a: Counter, b: Counter) -> float:
    num = sum(c * b[w] for w, c in a.items() if w in b)
    den = (sum(c * c for c in a.values()) * sum(c * c for c in b.values())) ** 0.5
    return num / den if den else 0.0


# --------------------------------------------------------------------------- HTML fragments


# (built with escape() and f-strings: Markup.format escapes the same way, several times slower)


def tag(name: str, text: str) -> Markup:
    """``<del>text</del>`` or ``<ins>text</ins>``, escaped."""
    return Markup(_tag(name, text))


def _tag(name: str, text: str) -> str:
    return f"<{name}>{escape(text)}</{name}>"


def _term_span_html(title: str, text: str) -> str:
    """A folded shift, marked, with the other wording in its title (trailing space outside), escaped."""
    body = text.rstrip()
    return f'<span class="term" title="{escape(title)}">{escape(body)}</span>{escape(text[len(body):])}'


def _part_html(label: str) -> str:
    return f'<span class="part">{escape(label)}</span> '


def inline_html(segs: Sequence[Seg] | None, fold: bool = True) -> Markup:
    """One column: kept words as text, changes as ``<del>``/``<ins>``, folded shifts marked; escaped.

    Kept text is printed as in the new edition; a deletion gets the space the old text had.
    """
    if segs is None:
        return Markup("")
    # pieces already escaped, joined once (a Markup's join would escape each piece again)
    out: list[str] = []
    old_ws = new_ws = True      # did the old / new text end with whitespace so far?

    def space(flag: bool) -> None:
        if flag and out and not out[-1].endswith((" ", "> ")):
            out.append(" ")

    for s in segs:
        if s.op == "equal" or (s.op == "term" and fold):
            if s.op == "equal":
                out.append(escape(s.new))
            else:
                out.append(_term_span_html(f"{s.old.strip()} → {s.new.strip()} ({s.label})", s.new))
            old_ws, new_ws = s.old[-1:].isspace(), s.new[-1:].isspace()
        elif s.op == "part":
            out.append(_part_html(s.label))
            old_ws = new_ws = True
        else:
            if s.old.strip():
                space(old_ws)
                out.append(_tag("del", s.old.strip()))
                old_ws = s.old[-1:].isspace()
            if s.new.strip():
                space(True if s.old.strip() else new_ws)
                out.append(_tag("ins", s.new.strip()))
                new_ws = s.new[-1:].isspace()
            if (s.new[-1:].isspace() if s.new.strip() else s.old[-1:].isspace()):
                out.append(" ")
    return Markup("".join(out))


def side_html(segs: Sequence[Seg], side: str, fold: bool = True) -> Markup:
    """One side of a side-by-side view: the old text with ``<del>``, or the new text with ``<ins>``."""
    out: list[str] = []   # pieces already escaped, joined once (as in inline_html)
    for s in segs:
        text = s.old if side == "old" else s.new
        if s.op == "equal":
            out.append(escape(text))
        elif s.op == "part":
            if text:
                out.append(_part_html(s.label))
        elif s.op == "term" and fold:
            other = s.new if side == "old" else s.old
            out.append(_term_span_html(f"{'new' if side == 'old' else 'old'}: {other.strip()} ({s.label})", text))
        elif text:
            trail = " " if text != text.rstrip() else ""
            out.append(_tag("del" if side == "old" else "ins", text.rstrip()) + trail)
    return Markup("".join(out))
