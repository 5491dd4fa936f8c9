"""Turns at a few workers, shared fairly by the clients that want them.

Password hashing and record replays are slow work done by a few workers
(threads, a process). One first-come queue for everybody lets one client, or
a hundred addresses at once, fill it and refuse everybody else. Here each
client (an address, or an account) has a lane of its own, holding at most
``per_client`` turns waiting; the workers serve the lanes in turn (round
robin), so a newcomer waits for at most one turn of each client already
waiting, however many turns those clients asked for. Past ``per_client`` a
client is refused (``busy``); past ``waiting`` in all (a bound on memory,
far above what the workers serve in a few seconds) everybody is.

>>> import asyncio
>>> async def demo() -> list[str]:
...     queue, order = FairQueue(workers=1, per_client=3), []
...     async def job(client: str, n: int) -> None:
...         async with queue.turn(client):
...             order.append(f"{client}{n}")
...             await asyncio.sleep(0)
...     jobs = [job("a", 1), job("a", 2), job("a", 3), job("b", 1), job("c", 1)]
...     await asyncio.gather(*jobs)
...     return order
>>> asyncio.run(demo())
['a1', 'b1', 'c1', 'a2', 'a3']
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

from .errors import Refusal


class FairQueue:
    """Start-time fair queueing: each turn is tagged with the later of the tag
    being served now and one past its client's previous turn, and the lowest
    tag goes first: clients take turns, whatever each of them asked for."""

    def __init__(
        self, workers: int = 1, per_client: int = 2, waiting: int = 1024, what: str = "work"
    ) -> None:
        self.workers = workers
        self.per_client = per_client
        self.waiting = waiting
        self.what = what
        """What is waited for, in the refusal's reason ("records", "sign-ins")."""
        self.running = 0
        self._heap: list[tuple[int, int, str, asyncio.Future[None]]] = []
        self._count: dict[str, int] = {}
        self._waiting_now = 0
        """Turns waiting, those given up excluded (they stay in the heap until their tag comes)."""
        self._last: dict[str, int] = {}
        self._now = 0
        self._seq = itertools.count()

    def queued(self, client: str | None = None) -> int:
        """Turns waiting (for ``client``, or for everybody)."""
        return self._waiting_now if client is None else self._count.get(client, 0)

    def _tag(self, client: str) -> int:
        tag = max(self._now, self._last.get(client, 0))
        self._last[client] = tag + 1
        if len(self._last) > 4 * self.waiting:  # forget who is no further ahead than now
            self._last = {c: t for c, t in self._last.items() if t > self._now}
        return tag

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Wait for a worker's turn for ``client`` and hold it; ``Refusal("busy")``
        at once when this client (or everybody) already waits for too many."""
        if self.running < self.workers and not self._waiting_now:
            self.running += 1
            self._now = self._tag(client)
        else:
            if self._count.get(client, 0) >= self.per_client or self._waiting_now >= self.waiting:
                raise Refusal("busy", f"too many {self.what} waiting; try again in a moment", retry_after=2)
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._heap, (self._tag(client), next(self._seq), client, granted))
            self._count[client] = self._count.get(client, 0) + 1
            self._waiting_now += 1
            try:
                await granted
            except BaseException:
                if granted.done() and not granted.cancelled():
                    self._release()  # granted just as it was given up: hand it on
                else:
                    granted.cancel()  # left in the heap, skipped when its tag comes
                    self._forget(client)
                raise
        try:
            yield
        finally:
            self._release()

    def _forget(self, client: str) -> None:
        self._waiting_now -= 1
        n = self._count[client] - 1
        if n:
            self._count[client] = n
        else:
            del self._count[client]

    def _release(self) -> None:
        """A turn is over: the lowest tag waiting gets the worker."""
        self.running -= 1
        while self._heap and self.running < self.workers:
            tag, _, client, granted = heapq.heappop(self._heap)
            if granted.done():  # given up while waiting
                continue
            self._forget(client)
            self._now = tag
            self.running += 1
            granted.set_result(None)


__all__ = ["FairQueue"]
