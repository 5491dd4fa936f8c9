"""A JSON document in a row, changed by several processes at once.

Tournaments and challenges are each one JSON document that any process may
change (a player joins at one process, the director starts at another; a
challenge is made at one and accepted at another). ``change`` reads the row
with its lock held (PostgreSQL's ``FOR UPDATE``; SQLite has one writer,
under the database's write lock), lets the caller edit the document, and
writes it back in the same transaction: two changes at once never lose one
another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Table, select, update

from ..errors import Refusal
from ..protocol import Json
from .database import Database

T = TypeVar("T")


async def change(
    db: Database,
    table: Table,
    key: str,
    edit: Callable[[Json], T],
    missing: Refusal,
    columns: Callable[[Json], dict[str, Any]],
) -> tuple[Json, T]:
    """Apply ``edit`` to the document of row ``key`` (its primary key; the
    document in its ``data`` column), row locked, and write it back with the
    other ``columns`` it gives; the document as changed and what ``edit``
    returned. A ``Refusal`` from ``edit`` changes nothing and is raised here;
    no such row: ``missing``."""
    (pk,) = table.primary_key.columns
    refusal: Refusal | None = None
    async with db.write() as conn:
        row = (await conn.execute(select(table.c.data).where(pk == key).with_for_update())).first()
        if row is None:
            refusal = missing
        else:
            doc = dict(json.loads(row.data))
            try:
                result = edit(doc)
            except Refusal as e:
                # Not raised inside: the write lock counts a raise as a failed write.
                refusal = e
            else:
                await conn.execute(
                    update(table).where(pk == key).values(data=json.dumps(doc), **columns(doc))
                )
    if refusal is not None:
        raise refusal
    return doc, result


__all__ = ["change"]
