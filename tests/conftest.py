"""Shared fixtures: repository paths and one KB built from data/ for the whole session."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))

SEEDS = {p.name[:3]: p for p in sorted((ROOT / "data" / "sources").glob("0*_*.txt"))}


@pytest.fixture(scope="session")
def kb_db(tmp_path_factory):
    """The real KB, built once from data/ (all stages) into a temporary directory."""
    from kb.build import build

    path = tmp_path_factory.mktemp("kb") / "kb.db"
    build(path)
    return path


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
