"""An account's events: what its event stream (``GET /api/stream/event``,
``docs/bot-api.md``) tells it, published on the broker so that the process
holding the stream hears it whichever process the event happened in.

>>> channel("k123")
'account-events:k123'
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

from ..clock import Clock
from ..protocol import dumps
from .broker import Broker

KEEPALIVE_S = 20.0
"""An empty line this often on a stream, so that proxies keep it open."""


def channel(account: str) -> str:
    """The broker channel of ``account``'s events."""
    return f"account-events:{account}"


async def tell(broker: Broker, account: str, event: Mapping[str, object]) -> None:
    """Publish ``event`` (``{"type": ...}``) to ``account``'s event streams, if any."""
    await broker.publish(channel(account), dumps(event))


async def follow(
    broker: Broker,
    name: str,
    clock: Clock,
    stopping: asyncio.Event,
    first: Callable[[], Awaitable[list[str]]] | None = None,
) -> AsyncIterator[str]:
    """A newline-delimited stream of what is published on the broker channel
    ``name``, a message a line, for as long as the client reads or until
    ``stopping`` is set (the server stops: it waits for every open response to
    end, and a client may read for ever): an empty line once subscribed (a
    client that has read it misses nothing after it), the lines ``first``
    gives (what was pending), then each message, and an empty line every
    ``KEEPALIVE_S`` seconds of the app's clock."""
    async with broker.subscribe(name) as messages:
        yield "\n"
        for line in await first() if first is not None else []:
            yield line
        # A task reads the subscription: a read cancelled by the keep-alive's
        # timeout would close it, a queue's get is cancelled harmlessly. Another
        # puts None in the queue when the server stops: the end of the stream.
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        async def pump() -> None:
            async for message in messages:
                await queue.put(message)

        async def stop() -> None:
            await stopping.wait()
            await queue.put(None)

        tasks = [asyncio.create_task(pump()), asyncio.create_task(stop())]
        try:
            while True:
                try:
                    message = await clock.wait_for(queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield "\n"
                    continue
                if message is None:
                    return
                yield message + "\n"
        finally:
            for task in tasks:
                task.cancel()


__all__ = ["KEEPALIVE_S", "channel", "follow", "tell"]
