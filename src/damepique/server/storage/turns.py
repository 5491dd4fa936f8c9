"""The database's one write lock, taken in turns by urgent writes and the others.

SQLite has one writer, so every write of the app takes one lock. Taken first
come, first served (``asyncio.Lock``), a card's group commit that arrives
behind a crowd of other writes waits for all of them: when thousands of
tables start at once (each writes its game and its table row), every card
played meanwhile waited seconds before anyone saw it (and, with a broker on
one machine, a lease renewal waited past its lease's end). Here the lock is
handed over in turns: an *urgent* write (the event log's group commit, the
renewal of the leases) waiting goes after at most one other write, and the
other writes go one between two urgent ones, so neither kind ever waits for
the whole queue of the other. Within a kind, first come, first served. The
lock passes straight to the next holder on release: nobody arriving
meanwhile cuts in.

>>> import asyncio
>>> async def demo() -> list[str]:
...     lock, order = Turns(), []
...     async def write(name: str, log: bool) -> None:
...         async with lock.urgent() if log else lock:
...             order.append(name)
...     await lock.acquire()  # a write holds it; three more and a card's commit queue up
...     tasks = [asyncio.create_task(write(n, n == "card")) for n in ("w1", "w2", "w3", "card")]
...     await asyncio.sleep(0)
...     lock.release()
...     await asyncio.gather(*tasks)
...     return order
>>> asyncio.run(demo())
['card', 'w1', 'w2', 'w3']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator
from types import TracebackType

OTHER = 0
URGENT = 1


class Turns:
    """The write lock: ``async with lock`` for a write, ``async with lock.urgent()``
    for an urgent one."""

    def __init__(self) -> None:
        self._held = False
        self._kind = OTHER
        """The kind that holds the lock (or held it last)."""
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (deque(), deque())

    def locked(self) -> bool:
        return self._held

    async def acquire(self, kind: int = OTHER) -> None:
        if not self._held:
            self._held, self._kind = True, kind
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[kind].append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed the lock, then cancelled: hand it on
            else:
                with contextlib.suppress(ValueError):
                    self._waiting[kind].remove(waiter)
            raise

    def release(self) -> None:
        """Hand the lock to the other kind's first waiter if any, else to this kind's."""
        if not self._held:
            raise RuntimeError("the write lock is not held")
        for kind in (1 - self._kind, self._kind):
            queue = self._waiting[kind]
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    self._kind = kind
                    waiter.set_result(None)
                    return
        self._held = False

    async def __aenter__(self) -> None:
        await self.acquire(OTHER)

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()

    @contextlib.asynccontextmanager
    async def urgent(self) -> AsyncIterator[None]:
        """The lock for an urgent write (its turn comes after one other write at most)."""
        await self.acquire(URGENT)
        try:
            yield
        finally:
            self.release()


__all__ = ["OTHER", "URGENT", "Turns"]
