"""The server's settings: where the data lives, and the knobs of its tables.

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
from dataclasses import dataclass, field
from pathlib import Path

from .clock import Clock, from_env

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
}


def async_url(url: str) -> str:
    """The URL with the async driver this app uses for its database."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    return f"{_DRIVERS.get(scheme, scheme)}://{rest}"


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
        return async_url(db)
    path = Path(db) if db else default_db_path()
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path}"


def env_number(name: str, default: float) -> float:
    """The number in the environment variable ``name``; ``default`` when it is unset or not a number."""
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


SEND_QUEUE = 256
"""Messages that may wait for a client that does not read before it is closed
(``Settings.send_queue``'s default; ``asgi.Connection.max_queue``)."""


def _timer_choices() -> tuple[int, ...]:
    text = os.environ.get("DAMEPIQUE_TIMER_CHOICES", "0,30,60")
    return tuple(int(x) for x in text.split(",") if x.strip())


@dataclass
class Settings:
    """Knobs of the tables (``docs/multiplayer.md``); tests shorten the grace period and timers."""

    clock: Clock = field(default_factory=from_env)
    """The app's one clock (``clock.py``): tests hand the app a ``ManualClock``
    (a server process: ``DAMEPIQUE_CLOCK=manual``)."""
    test_hooks: bool = field(default_factory=lambda: os.environ.get("DAMEPIQUE_TEST_HOOKS") == "1")
    """The test hooks' routes (``testing.py``): never on a server people play on."""
    grace: float = field(default_factory=lambda: env_number("DAMEPIQUE_GRACE", 60.0))
    """Seconds a person who dropped keeps their seat before a bot stands in."""
    timer_choices: tuple[int, ...] = field(default_factory=_timer_choices)
    chat_interval: float = 1.0
    unknown_codes: int = field(default_factory=lambda: int(env_number("DAMEPIQUE_UNKNOWN_CODES", 30)))
    """Table codes leading to no table one client address may name at once (HTTP and
    WebSocket together); then one more every ``unknown_codes_window / unknown_codes``
    seconds. 0 turns the limit off. See ``tables.limits.UnknownCodes``."""
    unknown_codes_window: float = field(
        default_factory=lambda: env_number("DAMEPIQUE_UNKNOWN_CODES_WINDOW", 600.0)
    )
    creations: int = field(default_factory=lambda: int(env_number("DAMEPIQUE_CREATIONS", 60)))
    """Solo games and tables one client address may create at once (``POST
    /api/games`` and ``/api/tables`` together); then one more every
    ``creations_window / creations`` seconds. 0 turns the limit off."""
    creations_window: float = field(default_factory=lambda: env_number("DAMEPIQUE_CREATIONS_WINDOW", 600.0))
    send_queue: int = field(default_factory=lambda: int(env_number("DAMEPIQUE_SEND_QUEUE", SEND_QUEUE)))
    """Messages that may wait for a connection that does not read; past this it
    is closed (a test closes its stuck reader in a few messages)."""
    unjoined: float = field(default_factory=lambda: env_number("DAMEPIQUE_UNJOINED", 900.0))
    """Seconds after which a table waiting with nobody at it closes, and a solo
    game nobody joined is deleted (``Tables._expire``). 0 keeps them."""
