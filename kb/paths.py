"""Where things live: the repository's data folder, the manifest and the built database."""
from __future__ import annotations

import os
from pathlib import Path

from engine.paths import ROOT

DATA = ROOT / "data"
SOURCES = DATA / "sources"
MANIFEST = DATA / "manifest.toml"
#: the built knowledge base; override with the KB_DB environment variable
DEFAULT_DB = Path(os.environ.get("KB_DB", ROOT / "build" / "kb.db"))
