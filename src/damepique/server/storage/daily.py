"""The daily deal's days and entries (``schema.daily_days``, ``schema.daily_entries``).

A day's row is made the first time the day is asked for, never before it
starts (its caller checks the clock): its secret is drawn then, so nobody
could know it earlier. An entry is one player's one try of a day; it is
made in the same transaction that checks there is none yet, so two pages of
the same player starting at once get one game between them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, select, update

from ..protocol import Json
from . import schema
from .database import Database


@dataclass
class Day:
    date: str
    secret: str
    """Hex; never sent before the day is over."""
    created: float
    level: str
    par: Json | None
    """``{"record": ..., "points": [[...] by seat] by deal}`` once played."""


@dataclass
class Entry:
    date: str
    player: str
    device: str
    account: str | None
    nickname: str | None
    code: str
    game_id: str
    started: float
    finished: float | None = None
    points: list[int] | None = None
    total: int | None = None

    def to_json(self) -> Json:
        return {
            "date": self.date,
            "nickname": self.nickname,
            "finished": self.finished is not None,
            "points": self.points,
            "total": self.total,
        }


def _entry(r: Any) -> Entry:
    return Entry(
        date=r.date,
        player=r.player,
        device=r.device,
        account=r.account,
        nickname=r.nickname,
        code=r.code,
        game_id=r.game_id,
        started=r.started,
        finished=r.finished,
        points=json.loads(r.points) if r.points else None,
        total=r.total,
    )


class DailyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def day(self, date: str) -> Day | None:
        t = schema.daily_days
        async with self.db.read() as conn:
            r = (await conn.execute(select(t).where(t.c.date == date))).first()
        if r is None:
            return None
        return Day(r.date, r.secret, r.created, r.level, json.loads(r.par) if r.par else None)

    async def make_day(self, date: str, secret: str, created: float, level: str) -> Day:
        """The day's row: made now with ``secret``, or the one already made."""
        t = schema.daily_days
        async with self.db.write() as conn:
            r = (await conn.execute(select(t.c.date).where(t.c.date == date))).first()
            if r is None:
                await conn.execute(insert(t).values(date=date, secret=secret, created=created, level=level))
        day = await self.day(date)
        assert day is not None
        return day

    async def set_par(self, date: str, par: Json) -> None:
        t = schema.daily_days
        async with self.db.write() as conn:
            await conn.execute(
                update(t).where(t.c.date == date, t.c.par.is_(None)).values(par=json.dumps(par))
            )

    async def entry(self, date: str, player: str) -> Entry | None:
        t = schema.daily_entries
        async with self.db.read() as conn:
            r = (await conn.execute(select(t).where(t.c.date == date, t.c.player == player))).first()
        return None if r is None else _entry(r)

    async def add_entry(self, entry: Entry) -> Entry:
        """Record ``entry`` unless its player has one that day: returns the one kept."""
        t = schema.daily_entries
        async with self.db.write() as conn:
            r = (
                await conn.execute(select(t).where(t.c.date == entry.date, t.c.player == entry.player))
            ).first()
            if r is not None:
                return _entry(r)
            await conn.execute(
                insert(t).values(
                    date=entry.date,
                    player=entry.player,
                    device=entry.device,
                    account=entry.account,
                    nickname=entry.nickname,
                    code=entry.code,
                    game_id=entry.game_id,
                    started=entry.started,
                )
            )
        return entry

    async def claim(self, device: str, account: str, nickname: str) -> int:
        """The tries a browser made before its owner signed in become the
        account's (except on days the account already played): returns how many."""
        t = schema.daily_entries
        async with self.db.write() as conn:
            taken = select(t.c.date).where(t.c.player == account)
            r = await conn.execute(
                update(t)
                .where(t.c.player == device, t.c.account.is_(None), t.c.date.not_in(taken))
                .values(player=account, account=account, nickname=nickname)
            )
            return int(r.rowcount or 0)

    async def finish(self, game_id: str, finished: float, points: list[int]) -> None:
        t = schema.daily_entries
        async with self.db.write() as conn:
            await conn.execute(
                update(t)
                .where(t.c.game_id == game_id, t.c.finished.is_(None))
                .values(finished=finished, points=json.dumps(points), total=sum(points))
            )

    async def finished_entries(self, date: str) -> list[Entry]:
        """Every finished try of a day, fewest points first."""
        t = schema.daily_entries
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(t)
                .where(and_(t.c.date == date, t.c.finished.is_not(None)))
                .order_by(t.c.total, t.c.finished)
            )
            return [_entry(r) for r in rows]

    async def entries_of(self, player: str, limit: int = 366) -> list[Entry]:
        """A player's tries, newest first."""
        t = schema.daily_entries
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(t).where(t.c.player == player).order_by(t.c.date.desc()).limit(limit)
            )
            return [_entry(r) for r in rows]


__all__ = ["DailyStore", "Day", "Entry"]
