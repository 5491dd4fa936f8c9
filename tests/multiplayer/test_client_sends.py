"""A table connection's sends (``multiplayer.Client.send_text``): one at a time,
in order, a send that needs no wait done in one step, and a send given up
(cancelled) never holding up the ones behind it."""

from __future__ import annotations

import asyncio

from damepique.server.multiplayer import Client
from damepique.server.tablegame import start_send


class Socket:
    """Sends wait while ``full`` is clear (a reader that does not read)."""

    def __init__(self) -> None:
        self.got: list[str] = []
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


async def test_a_send_without_wait_is_done_in_one_step() -> None:
    ws = Socket()
    client = Client(ws)
    assert start_send(client, "a") is None
    assert ws.got == ["a"] and not client.lock.locked()


async def test_sends_go_one_at_a_time_in_order() -> None:
    ws = Socket()
    ws.full.clear()
    client = Client(ws)
    tasks = [asyncio.create_task(client.send_text(str(i))) for i in range(5)]
    await asyncio.sleep(0.01)
    assert ws.got == [] and client.lock.locked()
    late = start_send(client, "late")  # waits behind the others
    assert late is not None
    ws.full.set()
    await asyncio.gather(*tasks, late)
    assert ws.got == ["0", "1", "2", "3", "4", "late"] and not client.lock.locked()


async def test_a_cancelled_send_lets_the_others_go() -> None:
    ws = Socket()
    ws.full.clear()
    client = Client(ws)
    first = asyncio.create_task(client.send_text("first"))  # holds the turn, stuck
    waiting = asyncio.create_task(client.send_text("waiting"))  # cancelled while in line
    last = asyncio.create_task(client.send_text("last"))
    await asyncio.sleep(0.01)
    waiting.cancel()
    await asyncio.sleep(0)
    first.cancel()  # cancelled during the socket's send
    await asyncio.sleep(0.01)
    ws.full.set()
    await last
    assert first.cancelled() and waiting.cancelled()
    assert ws.got == ["last"] and not client.lock.locked()


async def test_a_turn_given_then_cancelled_is_passed_on() -> None:
    ws = Socket()
    client = Client(ws)
    await client.lock.acquire()  # a send on its way (held up at the socket)
    second = asyncio.create_task(client.send_text("second"))
    third = asyncio.create_task(client.send_text("third"))
    await asyncio.sleep(0.01)
    client.lock.release()  # that send is done: the turn goes to ``second``...
    second.cancel()  # ...cancelled before it runs again
    await third
    assert second.cancelled()
    assert ws.got == ["third"] and not client.lock.locked()


async def test_a_failed_send_passes_the_turn() -> None:
    class Broken(Socket):
        async def send_text(self, data: str) -> None:
            if data == "bad":
                raise RuntimeError("closed")
            await super().send_text(data)

    ws = Broken()
    client = Client(ws)
    assert start_send(client, "bad") is None
    await client.send_text("good")
    assert ws.got == ["good"] and not client.lock.locked()


def test_a_connection_is_equal_only_to_itself() -> None:
    ws = Socket()
    a, b = Client(ws), Client(ws)
    assert a != b and a == a and len({a: 1, b: 2}) == 2
