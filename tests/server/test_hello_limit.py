"""The hello time limit of a new socket (``relay.HELLO_S``), on the app's clock:
a socket that says nothing is closed when it runs out; one whose hello came in
time is not, even when answering that hello waits past it (a reconnect storm:
every table's hellos at once)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.clocks import until

from damepique.server.clock import ManualClock
from damepique.server.cluster.relay import HELLO_S, SILENT, Relay


class Node:
    """What the relay needs of its process here: a clock and a name; nothing relayed."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.pid = "p1"

    def on_op(self, op: str, handler: Any) -> None: ...
    def on_unreachable(self, handler: Any) -> None: ...
    def on_reconnected(self, handler: Any) -> None: ...
    def every_tick(self, handler: Any) -> None: ...


class Socket:
    """A WebSocket whose frames the test sends; it notes how it was closed."""

    def __init__(self) -> None:
        self.frames_in: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed: int | None = None
        self.host = "127.0.0.1"

    async def accept(self) -> None: ...

    async def frames(self) -> Any:
        while (text := await self.frames_in.get()) is not None:
            yield text

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


class SlowSession:
    """A session that answers a hello only when the test lets it."""

    def __init__(self, answered: asyncio.Event) -> None:
        self.answered = answered
        self.heard: list[str] = []

    async def on_text(self, text: str | bytes | None) -> None:
        await self.answered.wait()
        self.heard.append(str(text))

    def close(self) -> None: ...


async def no_route(hello: Any, conn: Any) -> None:
    return None


async def test_a_hello_in_time_keeps_its_socket_open_however_long_its_answer_takes() -> None:
    clock = ManualClock()
    answered = asyncio.Event()
    sessions: list[SlowSession] = []

    def open_session(conn: Any, relayed: bool) -> SlowSession:
        sessions.append(SlowSession(answered))
        return sessions[-1]

    async def runnable(name: str) -> bool:
        return True

    relay = Relay(Node(clock), no_route, open_session, runnable)  # type: ignore[arg-type]
    talker, mute = Socket(), Socket()
    tasks = [asyncio.create_task(relay.serve(s, None)) for s in (talker, mute)]  # type: ignore[arg-type]
    await clock.advance(HELLO_S - 1)
    talker.frames_in.put_nowait('{"type": "hello", "table": "K7QM4XPA"}')
    await until(lambda: len(sessions) == 1)  # its answer is on its way, and waits
    await clock.advance(2)  # past the limit
    await until(lambda: mute.closed is not None)
    assert mute.closed == SILENT  # the one that said nothing
    assert talker.closed is None  # the one that said hello in time, still answering
    answered.set()
    await until(lambda: sessions[0].heard != [])
    assert talker.closed is None
    talker.frames_in.put_nowait(None)
    await asyncio.gather(*tasks)
