"""Tournaments (``schema.tournaments``): each one JSON document, written whole."""

from __future__ import annotations

import json

from sqlalchemy import insert, select, update

from ..protocol import Json
from . import schema
from .database import Database


class TourneyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, doc: Json, created: float) -> None:
        t = schema.tournaments
        body = json.dumps(doc)
        async with self.db.write() as conn:
            r = await conn.execute(
                update(t).where(t.c.code == doc["code"]).values(status=doc["status"], data=body)
            )
            if r.rowcount == 0:
                await conn.execute(
                    insert(t).values(code=doc["code"], status=doc["status"], created=created, data=body)
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


__all__ = ["TourneyStore"]
