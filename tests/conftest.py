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
