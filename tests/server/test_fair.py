"""FairQueue (server/fair.py): turns by client, bounds, and a wait given up."""

from __future__ import annotations

import asyncio

import pytest

from damepique.server.errors import Refusal
from damepique.server.fair import FairQueue


async def test_a_wait_given_up_frees_its_place_and_is_skipped() -> None:
    queue = FairQueue(workers=1, per_client=1, waiting=1)
    order: list[str] = []
    release = asyncio.Event()

    async def job(client: str) -> None:
        async with queue.turn(client):
            order.append(client)
            await release.wait()

    first = asyncio.ensure_future(job("a"))
    while queue.running < 1:
        await asyncio.sleep(0)
    waiting = asyncio.ensure_future(job("b"))
    while queue.queued() < 1:
        await asyncio.sleep(0)
    with pytest.raises(Refusal):  # the one place is taken
        async with queue.turn("c"):
            pass
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert queue.queued() == 0 and queue.queued("b") == 0
    third = asyncio.ensure_future(job("c"))  # its place is free again
    while queue.queued() < 1:
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, third)
    assert order == ["a", "c"] and queue.running == 0 and queue.queued() == 0
