"""The summary of a finished deal, held open at a table until everybody has read it.

At a table with others, the deal that follows is dealt at once but waits:
no bot acts and no turn timer runs until every person at the table has said
``continue``, or ``SECONDS`` have passed. A solo game's page holds its own
summary (the bots wait there for the person anyway).

>>> from damepique.server.clock import ManualClock
>>> closed = []
>>> s = DealSummary(lambda: closed.append(True), ManualClock())
>>> s.open(0, [0, 2])
>>> s.holding, s.read(2, 0), s.info()["waiting"], s.read(0, 0), s.holding, closed
(True, True, [0], True, False, [True])
>>> s.open(1, [0, 2]); s.keep([0, 1]); s.info()["waiting"], s.holding
([0], True)
>>> s.keep([1]); s.holding, closed
(False, [True, True])
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable

from damepique.wire import SummaryInfo, summary_info

from ..clock import Clock

SECONDS = 15.0


class DealSummary:
    def __init__(self, on_close: Callable[[], None], clock: Clock) -> None:
        self._on_close = on_close
        self.clock = clock
        self.deal: int | None = None
        self.waiting: set[int] = set()
        self.deadline: float | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def holding(self) -> bool:
        """Bots and timers wait (somebody is still reading)."""
        return self.deal is not None

    def open(self, deal: int, readers: Iterable[int]) -> None:
        """Deal ``deal`` ended: hold until each of ``readers`` read it (none: nothing is held)."""
        self.cancel()
        waiting = set(readers)
        if not waiting:
            return
        self.deal, self.waiting = deal, waiting
        self.deadline = self.clock.time() + SECONDS
        with contextlib.suppress(RuntimeError):  # no loop: nothing to time (a test building messages)
            self._task = asyncio.get_running_loop().create_task(self._expire())

    def read(self, seat: int, deal: int) -> bool:
        """``seat`` read the summary of ``deal``; True when that changed anything."""
        if deal != self.deal or seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self.close()
        return True

    def keep(self, readers: Iterable[int]) -> None:
        """Wait only for those of ``readers`` still waited for (a person left the
        table or a bot took their seat: nobody will press "Continue" there);
        once nobody is left, it closes."""
        if self.deal is None:
            return
        self.waiting &= set(readers)
        if not self.waiting:
            self.close()

    def info(self) -> SummaryInfo | None:
        """The state messages' ``summary``: the deal, who is still reading, until when (ms)."""
        if self.deal is None or self.deadline is None:
            return None
        return summary_info(self.deal, sorted(self.waiting), round(self.deadline * 1000))

    def close(self) -> None:
        was = self.holding
        self.cancel()
        if was:
            self._on_close()

    def cancel(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None
        self.deal, self.waiting, self.deadline = None, set(), None

    async def _expire(self) -> None:
        await self.clock.sleep(SECONDS)
        self._task = None
        self.close()


__all__ = ["SECONDS", "DealSummary"]
