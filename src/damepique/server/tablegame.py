"""The game at a multiplayer table: the solo ``Runner`` plus turn timers and
stand-in bots for players who are away or left, and the hub that sends each
connection of the table its seat's messages (a spectator's carry nothing
private).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any, Protocol

from damepique.engine import PASS
from damepique.engine.views import public_json

from .games import Pace, Runner, public_event
from .hub import Bases, texts_for
from .store import GameRow, Store
from .table import Table
from .thinking import Thinker

if TYPE_CHECKING:
    from .multiplayer import MultiTable

log = logging.getLogger("damepique.server")

TIMEOUT_LEVEL = "intermediate"
STAND_IN_LEVEL = "intermediate"
RESUME_FLOOR_S = 5.0
"""Seconds a player is left to act when their turn ran out while the server was down."""


class Conn(Protocol):
    async def send_text(self, data: str) -> None:
        """Send one text frame. The hub runs it up to its first wait in the
        broadcasting task and finishes it, if it waits, in another task: it must
        not enter anything bound to the current task (``asyncio.timeout``, a
        ``TaskGroup``) before that first wait."""


def spectator_view(table: Table) -> dict[str, Any] | None:
    """What everybody at the table sees: a seat's view without anything private."""
    deal = table.deal
    if deal is None:
        return None
    return public_json(deal, table.totals_before(deal))


class TableHub:
    """The runner's hub for one table: each connection gets its seat's message
    (``-1`` builds a spectator's)."""

    def __init__(self, mt: MultiTable) -> None:
        self.mt = mt
        self._bases: Bases = {}

    def connections(self, _game_id: str) -> int:
        return len(self.mt.conns)

    async def send(self, conn: Conn, msg: dict[str, Any]) -> None:
        await self.mt.send(conn, msg)

    async def broadcast(self, _game_id: str, text_for: Callable[[int], str]) -> None:
        """Send every connection its seat's message, each text built once per seat.

        A connection that asked for patches (``hello`` with ``"patches": true``)
        and got the previous update for the same seat gets only what changed
        (``hub.texts_for``); any other gets the whole state.

        Each send starts at once, here: to a local socket it completes without
        waiting (the text goes to the socket's buffer), and then costs no task,
        no timer and no gather, which were a sixth of the server's time per
        card. A send that must wait (a full buffer, a connection relayed through
        another process) goes on in a task of its own with the usual 10 s limit,
        all of them concurrently, so a slow reader never holds up the others
        for longer than that."""
        targets = []
        for conn, seat in list(self.mt.conns.items()):
            s = -1 if seat is None else seat
            if s >= 0 or self.mt.options.spectators:
                targets.append((conn, s))
        texts, self._bases = texts_for(text_for, targets, self._bases)
        waiting = []
        for conn, text in texts:
            rest = start_send(conn, text)
            if rest is not None:
                waiting.append(rest)
        if waiting:
            await asyncio.gather(*waiting)

    def forget(self, conn: Conn) -> None:
        """``conn`` got a whole state outside a broadcast: its next update is whole too."""
        self._bases.pop(conn, None)


SEND_TIMEOUT = 10.0
"""Seconds a send may wait for a connection's buffer before it is given up."""


def start_send(conn: Conn, text: str) -> Coroutine[Any, Any, None] | None:
    """Run ``conn.send_text(text)`` up to its first wait: None when it finished
    (or failed: a closed connection's reader detaches it), else a coroutine
    that finishes the send within ``SEND_TIMEOUT``, failures ignored as well."""
    coro = conn.send_text(text)
    try:
        first = coro.send(None)
    except StopIteration:
        return None
    except Exception:
        return None
    return _finish_send(coro, first)


async def _finish_send(coro: Coroutine[Any, Any, None], first: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(_Resumed(coro, first), SEND_TIMEOUT)


class _Resumed:
    """An awaitable that carries on a coroutine stopped at its first wait, which
    yielded ``first``: what ``await coro`` would have done from there on (each
    value the task sends or throws in is passed through, so a timeout's
    cancellation reaches the send and releases what it holds)."""

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, None]:
        coro, value = self.coro, self.first
        while True:
            try:
                sent = yield value
            except BaseException as e:
                try:
                    value = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    value = coro.send(sent)
                except StopIteration:
                    return


class _ResultsFirst:
    """The game store, but storing a game's end also records its results and
    ratings (the runner calls ``finish`` after the last events are stored and
    before they are broadcast)."""

    def __init__(self, store: Store, runner: MultiRunner) -> None:
        self._store = store
        self._runner = runner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def finish(
        self, game_id: str, totals: list[int], winner: int | None, record: dict[str, Any]
    ) -> None:
        await self._store.finish(game_id, totals, winner, record)
        await self._runner.mt.game_over(self._runner, announce=False)


class MultiRunner(Runner):
    """A runner with turn timers and stand-in bots for absent players."""

    def __init__(
        self, game: GameRow, table: Table, store: Store, mt: MultiTable, thinker: Thinker, pace: Pace
    ):
        self.table_hub = TableHub(mt)
        super().__init__(game, table, _ResultsFirst(store, self), self.table_hub, thinker, pace)  # type: ignore[arg-type]
        self.mt = mt
        self.deadline: float | None = None
        self._resume_at: float | None = None
        """When the position waiting at a restart began (from the stored log)."""
        self._timer: asyncio.Task[None] | None = None
        self._timer_key: Any = None
        self._timer_seats: list[int] = []

    @property
    def speed(self) -> str:
        return self.mt.options.speed

    # -- messages ----------------------------------------------------------------------

    def _common(self) -> dict[str, Any]:
        # The timer starts when the position is first shown, so the message carries its deadline.
        self.rearm()
        msg = super()._common()
        msg["mode"] = "table"
        msg["spectator"] = False
        msg["table"] = self.mt.info()
        msg["timer"] = self.timer_info()
        return msg

    def _seat_state(
        self, common: dict[str, Any], seat: int, event: dict[str, Any] | None, ack: Any
    ) -> dict[str, Any]:
        if seat >= 0:
            return super()._seat_state(common, seat, event, ack)
        # A spectator: the public view as it is, nothing private.
        msg = dict(common)
        msg["level"] = self.mt.options.level
        msg["event"] = public_event(event, -1)
        msg["spectator"] = True
        if ack is not None:
            msg["ack"] = ack
        return msg

    def timer_info(self) -> dict[str, Any] | None:
        if not self.mt.options.timer:
            return None
        return {
            "seconds": self.mt.options.timer,
            "seats": list(self._timer_seats) if self.deadline else [],
            "deadline": None if self.deadline is None else round(self.deadline * 1000),
            "remaining": None if self.deadline is None else max(0.0, round(self.deadline - time.time(), 1)),
        }

    # -- who plays a seat ------------------------------------------------------------------

    def stand_in(self, seat: int) -> bool:
        """A bot plays this seat now (a bot's seat, or a player who left or is away)."""
        if self.table.seats[seat].kind == "bot":
            return True
        ms = self.mt.seats[seat]
        return ms.left or ms.away

    def _bot_seats(self) -> list[int]:
        return [s for s in self.table.waiting_on() if self.stand_in(s)]

    def _bot_for(self, seat: int) -> tuple[str, str | None]:
        own = self.table.seats[seat]
        if own.kind == "bot":
            return own.level or "random", None
        return STAND_IN_LEVEL, "stand_in"  # a player who is away

    # -- commits: timers and results ------------------------------------------------------------

    async def _commit(self, new: list[dict[str, Any]], ack_seat: int | None = None, ack: Any = None) -> None:
        await super()._commit(new, ack_seat, ack)
        self._arm()
        if self.table.over:
            await self.mt.announce()

    def _arm(self) -> None:
        """Start the turn timer for the people who must act now (bots have none)."""
        seconds = self.mt.options.timer
        if not seconds:  # most tables: nothing to arm, after every card
            if self._timer is not None or self.deadline is not None:
                self._cancel_timer()
            return
        waiting = [] if self.table.over else [s for s in self.table.waiting_on() if not self.stand_in(s)]
        if not waiting:
            self._cancel_timer()
            return
        deal = self.table.deal
        assert deal is not None
        key = (deal.number, "pass") if deal.phase == PASS else (deal.number, len(deal.plays))
        self._timer_seats = waiting
        if key == self._timer_key and self._timer is not None and not self._timer.done():
            return
        self._cancel_timer()
        self._timer_seats = waiting  # cancelling cleared them
        self._timer_key = key
        now = time.time()
        self.deadline = now + seconds
        if self._resume_at is not None:
            # After a restart the turn keeps the time it had left, but a player
            # who ran out while the server was down gets a moment to act.
            self.deadline = max(self._resume_at + seconds, now + RESUME_FLOOR_S)
            self._resume_at = None
        self._timer = asyncio.get_running_loop().create_task(self._expire(key, self.deadline - now))

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.deadline = None
        self._timer_seats = []

    def resume_from(self, events: list[dict[str, Any]]) -> None:
        """Remember when the waiting position began, from the stored events: the
        deal that opened the passing, else the last event."""
        deal = self.table.deal
        if not events or deal is None:
            return
        if deal.phase == PASS:
            opened = next((e for e in reversed(events) if e.get("type") == "deal"), None)
        else:
            opened = events[-1]
        at = None if opened is None else opened.get("at")
        self._resume_at = float(at) if isinstance(at, (int, float)) else None

    def rearm(self) -> None:
        """After a seat changed hands (away, back, left): the timer follows."""
        with contextlib.suppress(RuntimeError):
            self._arm()

    async def _expire(self, key: Any, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self._timer is asyncio.current_task():
            self._timer = None
        try:
            await self._play_out_of_time(key)
        finally:
            self.kick()

    async def _play_out_of_time(self, key: Any) -> None:
        while not self.broken and not self.table.over:
            deal = self.table.deal
            if deal is None:
                return
            now = (deal.number, "pass") if deal.phase == PASS else (deal.number, len(deal.plays))
            if now != key:
                return
            seats = [s for s in self.table.waiting_on() if not self.stand_in(s)]
            if not seats:
                return
            seat = seats[0]

            def still(seat: int = seat) -> bool:
                d = self.table.deal
                if d is None:
                    return False
                k = (d.number, "pass") if d.phase == PASS else (d.number, len(d.plays))
                return k == key and seat in self.table.waiting_on() and not self.stand_in(seat)

            before = len(self.table.log)
            if not await self._act_for(seat, TIMEOUT_LEVEL, "timeout", still):
                return
            if len(self.table.log) > before:
                await self.mt.notice("timeout", seat)

    async def stop(self) -> None:
        self._cancel_timer()
        await super().stop()


__all__ = ["RESUME_FLOOR_S", "STAND_IN_LEVEL", "TIMEOUT_LEVEL", "MultiRunner", "TableHub", "spectator_view"]
