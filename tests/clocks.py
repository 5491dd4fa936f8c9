"""Time in tests: move the app's clock, then wait for what it set off.

A test hands the app a ``ManualClock`` (``Settings(clock=ManualClock())``) and
moves it; what falls due runs at once, in order. What it sets off may then
write to the database (a thread): ``until`` waits for the outcome itself,
turning the event loop, never sleeping. Its time limit is generous and is
never what a test is about: it only stops a test that would hang.

In a synchronous test with a ``TestClient``, the app's event loop is the
client's portal's: ``move`` and ``wait`` run there.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from damepique.server.clock import ManualClock

WITHIN = 60.0
"""Seconds of real time after which a wait fails the test (a hang, not a slow machine)."""


async def until(
    predicate: Callable[[], bool | Awaitable[bool]],
    within: float = WITHIN,
    clock: ManualClock | None = None,
    step: float = 1.0,
) -> None:
    """Return once ``predicate()`` holds, letting the event loop (and its threads)
    run. With ``clock``, the clock also moves on by ``step`` at each look: for
    what is due at a time already passed, done on the next round of a loop that
    was busy (a database write) when the clock passed it."""
    async with asyncio.timeout(within):
        while True:
            got = predicate()
            if inspect.isawaitable(got):
                got = await got
            if got:
                return
            if clock is None:
                await asyncio.sleep(0)
            else:
                await clock.advance(step)


def move(client: Any, clock: ManualClock, seconds: float) -> None:
    """Move the clock of the app a ``TestClient`` runs, in the app's event loop."""
    assert client.portal is not None, "use the TestClient as a context manager"
    client.portal.call(clock.advance, seconds)


def wait(
    client: Any,
    predicate: Callable[[], bool | Awaitable[bool]],
    clock: ManualClock | None = None,
    within: float = WITHIN,
) -> None:
    """``until``, in the event loop of the app a ``TestClient`` runs."""
    assert client.portal is not None, "use the TestClient as a context manager"
    client.portal.call(until, predicate, within, clock)
