"""The write lock taken in turns: a card's commit never waits for a crowd of
other writes (thousands of tables starting at once), and the other writes
still get every other turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from damepique.server.storage.database import Database
from damepique.server.storage.games import GameRow, GameStore
from damepique.server.storage.turns import Turns


async def queue_up(lock: Turns, names: list[str], order: list[str]) -> list[asyncio.Task[None]]:
    """A task per name, each waiting for the lock (``!name``: an urgent write), in this order."""

    async def write(name: str) -> None:
        async with lock.urgent() if name.startswith("!") else lock:
            order.append(name)
            await asyncio.sleep(0)  # held across a step of the loop, as a commit is

    tasks = []
    for name in names:
        tasks.append(asyncio.create_task(write(name)))
        await asyncio.sleep(0)  # queued in this order
    return tasks


async def test_urgent_and_other_writes_take_turns() -> None:
    lock, order = Turns(), []
    await lock.acquire()
    tasks = await queue_up(lock, ["w1", "w2", "!c1", "w3", "!c2", "!c3", "w4"], order)
    lock.release()
    await asyncio.gather(*tasks)
    # Each urgent write after one other write at most; each kind in its own order.
    assert order == ["!c1", "w1", "!c2", "w2", "!c3", "w3", "w4"]
    assert not lock.locked()


async def test_a_waiter_cancelled_before_or_after_its_turn_never_blocks_the_others() -> None:
    lock, order = Turns(), []
    await lock.acquire()
    tasks = await queue_up(lock, ["w1", "!c1", "w2"], order)
    tasks[0].cancel()  # still waiting
    await asyncio.sleep(0)
    lock.release()  # handed to !c1 ...
    tasks[1].cancel()  # ... which is cancelled before it runs: it hands it on
    await asyncio.gather(*tasks, return_exceptions=True)
    assert order == ["w2"]
    assert not lock.locked()
    with pytest.raises(RuntimeError, match="not held"):
        lock.release()


async def test_a_card_commit_goes_before_a_crowd_of_game_creations(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 't.sqlite3'}")
    await db.open()
    store = GameStore(db)
    try:
        await store.create_game(GameRow(id="g", owner=None, rules={}, seats=[], secret="00" * 32, options={}))
        done: list[str] = []

        async def create(k: int) -> None:
            row = GameRow(id=f"n{k}", owner=None, rules={}, seats=[], secret="00" * 32, options={})
            await store.create_game(row)
            done.append(f"n{k}")

        async def card() -> None:
            await store.append_many("g", 0, [{"type": "play", "card": "2C"}])
            done.append("card")

        crowd = [asyncio.create_task(create(k)) for k in range(30)]
        await asyncio.sleep(0)  # every creation waits for the lock (or holds it) now
        await asyncio.gather(card(), *crowd)
        assert done.index("card") <= 2, done  # it went after one creation or two, not thirty
        loaded = await store.load_game("g")
        assert loaded is not None and loaded[1] == [{"type": "play", "card": "2C"}]
    finally:
        await db.close()
