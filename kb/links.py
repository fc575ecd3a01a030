"""Rule numbers inside text as links to the rule's page in the same edition."""
from __future__ import annotations

from urllib.parse import quote

from markupsafe import Markup, escape

from ingest.refs import find_refs


def rule_path(edition: str, number: str, prefix: str = "/") -> str:
    return f"{prefix}rule/{quote(edition)}/{quote(number)}"


def linkify(text: str | None, edition: str, prefix: str = "/", bare: bool = False) -> Markup:
    """Escape ``text`` and turn every reference ("Regel 601.2f", "601.2a–e", "regola 700.2") into a link."""
    if not text:
        return Markup("")
    out, pos = [], 0
    for r in find_refs(text, bare=bare):
        if r.start < pos:
            continue
        out.append(escape(text[pos:r.start]))
        title = f"{edition} {r.target}" + (f" to {r.range_end}" if r.range_end else "")
        out.append(Markup('<a class="rule-ref" href="{}" title="{}">{}</a>').format(
            rule_path(edition, r.target, prefix), title, r.raw))
        pos = r.end
    out.append(escape(text[pos:]))
    return Markup("").join(out)
