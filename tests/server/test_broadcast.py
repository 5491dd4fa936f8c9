"""A table's broadcast: sends that need no wait finish on the spot; one that
waits (a full buffer) goes on concurrently, within its time limit, without
holding up the others."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from damepique.server import tablegame
from damepique.server.tablegame import TableHub, start_send


class Quick:
    def __init__(self) -> None:
        self.got: list[str] = []
        self.lock = asyncio.Lock()

    async def send_text(self, data: str) -> None:
        async with self.lock:
            self.got.append(data)


class Stuck(Quick):
    """A reader that does not read: the send waits until ``opened`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.opened = asyncio.Event()
        self.cancelled = False

    async def send_text(self, data: str) -> None:
        async with self.lock:
            try:
                await self.opened.wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise
            self.got.append(data)


class Closed:
    async def send_text(self, data: str) -> None:
        raise RuntimeError("closed")


async def test_a_send_that_needs_no_wait_is_done_at_once() -> None:
    c = Quick()
    assert start_send(c, "x") is None
    assert c.got == ["x"] and not c.lock.locked()


async def test_a_failed_send_is_ignored() -> None:
    assert start_send(Closed(), "x") is None


async def test_a_send_that_waits_finishes_later() -> None:
    c = Stuck()
    rest = start_send(c, "x")
    assert rest is not None and c.got == []
    task = asyncio.ensure_future(rest)
    await asyncio.sleep(0.01)
    c.opened.set()
    await asyncio.wait_for(task, 1)
    assert c.got == ["x"] and not c.lock.locked()


async def test_a_send_that_waits_too_long_is_given_up_and_lets_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tablegame, "SEND_TIMEOUT", 0.05)
    c = Stuck()
    rest = start_send(c, "x")
    assert rest is not None
    await asyncio.wait_for(rest, 1)  # no exception: given up quietly
    assert c.cancelled and not c.lock.locked() and c.got == []


async def test_a_stuck_reader_does_not_hold_up_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tablegame, "SEND_TIMEOUT", 0.2)
    quick, stuck, closed, watcher = Quick(), Stuck(), Closed(), Quick()
    mt: Any = SimpleNamespace(
        conns={stuck: 1, quick: 0, closed: 2, watcher: None}, options=SimpleNamespace(spectators=True)
    )
    built: list[int] = []

    def text_for(seat: int) -> str:
        built.append(seat)
        return f'{{"type":"state","seat":{seat}}}'

    task = asyncio.ensure_future(TableHub(mt).broadcast("g", text_for))
    await asyncio.sleep(0)
    assert quick.got == ['{"type":"state","seat":0}']
    assert watcher.got == ['{"type":"state","seat":-1}']
    assert stuck.got == [] and not task.done()
    await asyncio.wait_for(task, 1)
    assert stuck.cancelled and sorted(built) == [-1, 0, 1, 2]
