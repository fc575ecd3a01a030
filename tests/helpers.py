"""Helpers shared by the tests (fixtures live in conftest.py): repository paths and seed views."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: the seed documents by their three-digit prefix ("000" ... "004")
SEEDS = {p.name[:3]: p for p in sorted((ROOT / "data" / "sources").glob("0*_*.txt"))}


def views_2024(edition: str):
    """The German 2024 rules as alignment views of a synthetic edition named ``edition``."""
    from ingest import numbers, parse_document, symbols
    from kb import align

    parsed = parse_document(SEEDS["000"], "cr-web", "de")
    views = []
    for rec in parsed.records:
        if rec.kind != "rule" or not rec.text:
            continue
        norm = numbers.normalize(rec.number)
        views.append(align.make_view(f"{edition}/{norm}", edition, "de", norm,
                                     symbols.normalize(rec.text, "de-braces"), len(views),
                                     level=numbers.level(norm), title=rec.title))
    return views
