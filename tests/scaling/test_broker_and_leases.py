"""The broker and the table leases, in memory and on a real Redis."""

from __future__ import annotations

import asyncio

import pytest
from damepique.server.leases import leases_from_url

from damepique.server.cluster.broker import Broker, broker_from_url


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
            got = None
            for _ in range(50):
                await a.publish("table:2", "after restart")
                try:
                    got = await asyncio.wait_for(anext(messages), 0.2)
                    break
                except TimeoutError:
                    continue
            assert got == "after restart"
    finally:
        await a.stop()
        await b.stop()


async def test_memory_leases_expire() -> None:
    leases = leases_from_url("memory://", "p1", ttl_ms=50)
    assert await leases.acquire("T")
    assert await leases.holder("T") == "p1"
    await asyncio.sleep(0.08)
    assert await leases.holder("T") is None
    assert not await leases.renew("T")


async def test_redis_lease_has_one_holder_and_passes_on_when_it_expires(redis_server) -> None:  # type: ignore[no-untyped-def]
    p1 = leases_from_url(redis_server.url, "p1", ttl_ms=300)
    p2 = leases_from_url(redis_server.url, "p2", ttl_ms=300)
    try:
        assert await p1.acquire("T")
        assert not await p2.acquire("T")
        assert await p1.renew("T")
        assert not await p2.renew("T")
        await p2.release("T")  # not the holder: nothing happens
        assert await p1.holder("T") == "p1"
        # p1 dies: it stops renewing, the lease runs out, p2 takes over.
        await asyncio.sleep(0.4)
        assert await p2.acquire("T")
        assert not await p1.renew("T")
        await p2.release("T")
        assert await p1.holder("T") is None
    finally:
        await p1.stop()
        await p2.stop()


async def test_throwaway_postgres_cluster_answers(postgres_server) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(postgres_server.url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("select 40 + 2"))).scalar() == 42
    finally:
        await engine.dispose()
