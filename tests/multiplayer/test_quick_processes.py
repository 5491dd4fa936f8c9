"""Two processes, one quick-match queue: the process holding the ``quickmatch``
lease owns it, the other sends it who waits there; one person waiting at
both processes is seated once; when the owner stops, the other takes the
lease and rebuilds the queue from the pages still connected to it, those
the old owner was seating included (it may have died first), each seated
once, even when the old owner died between seating them and keeping where;
two owners at once seat a wait once; a lone server restarting tells its
waiting pages, and their waits (place and countdown) survive it.

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
from damepique.server.storage.quick import QuickStore
from damepique.server.storage.tables import TableStore
from damepique.wire import QuickSeat

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
        tokens = TableStore(db)

        async def seat(
            choice: Choice,
            people: list[Entry],
            seated: list[list[str]] = seated,
            name: str = name,
            tokens: TableStore = tokens,
        ) -> list[QuickSeat | None]:
            # As a table seats them: a seat token each, naming the wait (a wait sits once).
            code = f"T{len(seated) + 1}{name}"
            seats: list[QuickSeat | None] = []
            for i, e in enumerate(people):
                try:
                    await tokens.add_token(f"tok-{e.ticket}-{code}", code, i, e.ticket)
                    seats.append({"code": code, "token": f"tok-{e.ticket}-{code}", "seat": i})
                except Refusal:
                    seats.append(None)
            seated.append([e.person for e, where in zip(people, seats, strict=True) if where])
            return seats

        await node.start()
        made.append((db, Process(node, QuickMatch(node, clock, seat, QuickStore(db)), seated)))
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


async def takes_over(a: Process, b: Process) -> None:
    """``a`` stops (its leases handed back) and ``b`` takes the queue over,
    hearing of who waits at it."""
    await a.quick.stop()
    await a.node.stop()
    await b.quick.upkeep()


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
        await takes_over(a, b)  # b takes the lease and hears of who waits at it
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


async def test_when_the_owner_dies_while_seating_the_new_owner_seats_everyone_once(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = processes
    async with asyncio.timeout(60):
        seating = asyncio.Event()

        async def dies_seating(choice: Choice, people: list[Entry]) -> list[Json]:
            seating.set()
            await asyncio.Event().wait()  # the process dies here, its table never made
            raise AssertionError

        a.quick.seat_group = dies_seating
        pages = [Page() for _ in range(4)]
        for i, page in enumerate(pages):
            await join(b, page, f"p{i}")
        await seating.wait()  # a claimed the four at b and was seating them
        assert all(w.claimed == a.node.pid for w in b.quick.local.values())
        await takes_over(a, b)  # b owns the queue now: the four are offered to it again
        await until(lambda: all("matched" in p.statuses() for p in pages))
    assert [sorted(g) for g in b.seated] == [[f"g:device-p{i}" for i in range(4)]]
    assert all(p.statuses().count("matched") == 1 for p in pages)


async def test_a_group_seated_by_an_owner_that_died_before_saying_so_is_not_seated_again(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = processes
    async with asyncio.timeout(60):
        sent = a.node.send
        a.node.send = lambda pid, m, text="": None if m["op"] == "quick_seated" else sent(pid, m, text)  # type: ignore[method-assign]
        pages = [Page() for _ in range(4)]
        tickets = [await join(b, page, f"p{i}") for i, page in enumerate(pages)]
        kept = QuickStore(a.node.db)

        async def all_seated() -> bool:
            found = [await kept.get(ticket) for ticket in tickets]
            return all(t is not None and t.seated for t in found)

        await clocks.until(all_seated, BOUND_S)  # seated at a's table; the word never left a
        await takes_over(a, b)
        await until(lambda: all("matched" in p.statuses() for p in pages))
    assert b.seated == [] and len(a.seated) == 1
    assert {next(m for m in p.got if m["status"] == "matched")["code"] for p in pages} == {"T1a"}


async def test_a_group_seated_by_an_owner_that_died_before_keeping_where_is_not_seated_again(
    processes: tuple[Process, Process, ManualClock],
) -> None:
    a, b, _ = processes
    async with asyncio.timeout(60):
        keeping = asyncio.Event()

        async def dies_keeping(ticket: str, reply: Json, at: float) -> None:
            keeping.set()
            await asyncio.Event().wait()  # the process dies here: the table made, where not kept

        a.quick.store.seated = dies_keeping  # type: ignore[method-assign]
        pages = [Page() for _ in range(4)]
        tickets = [await join(b, page, f"p{i}") for i, page in enumerate(pages)]
        await keeping.wait()
        kept = QuickStore(b.node.db)
        waits = [await kept.get(t) for t in tickets]
        assert all(w is not None and w.seated is None for w in waits)  # not kept: a died first
        await takes_over(a, b)  # b owns the queue now: the four are offered to it again
        await until(lambda: all("matched" in p.statuses() for p in pages))
    # b found their seats in the seat tokens: the table a made, and no second one.
    assert b.seated == [] and len(a.seated) == 1
    assert {next(m for m in p.got if m["status"] == "matched")["code"] for p in pages} == {"T1a"}
    assert all(p.statuses().count("matched") == 1 for p in pages)
    waits = [await kept.get(t) for t in tickets]
    assert all(w is not None and w.seated is not None and w.seated["code"] == "T1a" for w in waits)


async def test_two_owners_at_once_seat_a_wait_once(processes: tuple[Process, Process, ManualClock]) -> None:
    # An owner that lost its lease without knowing it yet seats the same people as
    # the new one: the seat tokens' unique ticket refuses the second seat of each.
    a, b, _ = processes
    people = [a.quick.entry({"wait": 30, "player": f"device-{n}"}, {}, n, None) for n in ("una", "dos")]
    assert [w and w["code"] for w in await a.quick.seat_group(people[0].choice, people)] == ["T1a", "T1a"]
    assert await b.quick.seat_group(people[0].choice, people[::-1]) == [None, None]
    assert b.seated == [[]]
    where = await QuickStore(b.node.db).seat_taken(people[1].ticket)
    assert where == {"code": "T1a", "token": f"tok-{people[1].ticket}-T1a", "seat": 1}


async def test_a_lone_server_restarting_tells_its_waiting_pages_and_keeps_their_waits(
    processes: tuple[Process, Process, ManualClock], tmp_path: Path
) -> None:
    a, _, clock = processes
    async with asyncio.timeout(60):
        first, second = Page(), Page()
        t1 = await join(a, first, "una", wait=30)
        await clock.advance(5)
        t2 = await join(a, second, "dos", wait=30)
        since = {t: a.quick.queue.entries[t].since for t in (t1, t2)}
        await clock.advance(10)
        await a.quick.stop()  # the server stops: its waiting pages hear so
        await a.node.stop()
        assert first.statuses()[-1] == "restarting" and second.statuses()[-1] == "restarting"
        # The same server again (another run), on the same database.
        db = a.node.db
        node = Node(db, None, "a", ttl_ms=60_000)
        node.leases = SqlLeases(db, node.pid, 60_000)
        seated: list[list[str]] = []

        async def seat(choice: Choice, people: list[Entry]) -> list[Json]:
            seated.append([e.ticket for e in people])
            return [{"code": "T9", "token": f"tok-{e.ticket}", "seat": i} for i, e in enumerate(people)]

        await node.start()
        again = QuickMatch(node, clock, seat, QuickStore(db))
        try:
            await again.upkeep()
            # The pages come back with their tickets, asking for what was left of their wait.
            for page, ticket, left in ((second, t2, 20), (first, t1, 15)):
                entry = again.entry(
                    {"wait": left, "ticket": ticket, "player": f"device-{ticket}"}, {}, "x", None
                )
                await again.join(page, entry)
            assert {t: again.queue.entries[t].since for t in (t1, t2)} == since
            assert [m["seconds"] for m in first.got if m["status"] == "queued"] == [30, 15]
            await clock.advance(15)  # the first's wait ends, 30 s after it began: both sit
            await again.upkeep()
            await until(lambda: first.statuses()[-1] == "matched" == second.statuses()[-1])
        finally:
            await again.stop()
            await node.stop()
    assert seated == [[t1, t2]]  # oldest first: the place each had
