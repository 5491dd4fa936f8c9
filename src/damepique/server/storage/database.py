"""The one owner of the database: its engine, its write lock, its migrations.

``Database`` is made once per app and handed to every store. It owns the
SQLAlchemy async engine, the one write lock (SQLite has one writer, and a
transaction left open across an ``await`` by one store would stall another),
and the migration run at start-up, done once. The event log's hot path on a
SQLite file is written by the standard library's driver on the loop's own
thread (``append_events``): a commit there costs tens of microseconds, far
less than a trip to aiosqlite's thread under load; everything else goes
through SQLAlchemy.

The app runs on SQLite (one process, the default) or PostgreSQL (several
processes), both through SQLAlchemy's async engine. A URL may be given the
way people write it; the driver is chosen here:

>>> async_url("postgresql://u@db.example/damepique")
'postgresql+asyncpg://u@db.example/damepique'
>>> async_url("postgres://u@h/db"), async_url("sqlite:///tmp/x.sqlite3")
('postgresql+asyncpg://u@h/db', 'sqlite+aiosqlite:///tmp/x.sqlite3')
>>> async_url("postgresql+asyncpg://u@h/db")
'postgresql+asyncpg://u@h/db'

The schema is Alembic's (``storage/migrations``, shipped in the package):
``migrate`` brings a database to the newest revision when the server starts.
Several processes starting at once on PostgreSQL take turns (an advisory
lock), and a SQLite file made before migrations existed (by ``create_all``)
is brought under them safely: the first revision creates only the tables
that are missing, then the file is stamped.

For people changing a table (run from a checkout)::

    python -m damepique.server.storage.database revision -m "what changed" --db sqlite:///tmp/dev.sqlite3
    python -m damepique.server.storage.database check --db postgresql://postgres@127.0.0.1/damepique
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sqlite3
import sys
import weakref
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, event, insert, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from ..clock import Clock
from ..protocol import Json
from ..settings import async_url
from . import schema as tables
from .turns import Turns

log = logging.getLogger("damepique.server")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# Any constant will do: it only has to be the same in every damepique process.
_MIGRATION_LOCK = 0x64616D65  # "dame"


SQLITE_POOL = 24
"""Connections (threads) kept open to a SQLite file, and as many more in a burst."""


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def is_sqlite_memory(url: str) -> bool:
    return is_sqlite(url) and (":memory:" in url or url.endswith("://"))


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Set on every SQLite connection. WAL lets readers and the writer work at
    once and, with synchronous=NORMAL, survives a killed process (only a power
    cut may lose the last commits) while keeping a commit well under a
    millisecond; busy_timeout waits for another process's write instead of failing."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (a memory SQLite database is one shared
    connection; SQLite connections get ``sqlite_pragmas``)."""
    url = async_url(url)
    if is_sqlite_memory(url):
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}} | kwargs
    elif is_sqlite(url):
        # Each of aiosqlite's connections is a thread, started while the loop waits:
        # past the pool's size every burst of reads (tables made or loaded at once)
        # opened and closed connections over and over, the loop stalled at each start.
        kwargs = {"pool_size": SQLITE_POOL, "max_overflow": SQLITE_POOL} | kwargs
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


def schema() -> MetaData:
    """Every table of the app (``storage/schema.py``): what the migrations must build."""
    return tables.metadata


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Any:
    """Alembic's configuration, made in code (no alembic.ini to find)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", async_url(url).replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _upgrade(connection: Connection) -> None:
    from alembic import command

    command.upgrade(alembic_config(connection=connection), "head")


_IN_PROCESS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = weakref.WeakKeyDictionary()


async def migrate(engine: AsyncEngine) -> None:
    """Bring the database to the newest revision (creating it from nothing if empty)."""
    # Alembic keeps its migration context in module globals: two upgrades
    # interleaved in one process (several stores of one app, several apps in a
    # test) would run in each other's context. Across processes the database's
    # own lock below is what counts.
    lock = _IN_PROCESS.setdefault(asyncio.get_running_loop(), asyncio.Lock())
    async with lock:
        await _migrate(engine)


async def _migrate(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # DDL is transactional on PostgreSQL: the lock is held until the upgrade
            # commits, so a second process waits, then finds nothing left to do.
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        elif engine.dialect.name == "sqlite":
            # The driver would run DDL outside any transaction: take the write lock
            # first, so a second process on the same file waits (busy timeout), then
            # sees the tables and the stamp of the first.
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
        await conn.run_sync(_upgrade)


def _differences(connection: Connection) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, schema()))


async def differences(engine: AsyncEngine) -> list[Any]:
    """What autogenerate would change to make the database match the code (empty: in step)."""
    async with engine.connect() as conn:
        return await conn.run_sync(_differences)


def head_revision() -> str | None:
    """The newest revision shipped with the code."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    from alembic.migration import MigrationContext

    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def main(argv: list[str] | None = None) -> int:
    """``upgrade``, ``check`` (differences between code and database) or ``revision``."""
    from alembic import command

    from ..settings import database_url

    parser = argparse.ArgumentParser(prog="python -m damepique.server.storage.database")
    parser.add_argument("action", choices=["upgrade", "check", "revision", "current"])
    parser.add_argument("--db", default=None, help="SQLite file path or database URL")
    parser.add_argument("-m", "--message", default="change")
    args = parser.parse_args(argv)
    url = database_url(args.db)
    if args.action == "revision":
        command.revision(alembic_config(url), message=args.message, autogenerate=True)
        return 0
    engine = create_engine(url)

    async def run() -> int:
        try:
            if args.action == "upgrade":
                await migrate(engine)
            elif args.action == "current":
                print(await current_revision(engine))
            else:
                diffs = await differences(engine)
                for d in diffs:
                    print(d)
                return 1 if diffs else 0
            return 0
        finally:
            await engine.dispose()

    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())


class Database:
    """The app's database: one engine, one write lock, migrated once at ``open``.

    Stores write with ``async with db.write() as conn`` (the lock, then one
    transaction) and read with ``async with db.read() as conn``."""

    def __init__(self, url: str, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        """The app's clock (``Settings.clock``): the times the stores write down."""
        self.url = async_url(url)  # plain postgresql:// or sqlite:// as people write them
        self.engine: AsyncEngine = create_engine(self.url)
        self.lock = Turns()
        """The one write lock; urgent writes (the event log, leases) take it in turns with the others."""
        self.file = sqlite_file(self.url)
        """The SQLite file, when the database is one (the event log's hot path writes it directly)."""
        self._direct: sqlite3.Connection | None = None
        self._opened = False
        self._inode: tuple[int, int] | None = None
        self.failure: str | None = None
        """Why the last write failed (None: the database takes writes): ``/healthz`` says it."""

    @property
    def dialect(self) -> str:
        return str(self.engine.dialect.name)

    async def open(self) -> None:
        """Bring the schema to the newest revision, once however many parts ask."""
        if not self._opened:
            await migrate(self.engine)
            self._opened = True
            if self.file is not None:
                self._inode = _inode(self.file)

    def check_file(self) -> None:
        """Raise when the SQLite file this database writes is gone or replaced:
        writes would go to a file nobody will ever read again (lost at restart)."""
        if self.file is None or self._inode is None:
            return
        if _inode(self.file) != self._inode:
            raise DatabaseGone(f"the database file {self.file} was deleted or replaced")

    def wrote(self, error: BaseException | None) -> None:
        """A write succeeded (None) or failed: what ``/healthz`` reports."""
        failure = None if error is None else f"{type(error).__name__}: {error}"[:300]
        if failure is not None and failure != self.failure:
            log.error("the database does not take writes: %s", failure)  # the operator's log, not a page
        self.failure = failure

    def health(self) -> str | None:
        """Why the database does not take writes, in words fit for anyone to read
        (``/healthz`` is public: never a path, a host or a driver's message;
        the log has the whole failure). None: it takes writes."""
        failure = self.failure
        if failure is None:
            try:
                self.check_file()
            except DatabaseGone:
                failure = DatabaseGone.__name__
        if failure is None:
            return None
        if failure.startswith(DatabaseGone.__name__):
            return "the database file was deleted or replaced"
        return "the last write to the database failed"

    async def close(self) -> None:
        if self._direct is not None:
            self._direct.close()
            self._direct = None
        await self.engine.dispose()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        async with self.lock:
            try:
                self.check_file()
                async with self.engine.begin() as conn:
                    yield conn
            except Exception as e:
                self.wrote(e)
                raise
            self.wrote(None)

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn

    async def append_events(self, rows: Sequence[Json]) -> None:
        """Rows of the event log (``game_id``, ``seq``, ``body``) in one transaction,
        under the write lock (its turn comes after one other write at most: a
        crowd of other writes never holds the cards up): on a SQLite file with
        the standard library's driver on this thread (committed, or rolled back
        on error), elsewhere through SQLAlchemy."""
        async with self.lock.urgent():
            try:
                if self.file is None:
                    async with self.engine.begin() as conn:
                        await conn.execute(insert(tables.events), list(rows))
                else:
                    self.check_file()
                    if self._direct is None:
                        self._direct = sqlite3.connect(self.file, check_same_thread=False)
                        sqlite_pragmas(self._direct, None)
                    with self._direct as conn:
                        conn.executemany(
                            "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                            [(r["game_id"], r["seq"], r["body"]) for r in rows],
                        )
            except Exception as e:
                self.wrote(e)
                raise
            self.wrote(None)


class DatabaseGone(Exception):
    """The database's file is not the one it opened any more."""


def _inode(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def damaged(path: str) -> str | None:
    """Why the SQLite file at ``path`` cannot be used (None: it is sound, or not there yet)."""
    if not os.path.exists(path):
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            row = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as e:
        return str(e)
    return None if row is not None and row[0] == "ok" else f"quick_check says {row[0] if row else 'nothing'}"


def sqlite_file(url: str) -> str | None:
    """The file of a ``sqlite`` URL, or None (memory databases, URIs, other databases).

    >>> sqlite_file("sqlite+aiosqlite:////tmp/x.sqlite3"), sqlite_file("sqlite+aiosqlite:///:memory:")
    ('/tmp/x.sqlite3', None)
    """
    if not url.startswith("sqlite"):
        return None
    path = url.split("://", 1)[1][1:].split("?", 1)[0]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return path


__all__ = [
    "Database",
    "async_url",
    "create_engine",
    "current_revision",
    "differences",
    "head_revision",
    "migrate",
    "schema",
]
