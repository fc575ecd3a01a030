"""Shared fixtures: one KB built from data/ for the whole session (helpers are in tests/helpers.py)."""
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
    """The real KB of the seeds and their originals, built once (all stages) into a temporary directory."""
    from kb.build import build

    path = tmp_path_factory.mktemp("kb") / "kb.db"
    build(path, seed_data_dir)
    return path
