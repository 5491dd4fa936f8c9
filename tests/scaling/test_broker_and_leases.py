"""The broker, in memory and on a real Redis, and the leases in memory (the
database's are tested in ``test_store_backends``)."""

from __future__ import annotations

import asyncio

import pytest

from damepique.server.cluster.broker import Broker, broker_from_url
from damepique.server.cluster.leases import MemoryLeases


async def _roundtrip(a: Broker, b: Broker, channel: str, message: str) -> str:
    async with b.subscribe(channel) as messages:
        await a.publish(channel, message)
        return await asyncio.wait_for(anext(messages), 5)


async def test_memory_broker_delivers_to_every_subscriber() -> None:
    broker = broker_from_url("memory://")
    async with broker.subscribe("t") as first, broker.subscribe("t") as second:
        await broker.publish("t", "hello")
        await broker.publish("other", "not for us")
        assert await asyncio.wait_for(anext(first), 1) == "hello"
        assert await asyncio.wait_for(anext(second), 1) == "hello"
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
        async with b.subscribe("table:2") as messages:
            redis_server.stop()
            await asyncio.sleep(0.3)
            redis_server.start()
            # The subscription reconnects by itself; publish until it is back.
            # One read waits throughout: a read cancelled by a timeout would
            # close the subscription's generator (then StopAsyncIteration).
            reader = asyncio.ensure_future(anext(messages))
            for _ in range(100):
                await a.publish("table:2", "after restart")
                done, _pending = await asyncio.wait({reader}, timeout=0.2)
                if done:
                    break
            assert reader.done(), "the subscription never came back after Redis restarted"
            assert reader.result() == "after restart"
    finally:
        await a.stop()
        await b.stop()


async def test_memory_leases_have_one_holder_and_expire() -> None:
    p1, p2 = MemoryLeases("p1", ttl_ms=50), MemoryLeases("p2", ttl_ms=50)
    p2._held = p1._held  # two processes' view of one world (what the database is to SqlLeases)
    assert await p1.acquire("T") and await p1.acquire("proc:p1")
    assert await p1.holder("T") == "p1" and not await p2.acquire("T")
    assert await p1.renew_all() == {"T", "proc:p1"}
    await p2.release("T")  # not the holder: nothing happens
    assert await p2.holders(["T", "U"]) == {"T": "p1"}
    await asyncio.sleep(0.08)  # p1 stopped renewing: its leases ran out
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
