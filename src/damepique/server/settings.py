"""Where the data lives: the default database and how ``--db`` is read.

The default SQLite file is ``$XDG_DATA_HOME/damepique/damepique.sqlite3``
(``~/.local/share/damepique/damepique.sqlite3`` when XDG_DATA_HOME is unset;
``%APPDATA%\\damepique`` on Windows, ``~/Library/Application Support/damepique``
on macOS).

>>> database_url("/tmp/x.sqlite3")
'sqlite+aiosqlite:////tmp/x.sqlite3'
>>> database_url("postgresql://u@h/db")
'postgresql+asyncpg://u@h/db'
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_dir() -> Path:
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "damepique"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "damepique"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "damepique"


def default_db_path() -> Path:
    return data_dir() / "damepique.sqlite3"


def database_url(db: str | None = None) -> str:
    """A SQLAlchemy async URL from a file path, a URL, or None: then ``$DAMEPIQUE_DB``
    if set, else the default file. ``postgresql://...`` gets the asyncpg driver."""
    db = db or os.environ.get("DAMEPIQUE_DB") or None
    if db and "://" in db:
        from .database import async_url

        return async_url(db)
    path = Path(db) if db else default_db_path()
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path}"
