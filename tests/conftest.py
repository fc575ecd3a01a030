"""Shared fixtures: one KB of the seed documents and their originals for the session (helpers: tests/helpers.py)."""
import os
import shutil
import sqlite3

import pytest
from hypothesis import settings

# No deadline: a per-example time limit is a timing assertion that fails on a busy machine.
# Derandomised: the same examples on every run, so a property test cannot fail at random in CI.
settings.register_profile("kb", deadline=None, derandomize=True)
settings.load_profile("kb")


@pytest.fixture(scope="session")
def seed_data_dir(tmp_path_factory):
    """data/ with the seed documents and their English originals only (:func:`tests.helpers.seed_data`)."""
    from tests.helpers import seed_data

    return seed_data(tmp_path_factory.mktemp("seed") / "data")


@pytest.fixture(scope="session")
def kb_db(tmp_path_factory, seed_data_dir):
    """The real KB of the seeds and their originals, built once (all stages) into a temporary directory; or a copy
    of the KB that KB_TEST_DB names (scripts/mutation.sh builds one before running the tests for each mutant: it
    must be built from tests.helpers.seed_data, not from the whole data/)."""
    from kb.build import build

    path = tmp_path_factory.mktemp("kb") / "kb.db"
    if os.environ.get("KB_TEST_DB"):
        shutil.copy(os.environ["KB_TEST_DB"], path)
        return path
    build(path, seed_data_dir)
    return path


@pytest.fixture(scope="module")
def conn(request, kb_db):
    """A connection to the seed KB; rows by name (sqlite3.Row) in a module that sets ``ROWS_BY_NAME = True``."""
    c = sqlite3.connect(kb_db)
    if getattr(request.module, "ROWS_BY_NAME", False):
        c.row_factory = sqlite3.Row
    yield c
    c.close()


@pytest.fixture(scope="session")
def english_chain_db(tmp_path_factory):
    """The seed data with the English sample editions of tests/corpus/crs added, as a user adds editions (the
    truncated one is refused, the two already in data/ are skipped), built: an English chain of eleven editions,
    whose long-range pairs are composed."""
    from kb.add import AddOptions, add_files
    from kb.build import build
    from tests.helpers import ROOT, seed_data

    root = tmp_path_factory.mktemp("with-english-editions")
    data = root / "data"
    seed_data(data)
    results = add_files(sorted((ROOT / "tests" / "corpus" / "crs").glob("en-*.txt")), AddOptions(), data)
    assert sum(r.ok for r in results) >= 9
    build(root / "kb.db", data)
    return root / "kb.db"
