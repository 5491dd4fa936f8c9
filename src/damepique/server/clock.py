"""The app's one clock: every timer, deadline, grace period, expiry, timeout,
rate limit and back-off of the server reads it, so that time is an input.

``Clock`` is real time. ``ManualClock`` stands still until a test moves it
(``await clock.advance(seconds)``), firing what fell due in order, so "a table
nobody joins expires after its TTL" is tested by moving the clock, not by
sleeping, and a busy machine cannot change a test's outcome. The app holds one
(``Settings.clock``); nothing else in the server reads ``time`` or sleeps on
the event loop's clock for a rule (``tests/test_clock_use.py`` checks it).

>>> import asyncio
>>> async def demo() -> list[str]:
...     clock = ManualClock(start=1000.0)
...     said: list[str] = []
...     async def wait() -> None:
...         await clock.sleep(5)
...         said.append(f"woke at {clock.time():.0f}")
...     task = asyncio.create_task(wait())
...     await clock.advance(4)
...     said.append(f"still asleep at {clock.time():.0f}")
...     await clock.advance(1)
...     await task
...     return said
>>> asyncio.run(demo())
['still asleep at 1004', 'woke at 1005']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock:
    """Real time: ``time()`` is seconds since the epoch (what is stored and shown),
    ``monotonic()`` the seconds that intervals and deadlines are measured in."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, seconds: float, callback: Callable[..., object], *args: Any) -> Cancellable:
        return asyncio.get_running_loop().call_later(seconds, callback, *args)

    @asynccontextmanager
    async def timeout(self, seconds: float | None) -> AsyncIterator[None]:
        """Like ``asyncio.timeout``: the block is cancelled and ``TimeoutError``
        raised once ``seconds`` have passed on this clock."""
        async with asyncio.timeout(seconds):
            yield

    async def wait_for(self, awaitable: Awaitable[T], seconds: float | None) -> T:
        """Like ``asyncio.wait_for``, on this clock."""
        async with self.timeout(seconds):
            return await awaitable


class _Timer:
    """A callback due at a time of a ``ManualClock``; cancelled, it never fires."""

    __slots__ = ("args", "callback", "cancelled")

    def __init__(self, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.callback, self.args, self.cancelled = callback, args, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock(Clock):
    """A clock that moves only when told (tests, replays of a scenario).

    Its two readings move together: ``monotonic()`` starts at 0 and ``time()``
    at ``start``. Sleeps and ``call_later`` wait on this clock; ``advance``
    moves it through each due time in order (the timers due at one instant
    together, in the order they were set) and lets the event loop run what
    woke before going on, so a loop that sleeps one second ten times runs ten
    times in ``advance(10)``.
    """

    #: Event loop turns given to woken tasks after each due time: enough for a
    #: chain of awaits that does no I/O; a test that waits on I/O (a database
    #: write) waits on that, not on more turns.
    TURNS = 20

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._elapsed = 0.0
        self._start = start
        self._due: list[tuple[float, int, _Timer]] = []
        self._order = itertools.count()
        # A thread of the app with a loop of its own (the lease renewer) sleeps
        # on this clock too: the timers are set and taken under a lock.
        self._lock = threading.Lock()

    def time(self) -> float:
        return self._start + self._elapsed

    def monotonic(self) -> float:
        return self._elapsed

    def call_later(self, seconds: float, callback: Callable[..., object], *args: Any) -> Cancellable:
        timer = _Timer(callback, args)
        with self._lock:
            heapq.heappush(self._due, (self._elapsed + max(0.0, seconds), next(self._order), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        loop = asyncio.get_running_loop()
        woken = loop.create_future()

        def woke() -> None:
            if not woken.done():
                woken.set_result(None)

        def wake() -> None:
            # ``advance`` runs on the app's loop: a sleeper on another thread's
            # loop is woken there.
            if _running_loop() is loop:
                woke()
            else:
                loop.call_soon_threadsafe(woke)

        timer = self.call_later(seconds, wake)
        try:
            await woken
        finally:
            timer.cancel()

    @asynccontextmanager
    async def timeout(self, seconds: float | None) -> AsyncIterator[None]:
        async with asyncio.timeout(None) as scope:
            timer = None
            if seconds is not None:
                loop = asyncio.get_running_loop()
                timer = self.call_later(seconds, lambda: scope.reschedule(loop.time()))
            try:
                yield
            finally:
                if timer is not None:
                    timer.cancel()

    @property
    def pending(self) -> int:
        """Timers not yet fired nor cancelled."""
        with self._lock:
            return sum(not t.cancelled for _, _, t in self._due)

    def _take(self, until: float, exactly: bool = False) -> tuple[float, _Timer] | None:
        """The first timer due by ``until`` (or ``exactly`` then), taken off, with its time."""
        with self._lock:
            if not self._due or self._due[0][0] > until or (exactly and self._due[0][0] != until):
                return None
            at, _, timer = heapq.heappop(self._due)
            return at, timer

    async def settle(self) -> None:
        """Let the event loop run what is ready, without moving the clock: up to
        ``TURNS`` turns, fewer once nothing else is ready to run (a clock moved
        hours ahead fires thousands of ticks: each settles in a turn or two)."""
        loop = asyncio.get_running_loop()
        for _ in range(self.TURNS):
            await asyncio.sleep(0)
            if not getattr(loop, "_ready", True):  # (CPython's queue of what runs next)
                return

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward, firing every timer that falls due,
        in order, each at its own time."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        target = self._elapsed + seconds
        await self.settle()
        while (due := self._take(target)) is not None:
            at = due[0]
            fired = False
            while due is not None:  # all those due at this instant, in order
                timer = due[1]
                if not timer.cancelled:
                    self._elapsed = max(self._elapsed, at)
                    timer.callback(*timer.args)
                    fired = True
                due = self._take(at, exactly=True)
            if fired:
                await self.settle()
        self._elapsed = target
        await self.settle()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def from_env() -> Clock:
    """The clock a server process starts with: real time, or with
    ``DAMEPIQUE_CLOCK=manual`` a ``ManualClock`` set to the time now that only
    a test moves (``POST /api/test/clock``, a test hook: ``server/testing.py``)."""
    if os.environ.get("DAMEPIQUE_CLOCK") == "manual":
        # A whole second: every time it gives is then a whole number of
        # milliseconds, as the page's clock (set by a test) reads them; a
        # fraction rounded one way here and the other there made a page show
        # "Closes in 16 s" at 15 s.
        return ManualClock(start=float(int(time.time())))
    return Clock()
