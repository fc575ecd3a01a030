"""What a complete document of a format has (shared by the parsers' registrations)."""
from __future__ import annotations

from .model import Parsed


def ends_with_footer(parsed: Parsed, lines: list[str]) -> str | None:
    """A web page is complete when the site's footer (boilerplate) follows its last content record."""
    content = [r.last_line for r in parsed.records if r.kind not in ("boilerplate", "unparsed")]
    footer = [r.first_line for r in parsed.records if r.kind == "boilerplate"]
    if content and not any(line > max(content) for line in footer):
        return "the page ends without the site's footer after its content: a truncated copy of the page?"
    return None


def last_line(lines: list[str]) -> int:
    """The number of the last non-blank line (where a truncated document ends)."""
    return next((n for n in range(len(lines), 0, -1) if lines[n - 1].strip()), 0)
