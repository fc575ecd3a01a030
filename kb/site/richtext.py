"""Rule text as HTML: references to rules and glossary terms of the same edition become links.

References come from :func:`ingest.refs.find_refs` (as in :mod:`kb.links`); glossary terms are
matched on lemmas, so an inflected form ("abgeworfen") links to its entry ("Abwerfen").  Each
term is linked once per text, at its first occurrence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ingest.refs import find_refs

from .. import lemmas
from ..links import rule_path

_WORD = re.compile(r"[^\W\d_]+")
#: the longest glossary term matched, in words
MAX_TERM_WORDS = 5


@dataclass
class Glossary:
    """The glossary terms of one edition, matched on lemmas."""

    edition: str
    lang: str
    prefix: str = "/"
    by_first: dict[str, list[tuple[tuple[str, ...], str, str]]] = field(default_factory=dict)

    @classmethod
    def build(cls, edition: str, lang: str, terms: list[tuple[str, str]], prefix: str = "/") -> Glossary:
        g = cls(edition, lang, prefix)
        for term, anchor in terms:
            key = tuple(_lemma(w, lang) for w in _WORD.findall(term))
            if 0 < len(key) <= MAX_TERM_WORDS:
                g.by_first.setdefault(key[0], []).append((key, anchor, term))
        for cands in g.by_first.values():
            cands.sort(key=lambda c: -len(c[0]))
        return g

    def url(self, anchor: str) -> str:
        return f"{self.prefix}glossary/{self.edition}#{anchor}"

    def spans(self, text: str) -> list[tuple[int, int, str, str]]:
        """(start, end, anchor, term) of the first occurrence of each term in ``text``."""
        if not self.by_first:
            return []
        words = [(m.start(), m.end(), _lemma(m.group(), self.lang)) for m in _WORD.finditer(text)]
        out, done, i = [], set(), 0
        while i < len(words):
            hit = None
            for key, anchor, term in self.by_first.get(words[i][2], ()):
                if anchor not in done and tuple(w[2] for w in words[i:i + len(key)]) == key:
                    hit = (key, anchor, term)
                    break
            if hit is None:
                i += 1
                continue
            key, anchor, term = hit
            done.add(anchor)
            out.append((words[i][0], words[i + len(key) - 1][1], anchor, term))
            i += len(key)
        return out


def _lemma(word: str, lang: str) -> str:
    return lemmas.lemma(word, lang) if lang in lemmas.SUPPORTED else word.lower()


def rich_text(text: str | None, edition: str, prefix: str = "/", glossary: Glossary | None = None,
              bare: bool = False) -> Markup:
    """Escape ``text``; references become rule links, glossary terms links to their entry."""
    if not text:
        return Markup("")
    marks: list[tuple[int, int, Markup]] = []
    pos = 0
    for r in find_refs(text, bare=bare):
        if r.start < pos:
            continue
        title = f"{edition} {r.target}" + (f" to {r.range_end}" if r.range_end else "")
        marks.append((r.start, r.end, Markup('<a class="rule-ref" href="{}" title="{}">{}</a>').format(
            rule_path(edition, r.target, prefix), title, r.raw)))
        pos = r.end
    if glossary is not None:
        for start, end, anchor, term in glossary.spans(text):
            if not any(start < e and s < end for s, e, _ in marks):
                marks.append((start, end, Markup('<a class="gloss" href="{}" title="glossary: {}">{}</a>').format(
                    glossary.url(anchor), term, text[start:end])))
    marks.sort(key=lambda m: m[0])
    out, pos = [], 0
    for start, end, html in marks:
        out.append(escape(text[pos:start]))
        out.append(html)
        pos = end
    out.append(escape(text[pos:]))
    return Markup("").join(out)
