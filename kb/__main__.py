"""``python -m kb``: the ``kb`` command (:mod:`kb.cli`)."""
from .cli import run

run()
