"""What a rules document says about itself: its effective date, its title and its language.

``kb add`` uses these to name an edition without flags: the official Comprehensive Rules state
"These rules are effective as of November 8, 2024." (older editions: "current as of").  German
and Italian phrasings are recognised too.  The language is guessed from function words, the way
a reader would; a flag always overrides both.
"""
from __future__ import annotations

import re
from collections import Counter

MONTHS = {
    "en": ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"],
    "de": ["januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "dezember"],
    "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"],
}
#: (language, pattern with named groups month, day, year); searched in the first lines of a document
DATE_PATTERNS = [
    ("en", re.compile(r"\b(?:effective|current)\s+as\s+of\s+(?P<month>[A-Za-z]+)\.?\s+(?P<day>\d{1,2}),?\s+"
                      r"(?P<year>\d{4})", re.IGNORECASE)),
    ("de", re.compile(r"\bgültig\s+(?:ab|seit)\s+(?:dem\s+)?(?P<day>\d{1,2})\.\s*(?P<month>[A-Za-zäÄ]+)\s+"
                      r"(?P<year>\d{4})", re.IGNORECASE)),
    ("it", re.compile(r"\b(?:in\s+vigore|valid[ei])\s+dal(?:l')?\s*(?P<day>\d{1,2})\s+(?P<month>[a-z]+)\s+"
                      r"(?P<year>\d{4})", re.IGNORECASE)),
]
FUNCTION_WORDS = {
    "en": {"the", "of", "and", "a", "to", "is", "that", "it", "if", "or", "be", "an", "this", "with", "as"},
    "de": {"der", "die", "das", "und", "ist", "nicht", "ein", "eine", "den", "zu", "mit", "von", "wenn", "auf"},
    "it": {"il", "la", "di", "che", "e", "un", "una", "del", "della", "non", "per", "con", "se", "lo", "gli"},
}
_WORD = re.compile(r"[^\W\d_]+")


def effective_date(lines: list[str]) -> tuple[str, int] | None:
    """``("2024-11-08", line)`` from the document's own statement of its date (the first one), or None.

    Most editions state it at the top; the oldest at the end ("These rules are current as of
    April 23, 1999."), so the whole document is searched.
    """
    found = date_statement(lines)
    return (found[0], found[1]) if found else None


def title(lines: list[str], limit: int = 120) -> str:
    """The document's title as a rules document prints it, with its date statement in brackets ("Magic: The
    Gathering Comprehensive Rules (effective as of November 8, 2024)"): its first line with words; "" for a
    document that states no date (a web page, whose first line is the site's furniture)."""
    found = date_statement(lines)
    if found is None:
        return ""
    head = " ".join(next((line for line in lines if _WORD.search(line)), "").replace("_", " ").split())
    if len(head) > limit:
        head = head[:limit].rsplit(" ", 1)[0] + " …"
    return f"{head} ({found[2]})" if found[2] not in head else head


def date_statement(lines: list[str]) -> tuple[str, int, str] | None:
    """(ISO date, line, the words that state it) of the document's first statement of its date, or None."""
    for no, line in enumerate(lines, 1):
        for lang, pattern in DATE_PATTERNS:
            m = pattern.search(line)
            if not m:
                continue
            month = m.group("month").lower()
            if month not in MONTHS[lang]:
                continue
            day, year = int(m.group("day")), int(m.group("year"))
            if 1 <= day <= 31:
                return f"{year:04d}-{MONTHS[lang].index(month) + 1:02d}-{day:02d}", no, " ".join(m.group().split())
    return None


def guess_language(lines: list[str], sample: int = 400) -> str | None:
    """The language whose function words are most frequent in the first ``sample`` non-blank lines."""
    counts: Counter[str] = Counter()
    seen = 0
    for line in lines:
        if not line.strip():
            continue
        seen += 1
        if seen > sample:
            break
        for word in _WORD.findall(line.lower()):
            for lang, words in FUNCTION_WORDS.items():
                if word in words:
                    counts[lang] += 1
    if not counts:
        return None
    (best, n), *rest = counts.most_common() + [("", 0)]
    return best if n >= 20 and n >= 2 * rest[0][1] else None
