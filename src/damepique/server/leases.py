"""One writer per table across processes: leases with a time to live.

A process owns a table while it holds the table's lease and renews it well
before it expires; when the process dies the lease runs out and another
process takes the table over from the stored events. ``memory://`` leases
serve a single process; ``redis://`` ones use ``SET NX PX`` and compare-and-
renew scripts, so only the holder can renew or release.

>>> import asyncio
>>> leases = leases_from_url("memory://", owner="p1")
>>> asyncio.run(leases.acquire("T1")), asyncio.run(leases.holder("T1"))
(True, 'p1')
"""

from __future__ import annotations

import time
from typing import Any

DEFAULT_TTL_MS = 5000

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


def leases_from_url(url: str | None, owner: str, ttl_ms: int = DEFAULT_TTL_MS) -> Leases:
    if not url or url == "memory://":
        return MemoryLeases(owner, ttl_ms)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisLeases(url, owner, ttl_ms)
    raise ValueError(f"unknown lease URL {url!r}: use memory:// or redis://host:port")
