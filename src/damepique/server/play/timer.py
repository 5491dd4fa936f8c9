"""The turn timer: when the people who must act run out of time.

Armed for the people (never the bots) who must act in the position shown;
when it runs out, the runner has a bot act for them (``Runner.out_of_time``).
After a restart a turn keeps the time it had left, from the stored events'
times, but a player who ran out while the server was down gets
``RESUME_FLOOR_S`` to act.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence

from damepique.engine import PASS, Deal
from damepique.wire import TimerInfo, timer_info

from ..clock import Clock
from ..protocol import Json

RESUME_FLOOR_S = 5.0

Position = tuple[int, str | int]
"""(deal number, "pass" or the number of cards played): a waiting position."""


def position_of(deal: Deal) -> Position:
    return (deal.number, "pass") if deal.phase == PASS else (deal.number, len(deal.plays))


def stamp(events: list[Json], now: float) -> None:
    """Write down when each event happened (``at``, seconds since the epoch on
    the app's clock), in the stored log only: a restarted table gives a turn
    timer the time it had left (``TurnTimer.resume_from`` reads it back). The
    game itself keeps no clock; replays ignore the field."""
    now = round(now, 3)
    for e in events:
        e.setdefault("at", now)


class TurnTimer:
    def __init__(self, expire: Callable[[Position], Awaitable[None]], clock: Clock) -> None:
        self._expire = expire
        self.clock = clock
        self.deadline: float | None = None
        self.seconds = 0
        self.seats: list[int] = []
        self._key: Position | None = None
        self._task: asyncio.Task[None] | None = None
        self._resume_at: float | None = None
        """When the position waiting at a restart began (from the stored log)."""

    def info(self) -> TimerInfo | None:
        """The state messages' ``timer`` (None: the table has none)."""
        if not self.seconds:
            return None
        deadline = self.deadline
        return timer_info(
            self.seconds,
            list(self.seats) if deadline else [],
            None if deadline is None else round(deadline * 1000),
            None if deadline is None else max(0.0, round(deadline - self.clock.time(), 1)),
        )

    def arm(self, seconds: int, deal: Deal | None, waiting: Sequence[int]) -> None:
        """Time the position for the people in ``waiting`` (none: no timer runs)."""
        self.seconds = seconds
        if not seconds:  # most tables: nothing to arm, after every card
            if self._task is not None or self.deadline is not None:
                self.cancel()
            return
        if not waiting or deal is None:
            self.cancel()
            return
        key = position_of(deal)
        self.seats = list(waiting)
        if key == self._key and self._task is not None and not self._task.done():
            return
        self.cancel()
        self.seats = list(waiting)  # cancelling cleared them
        self._key = key
        now = self.clock.time()
        self.deadline = now + seconds
        if self._resume_at is not None:
            self.deadline = max(self._resume_at + seconds, now + RESUME_FLOOR_S)
            self._resume_at = None
        with contextlib.suppress(RuntimeError):  # no loop: nothing to time (a test building messages)
            self._task = asyncio.get_running_loop().create_task(self._wait(key, self.deadline - now))

    def cancel(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._task = None
        self._key = None
        self.deadline = None
        self.seats = []

    def resume_from(self, deal: Deal | None, events: Sequence[Json]) -> None:
        """Remember when the waiting position began, from the stored events: the
        deal that opened the passing, else the last event."""
        if not events or deal is None:
            return
        if deal.phase == PASS:
            opened = next((e for e in reversed(events) if e.get("type") == "deal"), None)
        else:
            opened = events[-1]
        at = None if opened is None else opened.get("at")
        self._resume_at = float(at) if isinstance(at, (int, float)) else None

    async def _wait(self, key: Position, seconds: float) -> None:
        await self.clock.sleep(seconds)
        if self._task is asyncio.current_task():
            self._task = None
        await self._expire(key)


__all__ = ["RESUME_FLOOR_S", "Position", "TurnTimer", "position_of", "stamp"]
