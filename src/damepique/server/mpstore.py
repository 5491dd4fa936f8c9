"""Persistence of multiplayer tables, seat tokens, accounts, their sessions and ratings.

It shares the game store's SQLAlchemy engine (SQLite by default) and keeps
its own tables, created on start. A table's lifecycle state (seats, host,
options, current game) is one JSON document written before any change is
announced; the games themselves live in the game store's event log.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from .leases import db_now, leases

metadata = MetaData()

mp_tables = Table(
    "mp_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("status", String(16), nullable=False, index=True),
    Column("public", Boolean, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("data", Text, nullable=False),
)

mp_tokens = Table(
    "mp_tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("code", String(16), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("nickname", String(32), nullable=False),
    Column("password", Text, nullable=False),
    Column("rating", Float, nullable=False),
    Column("created", Float, nullable=False),
    Column("stats", Text, nullable=False),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(32), nullable=False, index=True),
    Column("game_id", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("rating", Float, nullable=False),
)

mp_results = Table(
    "mp_results",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("data", Text, nullable=False),
)

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("sid", String(64), primary_key=True),
    Column("key", String(32), nullable=False),
    Column("created", Float, nullable=False, index=True),
)
"""One row per signed-in browser: the cookie names its ``sid``; signing out deletes the row."""

mp_meta = Table(
    "mp_meta",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

EMPTY_STATS = {"games": 0, "ranked": 0, "wins": 0, "deals": 0, "points": 0, "moons": 0, "queens": 0}


class MpStore:
    """``write_lock`` is the game store's: SQLite has one writer, and the game store
    writes events on the loop's own thread, so a transaction of ours left open
    across an ``await`` would stall it (every write here takes the lock)."""

    def __init__(self, engine: AsyncEngine, write_lock: asyncio.Lock | None = None) -> None:
        self.engine = engine
        self.lock = write_lock or asyncio.Lock()

    async def init(self) -> None:
        async with self.lock, self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)

    # -- tables ----------------------------------------------------------------------

    async def save_table(self, code: str, status: str, public: bool, data: dict[str, Any]) -> None:
        now = time.time()
        body = json.dumps(data)
        async with self.lock, self.engine.begin() as conn:
            r = await conn.execute(
                update(mp_tables)
                .where(mp_tables.c.code == code)
                .values(status=status, public=public, updated=now, data=body)
            )
            if r.rowcount == 0:
                await conn.execute(
                    insert(mp_tables).values(
                        code=code, status=status, public=public, created=now, updated=now, data=body
                    )
                )

    async def load_table(self, code: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(mp_tables.c.data).where(mp_tables.c.code == code))).first()
            return None if r is None else json.loads(r.data)

    async def active_tables(self) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(mp_tables.c.data).where(mp_tables.c.status.in_(("waiting", "playing", "over")))
            )
            return [json.loads(r.data) for r in rows]

    async def orphan_codes(self, limit: int = 100) -> list[str]:
        """Tables that must run somewhere (waiting for players or playing) but whose
        lease nobody holds: their process died or stopped. (A finished table is
        loaded again when someone comes back to it.)"""
        now = db_now(self.engine.dialect.name)
        stmt = (
            select(mp_tables.c.code)
            .select_from(mp_tables.outerjoin(leases, leases.c.name == mp_tables.c.code))
            .where(
                mp_tables.c.status.in_(("waiting", "playing")),
                or_(leases.c.name.is_(None), leases.c.expires < now),
            )
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [str(r.code) for r in await conn.execute(stmt)]

    # -- seat tokens -------------------------------------------------------------------

    async def add_token(self, token: str, code: str, seat: int) -> None:
        async with self.lock, self.engine.begin() as conn:
            await conn.execute(insert(mp_tokens).values(token=token, code=code, seat=seat))

    async def drop_token(self, code: str, seat: int) -> None:
        async with self.lock, self.engine.begin() as conn:
            await conn.execute(delete(mp_tokens).where(mp_tokens.c.code == code, mp_tokens.c.seat == seat))

    async def find_token(self, token: str) -> tuple[str, int] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(mp_tokens).where(mp_tokens.c.token == token))).first()
            return None if r is None else (r.code, r.seat)

    # -- accounts ------------------------------------------------------------------------

    async def create_account(self, key: str, nickname: str, password_hash: str, rating: float) -> bool:
        try:
            async with self.lock, self.engine.begin() as conn:
                await conn.execute(
                    insert(accounts).values(
                        key=key,
                        nickname=nickname,
                        password=password_hash,
                        rating=rating,
                        created=time.time(),
                        stats=json.dumps(EMPTY_STATS),
                    )
                )
        except IntegrityError:
            return False
        return True

    async def get_account(self, key: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(accounts).where(accounts.c.key == key))).first()
            if r is None:
                return None
            return {
                "key": r.key,
                "nickname": r.nickname,
                "password": r.password,
                "rating": r.rating,
                "created": r.created,
                "stats": {**EMPTY_STATS, **json.loads(r.stats)},
            }

    async def set_password(self, key: str, password_hash: str) -> None:
        async with self.lock, self.engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.key == key).values(password=password_hash))

    async def leaderboard(self, limit: int = 100) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(accounts.c.nickname, accounts.c.rating, accounts.c.stats)
                .order_by(accounts.c.rating.desc(), accounts.c.nickname)
                .limit(limit * 4)
            )
            out = []
            for r in rows:
                stats = {**EMPTY_STATS, **json.loads(r.stats)}
                if stats["ranked"] > 0:
                    out.append({"nickname": r.nickname, "rating": round(r.rating), "stats": stats})
            return out[:limit]

    async def history(self, key: str, limit: int = 500) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(rating_history)
                .where(rating_history.c.key == key)
                .order_by(rating_history.c.id.desc())
                .limit(limit)
            )
            return [{"game": r.game_id, "at": r.at, "rating": round(r.rating, 1)} for r in rows][::-1]

    async def record_result(
        self,
        game_id: str,
        data: dict[str, Any],
        ratings: dict[str, float],
        stats: dict[str, dict[str, int]],
    ) -> bool:
        """Ratings and statistics of one finished game, once (False if already recorded)."""
        now = time.time()
        try:
            async with self.lock, self.engine.begin() as conn:
                await conn.execute(insert(mp_results).values(game_id=game_id, at=now, data=json.dumps(data)))
                for key, add in stats.items():
                    r = (await conn.execute(select(accounts.c.stats).where(accounts.c.key == key))).first()
                    if r is None:
                        continue
                    cur = {**EMPTY_STATS, **json.loads(r.stats)}
                    for k, v in add.items():
                        cur[k] = cur.get(k, 0) + v
                    values: dict[str, Any] = {"stats": json.dumps(cur)}
                    if key in ratings:
                        values["rating"] = ratings[key]
                    await conn.execute(update(accounts).where(accounts.c.key == key).values(**values))
                    if key in ratings:
                        await conn.execute(
                            insert(rating_history).values(
                                key=key, game_id=game_id, at=now, rating=ratings[key]
                            )
                        )
        except IntegrityError:
            return False
        return True

    async def result_of(self, game_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(mp_results.c.data).where(mp_results.c.game_id == game_id))).first()
            return None if r is None else json.loads(r.data)

    # -- sessions ------------------------------------------------------------------------

    async def create_session(self, sid: str, key: str, max_age: float) -> None:
        """A new session for the account ``key``; sessions older than ``max_age``
        seconds (refused on read already) are deleted on the way."""
        now = time.time()
        async with self.lock, self.engine.begin() as conn:
            await conn.execute(delete(account_sessions).where(account_sessions.c.created < now - max_age))
            await conn.execute(insert(account_sessions).values(sid=sid, key=key, created=now))

    async def session_alive(self, sid: str, key: str, max_age: float) -> bool:
        """Whether the session ``sid`` of the account ``key`` exists, younger than ``max_age`` seconds."""
        async with self.engine.connect() as conn:
            r = (
                await conn.execute(
                    select(account_sessions.c.sid).where(
                        account_sessions.c.sid == sid,
                        account_sessions.c.key == key,
                        account_sessions.c.created >= time.time() - max_age,
                    )
                )
            ).first()
            return r is not None

    async def drop_session(self, sid: str, key: str) -> None:
        async with self.lock, self.engine.begin() as conn:
            await conn.execute(
                delete(account_sessions).where(account_sessions.c.sid == sid, account_sessions.c.key == key)
            )

    # -- the signing secret ------------------------------------------------------------------

    async def secret(self) -> str:
        """The session-signing secret, made once and kept in the database."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(mp_meta.c.value).where(mp_meta.c.name == "secret"))).first()
            if r is not None:
                return str(r.value)
        value = secrets.token_urlsafe(48)
        try:
            async with self.lock, self.engine.begin() as conn:
                await conn.execute(insert(mp_meta).values(name="secret", value=value))
        except IntegrityError:
            return await self.secret()
        return value


__all__ = ["EMPTY_STATS", "MpStore"]
