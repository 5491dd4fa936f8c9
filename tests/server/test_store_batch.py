"""The SQLite store's group commit: the events of commands handled together go
in one transaction, and one game's failure is only its own."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from damepique.server.storage.database import Database
from damepique.server.storage.games import GameRow, GameStore


async def open_store(path: Path) -> tuple[Database, GameStore]:
    db = Database(f"sqlite+aiosqlite:///{path}")
    await db.open()
    return db, GameStore(db)


async def test_events_of_one_turn_share_a_commit_and_a_failure_stays_with_its_game(tmp_path: Path) -> None:
    db, store = await open_store(tmp_path / "b.sqlite3")
    try:
        for g in ("a", "b", "c"):
            await store.create_game(
                GameRow(id=g, owner=None, rules={}, seats=[], secret="00" * 32, options={})
            )
        await store.append_many("b", 0, [{"type": "deal", "number": 0}])
        commits = 0
        real = db.append_events

        async def counting(rows: list[dict[str, object]]) -> None:
            nonlocal commits
            commits += 1
            await real(rows)

        db.append_events = counting  # type: ignore[method-assign,assignment]
        results = await asyncio.gather(
            store.append_many("a", 0, [{"type": "deal", "number": 0}, {"type": "play", "card": "2C"}]),
            store.append_many("b", 0, [{"type": "play", "card": "2C"}]),  # seq 0 is taken
            store.append_many("c", 0, [{"type": "deal", "number": 0}]),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], sqlite3.IntegrityError)
        assert commits == 1 + 3  # the batch (rolled back), then each game alone
        for g, n in (("a", 2), ("b", 1), ("c", 1)):
            loaded = await store.load_game(g)
            assert loaded is not None and len(loaded[1]) == n
        commits = 0
        await asyncio.gather(*(store.append_many(g, 2, [{"type": "x"}]) for g in ("a",)))
        await asyncio.gather(*(store.append_many(g, 1, [{"type": "x"}]) for g in ("b", "c")))
        assert commits == 2
    finally:
        await db.close()


@pytest.mark.parametrize("n", [1, 20])
async def test_every_append_returns_once_committed(tmp_path: Path, n: int) -> None:
    db, store = await open_store(tmp_path / "c.sqlite3")
    try:
        for k in range(n):
            await store.create_game(
                GameRow(id=f"g{k}", owner=None, rules={}, seats=[], secret="00" * 32, options={})
            )
        await asyncio.gather(
            *(store.append_many(f"g{k}", 0, [{"type": "deal", "number": k}]) for k in range(n))
        )
        with sqlite3.connect(tmp_path / "c.sqlite3") as file:
            assert file.execute("SELECT count(*) FROM events").fetchone() == (n,)
    finally:
        await db.close()
