"""Puzzle answers by player (``schema.puzzle_attempts``): a player's puzzle
rating is the ``after`` of their last answer; a guest's answers move to the
account first signed in on their browser (``merge``), and the account's
rating is then worked out again by replaying every answer in order, so each
answer counts once, however often the browser signs in."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update

from ..protocol import Json
from . import schema
from .database import Database


@dataclass(frozen=True)
class Attempt:
    player: str
    puzzle_id: str
    theme: str
    correct: bool
    puzzle_rating: float
    at: float
    before: Json
    after: Json


def _attempt(r: Any) -> Attempt:
    return Attempt(
        r.player,
        r.puzzle_id,
        r.theme,
        bool(r.correct),
        float(r.puzzle_rating),
        float(r.at),
        json.loads(r.before),
        json.loads(r.after),
    )


Rate = Callable[[Json, float, bool], Json]
"""A rating after one puzzle: ``(player's rating, puzzle's rating, solved) -> new rating``."""


class PuzzleStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def rating(self, player: str) -> Json | None:
        """The player's rating after their last answer (None: no answer kept)."""
        pa = schema.puzzle_attempts
        async with self.db.read() as conn:
            r = (
                await conn.execute(
                    select(pa.c.after).where(pa.c.player == player).order_by(pa.c.id.desc()).limit(1)
                )
            ).first()
        return None if r is None else dict(json.loads(r.after))

    async def answered(self, a: Attempt) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                insert(schema.puzzle_attempts).values(
                    player=a.player,
                    puzzle_id=a.puzzle_id,
                    theme=a.theme,
                    correct=a.correct,
                    puzzle_rating=a.puzzle_rating,
                    at=a.at,
                    before=json.dumps(a.before),
                    after=json.dumps(a.after),
                )
            )

    async def attempts(self, players: list[str]) -> list[Attempt]:
        """The answers of these players, oldest first."""
        if not players:
            return []
        pa = schema.puzzle_attempts
        async with self.db.read() as conn:
            rows = await conn.execute(select(pa).where(pa.c.player.in_(players)).order_by(pa.c.at, pa.c.id))
            return [_attempt(r) for r in rows]

    async def merge(self, device: str, account: str, rate: Rate) -> int:
        """The guest answers of the browser ``device`` become the account's; the
        account's answers are then rated again in order (``rate``), from the
        rating its first answer started from: guest progress is kept and no
        answer counts twice. Returns how many answers moved (0 the second time)."""
        pa = schema.puzzle_attempts
        guest, mine = f"g:{device}", f"a:{account}"
        async with self.db.write() as conn:
            moved = (await conn.execute(update(pa).where(pa.c.player == guest).values(player=mine))).rowcount
            if not moved:
                return 0
            rows = list(await conn.execute(select(pa).where(pa.c.player == mine).order_by(pa.c.at, pa.c.id)))
            rating: Json = json.loads(rows[0].before)
            for r in rows:
                after = rate(rating, float(r.puzzle_rating), bool(r.correct))
                await conn.execute(
                    update(pa)
                    .where(pa.c.id == r.id)
                    .values(before=json.dumps(rating), after=json.dumps(after))
                )
                rating = after
        return int(moved)

    async def consented_games(self, limit: int = 1000) -> list[tuple[str, Json, list[int]]]:
        """The finished games puzzles may be mined from, newest first: those
        whose every person is an account that allows it (``puzzle_consent``;
        a guest cannot, so a game with a guest is never taken), each as
        ``(game id, record, the seats those people played)``."""
        pg, games, accounts = schema.player_games, schema.games, schema.accounts
        async with self.db.read() as conn:
            allowed = {
                f"a:{r.key}"
                for r in await conn.execute(select(accounts.c.key).where(accounts.c.puzzle_consent.is_(True)))
            }
            if not allowed:
                return []
            ids = [
                str(r.game_id)
                for r in await conn.execute(
                    select(pg.c.game_id, func.max(pg.c.finished).label("at"))
                    .where(pg.c.player.in_(allowed))
                    .group_by(pg.c.game_id)
                    .order_by(func.max(pg.c.finished).desc())
                    .limit(limit)
                )
            ]
            people: dict[str, list[tuple[str, int]]] = {}
            for r in await conn.execute(
                select(pg.c.game_id, pg.c.player, pg.c.seat).where(pg.c.game_id.in_(ids))
            ):
                people.setdefault(str(r.game_id), []).append((str(r.player), int(r.seat)))
            records = {
                str(r.id): json.loads(r.record)
                for r in await conn.execute(
                    select(games.c.id, games.c.record).where(games.c.id.in_(ids), games.c.record.is_not(None))
                )
            }
        return [
            (g, records[g], sorted(seat for _, seat in people[g]))
            for g in ids
            if g in records and all(p in allowed for p, _ in people[g])
        ]


__all__ = ["Attempt", "PuzzleStore", "Rate"]
