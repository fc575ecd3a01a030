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


def shown(path: Path) -> str:
    """``path`` as messages name it: relative to the working directory when it lies inside it, else absolute."""
    path = Path(os.path.abspath(path))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def shown_source(data_dir: Path, stored: str) -> str:
    """A source path as the KB stores it (``data/sources/x.txt``, relative to the data folder) named by where it
    was actually read (``--data-dir``)."""
    rel = stored.split("/", 1)[1] if stored.startswith("data/") else stored
    return shown(Path(data_dir) / rel)
