"""Where the engine's data lives: the repository root and its card and scenario folders.

The one definition of the repository root for the whole repository (``kb.paths`` takes it from here).
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: one TOML file per card (format: data/cards/README.md)
CARDS_DIR = ROOT / "data" / "cards"
#: the scenario files ``kb scenario run`` and the build play
SCENARIOS_DIR = ROOT / "data" / "scenarios"
