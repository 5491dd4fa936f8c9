"""The server's WebSocket pings (``keepalive``): none to a peer heard from
lately, spaced out as connections grow, and a silent peer that does not
answer still closed. uvicorn's own protocol on a loop whose time the test
moves, the app's clock on it (no sleeping)."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from damepique.server import keepalive
from damepique.server.clock import Clock
from damepique.server.guard import Guard, guarded
from damepique.server.keepalive import ping_interval


class Timer:
    def __init__(self, when: float, callback: Any, args: tuple[Any, ...]) -> None:
        self.when, self.callback, self.args = when, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Loop:
    """The little of an event loop the protocol's timers use, on a time the test sets."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any, *args: Any) -> Timer:
        timer = Timer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def run_until(self, t: float) -> None:
        """Run every timer due by ``t``, in time order, moving the clock to each."""
        while due := sorted(
            (x for x in self.timers if x.when <= t and not x.cancelled), key=lambda x: x.when
        ):
            timer = due[0]
            self.timers.remove(timer)
            self.now = timer.when
            timer.callback(*timer.args)
        self.now = t

    def pending(self) -> list[float]:
        return sorted(x.when for x in self.timers if not x.cancelled)


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 50000) if name in ("peername", "sockname") else default


class LoopClock(Clock):
    """The app's clock on the test's loop: the keepalive's timers (the app's clock)
    and uvicorn's own ping timeout (its loop's) on the one time the test moves."""

    def __init__(self, loop: Loop) -> None:
        self.loop = loop

    def monotonic(self) -> float:
        return self.loop.time()

    def call_later(self, seconds: float, callback: Any, *args: Any) -> Timer:
        return self.loop.call_later(seconds, callback, *args)


def pings(transport: Transport) -> int:
    """Ping frames written (opcode 9: a server's frames are unmasked)."""
    return sum(1 for data in transport.written if data and data[0] & 0x0F == 9)


async def app(scope: Any, receive: Any, send: Any) -> None:
    pass


def open_socket(loop: Loop, state: ServerState) -> tuple[Any, Transport]:
    config = uvicorn.Config(app=app, ws_ping_interval=20.0, ws_ping_timeout=20.0)
    config.load()
    _, ws_class = guarded(Guard(per_address=0, clock=LoopClock(loop)))
    proto = ws_class(config, state, {}, _loop=loop)  # type: ignore[call-arg]
    transport = Transport()
    proto.connection_made(transport)
    proto.conn.state = State.OPEN  # the handshake, done
    proto.start_keepalive()
    return proto, transport


def test_a_silent_peer_is_pinged_and_closed_when_it_does_not_answer() -> None:
    loop, state = Loop(), ServerState()
    _, transport = open_socket(loop, state)
    loop.run_until(20.0)  # the first ping falls somewhere in the first interval
    assert pings(transport) == 1 and not transport.closed
    loop.run_until(20.0 + 20.0)  # no pong within the timeout
    assert transport.closed


def test_a_peer_heard_from_within_the_interval_is_not_pinged() -> None:
    loop, state = Loop(), ServerState()
    proto, transport = open_socket(loop, state)
    # A card every 10 s (a frame the server reads): never silent for 20 s.
    for t in range(5, 200, 10):
        loop.run_until(float(t))
        proto._heard = loop.time()  # what data_received notes for any frame
    loop.run_until(200.0)
    assert pings(transport) == 0 and not transport.closed
    loop.run_until(200.0 + 25.0)  # silent from 195 s on: pinged by 215 s
    assert pings(transport) == 1


def test_pings_are_spaced_out_as_connections_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keepalive.random, "random", lambda: 1.0)  # the first ping at the interval's end
    loop, state = Loop(), ServerState()
    state.connections.update(object() for _ in range(9_999))  # the server's other connections
    proto, transport = open_socket(loop, state)
    loop.run_until(49.9)  # 10,000 connections at 200 pings a second: one each 50 s, not 20
    assert pings(transport) == 0
    loop.run_until(50.1)
    assert pings(transport) == 1
    proto.handle_pong(Frame(Opcode.PONG, proto.pending_ping_payload))  # answered
    assert loop.pending() == [pytest.approx(100.1)]  # the next one 50 s on


def test_the_interval_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAMEPIQUE_WS_PING", "45")
    assert ping_interval() == 45.0
    monkeypatch.setenv("DAMEPIQUE_WS_PING", "0")
    assert ping_interval() is None
    monkeypatch.setenv("DAMEPIQUE_WS_PING", "often")
    with pytest.raises(ValueError, match="DAMEPIQUE_WS_PING"):
        ping_interval()
