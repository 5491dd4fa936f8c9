"""The challenges' store (``storage/challenges.py``): an account's challenges by
status and age, a change under the row's lock that a refusal leaves undone,
and old challenges forgotten with the accounts they named."""

from __future__ import annotations

from pathlib import Path

import pytest

from damepique.server.errors import Refusal
from damepique.server.storage.challenges import ChallengeStore
from damepique.server.storage.database import Database


def doc(cid: str, created: float, status: str = "pending") -> dict[str, object]:
    return {"id": cid, "status": status, "created": created, "to": []}


async def test_listed_changed_and_forgotten(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'c.sqlite3'}")
    await db.open()
    try:
        store = ChallengeStore(db)
        await store.add(doc("old", 100.0), ["ann", "bob"])
        await store.add(doc("new", 5000.0), ["ann", "cy"])
        assert [d["id"] for d in await store.of("ann", "pending", 0.0)] == ["old", "new"]
        assert [d["id"] for d in await store.of("ann", "pending", 1000.0)] == ["new"]
        assert await store.of("bob", "started", 0.0) == []

        def refuse(d: dict[str, object]) -> None:
            d["status"] = "started"
            raise Refusal("challenge_over", "this challenge has your answer already")

        with pytest.raises(Refusal):
            await store.change("new", refuse)
        assert (await store.load("new"))["status"] == "pending"  # type: ignore[index]
        await store.change("new", lambda d: d.update(status="started"))
        assert [d["id"] for d in await store.of("cy", "started", 0.0)] == ["new"]
        assert db.health() is None  # a refusal is not a failed write
        assert await store.drop_before(1000.0) == 1
        assert await store.load("old") is None and await store.of("bob", "pending", 0.0) == []
        assert [d["id"] for d in await store.of("ann", "started", 0.0)] == ["new"]
    finally:
        await db.close()
