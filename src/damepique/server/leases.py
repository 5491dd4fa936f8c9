"""One writer per table across processes: leases with a time to live.

A process owns a table while it holds the table's lease and renews it well
before it expires; when the process dies the lease runs out and another
process takes the table over from the stored events. ``memory://`` leases
serve a single process; ``SqlLeases`` are rows of the app's database
(PostgreSQL, or SQLite shared on one machine): the server uses these, so a
Redis restart never loses who owns what. ``redis://`` ones use ``SET NX PX``
and compare-and-renew scripts, so only the holder can renew or release.

>>> import asyncio
>>> leases = leases_from_url("memory://", owner="p1")
>>> asyncio.run(leases.acquire("T1")), asyncio.run(leases.holder("T1"))
(True, 'p1')
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, delete, func, literal_column, select, update

DEFAULT_TTL_MS = 5000

metadata = MetaData()
leases = Table(
    "leases",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("holder", String(64), nullable=False),
    Column("expires", Float, nullable=False, index=True),
)
"""Who runs what: one row per multiplayer table (its code) and per live process (``proc:<id>``)."""

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class Leases:
    """Table ownership for one process, named ``owner``."""

    owner: str
    ttl_ms: int

    async def acquire(self, table: str) -> bool:
        """Take the table's lease if free (or already ours); True when we hold it."""
        raise NotImplementedError

    async def renew(self, table: str) -> bool:
        """Extend our lease; False when it is no longer ours (stop writing!)."""
        raise NotImplementedError

    async def release(self, table: str) -> None:
        raise NotImplementedError

    async def holder(self, table: str) -> str | None:
        raise NotImplementedError

    async def stop(self) -> None:
        """Close connections."""


class MemoryLeases(Leases):
    """Leases inside one process (each instance is its own world)."""

    def __init__(self, owner: str, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        self.owner = owner
        self.ttl_ms = ttl_ms
        self._held: dict[str, tuple[str, float]] = {}

    def _current(self, table: str) -> str | None:
        entry = self._held.get(table)
        if entry is None or entry[1] < time.monotonic():
            return None
        return entry[0]

    async def acquire(self, table: str) -> bool:
        holder = self._current(table)
        if holder not in (None, self.owner):
            return False
        self._held[table] = (self.owner, time.monotonic() + self.ttl_ms / 1000)
        return True

    async def renew(self, table: str) -> bool:
        if self._current(table) != self.owner:
            return False
        self._held[table] = (self.owner, time.monotonic() + self.ttl_ms / 1000)
        return True

    async def release(self, table: str) -> None:
        if self._current(table) == self.owner:
            del self._held[table]

    async def holder(self, table: str) -> str | None:
        return self._current(table)


class RedisLeases(Leases):
    """Leases in Redis, shared by every process that uses the same server."""

    PREFIX = "damepique:lease:"

    def __init__(self, url: str, owner: str, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        import redis.asyncio as aioredis

        self.owner = owner
        self.ttl_ms = ttl_ms
        self._redis: Any = aioredis.from_url(url, decode_responses=True)

    async def acquire(self, table: str) -> bool:
        key = self.PREFIX + table
        if await self._redis.set(key, self.owner, nx=True, px=self.ttl_ms):
            return True
        return bool(await self.renew(table))

    async def renew(self, table: str) -> bool:
        return bool(await self._redis.eval(_RENEW, 1, self.PREFIX + table, self.owner, self.ttl_ms))

    async def release(self, table: str) -> None:
        await self._redis.eval(_RELEASE, 1, self.PREFIX + table, self.owner)

    async def holder(self, table: str) -> str | None:
        value = await self._redis.get(self.PREFIX + table)
        return None if value is None else str(value)

    async def stop(self) -> None:
        await self._redis.aclose()


def db_now(dialect: str) -> Any:
    """The database's own clock in seconds since the epoch, read when a statement
    runs: every process compares expiry times with one clock, and a statement
    that waited for a connection cannot write a time already past."""
    if dialect == "postgresql":
        return func.extract("epoch", func.clock_timestamp())
    return literal_column("((julianday('now') - 2440587.5) * 86400.0)")


class SqlLeases(Leases):
    """Leases as rows of the app's database, timed by the database's clock.

    ``renew_all`` extends every lease this process holds in one statement and
    says which are still its own; the server calls it every second, on
    ``renew_engine`` when given (connections of its own, so that a renewal
    never waits behind the app's queries).
    """

    def __init__(
        self,
        engine: Any,
        owner: str,
        ttl_ms: int = DEFAULT_TTL_MS,
        lock: asyncio.Lock | None = None,
        renew_engine: Any = None,
    ) -> None:
        self.engine = engine
        self.renew_engine = renew_engine or engine
        self.owner = owner
        self.ttl_ms = ttl_ms
        self._lock = lock
        """The store's write lock on SQLite (one writer at a time in this process)."""
        self._now = db_now(engine.dialect.name)

    @contextlib.asynccontextmanager
    async def _write(self, engine: Any = None) -> AsyncIterator[Any]:
        engine = engine or self.engine
        if self._lock is None:
            async with engine.begin() as conn:
                yield conn
        else:
            async with self._lock, engine.begin() as conn:
                yield conn

    def _insert(self) -> Any:
        # Both dialects spell "insert, or update when" the same way (ON CONFLICT).
        if self.engine.dialect.name == "postgresql":
            from sqlalchemy.dialects import postgresql as dialect
        else:
            from sqlalchemy.dialects import sqlite as dialect  # type: ignore[no-redef]
        return dialect.insert(leases)

    def _expires(self) -> Any:
        return self._now + self.ttl_ms / 1000

    async def acquire(self, table: str) -> bool:
        stmt = self._insert().values(name=table, holder=self.owner, expires=self._expires())
        stmt = stmt.on_conflict_do_update(
            index_elements=[leases.c.name],
            set_={"holder": self.owner, "expires": self._expires()},
            where=(leases.c.expires < self._now) | (leases.c.holder == self.owner),
        ).returning(leases.c.holder)
        async with self._write() as conn:
            return (await conn.execute(stmt)).first() is not None

    async def renew(self, table: str) -> bool:
        stmt = (
            update(leases)
            .where(leases.c.name == table, leases.c.holder == self.owner)
            .values(expires=self._expires())
            .returning(leases.c.name)
        )
        async with self._write(self.renew_engine) as conn:
            return (await conn.execute(stmt)).first() is not None

    async def renew_all(self) -> set[str]:
        """Extend every lease held by this process; returns their names."""
        stmt = (
            update(leases)
            .where(leases.c.holder == self.owner)
            .values(expires=self._expires())
            .returning(leases.c.name)
        )
        async with self._write(self.renew_engine) as conn:
            return {str(r.name) for r in await conn.execute(stmt)}

    async def release(self, table: str) -> None:
        async with self._write() as conn:
            await conn.execute(delete(leases).where(leases.c.name == table, leases.c.holder == self.owner))

    async def release_all(self) -> None:
        async with self._write() as conn:
            await conn.execute(delete(leases).where(leases.c.holder == self.owner))

    async def holder(self, table: str) -> str | None:
        return (await self.holders([table])).get(table)

    async def holders(self, tables: list[str]) -> dict[str, str]:
        """The live holder of each of these leases (absent: nobody holds it)."""
        if not tables:
            return {}
        stmt = select(leases.c.name, leases.c.holder).where(
            leases.c.name.in_(tables), leases.c.expires >= self._now
        )
        async with self.engine.connect() as conn:
            return {str(r.name): str(r.holder) for r in await conn.execute(stmt)}


def leases_from_url(url: str | None, owner: str, ttl_ms: int = DEFAULT_TTL_MS) -> Leases:
    if not url or url == "memory://":
        return MemoryLeases(owner, ttl_ms)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisLeases(url, owner, ttl_ms)
    raise ValueError(f"unknown lease URL {url!r}: use memory:// or redis://host:port")
