"""Messages between server processes: a broker chosen by URL.

``memory://`` (the default) keeps everything in this process; ``redis://``
uses Redis publish/subscribe so table events and lobby updates reach every
process. Subscriptions survive a Redis restart: they reconnect and
resubscribe by themselves (messages published while Redis was down are lost,
which is why tables are rebuilt from the store, never from the broker).

>>> broker_from_url("memory://").url
'memory://'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..clock import Clock

log = logging.getLogger(__name__)


async def _messages(queue: asyncio.Queue[str]) -> AsyncIterator[str]:
    """A subscription's messages, as they come."""
    while True:
        yield await queue.get()


class Broker:
    """Publish/subscribe on named channels; messages are strings."""

    url: str

    async def start(self) -> None:
        """Connect (no-op for memory)."""

    async def stop(self) -> None:
        """Disconnect."""

    async def publish(self, channel: str, message: str) -> int:
        """Send to every current subscriber; returns how many there were (0: nobody
        listens, e.g. the process that did has died)."""
        raise NotImplementedError

    async def listeners(self, channel: str) -> int | None:
        """How many subscribe to ``channel`` now (0: a process that did has died:
        the broker drops a dead process's subscriptions at once); None when the
        broker cannot say (it is away)."""
        raise NotImplementedError

    def subscribe(
        self, channel: str, on_reconnect: Callable[[], None] | None = None
    ) -> contextlib.AbstractAsyncContextManager[AsyncIterator[str]]:
        """``async with broker.subscribe(ch) as messages: async for m in messages: ...``

        ``on_reconnect`` is called each time the subscription comes back after a
        lost connection: messages published meanwhile were lost, so whoever
        relies on them should catch up (for instance reconnect its pages)."""
        raise NotImplementedError


class MemoryBroker(Broker):
    """One process: subscribers get their own queue per subscription."""

    def __init__(self) -> None:
        self.url = "memory://"
        self._queues: dict[str, set[asyncio.Queue[str]]] = {}

    async def publish(self, channel: str, message: str) -> int:
        queues = list(self._queues.get(channel, ()))
        for queue in queues:
            queue.put_nowait(message)
        return len(queues)

    async def listeners(self, channel: str) -> int | None:
        return len(self._queues.get(channel, ()))

    @contextlib.asynccontextmanager
    async def subscribe(
        self, channel: str, on_reconnect: Callable[[], None] | None = None
    ) -> AsyncIterator[AsyncIterator[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._queues.setdefault(channel, set()).add(queue)

        try:
            yield _messages(queue)
        finally:
            subscribers = self._queues.get(channel)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._queues[channel]


class RedisBroker(Broker):
    """Redis publish/subscribe through redis-py's asyncio client."""

    RETRY_SECONDS = 0.2

    def __init__(self, url: str, clock: Clock | None = None) -> None:
        self.url = url
        self.clock = clock or Clock()
        """What the retries wait on (the app's clock)."""
        self._redis: Any = None

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url, decode_responses=True)

    async def stop(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    async def publish(self, channel: str, message: str) -> int:
        """Publish, retrying while Redis is unreachable (a restart takes a moment;
        bound the wait with ``Clock.wait_for`` where that matters)."""
        import redis.exceptions

        if self._redis is None:
            await self.start()
        while True:
            try:
                return int(await self._redis.publish(channel, message))
            except (redis.exceptions.ConnectionError, OSError) as e:
                log.warning("redis publish on %s failed (%s); retrying", channel, e)
                await self.clock.sleep(self.RETRY_SECONDS)

    async def listeners(self, channel: str) -> int | None:
        import redis.exceptions

        if self._redis is None:
            await self.start()
        try:
            counts = await self._redis.pubsub_numsub(channel)
        except (redis.exceptions.ConnectionError, OSError):
            return None
        return int(counts[0][1]) if counts else 0

    @contextlib.asynccontextmanager
    async def subscribe(
        self, channel: str, on_reconnect: Callable[[], None] | None = None
    ) -> AsyncIterator[AsyncIterator[str]]:
        import redis.exceptions

        if self._redis is None:
            await self.start()
        queue: asyncio.Queue[str] = asyncio.Queue()
        ready = asyncio.Event()

        async def pump() -> None:
            # Reconnects and resubscribes after a lost connection.
            while True:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.subscribe(channel)
                    if ready.is_set() and on_reconnect is not None:
                        on_reconnect()
                    ready.set()
                    while True:
                        msg = await pubsub.get_message(timeout=1.0)
                        if msg is not None and msg.get("type") == "message":
                            queue.put_nowait(msg["data"])
                except (redis.exceptions.ConnectionError, OSError) as e:
                    log.warning("redis subscription to %s lost (%s); reconnecting", channel, e)
                    await self.clock.sleep(self.RETRY_SECONDS)
                finally:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()

        task = asyncio.create_task(pump())
        await ready.wait()

        try:
            yield _messages(queue)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def broker_from_url(url: str | None, clock: Clock | None = None) -> Broker:
    """``memory://`` (default) or ``redis://host:port/db`` (retrying on ``clock``)."""
    if not url or url == "memory://":
        return MemoryBroker()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroker(url, clock)
    raise ValueError(f"unknown broker URL {url!r}: use memory:// or redis://host:port")
