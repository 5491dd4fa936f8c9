"""Challenges (``schema.challenges``): each one JSON document, changed row
locked (``documents.change``) wherever it is answered, and the accounts it
names (``schema.challenge_accounts``), to list an account's challenges."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from sqlalchemy import delete, insert, select

from ..errors import Refusal
from ..protocol import Json
from . import documents, schema
from .database import Database

T = TypeVar("T")


class ChallengeStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, doc: Json, accounts: Sequence[str]) -> None:
        c, a = schema.challenges, schema.challenge_accounts
        async with self.db.write() as conn:
            await conn.execute(
                insert(c).values(
                    id=doc["id"], status=doc["status"], created=doc["created"], data=json.dumps(doc)
                )
            )
            await conn.execute(insert(a), [{"challenge": doc["id"], "account": k} for k in accounts])

    async def change(self, cid: str, edit: Callable[[Json], T]) -> tuple[Json, T]:
        """Apply ``edit`` to the stored challenge, row locked; none: ``no_challenge``."""
        return await documents.change(
            self.db,
            schema.challenges,
            cid,
            edit,
            Refusal("no_challenge", "no pending challenge with this id (answered, canceled or expired)"),
            lambda doc: {"status": doc["status"]},
        )

    async def load(self, cid: str) -> Json | None:
        c = schema.challenges
        async with self.db.read() as conn:
            r = (await conn.execute(select(c.c.data).where(c.c.id == cid))).first()
        return None if r is None else dict(json.loads(r.data))

    async def of(self, account: str, status: str, since: float) -> list[Json]:
        """The challenges naming ``account`` in this status, made since ``since``, oldest first."""
        c, a = schema.challenges, schema.challenge_accounts
        stmt = (
            select(c.c.data)
            .join(a, a.c.challenge == c.c.id)
            .where(a.c.account == account, c.c.status == status, c.c.created >= since)
            .order_by(c.c.created, c.c.id)
        )
        async with self.db.read() as conn:
            return [dict(json.loads(r.data)) for r in await conn.execute(stmt)]

    async def drop_before(self, before: float) -> int:
        """Forget the challenges made before ``before`` (answered or not): how many."""
        c, a = schema.challenges, schema.challenge_accounts
        old = select(c.c.id).where(c.c.created < before)
        async with self.db.write() as conn:
            await conn.execute(delete(a).where(a.c.challenge.in_(old)))
            return int((await conn.execute(delete(c).where(c.c.created < before))).rowcount)


__all__ = ["ChallengeStore"]
