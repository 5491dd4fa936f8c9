"""Games and their event logs: every event is committed before anyone hears of it.

Events that arrive together are committed together (group commit: those of
every command handled in one turn of the event loop go into one
transaction, written once that turn is over; a commit costs more than the
rows it writes), and each ``append`` returns only once its events are
committed, so a killed server loses nothing it acknowledged.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from ..protocol import Json, dumps
from . import schema
from .database import Database


@dataclass
class GameRow:
    """One game as stored: its rules, seats, deal secret and options."""

    id: str
    owner: str | None
    rules: Json
    seats: list[Json]
    secret: str
    """The game's deal secret in hex (``engine.fairness``): never sent before the game ends."""
    options: Json
    created: float = 0.0
    """Seconds since the epoch; 0: ``create_game`` stamps it with the app's clock."""
    finished: float | None = None
    totals: list[int] | None = None
    winner: int | None = None
    record: Json | None = None
    seed: int | None = None
    """Set only for a game begun before deals were sealed (its early deals came
    from this seed, its later ones from ``secret``): such a game has nothing to prove."""

    @property
    def sealed(self) -> bool:
        return self.seed is None

    @property
    def secret_bytes(self) -> bytes:
        return bytes.fromhex(self.secret)


def _row(r: Any) -> GameRow:
    return GameRow(
        id=r.id,
        owner=r.owner,
        rules=json.loads(r.rules),
        seats=json.loads(r.seats),
        secret=r.secret,
        seed=r.seed,
        options=json.loads(r.options),
        created=r.created,
        finished=r.finished,
        totals=json.loads(r.totals) if r.totals else None,
        winner=r.winner,
        record=json.loads(r.record) if r.record else None,
    )


Batch = list[tuple[list[Json], asyncio.Future[None]]]


class GameStore:
    """Games (``schema.games``) and their events (``schema.events``) in the app's ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._waiting: Batch = []
        self._writer: asyncio.Task[None] | None = None

    async def create_game(self, game: GameRow) -> None:
        if not game.created:
            game.created = self.db.clock.time()
        async with self.db.write() as conn:
            await conn.execute(
                insert(schema.games).values(
                    id=game.id,
                    owner=game.owner,
                    rules=json.dumps(game.rules),
                    seats=json.dumps(game.seats),
                    seed=game.seed,
                    secret=game.secret,
                    options=json.dumps(game.options),
                    created=game.created,
                )
            )

    async def append_many(self, game_id: str, first_seq: int, bodies: list[Json]) -> None:
        """Events ``first_seq, first_seq + 1, ...``, committed together; returns once they are."""
        if not bodies:
            return
        rows = [{"game_id": game_id, "seq": first_seq + i, "body": dumps(b)} for i, b in enumerate(bodies)]
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((rows, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        await future

    async def _write_batches(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self.db.append_events([row for rows, _ in batch for row in rows])
            except Exception:
                # Rolled back: each game's events again on their own, so one
                # game's failure (say, a sequence number taken) is only its own.
                for rows, future in batch:
                    try:
                        await self.db.append_events(rows)
                    except Exception as e:
                        if not future.done():
                            future.set_exception(e)
                    else:
                        if not future.done():
                            future.set_result(None)
            else:
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def load_game(self, game_id: str) -> tuple[GameRow, list[Json]] | None:
        async with self.db.read() as conn:
            r = (await conn.execute(select(schema.games).where(schema.games.c.id == game_id))).first()
            if r is None:
                return None
            rows = await conn.execute(
                select(schema.events.c.body)
                .where(schema.events.c.game_id == game_id)
                .order_by(schema.events.c.seq)
            )
            return _row(r), [json.loads(b) for (b,) in rows]

    async def finish(
        self,
        game_id: str,
        totals: list[int],
        winner: int | None,
        record: Json,
        hints: list[int] | None = None,
        last: tuple[int, list[Json]] = (0, []),
    ) -> None:
        """The game is over: its totals, winner and record, and how many hints
        each seat took, in one transaction with ``last``, the events that ended
        it (their first number and bodies): a crash cannot keep one without
        the other."""
        games = schema.games
        first_seq, bodies = last
        async with self.db.write() as conn:
            if bodies:
                rows = [
                    {"game_id": game_id, "seq": first_seq + i, "body": dumps(b)} for i, b in enumerate(bodies)
                ]
                await conn.execute(insert(schema.events), rows)
            values: Json = {
                "finished": self.db.clock.time(),
                "totals": json.dumps(totals),
                "winner": winner,
                "record": json.dumps(record),
            }
            if hints is not None:
                row = (await conn.execute(select(games.c.options).where(games.c.id == game_id))).first()
                options = json.loads(row.options) if row is not None else {}
                values["options"] = json.dumps(options | {"hints": hints})
            await conn.execute(update(games).where(games.c.id == game_id).values(**values))

    async def delete(self, game_id: str) -> None:
        """The game and its events go (a game nobody ever played)."""
        async with self.db.write() as conn:
            await conn.execute(delete(schema.events).where(schema.events.c.game_id == game_id))
            await conn.execute(delete(schema.games).where(schema.games.c.id == game_id))

    async def games_of(self, owner: str, limit: int = 100) -> list[GameRow]:
        """The finished games a browser played, newest first (its history)."""
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(schema.games)
                .where(schema.games.c.owner == owner, schema.games.c.finished.is_not(None))
                .order_by(schema.games.c.finished.desc())
                .limit(limit)
            )
            return [_row(r) for r in rows]

    async def get_game(self, game_id: str) -> GameRow | None:
        async with self.db.read() as conn:
            r = (await conn.execute(select(schema.games).where(schema.games.c.id == game_id))).first()
            return None if r is None else _row(r)


__all__ = ["GameRow", "GameStore"]
