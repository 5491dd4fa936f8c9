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
    broker: Broker, name: str, clock: Clock, first: Callable[[], Awaitable[list[str]]] | None = None
) -> AsyncIterator[str]:
    """A newline-delimited stream of what is published on the broker channel
    ``name``, a message a line, for as long as the client reads: an empty line
    once subscribed (a client that has read it misses nothing after it), the
    lines ``first`` gives (what was pending), then each message, and an empty
    line every ``KEEPALIVE_S`` seconds of the app's clock."""
    async with broker.subscribe(name) as messages:
        yield "\n"
        for line in await first() if first is not None else []:
            yield line
        # A task reads the subscription: a read cancelled by the keep-alive's
        # timeout would close it, a queue's get is cancelled harmlessly.
        queue: asyncio.Queue[str] = asyncio.Queue()

        async def pump() -> None:
            async for message in messages:
                await queue.put(message)

        task = asyncio.create_task(pump())
        try:
            while True:
                try:
                    message = await clock.wait_for(queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield "\n"
                    continue
                yield message + "\n"
        finally:
            task.cancel()


__all__ = ["KEEPALIVE_S", "channel", "follow", "tell"]
