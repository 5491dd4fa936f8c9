"""One runner of each thing across processes: leases with a time to live.

A process runs a thing (a table) while it holds the thing's lease, renewed
every second well before it expires; when the process dies its leases run
out and another process takes over. Two backends with one interface:
``SqlLeases``, rows of the app's database timed by the database's own clock
(what several processes share: a Redis restart never loses who owns what),
and ``MemoryLeases`` for a process alone (the default). The cluster's code
is the same on both.

>>> import asyncio
>>> leases = MemoryLeases("p1")
>>> asyncio.run(leases.acquire("T1")), asyncio.run(leases.holder("T1"))
(True, 'p1')
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import Select, delete, func, literal_column, select, update

from ..clock import Clock
from ..storage.database import Database
from ..storage.schema import leases as table
from ..storage.turns import Turns

DEFAULT_TTL_MS = 5000


class Leases:
    """The leases one process, ``owner``, holds."""

    owner: str
    ttl_ms: int

    async def acquire(self, name: str) -> bool:
        """Take the lease if free (or already ours); True when we hold it."""
        raise NotImplementedError

    async def renew_all(self) -> set[str]:
        """Extend every lease this process holds; returns their names."""
        raise NotImplementedError

    async def release(self, name: str) -> None:
        raise NotImplementedError

    async def release_all(self) -> None:
        raise NotImplementedError

    async def holders(self, names: list[str]) -> dict[str, str]:
        """The live holder of each of these leases (absent: nobody holds it)."""
        raise NotImplementedError

    async def holder(self, name: str) -> str | None:
        return (await self.holders([name])).get(name)

    async def unheld(self, names: Select[tuple[str]], limit: int = 100) -> list[str]:
        """Of the names a query gives (one column, ``name``), those nobody holds."""
        raise NotImplementedError


class MemoryLeases(Leases):
    """Leases inside one process (each instance is its own world). ``db``: where
    ``unheld``'s queries run; ``clock``: what times them (the app's)."""

    def __init__(
        self, owner: str, ttl_ms: int = DEFAULT_TTL_MS, db: Database | None = None, clock: Clock | None = None
    ) -> None:
        self.owner = owner
        self.clock = clock or (db.clock if db is not None else Clock())
        self.ttl_ms = ttl_ms
        self.db = db
        self._held: dict[str, tuple[str, float]] = {}

    def _current(self, name: str) -> str | None:
        entry = self._held.get(name)
        if entry is None or entry[1] < self.clock.monotonic():
            return None
        return entry[0]

    async def acquire(self, name: str) -> bool:
        if self._current(name) not in (None, self.owner):
            return False
        self._held[name] = (self.owner, self.clock.monotonic() + self.ttl_ms / 1000)
        return True

    async def renew_all(self) -> set[str]:
        until = self.clock.monotonic() + self.ttl_ms / 1000
        mine = {n for n, (h, _) in self._held.items() if h == self.owner and self._current(n) == h}
        for name in mine:
            self._held[name] = (self.owner, until)
        return mine

    async def release(self, name: str) -> None:
        if self._current(name) == self.owner:
            del self._held[name]

    async def release_all(self) -> None:
        for name in [n for n, e in self._held.items() if e[0] == self.owner]:
            del self._held[name]

    async def holders(self, names: list[str]) -> dict[str, str]:
        return {n: h for n in names if (h := self._current(n)) is not None}

    async def unheld(self, names: Select[tuple[str]], limit: int = 100) -> list[str]:
        if self.db is None:
            return []
        async with self.db.read() as conn:
            found = [str(r.name) for r in await conn.execute(names)]
        return [n for n in found if self._current(n) is None][:limit]


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
    says which are still its own; the cluster calls it every second, on
    ``renew_engine`` when given (connections of its own, so that a renewal
    never waits behind the app's queries)."""

    def __init__(
        self, db: Database, owner: str, ttl_ms: int = DEFAULT_TTL_MS, renew_engine: Any = None
    ) -> None:
        self.db = db
        self.engine = db.engine
        self.renew_engine = renew_engine or db.engine
        self.owner = owner
        self.ttl_ms = ttl_ms
        self._now = db_now(db.dialect)

    @contextlib.asynccontextmanager
    async def _write(self, engine: Any = None, urgent: bool = False) -> AsyncIterator[Any]:
        # SQLite has one writer: take the app's write lock (on this loop) first;
        # a renewal's turn comes before a crowd of other writes (``storage.turns``).
        lock: Turns | None = self.db.lock if engine is None or engine is self.engine else None
        async with contextlib.AsyncExitStack() as stack:
            if lock is not None:
                await stack.enter_async_context(lock.urgent() if urgent else lock)
            conn = await stack.enter_async_context((engine or self.engine).begin())
            yield conn

    def _insert(self) -> Any:
        # Both dialects spell "insert, or update when" the same way (ON CONFLICT).
        if self.db.dialect == "postgresql":
            from sqlalchemy.dialects import postgresql as dialect
        else:
            from sqlalchemy.dialects import sqlite as dialect  # type: ignore[no-redef]
        return dialect.insert(table)

    def _expires(self) -> Any:
        return self._now + self.ttl_ms / 1000

    async def acquire(self, name: str) -> bool:
        stmt = self._insert().values(name=name, holder=self.owner, expires=self._expires())
        stmt = stmt.on_conflict_do_update(
            index_elements=[table.c.name],
            set_={"holder": self.owner, "expires": self._expires()},
            where=(table.c.expires < self._now) | (table.c.holder == self.owner),
        ).returning(table.c.holder)
        async with self._write() as conn:
            return (await conn.execute(stmt)).first() is not None

    async def renew_all(self) -> set[str]:
        stmt = (
            update(table)
            .where(table.c.holder == self.owner)
            .values(expires=self._expires())
            .returning(table.c.name)
        )
        async with self._write(self.renew_engine, urgent=True) as conn:
            return {str(r.name) for r in await conn.execute(stmt)}

    async def release(self, name: str) -> None:
        async with self._write() as conn:
            await conn.execute(delete(table).where(table.c.name == name, table.c.holder == self.owner))

    async def release_all(self) -> None:
        async with self._write() as conn:
            await conn.execute(delete(table).where(table.c.holder == self.owner))

    async def holders(self, names: list[str]) -> dict[str, str]:
        if not names:
            return {}
        stmt = select(table.c.name, table.c.holder).where(
            table.c.name.in_(names), table.c.expires >= self._now
        )
        async with self.db.read() as conn:
            return {str(r.name): str(r.holder) for r in await conn.execute(stmt)}

    async def unheld(self, names: Select[tuple[str]], limit: int = 100) -> list[str]:
        sub = names.subquery()
        stmt = (
            select(sub.c.name)
            .select_from(sub.outerjoin(table, table.c.name == sub.c.name))
            .where((table.c.name.is_(None)) | (table.c.expires < self._now))
            .limit(limit)
        )
        async with self.db.read() as conn:
            return [str(r.name) for r in await conn.execute(stmt)]


__all__ = ["DEFAULT_TTL_MS", "Leases", "MemoryLeases", "SqlLeases", "db_now"]
