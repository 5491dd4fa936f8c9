"""Tournaments (``schema.tournaments``): each one JSON document, written whole.

Several processes share a tournament (a player joins at one, its director
starts it at another): every change is made by ``change``, row locked
(``documents.change``), so two changes at once never lose one another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Select, insert, select

from ..errors import Refusal
from ..protocol import Json
from . import documents, schema
from .database import Database

T = TypeVar("T")


def due(doc: Json) -> float | None:
    """From when a process must drive the tournament (``schema.tournaments.due``):
    not while it waits for its director (its start time came and it could not start)."""
    if doc["status"] == "playing":
        return 0.0
    if doc["status"] == "open" and doc.get("start") is not None and not doc.get("start_failed"):
        return float(doc["start"])
    return None


class TourneyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, doc: Json) -> None:
        t = schema.tournaments
        async with self.db.write() as conn:
            await conn.execute(
                insert(t).values(
                    code=doc["code"],
                    status=doc["status"],
                    created=doc["created"],
                    data=json.dumps(doc),
                    due=due(doc),
                )
            )

    async def change(self, code: str, edit: Callable[[Json], T]) -> tuple[Json, T]:
        """Apply ``edit`` to the stored document, row locked (``documents.change``);
        no such tournament: ``no_tourney``."""
        return await documents.change(
            self.db,
            schema.tournaments,
            code,
            edit,
            Refusal("no_tourney", "no tournament with this code"),
            lambda doc: {"status": doc["status"], "due": due(doc)},
        )

    async def load(self, code: str) -> Json | None:
        t = schema.tournaments
        async with self.db.read() as conn:
            r = (await conn.execute(select(t.c.data).where(t.c.code == code))).first()
        return None if r is None else dict(json.loads(r.data))

    async def exists(self, code: str) -> bool:
        return await self.load(code) is not None

    async def codes_with(self, status: str) -> list[str]:
        t = schema.tournaments
        async with self.db.read() as conn:
            rows = await conn.execute(select(t.c.code).where(t.c.status == status))
            return [code for (code,) in rows]

    async def statuses(self, codes: list[str]) -> dict[str, str]:
        t = schema.tournaments
        async with self.db.read() as conn:
            rows = await conn.execute(select(t.c.code, t.c.status).where(t.c.code.in_(codes)))
            return {code: status for code, status in rows}

    def to_drive(self, now: float, prefix: str) -> Select[tuple[str]]:
        """The lease names (``prefix`` + code) of the tournaments that need a driver
        now (a query, for the leases to tell which of them nobody drives)."""
        t = schema.tournaments
        return select((prefix + t.c.code).label("name")).where(t.c.due.is_not(None), t.c.due <= now)


__all__ = ["TourneyStore", "due"]
