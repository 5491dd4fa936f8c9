"""Two processes, one quick-match queue: the process holding the ``quickmatch``
lease owns it, the other sends it who waits there; one person waiting at
both processes is seated once; when the owner stops, the other takes the
lease and rebuilds the queue from the pages still connected to it.

Two nodes in one event loop, as two processes are: one broker between them
and the leases in one database file. The app's clock is moved by hand and
every wait is bounded."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from damepique.server.clock import ManualClock
from damepique.server.cluster.broker import MemoryBroker
from damepique.server.cluster.leases import SqlLeases
from damepique.server.cluster.node import Node
from damepique.server.errors import Refusal
from damepique.server.protocol import Json
from damepique.server.quick.queue import Choice, Entry
from damepique.server.quick.service import LEASE, QuickMatch
from damepique.server.storage.database import Database

from .. import clocks

BOUND_S = 20.0


@dataclass
class Page:
    """A waiting page's connection: what it was sent."""

    closed: bool = False
    got: list[Json] = field(default_factory=list)

    def post(self, text: str) -> None:
        self.got.append(json.loads(text))

    def statuses(self) -> list[str]:
        """What it heard, but how many wait (which changes as people come and go)."""
        return [m["status"] for m in self.got if m["status"] != "waiting"]


@dataclass
class Process:
    node: Node
    quick: QuickMatch
    seated: list[list[str]]
    """The people of each group this process seated (by person)."""


async def until(ok: Callable[[], bool]) -> None:
    await clocks.until(ok, BOUND_S)


@pytest.fixture
async def processes(tmp_path: Path) -> AsyncIterator[tuple[Process, Process, ManualClock]]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cluster.sqlite3'}"
    broker = MemoryBroker()
    clock = ManualClock()
    made: list[tuple[Database, Process]] = []
    for name in ("a", "b"):
        db = Database(url)
        await db.open()
        node = Node(db, None, name, ttl_ms=60_000)
        node.broker = broker  # one broker between the two, as Redis is
        node.leases = SqlLeases(db, node.pid, 60_000)
        seated: list[list[str]] = []

        async def seat(
            choice: Choice, people: list[Entry], seated: list[list[str]] = seated, name: str = name
        ) -> list[Json]:
            seated.append([e.person for e in people])
            code = f"T{len(seated)}{name}"
            return [{"code": code, "token": f"tok-{e.ticket}", "seat": i} for i, e in enumerate(people)]

        await node.start()
        made.append((db, Process(node, QuickMatch(node, clock, seat), seated)))
    try:
        a, b = made[0][1], made[1][1]
        await a.quick.upkeep()  # a takes the lease first: it owns the queue, b sends it who waits
        await b.quick.upkeep()
        yield a, b, clock
    finally:
        for db, p in made:
            await p.quick.stop()
            await p.node.stop()
            await db.close()


async def join(p: Process, page: Page, person: str, wait: int = 30) -> str:
    entry = p.quick.entry({"wait": wait, "player": f"device-{person}"}, {}, person, None)
    await p.quick.join(page, entry)
    return entry.ticket


async def test_two_processes_one_queue_never_seat_one_person_twice(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = processes
    async with asyncio.timeout(60):
        assert LEASE in a.node.owned and LEASE not in b.node.owned
        assert b.quick.owner == a.node.pid
        pages = {n: Page() for n in ("zoe@a", "zoe@b", "xav", "yan", "wil")}
        await join(a, pages["zoe@a"], "zoe")
        await join(a, pages["xav"], "xav")
        await join(b, pages["yan"], "yan")
        # The same person from a page at the other process: one wait, the newer.
        await join(b, pages["zoe@b"], "zoe")
        await until(lambda: pages["zoe@a"].statuses() == ["queued", "replaced"])
        assert len(a.quick.queue) == 3 and len(b.quick.queue) == 0
        await join(b, pages["wil"], "wil")  # the fourth: a full table at once
        await until(lambda: all(p.statuses()[-1] == "matched" for n, p in pages.items() if n != "zoe@a"))
    assert b.seated == [] and len(a.seated) == 1
    assert sorted(a.seated[0]) == ["g:device-wil", "g:device-xav", "g:device-yan", "g:device-zoe"]
    # Xav, at the owner, heard the count: 3 as Yan came, 3 still as Zoé's page at b replaced
    # her first, 4 as Wil came (then the table).
    assert [m["waiting"] for m in pages["xav"].got if m["status"] == "waiting"] == [3, 3, 4]
    codes = {
        next(m for m in p.got if m["status"] == "matched")["code"] for n, p in pages.items() if n != "zoe@a"
    }
    assert len(codes) == 1
    assert "matched" not in pages["zoe@a"].statuses()
    assert a.quick.local == {} and b.quick.local == {}


async def test_when_the_owner_stops_the_other_process_rebuilds_the_queue(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, clock = processes
    async with asyncio.timeout(60):
        one, two = Page(), Page()
        await join(b, one, "una", wait=10)
        await join(b, two, "dos", wait=10)
        assert len(a.quick.queue) == 2
        await a.quick.stop()
        await a.node.stop()  # hands its leases back
        await b.quick.upkeep()  # b takes the lease and hears of who waits at it
        assert LEASE in b.node.owned and len(b.quick.queue) == 2
        await clock.advance(10)
        await b.quick.upkeep()
        await until(lambda: one.statuses()[-1] == "matched" and two.statuses()[-1] == "matched")
    assert a.seated == [] and [sorted(g) for g in b.seated] == [["g:device-dos", "g:device-una"]]


async def test_a_page_closed_before_the_owner_seats_it_is_never_seated(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, clock = processes
    async with asyncio.timeout(60):
        stay, gone = Page(), Page()
        await join(a, stay, "stay", wait=5)
        await join(b, gone, "gone", wait=5)
        # The page at b closed, and b has not said so yet: the owner asks before seating.
        gone.closed = True
        await clock.advance(5)
        await a.quick.upkeep()
        await until(lambda: stay.statuses()[-1] == "matched")
    assert a.seated == [["g:device-stay"]]
    assert gone.statuses() == ["queued"]


def test_an_entry_travels_between_processes_unchanged() -> None:
    e = Entry("t" * 12, "a:lea", Choice(True, 50, "3-5"), 12.5, 30, 1612.0, "Lea", {"account": "lea"}, "p~1")
    assert Entry.from_json(json.loads(json.dumps(e.to_json()))) == e


async def test_a_join_the_owner_cannot_hear_is_refused_and_leaves_nothing_behind(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = processes
    async with asyncio.timeout(60):
        await a.quick.stop()
        await a.node.stop()  # gone, and b has not noticed yet
        page = Page()
        with pytest.raises(Refusal) as refused:
            await join(b, page, "late")
        assert refused.value.code == "unavailable" and b.quick.local == {}
        await b.quick.upkeep()  # b owns the queue now: the page tries again and waits there
        await join(b, page, "late")
    assert page.statuses() == ["queued"] and len(b.quick.queue) == 1
