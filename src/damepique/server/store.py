"""Persistence behind one small interface: games, seat tokens and the event log.

``SqlStore`` speaks SQLAlchemy's async engine, SQLite (aiosqlite) by default;
a server database URL works the same way. Every event is committed before the
runner acknowledges or broadcasts it, so a killed server loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine

from .database import async_url, create_engine, migrate, sqlite_pragmas
from .protocol import dumps

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), index=True),
    Column("rules", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", Integer),
    Column("secret", String(64)),
    Column("options", Text, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Float),
    Column("totals", Text),
    Column("winner", Integer),
    Column("record", Text),
)

seat_tokens = Table(
    "seat_tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("body", Text, nullable=False),
)


@dataclass
class GameRow:
    id: str
    owner: str | None
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    secret: str
    """The game's deal secret in hex (``engine.fairness``): never sent before the game ends."""
    options: dict[str, Any]
    created: float = field(default_factory=time.time)
    finished: float | None = None
    totals: list[int] | None = None
    winner: int | None = None
    record: dict[str, Any] | None = None
    seed: int | None = None
    """Set only for a game begun before deals were sealed (its early deals came
    from this seed, its later ones from ``secret``): such a game has nothing to prove."""

    @property
    def sealed(self) -> bool:
        return self.seed is None

    @property
    def secret_bytes(self) -> bytes:
        return bytes.fromhex(self.secret)


class Store(Protocol):
    async def init(self) -> None: ...
    async def close(self) -> None: ...
    async def create_game(self, game: GameRow, tokens: dict[str, int]) -> None: ...
    async def append(self, game_id: str, seq: int, body: dict[str, Any]) -> None: ...
    async def append_many(self, game_id: str, first_seq: int, bodies: list[dict[str, Any]]) -> None: ...
    async def load_game(self, game_id: str) -> tuple[GameRow, list[dict[str, Any]]] | None: ...
    async def find_seat(self, token: str) -> tuple[str, int] | None: ...
    async def finish(
        self, game_id: str, totals: list[int], winner: int | None, record: dict[str, Any]
    ) -> None: ...
    async def games_of(self, owner: str, limit: int = 100) -> list[GameRow]: ...
    async def get_game(self, game_id: str) -> GameRow | None: ...


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


class SqlStore:
    """The store on a SQLAlchemy async engine (``sqlite+aiosqlite:///path`` by default).

    Writes go one transaction at a time (SQLite has one writer anyway, and
    waiting on its file lock is slow); events that arrive together are
    committed together (group commit: on a SQLite file, those of one turn of
    the event loop; elsewhere, those that arrive while a transaction is in
    flight), and each ``append`` returns only once its event is committed.
    """

    def __init__(self, url: str) -> None:
        url = async_url(url)  # plain postgresql:// or sqlite:// as people write them
        self.url = url
        self._write_lock = asyncio.Lock()
        self._queue: list[tuple[list[dict[str, Any]], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._sqlite = url.startswith("sqlite")
        self._wconn: Any = None
        self._file = _sqlite_file(url)
        self._direct: sqlite3.Connection | None = None
        self._direct_queue: list[tuple[list[dict[str, Any]], asyncio.Future[None]]] = []
        self._direct_writer: asyncio.Task[None] | None = None
        self.engine: AsyncEngine = create_engine(url)

    async def init(self) -> None:
        # Every table of the app (this store's, multiplayer's, the score keeper's),
        # by Alembic's migrations: see database.py.
        await migrate(self.engine)

    async def close(self) -> None:
        if self._direct_writer is not None:
            with contextlib.suppress(Exception):
                await self._direct_writer
        if self._direct is not None:
            self._direct.close()
            self._direct = None
        if self._wconn is not None:
            await self._wconn.close()
            self._wconn = None
        await self.engine.dispose()

    def _write_direct(self, rows: list[dict[str, Any]]) -> None:
        """Events into a SQLite file on the loop's own thread, with the standard
        library's driver: a commit in WAL mode with synchronous=NORMAL takes tens of
        microseconds, far less than one trip to aiosqlite's thread under load."""
        if self._direct is None:
            assert self._file is not None
            self._direct = sqlite3.connect(self._file, check_same_thread=False)
            sqlite_pragmas(self._direct, None)
        with self._direct as conn:  # one transaction: committed, or rolled back on error
            conn.executemany(
                "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                [(r["game_id"], r["seq"], r["body"]) for r in rows],
            )

    async def _write_sqlite(self, rows: list[dict[str, Any]]) -> None:
        """The hot path on SQLite: one ``executemany`` and one commit on the driver's
        connection, two trips to aiosqlite's thread instead of SQLAlchemy's eight or so
        (each trip hands the GIL back and forth, which is what limits a busy server)."""
        if self._wconn is None:
            self._wconn = await self.engine.connect()
        raw = await self._wconn.get_raw_connection()
        driver = raw.driver_connection
        assert driver is not None
        try:
            await driver.executemany(
                "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                [(r["game_id"], r["seq"], r["body"]) for r in rows],
            )
            await driver.commit()
        except Exception:
            await driver.rollback()
            raise

    async def create_game(self, game: GameRow, tokens: dict[str, int]) -> None:
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(
                insert(games).values(
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
            if tokens:
                await conn.execute(
                    insert(seat_tokens),
                    [{"token": t, "game_id": game.id, "seat": s} for t, s in tokens.items()],
                )

    async def append(self, game_id: str, seq: int, body: dict[str, Any]) -> None:
        await self.append_many(game_id, seq, [body])

    async def append_many(self, game_id: str, first_seq: int, bodies: list[dict[str, Any]]) -> None:
        """Events ``first_seq, first_seq + 1, ...``, committed together; returns once they are."""
        if not bodies:
            return
        rows = [{"game_id": game_id, "seq": first_seq + i, "body": dumps(b)} for i, b in enumerate(bodies)]
        if self._file is not None:
            await self._append_direct(rows)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((rows, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_events())
        await future

    async def _append_direct(self, rows: list[dict[str, Any]]) -> None:
        """Group commit on the loop's own thread: the events of every command
        handled in this turn of the loop go into one transaction, written once
        that turn is over (a commit costs more than the rows it writes: about
        40 us against 10 us a row). Returns once ``rows`` are committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._direct_queue.append((rows, future))
        if self._direct_writer is None or self._direct_writer.done():
            self._direct_writer = asyncio.create_task(self._write_direct_batches())
        await future

    async def _write_direct_batches(self) -> None:
        while self._direct_queue:
            batch, self._direct_queue = self._direct_queue, []
            async with self._write_lock:
                try:
                    self._write_direct([row for rows, _ in batch for row in rows])
                except Exception:
                    # Rolled back: each game's events again on their own, so one
                    # game's failure (say, a sequence number taken) is only its own.
                    for rows, future in batch:
                        try:
                            self._write_direct(rows)
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

    async def _write_events(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            rows = [row for rows, _ in batch for row in rows]
            try:
                async with self._write_lock:
                    if self._sqlite:
                        await self._write_sqlite(rows)
                    else:
                        async with self.engine.begin() as conn:
                            await conn.execute(insert(events), rows)
            except Exception as e:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(e)
            else:
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def load_game(self, game_id: str) -> tuple[GameRow, list[dict[str, Any]]] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            if r is None:
                return None
            rows = await conn.execute(
                select(events.c.body).where(events.c.game_id == game_id).order_by(events.c.seq)
            )
            return _row(r), [json.loads(b) for (b,) in rows]

    async def find_seat(self, token: str) -> tuple[str, int] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(seat_tokens).where(seat_tokens.c.token == token))).first()
            return None if r is None else (r.game_id, r.seat)

    async def finish(
        self, game_id: str, totals: list[int], winner: int | None, record: dict[str, Any]
    ) -> None:
        # Under the write lock like every other write: an on-loop event write
        # and this one must not meet in SQLite ("database is locked").
        async with self._write_lock, self.engine.begin() as conn:
            await conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(
                    finished=time.time(), totals=json.dumps(totals), winner=winner, record=json.dumps(record)
                )
            )

    async def games_of(self, owner: str, limit: int = 100) -> list[GameRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(games)
                .where(games.c.owner == owner, games.c.finished.is_not(None))
                .order_by(games.c.finished.desc())
                .limit(limit)
            )
            return [_row(r) for r in rows]

    async def get_game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            return None if r is None else _row(r)


def _sqlite_file(url: str) -> str | None:
    """The file of a ``sqlite`` URL, or None (memory databases, URIs, other databases).

    >>> _sqlite_file("sqlite+aiosqlite:////tmp/x.sqlite3"), _sqlite_file("sqlite+aiosqlite:///:memory:")
    ('/tmp/x.sqlite3', None)
    """
    if not url.startswith("sqlite"):
        return None
    path = url.split("://", 1)[1][1:].split("?", 1)[0]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return path


__all__ = ["GameRow", "SqlStore", "Store"]
