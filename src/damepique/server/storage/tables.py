"""Tables and their seat tokens.

A table's whole state is one JSON document (``Table.to_data``), written by
its registry before any change of it is announced. A seat token is the
seat's secret: whoever holds it plays the seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from sqlalchemy import Select, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import Refusal
from ..protocol import Json
from . import schema
from .database import Database

RUNNING = ("waiting", "playing")
"""Statuses of a table with others that must run somewhere (its timers, bots, grace periods)."""


class TableStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(
        self, code: str, kind: str, status: str, public: bool, data: Json, *, joined: bool = True
    ) -> None:
        now = self.db.clock.time()
        body = json.dumps(data)
        t = schema.tables
        async with self.db.write() as conn:
            r = await conn.execute(
                update(t)
                .where(t.c.code == code)
                .values(status=status, public=public, joined=joined, updated=now, data=body)
            )
            if r.rowcount == 0:
                await conn.execute(
                    insert(t).values(
                        code=code,
                        kind=kind,
                        status=status,
                        public=public,
                        joined=joined,
                        created=now,
                        updated=now,
                        data=body,
                    )
                )

    async def load(self, code: str) -> Json | None:
        t = schema.tables
        async with self.db.read() as conn:
            r = (await conn.execute(select(t.c.data).where(t.c.code == code))).first()
            return None if r is None else json.loads(r.data)

    async def exists(self, code: str) -> bool:
        t = schema.tables
        async with self.db.read() as conn:
            return (await conn.execute(select(t.c.code).where(t.c.code == code))).first() is not None

    def running(self) -> Select[tuple[str]]:
        """The codes of the tables with others that must run somewhere (a query,
        for the leases to tell which of them nobody runs). Solo tables are run
        when their player comes back, never looked for."""
        t = schema.tables
        return select(t.c.code.label("name")).where(t.c.kind == "table", t.c.status.in_(RUNNING))

    async def playing_with(self, account: str) -> list[Json]:
        """The stored tables not solo whose game is being played with ``account``
        at one of their seats (its event stream, opening, tells them again)."""
        t = schema.tables
        # The account's key as JSON writes it narrows the search; the seats say for sure.
        needle = "%" + json.dumps(account) + "%"
        query = select(t.c.data).where(
            t.c.status == "playing", t.c.kind.notin_(("solo", "daily")), t.c.data.like(needle)
        )
        async with self.db.read() as conn:
            found = [json.loads(r.data) for r in await conn.execute(query)]
        return [d for d in found if any(s.get("account") == account for s in d.get("seats", []))]

    async def unjoined_solo(self, before: float, limit: int = 500) -> list[tuple[str, str | None]]:
        """(code, game) of solo tables nobody joined, made before ``before`` (epoch seconds)."""
        t = schema.tables
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(t.c.code, t.c.data)
                .where(t.c.kind == "solo", t.c.joined.is_(False), t.c.created < before)
                .limit(limit)
            )
            return [(r.code, json.loads(r.data).get("game")) for r in rows]

    async def delete(self, code: str) -> None:
        """The table and its seat tokens go."""
        async with self.db.write() as conn:
            await conn.execute(delete(schema.seat_tokens).where(schema.seat_tokens.c.code == code))
            await conn.execute(delete(schema.tables).where(schema.tables.c.code == code))

    # -- seat tokens ----------------------------------------------------------------------

    async def add_token(self, token: str, code: str, seat: int, ticket: str | None = None) -> None:
        """``token`` plays the seat. ``ticket``: the quick-match wait it seats, which
        sits once: ``Refusal`` ``already_seated`` (nothing written) when it holds a
        seat already, at any table, whichever process seated it (the column is
        unique: two processes at the same moment, one of them is refused)."""
        tok = schema.seat_tokens
        sits = False
        try:
            async with self.db.write() as conn:
                # Looked up first, in the same transaction: a failed insert (or any
                # error in it) would read as a database that takes no writes (``/healthz``).
                if ticket is not None:
                    sits = (
                        await conn.execute(select(tok.c.code).where(tok.c.ticket == ticket))
                    ).first() is not None
                if not sits:
                    await conn.execute(insert(tok).values(token=token, code=code, seat=seat, ticket=ticket))
        except IntegrityError:
            if ticket is None:
                raise
            sits = True  # another process seated it at the same moment
        if sits:
            raise Refusal("already_seated", "this quick-match wait sits at a table already")

    async def drop_token(self, code: str, seat: int) -> None:
        tok = schema.seat_tokens
        async with self.db.write() as conn:
            await conn.execute(delete(tok).where(tok.c.code == code, tok.c.seat == seat))

    async def move_tokens(self, code: str, moves: Mapping[int, int]) -> None:
        """Seats renumbered (``moves``: old seat -> new): each token follows its
        seat; the tokens of seats not in ``moves`` go."""
        tok = schema.seat_tokens
        async with self.db.write() as conn:
            rows = (await conn.execute(select(tok.c.token, tok.c.seat).where(tok.c.code == code))).all()
            for token, seat in rows:  # one by one, by token: seat numbers may swap
                if seat in moves:
                    await conn.execute(update(tok).where(tok.c.token == token).values(seat=moves[seat]))
                else:
                    await conn.execute(delete(tok).where(tok.c.token == token))

    async def token_of(self, code: str, seat: int) -> str | None:
        """The seat's token (told to its account when its game starts)."""
        tok = schema.seat_tokens
        async with self.db.read() as conn:
            r = (
                await conn.execute(select(tok.c.token).where(tok.c.code == code, tok.c.seat == seat))
            ).first()
            return None if r is None else str(r.token)

    async def find_token(self, token: str) -> tuple[str, int] | None:
        tok = schema.seat_tokens
        async with self.db.read() as conn:
            r = (await conn.execute(select(tok).where(tok.c.token == token))).first()
            return None if r is None else (r.code, r.seat)


__all__ = ["RUNNING", "TableStore"]
