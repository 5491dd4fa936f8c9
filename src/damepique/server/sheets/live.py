"""The score sheets' live readers: a shared sheet's page gets it again after every change.

A change made at any process reaches the readers of every process: each
change is published on a shared channel (``damepique:sheets``) and each
process hands it to its own readers.
"""

from __future__ import annotations

import asyncio

from ..cluster.node import Node
from ..protocol import Json

CHANNEL = "damepique:sheets"


class Watchers:
    """The live readers of each shared sheet, in this process."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self._queues: dict[str, set[asyncio.Queue[str]]] = {}
        node.subscribe(CHANNEL, self._news)

    def watch(self, read_id: str) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=16)
        self._queues.setdefault(read_id, set()).add(queue)
        return queue

    def unwatch(self, read_id: str, queue: asyncio.Queue[str]) -> None:
        watchers = self._queues.get(read_id)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self._queues[read_id]

    def count(self, read_id: str) -> int:
        return len(self._queues.get(read_id, ()))

    async def changed(self, read_id: str, text: str) -> None:
        """A sheet changed: its readers everywhere get ``text``."""
        await self.node.publish(CHANNEL, {"read": read_id, "text": text})

    async def _news(self, m: Json) -> None:
        for queue in list(self._queues.get(str(m["read"]), ())):
            # A reader too slow to keep up only needs the newest sheet.
            while queue.full():
                queue.get_nowait()
            queue.put_nowait(str(m["text"]))


__all__ = ["CHANNEL", "Watchers"]
