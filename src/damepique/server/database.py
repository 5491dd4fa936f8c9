"""Which database, and its schema: URLs, engines and migrations at start-up.

The app runs on SQLite (one process, the default) or PostgreSQL (several
processes), both through SQLAlchemy's async engine. A URL may be given the
way people write it; the driver is chosen here:

>>> async_url("postgresql://u@db.example/damepique")
'postgresql+asyncpg://u@db.example/damepique'
>>> async_url("postgres://u@h/db"), async_url("sqlite:///tmp/x.sqlite3")
('postgresql+asyncpg://u@h/db', 'sqlite+aiosqlite:///tmp/x.sqlite3')
>>> async_url("postgresql+asyncpg://u@h/db")
'postgresql+asyncpg://u@h/db'

The schema is Alembic's (``server/migrations``, shipped in the package):
``migrate`` brings a database to the newest revision when the server starts.
Several processes starting at once on PostgreSQL take turns (an advisory
lock), and a SQLite file made before migrations existed (by ``create_all``)
is brought under them safely: the first revision creates only the tables
that are missing, then the file is stamped.

For people changing a table (run from a checkout)::

    python -m damepique.server.database revision -m "what changed" --db sqlite:///tmp/dev.sqlite3
    python -m damepique.server.database check --db postgresql://postgres@127.0.0.1/damepique
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# Any constant will do: it only has to be the same in every damepique process.
_MIGRATION_LOCK = 0x64616D65  # "dame"

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
    engine = create_async_engine(url, **kwargs)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine


def schema() -> MetaData:
    """Every table of the app in one MetaData: what the migrations must build.

    Each part keeps its own MetaData next to its code (the game store, the
    multiplayer store, the score keeper); this gathers copies of their tables.
    """
    from . import leases, mpstore, scorer_api, store

    combined = MetaData()
    for part in (store.metadata, mpstore.metadata, scorer_api.metadata, leases.metadata):
        for table in part.tables.values():
            if table.name in combined.tables:
                raise RuntimeError(f"two parts of the app define the table {table.name!r}")
            table.to_metadata(combined)
    return combined


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

    from .settings import database_url

    parser = argparse.ArgumentParser(prog="python -m damepique.server.database")
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


__all__ = [
    "async_url",
    "create_engine",
    "current_revision",
    "differences",
    "head_revision",
    "migrate",
    "schema",
]
