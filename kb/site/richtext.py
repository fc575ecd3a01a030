"""Rule text as HTML: references to rules and glossary terms become links.

References come from :func:`ingest.refs.find_refs` (as in :mod:`kb.links`); which words are glossary terms is
decided by :mod:`kb.site.glossary` (on lemmas, word class and context; once per text).
"""
from __future__ import annotations

from markupsafe import Markup, escape

from ingest.refs import find_refs

from ..links import rule_path
from .glossary import Glossary, see_references


def rich_text(text: str | None, edition: str, prefix: str = "/", glossary: Glossary | None = None,
              bare: bool = False, see: Glossary | None = None) -> Markup:
    """Escape ``text``; references become rule links, glossary terms links to their entry; with ``see`` (the
    glossary of an entry's own edition, every term), an entry's "See …" references link to the entries."""
    if not text:
        return Markup("")
    marks: list[tuple[int, int, Markup]] = []
    if see is not None:
        for start, end, term in see_references(text, see.lang, see):
            marks.append((start, end, Markup('<a class="see" href="#{}">{}</a>').format(term.anchor,
                                                                                      text[start:end])))
    pos = 0
    for r in find_refs(text, bare=bare):
        if r.start < pos or any(r.start < e and s < r.end for s, e, _ in marks):
            continue
        title = f"{edition} {r.target}" + (f" to {r.range_end}" if r.range_end else "")
        marks.append((r.start, r.end, Markup('<a class="rule-ref" href="{}" title="{}">{}</a>').format(
            rule_path(edition, r.target, prefix), title, r.raw)))
        pos = r.end
    if glossary is not None:
        for start, end, term in glossary.spans(text):
            if not any(start < e and s < end for s, e, _ in marks):
                marks.append((start, end, Markup('<a class="gloss" href="{}" title="glossary of {}: {}">{}</a>')
                              .format(glossary.url(term), term.edition, term.title, text[start:end])))
    marks.sort(key=lambda m: m[0])
    out, pos = [], 0
    for start, end, html in marks:
        out.append(escape(text[pos:start]))
        out.append(html)
        pos = end
    out.append(escape(text[pos:]))
    return Markup("").join(out)
