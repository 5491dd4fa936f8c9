"""Quick-match waits in the database (``schema.quick_tickets``): what the queue's
owner must not forget when it goes, another process or the same server
restarted taking the queue over. A wait's start and end, so a page that
joins again with its ticket keeps its place and its countdown; and where a
ticket was seated, so it is never seated twice, whoever owns the queue (the
seat's token names its ticket too, unique: ``seat_taken``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from damepique.wire import QuickSeat

from ..protocol import Json
from . import schema
from .database import Database


@dataclass(frozen=True)
class Ticket:
    """A wait as its owner took it in: ``since`` and ``due`` on the app's clock,
    and the ``matched`` message once seated."""

    ticket: str
    since: float
    due: float
    seated: Json | None


def _ticket(r: Any) -> Ticket:
    return Ticket(r.ticket, float(r.since), float(r.due), json.loads(r.seated) if r.seated else None)


class QuickStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, ticket: str) -> Ticket | None:
        qt = schema.quick_tickets
        async with self.db.read() as conn:
            r = (await conn.execute(select(qt).where(qt.c.ticket == ticket))).first()
        return None if r is None else _ticket(r)

    async def waits(self, ticket: str, since: float, due: float) -> Ticket:
        """The wait ``ticket`` began at ``since`` and ends at ``due``, unless it was
        taken in before: then the wait (or the seat) it had, unchanged."""
        qt = schema.quick_tickets
        async with self.db.write() as conn:
            r = (await conn.execute(select(qt).where(qt.c.ticket == ticket))).first()
            if r is not None:
                return _ticket(r)
            await conn.execute(insert(qt).values(ticket=ticket, since=since, due=due, at=since))
        return Ticket(ticket, since, due, None)

    async def seated(self, ticket: str, reply: Json, at: float) -> None:
        """The ticket was seated: ``reply`` is the ``matched`` message it heard."""
        qt = schema.quick_tickets
        async with self.db.write() as conn:
            done = await conn.execute(
                update(qt).where(qt.c.ticket == ticket).values(seated=json.dumps(reply), at=at)
            )
            if not done.rowcount:
                await conn.execute(
                    insert(qt).values(ticket=ticket, since=at, due=at, seated=json.dumps(reply), at=at)
                )

    async def seat_taken(self, ticket: str) -> QuickSeat | None:
        """The seat ``ticket`` took at a table (its seat token names it: a wait sits
        once, ``TableStore.add_token``), whether or not the owner that seated it
        kept it here (``seated``) before it went; None: it sits nowhere."""
        tok = schema.seat_tokens
        async with self.db.read() as conn:
            r = (await conn.execute(select(tok).where(tok.c.ticket == ticket))).first()
        return None if r is None else {"code": str(r.code), "token": str(r.token), "seat": int(r.seat)}

    async def forget(self, ticket: str) -> None:
        """The person left the queue: the ticket waits no more."""
        qt = schema.quick_tickets
        async with self.db.write() as conn:
            await conn.execute(delete(qt).where(qt.c.ticket == ticket, qt.c.seated.is_(None)))

    async def forget_before(self, at: float) -> None:
        qt = schema.quick_tickets
        async with self.db.write() as conn:
            await conn.execute(delete(qt).where(qt.c.at < at))


__all__ = ["QuickStore", "Ticket"]
