"""Shared fixtures: one KB built from data/ for the whole session (helpers are in tests/helpers.py)."""
import pytest


@pytest.fixture(scope="session")
def kb_db(tmp_path_factory):
    """The real KB, built once from data/ (all stages) into a temporary directory."""
    from kb.build import build

    path = tmp_path_factory.mktemp("kb") / "kb.db"
    build(path)
    return path
