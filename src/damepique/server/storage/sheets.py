"""The score keeper's sheets (``schema.sheets``).

A sheet has two ids: ``id``, which lets its holder change it, and
``read_id``, for the read-only shared link. A change is a read-modify-write
guarded by a version number, so two phones entering at once never lose a
deal, even through two server processes.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import insert, select, update

from damepique.scorer import BAD_SHEET, NO_SUCH_SHEET, ScoreError, Sheet

from . import schema
from .database import Database

RETRIES = 20


@dataclass
class StoredSheet:
    """A sheet with its ids, version and dates as stored."""

    id: str
    read_id: str
    sheet: Sheet
    version: int
    created_at: str
    updated_at: str


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class SheetStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def create(self, sheet: Sheet) -> StoredSheet:
        now = _iso(self.db.clock.time())
        stored = StoredSheet(secrets.token_urlsafe(12), secrets.token_urlsafe(12), sheet, 1, now, now)
        async with self.db.write() as conn:
            await conn.execute(
                insert(schema.sheets).values(
                    id=stored.id,
                    read_id=stored.read_id,
                    data=json.dumps(sheet.to_json(), ensure_ascii=False),
                    version=1,
                    created_at=now,
                    updated_at=now,
                )
            )
        return stored

    async def get(self, sheet_id: str, shared: bool = False) -> StoredSheet:
        """The sheet with this id (``shared``: this read-only id); ``ScoreError`` when there is none."""
        column = schema.sheets.c.read_id if shared else schema.sheets.c.id
        async with self.db.read() as conn:
            row = (await conn.execute(select(schema.sheets).where(column == sheet_id))).first()
        if row is None:
            raise ScoreError(NO_SUCH_SHEET, "no_such_sheet")
        try:
            sheet = Sheet.from_json(json.loads(row.data))
        except (ScoreError, KeyError, TypeError, ValueError) as e:
            raise ScoreError(BAD_SHEET, "bad_sheet_data", {"detail": str(e)}) from e
        return StoredSheet(row.id, row.read_id, sheet, row.version, row.created_at, row.updated_at)

    async def change(self, sheet_id: str, apply: Callable[[Sheet], object]) -> StoredSheet:
        """Apply ``apply`` to the newest sheet and save it, one change at a time per sheet."""
        lock, users = self._locks.get(sheet_id, (asyncio.Lock(), 0))
        self._locks[sheet_id] = (lock, users + 1)
        try:
            async with lock:
                return await self._change(sheet_id, apply)
        finally:
            lock, users = self._locks[sheet_id]
            if users == 1:
                del self._locks[sheet_id]
            else:
                self._locks[sheet_id] = (lock, users - 1)

    async def _change(self, sheet_id: str, apply: Callable[[Sheet], object]) -> StoredSheet:
        # The lock orders changes within this process; the version catches another
        # process saving in between, and then we start again.
        for attempt in range(RETRIES):
            if attempt:
                await self.db.clock.sleep(0.01 * attempt)
            stored = await self.get(sheet_id)
            apply(stored.sheet)  # raises ScoreError before anything is written
            now = _iso(self.db.clock.time())
            t = schema.sheets
            async with self.db.write() as conn:
                result = await conn.execute(
                    update(t)
                    .where(t.c.id == sheet_id, t.c.version == stored.version)
                    .values(
                        data=json.dumps(stored.sheet.to_json(), ensure_ascii=False),
                        version=stored.version + 1,
                        updated_at=now,
                    )
                )
            if result.rowcount == 1:
                stored.version += 1
                stored.updated_at = now
                return stored
        raise RuntimeError("the sheet keeps changing; try again")


__all__ = ["SheetStore", "StoredSheet"]
