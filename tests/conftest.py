"""Shared fixtures: one KB built from data/ for the whole session (helpers are in tests/helpers.py)."""
import os
import shutil

import pytest
from hypothesis import settings

# No deadline: a per-example time limit is a timing assertion that fails on a busy machine.
# Derandomised: the same examples on every run, so a property test cannot fail at random in CI.
settings.register_profile("kb", deadline=None, derandomize=True)
settings.load_profile("kb")


@pytest.fixture(scope="session")
def kb_db(tmp_path_factory):
    """The real KB, built once from data/ (all stages) into a temporary directory; or a copy of the KB that
    KB_TEST_DB names (scripts/mutation.sh builds one before running the tests for each mutant)."""
    from kb.build import build

    path = tmp_path_factory.mktemp("kb") / "kb.db"
    if os.environ.get("KB_TEST_DB"):
        shutil.copy(os.environ["KB_TEST_DB"], path)
        return path
    build(path)
    return path
