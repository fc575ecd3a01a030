"""What every ``kb`` command shares: the ``--db`` and ``--data-dir`` options and opening the KB.

"KB missing" is handled here once: a command that needs the built KB calls :func:`open_db` or
:func:`connect_db` and gets a click error ("… run `kb build` first") instead of a traceback.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import click
import sqlite_utils

from . import paths
from .query import KBMissing, connect, open_kb

DB_OPTION = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                         default=paths.DEFAULT_DB, show_default=True,
                         help="The knowledge base (SQLite; default from $KB_DB or build/kb.db).")
DATA_OPTION = click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=paths.DATA,
                           show_default=True, help="Folder with manifest.toml and the source documents.")


def open_db(db_path: Path) -> sqlite_utils.Database:
    """The built KB as a ``sqlite_utils.Database``, or a click error telling the user to build it."""
    try:
        return open_kb(db_path)
    except KBMissing as e:
        raise click.ClickException(str(e)) from None


def connect_db(db_path: Path) -> sqlite3.Connection:
    """A read-only connection to the built KB, or a click error telling the user to build it."""
    try:
        return connect(db_path)
    except KBMissing as e:
        raise click.ClickException(str(e)) from None
