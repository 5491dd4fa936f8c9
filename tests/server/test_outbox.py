"""A connection's outbox (``asgi.Connection.post``): sends never wait,
go out in order, and a reader that does not read is closed without holding
up the table or the others (``play.hub.Hub.broadcast``)."""

from __future__ import annotations

import asyncio
from typing import Any

from damepique.server.asgi import SEND_TIMEOUT, TOO_SLOW, Connection, RateLimit
from damepique.server.clock import ManualClock
from damepique.server.play.hub import Hub

from ..clocks import until


class Socket:
    """Sends wait while ``full`` is clear (a reader that does not read)."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.closed: tuple[int, str | None] | None = None
        self.busy = 0
        self.full = asyncio.Event()
        self.full.set()

    async def send_text(self, data: str) -> None:
        assert self.busy == 0, "two sends at once"
        self.busy += 1
        try:
            await self.full.wait()
            self.got.append(data)
        finally:
            self.busy -= 1

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


class Broken(Socket):
    async def send_text(self, data: str) -> None:
        raise RuntimeError("the peer is gone")


async def test_a_send_with_room_is_done_on_the_spot() -> None:
    socket = Socket()
    conn = Connection(socket)
    conn.post("a")
    assert socket.got == ["a"] and conn._writer is None  # no task, no wait


async def test_sends_that_wait_go_out_later_in_order_without_holding_the_caller() -> None:
    socket = Socket()
    socket.full.clear()
    conn = Connection(socket)
    for i in range(5):
        conn.post(str(i))  # returns at once every time
    assert socket.got == [] and conn._writer is not None
    socket.full.set()
    await conn._writer
    assert socket.got == ["0", "1", "2", "3", "4"] and socket.busy == 0
    conn.post("5")
    assert socket.got[-1] == "5" and conn._writer is None


async def test_a_reader_that_does_not_read_is_closed_once_its_queue_is_full() -> None:
    socket = Socket()
    socket.full.clear()
    conn = Connection(socket)
    reader = asyncio.get_running_loop().create_future()  # stands for the task reading its frames
    conn.reader = reader  # type: ignore[assignment]
    for i in range(conn.max_queue + 2):
        conn.post(str(i))
    await until(lambda: reader.cancelled())
    assert conn.closed and reader.cancelled() and socket.closed is not None
    assert socket.closed[0] == TOO_SLOW
    conn.post("after")  # nothing more is queued for it
    assert not conn._queue


async def test_a_send_that_waits_too_long_closes_the_connection() -> None:
    clock = ManualClock()
    socket = Socket()
    socket.full.clear()
    conn = Connection(socket, clock=clock)
    conn.post("x")
    await clock.advance(SEND_TIMEOUT - 0.1)
    assert not conn.closed  # still within its time
    await clock.advance(0.1)
    await until(lambda: socket.closed is not None)
    assert conn.closed and socket.closed[0] == TOO_SLOW and socket.got == []


async def test_the_rate_of_messages_is_counted_on_the_app_s_clock() -> None:
    clock = ManualClock()
    conn = Connection(Socket(), clock=clock, limit=RateLimit(rate=2.0, burst=3))
    assert [conn.allow() for _ in range(4)] == [True, True, True, False]  # the burst, then refused
    await clock.advance(0.5)
    assert [conn.allow(), conn.allow()] == [True, False]  # one more every 1 / rate seconds
    await clock.advance(10)
    assert [conn.allow() for _ in range(4)] == [True, True, True, False]  # never more than the burst


async def test_a_lost_peer_is_marked_closed_and_never_raises() -> None:
    conn = Connection(Broken())
    conn.post("x")
    conn.post("y")
    assert conn.closed


async def test_a_stuck_reader_does_not_hold_up_the_table_or_the_others() -> None:
    hub = Hub()
    quick, stuck, gone, watcher = Socket(), Socket(), Broken(), Socket()
    stuck.full.clear()
    conns = {s: Connection(s) for s in (quick, stuck, gone, watcher)}
    for socket, seat in ((stuck, 1), (quick, 0), (gone, 2), (watcher, None)):
        hub.attach("T", conns[socket], seat)

    class Update:
        n, base = 1, None

        def __init__(self) -> None:
            self.built: list[int] = []

        def text(self, seat: int) -> str:
            self.built.append(seat)
            return f'{{"type":"state","seat":{seat}}}'

        def patch(self, seat: int) -> str | None:
            return None

    update: Any = Update()
    hub.broadcast("T", update)  # returns at once: nothing to await
    assert quick.got == ['{"type":"state","seat":0}']
    assert watcher.got == ['{"type":"state","seat":-1}']
    assert stuck.got == [] and sorted(update.built) == [-1, 0, 1, 2]
    stuck.full.set()
    await until(lambda: bool(stuck.got))
    assert stuck.got == ['{"type":"state","seat":1}']


async def test_spectators_get_nothing_where_the_table_refuses_them() -> None:
    hub = Hub()
    seated, watcher = Socket(), Socket()
    hub.attach("T", Connection(seated), 0)
    hub.attach("T", Connection(watcher), None)
    hub.allow_spectators("T", False)

    class Update:
        n, base = 1, None

        def text(self, seat: int) -> str:
            return str(seat)

        def patch(self, seat: int) -> str | None:
            return None

    hub.broadcast("T", Update())
    assert seated.got == ["0"] and watcher.got == []


def test_a_connection_is_equal_only_to_itself() -> None:
    socket = Socket()
    a, b = Connection(socket), Connection(socket)
    assert a != b and a == a and len({a: 1, b: 2}) == 2
