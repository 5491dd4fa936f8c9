"""Game analyses as stored (``schema.analyses``): one per game and seat."""

from __future__ import annotations

import json

from sqlalchemy import delete, insert, select

from ..protocol import Json
from . import schema
from .database import Database


class AnalysisStore:
    """A finished game's analyses, by game (or uploaded record) and seat."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game: str, seat: int) -> Json | None:
        t = schema.analyses
        async with self.db.read() as conn:
            r = (await conn.execute(select(t.c.data).where(t.c.game == game, t.c.seat == seat))).first()
            return None if r is None else dict(json.loads(r.data))

    async def put(self, game: str, seat: int, playouts: int, data: Json) -> None:
        """Keep ``data`` (a second analysis of the same game and seat replaces the first)."""
        t = schema.analyses
        async with self.db.write() as conn:
            await conn.execute(delete(t).where(t.c.game == game, t.c.seat == seat))
            await conn.execute(
                insert(t).values(
                    game=game,
                    seat=seat,
                    playouts=playouts,
                    created=self.db.clock.time(),
                    data=json.dumps(data),
                )
            )


__all__ = ["AnalysisStore"]
