"""The broker, in memory and on a real Redis, and the leases in memory (the
database's are tested in ``test_store_backends``)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from damepique.server.clock import ManualClock
from damepique.server.cluster.broker import Broker, MemoryBroker, broker_from_url
from damepique.server.cluster.leases import MemoryLeases
from damepique.server.cluster.node import TICK_S, TTL_MS, Node
from damepique.server.storage.database import Database

from ..clocks import until
from .conftest import WITHIN


async def _next(messages: AsyncIterator[str]) -> str:
    """The next message. Never a read cancelled by a time-out: that closes the
    subscription's generator (then StopAsyncIteration); ``asyncio.wait`` leaves the
    read be, and its limit only stops a hang."""
    reader = asyncio.ensure_future(anext(messages))
    done, _ = await asyncio.wait({reader}, timeout=WITHIN)
    assert done, "no message came"
    return reader.result()


async def _roundtrip(a: Broker, b: Broker, channel: str, message: str) -> str:
    async with b.subscribe(channel) as messages:
        await a.publish(channel, message)
        return await _next(messages)


async def test_memory_broker_delivers_to_every_subscriber() -> None:
    broker = broker_from_url("memory://")
    async with broker.subscribe("t") as first, broker.subscribe("t") as second:
        await broker.publish("t", "hello")
        await broker.publish("other", "not for us")
        assert await _next(first) == "hello"
        assert await _next(second) == "hello"
    await broker.publish("t", "nobody listens")  # no subscriber left: no error


def test_unknown_broker_url_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown broker URL"):
        broker_from_url("kafka://x")


async def test_redis_broker_crosses_processes_and_survives_a_restart(redis_server) -> None:  # type: ignore[no-untyped-def]
    # Two brokers stand for two server processes.
    a, b = broker_from_url(redis_server.url), broker_from_url(redis_server.url)
    await a.start()
    await b.start()
    try:
        assert await _roundtrip(a, b, "table:1", "played QS") == "played QS"
        back = asyncio.Event()
        async with b.subscribe("table:2", on_reconnect=back.set) as messages:
            reader = asyncio.ensure_future(_next(messages))  # one read waits throughout
            redis_server.stop()  # returns once Redis is gone
            redis_server.start()  # returns once Redis says it is ready
            # The subscription reconnects by itself and says so; what is published then arrives.
            async with asyncio.timeout(WITHIN):
                await back.wait()
            await a.publish("table:2", "after restart")
            assert await reader == "after restart"
    finally:
        await a.stop()
        await b.stop()


async def test_memory_leases_have_one_holder_and_expire() -> None:
    clock = ManualClock()
    p1, p2 = MemoryLeases("p1", ttl_ms=50, clock=clock), MemoryLeases("p2", ttl_ms=50, clock=clock)
    p2._held = p1._held  # two processes' view of one world (what the database is to SqlLeases)
    assert await p1.acquire("T") and await p1.acquire("proc:p1")
    assert await p1.holder("T") == "p1" and not await p2.acquire("T")
    assert await p1.renew_all() == {"T", "proc:p1"}
    await p2.release("T")  # not the holder: nothing happens
    assert await p2.holders(["T", "U"]) == {"T": "p1"}
    await clock.advance(0.05)
    assert await p1.holder("T") == "p1"  # its last moment
    await clock.advance(0.001)  # p1 stopped renewing: its leases ran out
    assert await p1.holder("T") is None and await p1.renew_all() == set()
    assert await p2.acquire("T")
    await p2.release_all()
    assert await p1.holders(["T", "proc:p1"]) == {}


async def test_throwaway_postgres_cluster_answers(postgres_server) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(postgres_server.url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("select 40 + 2"))).scalar() == 42
    finally:
        await engine.dispose()


async def test_a_process_alone_never_loses_its_tables_to_a_loop_held_up(tmp_path: Path) -> None:
    """Alone (the memory broker), nobody can take a table over: a loop held up past the
    leases' time to live (a busy machine) keeps its tables (they were dropped, and
    their pages told to reconnect: a game ended in WebSocketDisconnect)."""
    clock = ManualClock()
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'alone.sqlite3'}", clock)
    await db.open()
    try:
        node = Node(db)
        assert await node.claim("K7QM4XPA")
        await clock.advance(3600)  # not one renewal in an hour
        assert await node.renew(node.leases) == set()  # nothing lost
        assert await node.leases.holder("K7QM4XPA") == node.pid
    finally:
        await db.close()


async def test_a_hello_for_a_table_whose_process_died_is_answered_when_its_lease_runs_out(
    tmp_path: Path,
) -> None:
    """A table's process that died leaves its lease to run out. A page's hello for it,
    at another process, waits that out (on the app's clock) and has the table run
    there, rather than be sent away to come back at its next back-off slot; a table
    whose process lives is relayed to it at once."""
    clock = ManualClock()
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'two.sqlite3'}", clock)
    await db.open()
    try:
        broker = MemoryBroker()  # (what Redis is to two processes)
        a, b = Node(db, pid="a"), Node(db, pid="b")
        for node in (a, b):
            node.broker = broker
            node.leases = MemoryLeases(node.pid, TTL_MS, db, clock)
        b.leases._held = a.leases._held  # type: ignore[attr-defined]  # one world, as one database
        assert await a.claim("K7QM4XPA")

        async def runnable() -> bool:
            return True

        async with broker.subscribe(f"damepique:proc:{a.pid}"):  # a lives: it listens
            assert not await b.gone(a.pid)
            assert await b.owner_for("K7QM4XPA", runnable) == a.pid
        assert await b.gone(a.pid)  # a died: nobody listens at it
        taking = asyncio.create_task(b.owner_for("K7QM4XPA", runnable))
        await clock.advance(TTL_MS / 1000 - 0.5)
        assert not taking.done() and await b.leases.holder("K7QM4XPA") == a.pid
        await clock.advance(1)  # a's lease ran out: b runs the table
        assert await taking == b.pid and await b.leases.holder("K7QM4XPA") == b.pid
    finally:
        await db.close()


async def test_redis_says_who_listens(redis_server) -> None:  # type: ignore[no-untyped-def]
    a, b = broker_from_url(redis_server.url), broker_from_url(redis_server.url)
    await a.start()
    await b.start()
    try:
        assert await a.listeners("damepique:proc:b") == 0
        async with b.subscribe("damepique:proc:b"):
            assert await a.listeners("damepique:proc:b") == 1
    finally:
        await a.stop()
        await b.stop()
    redis_server.stop()
    assert await a.listeners("damepique:proc:b") is None  # Redis away: nobody can say
    redis_server.start()


async def test_the_lease_renewer_renews_on_the_apps_clock(postgres_server, redis_server) -> None:  # type: ignore[no-untyped-def]
    """On PostgreSQL a thread renews the leases; it sleeps on the app's clock: moved by
    the test, its next renewal finds a lease another process took, and says so."""
    from sqlalchemy import update

    from damepique.server.storage.schema import leases

    from .cluster_helpers import fresh_database

    clock = ManualClock()
    db = Database(await fresh_database(postgres_server.url, f"r_{secrets.token_hex(6)}"), clock)
    await db.open()
    node = Node(db, redis_server.url, pid="a")
    lost: list[str] = []

    async def on_lost(name: str) -> None:
        lost.append(name)

    node.on_lost(on_lost)
    await node.start()
    try:
        assert await node.claim("K7QM4XPA")
        # Two wait on the clock: the main loop's tick and the renewer's thread.
        await until(lambda: clock.pending == 2)
        async with db.engine.begin() as conn:  # another process has it now
            await conn.execute(update(leases).where(leases.c.name == "K7QM4XPA").values(holder="b~1"))
        await until(lambda: bool(lost), clock=clock, step=TICK_S)
        assert lost == ["K7QM4XPA"] and "K7QM4XPA" not in node.owned
    finally:
        await node.stop()
        await db.close()
