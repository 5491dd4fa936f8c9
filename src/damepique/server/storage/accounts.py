"""Accounts, their sessions, ratings and results, and the session-signing secret."""

from __future__ import annotations

import json
import secrets

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..protocol import Json
from . import schema
from .database import Database

EMPTY_STATS = {"games": 0, "ranked": 0, "wins": 0, "deals": 0, "points": 0, "moons": 0, "queens": 0}


class AccountStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create_account(self, key: str, nickname: str, password_hash: str, rating: float) -> bool:
        try:
            async with self.db.write() as conn:
                await conn.execute(
                    insert(schema.accounts).values(
                        key=key,
                        nickname=nickname,
                        password=password_hash,
                        rating=rating,
                        created=self.db.clock.time(),
                        stats=json.dumps(EMPTY_STATS),
                    )
                )
        except IntegrityError:
            return False
        return True

    async def get_account(self, key: str) -> Json | None:
        async with self.db.read() as conn:
            r = (await conn.execute(select(schema.accounts).where(schema.accounts.c.key == key))).first()
            if r is None:
                return None
            return {
                "key": r.key,
                "nickname": r.nickname,
                "password": r.password,
                "rating": r.rating,
                "created": r.created,
                "stats": {**EMPTY_STATS, **json.loads(r.stats)},
                "kind": r.kind,
                "owner": r.owner,
                "quick": bool(r.quick),
                "puzzle_consent": bool(r.puzzle_consent),
            }

    async def set_puzzle_consent(self, key: str, allowed: bool) -> bool:
        """Whether the person ``key`` lets puzzles be mined from their finished
        games; False when there is no such person."""
        accounts = schema.accounts
        async with self.db.write() as conn:
            done = await conn.execute(
                update(accounts)
                .where(accounts.c.key == key, accounts.c.kind == "person")
                .values(puzzle_consent=allowed)
            )
            return bool(done.rowcount)

    async def set_password(self, key: str, password_hash: str) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                update(schema.accounts).where(schema.accounts.c.key == key).values(password=password_hash)
            )

    async def leaderboard(self, limit: int = 100) -> list[Json]:
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(
                    schema.accounts.c.nickname,
                    schema.accounts.c.rating,
                    schema.accounts.c.stats,
                    schema.accounts.c.kind,
                )
                .order_by(schema.accounts.c.rating.desc(), schema.accounts.c.nickname)
                .limit(limit * 4)
            )
            out = []
            for r in rows:
                stats = {**EMPTY_STATS, **json.loads(r.stats)}
                if stats["ranked"] > 0:
                    out.append(
                        {"nickname": r.nickname, "rating": round(r.rating), "stats": stats, "kind": r.kind}
                    )
            return out[:limit]

    # -- bots -----------------------------------------------------------------------------

    async def create_bot(
        self, key: str, nickname: str, owner: str, token_hash: str, rating: float, limit: int
    ) -> str:
        """A bot account of ``owner``'s: ``"made"``, or ``"taken"`` (the nickname
        is somebody's), or ``"limit"`` (``owner`` has ``limit`` bots already),
        counted in the write that makes it."""
        accounts = schema.accounts
        try:
            async with self.db.write() as conn:
                have = (
                    await conn.execute(
                        select(func.count()).select_from(accounts).where(accounts.c.owner == owner)
                    )
                ).scalar_one()
                if have >= limit:
                    return "limit"
                await conn.execute(
                    insert(accounts).values(
                        key=key,
                        nickname=nickname,
                        password="",
                        rating=rating,
                        created=self.db.clock.time(),
                        stats=json.dumps(EMPTY_STATS),
                        kind="bot",
                        owner=owner,
                        token=token_hash,
                    )
                )
        except IntegrityError:
            return "taken"
        return "made"

    async def bots_of(self, owner: str) -> list[Json]:
        """``owner``'s bots, oldest first: nickname, rating, made when, whether a token works."""
        accounts = schema.accounts
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(accounts.c.nickname, accounts.c.rating, accounts.c.created, accounts.c.token)
                .where(accounts.c.owner == owner)
                .order_by(accounts.c.created, accounts.c.key)
            )
            return [
                {
                    "nickname": r.nickname,
                    "rating": round(r.rating),
                    "created": r.created,
                    "active": r.token is not None,
                }
                for r in rows
            ]

    async def set_bot_token(self, owner: str, key: str, token_hash: str | None) -> bool:
        """Replace (or, with None, revoke) the token of ``owner``'s bot ``key``;
        False when ``owner`` has no such bot."""
        return await self._update_bot(owner, key, token=token_hash)

    async def set_bot_quick(self, owner: str, key: str, allowed: bool) -> bool:
        """Whether ``owner``'s bot ``key`` may join quick matches (casual ones only);
        False when ``owner`` has no such bot."""
        return await self._update_bot(owner, key, quick=allowed)

    async def _update_bot(self, owner: str, key: str, **values: object) -> bool:
        """Set ``values`` on ``owner``'s bot ``key``; False when ``owner`` has no such bot."""
        accounts = schema.accounts
        async with self.db.write() as conn:
            done = await conn.execute(
                update(accounts)
                .where(accounts.c.key == key, accounts.c.owner == owner, accounts.c.kind == "bot")
                .values(**values)
            )
            return bool(done.rowcount)

    async def bot_of_token(self, token_hash: str) -> str | None:
        """The key of the bot whose token has this SHA-256, or None."""
        accounts = schema.accounts
        async with self.db.read() as conn:
            r = (
                await conn.execute(
                    select(accounts.c.key).where(accounts.c.token == token_hash, accounts.c.kind == "bot")
                )
            ).first()
            return None if r is None else str(r.key)

    async def history(self, key: str, limit: int = 500) -> list[Json]:
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(schema.rating_history)
                .where(schema.rating_history.c.key == key)
                .order_by(schema.rating_history.c.id.desc())
                .limit(limit)
            )
            return [{"game": r.game_id, "at": r.at, "rating": round(r.rating, 1)} for r in rows][::-1]

    async def record_result(
        self,
        game_id: str,
        data: Json,
        ratings: dict[str, float],
        stats: dict[str, dict[str, int]],
        ladder: dict[str, tuple[float, bool]] | None = None,
    ) -> bool:
        """Ratings and statistics of one finished game, once (False if already
        recorded); ``ladder``: the bots' new ladder ratings and whether each won."""
        now = self.db.clock.time()
        try:
            async with self.db.write() as conn:
                await conn.execute(
                    insert(schema.results).values(game_id=game_id, at=now, data=json.dumps(data))
                )
                lad = schema.bot_ladder
                for key, (rating, won) in (ladder or {}).items():
                    row = (await conn.execute(select(lad).where(lad.c.key == key))).first()
                    if row is None:
                        await conn.execute(insert(lad).values(key=key, rating=rating, games=1, wins=int(won)))
                    else:
                        await conn.execute(
                            update(lad)
                            .where(lad.c.key == key)
                            .values(rating=rating, games=row.games + 1, wins=row.wins + int(won))
                        )
                for key, add in stats.items():
                    r = (
                        await conn.execute(
                            select(schema.accounts.c.stats).where(schema.accounts.c.key == key)
                        )
                    ).first()
                    if r is None:
                        continue
                    cur = {**EMPTY_STATS, **json.loads(r.stats)}
                    for k, v in add.items():
                        cur[k] = cur.get(k, 0) + v
                    values: Json = {"stats": json.dumps(cur)}
                    if key in ratings:
                        values["rating"] = ratings[key]
                    await conn.execute(
                        update(schema.accounts).where(schema.accounts.c.key == key).values(**values)
                    )
                    if key in ratings:
                        await conn.execute(
                            insert(schema.rating_history).values(
                                key=key, game_id=game_id, at=now, rating=ratings[key]
                            )
                        )
        except IntegrityError:
            return False
        return True

    async def ladder_ratings(self, keys: list[str]) -> dict[str, float]:
        """The bots' ladder ratings (a bot not on the ladder yet is left out)."""
        lad = schema.bot_ladder
        async with self.db.read() as conn:
            rows = await conn.execute(select(lad.c.key, lad.c.rating).where(lad.c.key.in_(keys)))
            return {r.key: float(r.rating) for r in rows}

    async def ladder(self, limit: int = 100) -> list[Json]:
        """The bots' ladder, best first: nickname, owner's nickname, rating, games, wins."""
        lad, acc = schema.bot_ladder, schema.accounts
        owner = acc.alias("owner")
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(acc.c.nickname, owner.c.nickname.label("owner"), lad.c.rating, lad.c.games, lad.c.wins)
                .select_from(
                    lad.join(acc, acc.c.key == lad.c.key).outerjoin(owner, owner.c.key == acc.c.owner)
                )
                .order_by(lad.c.rating.desc(), acc.c.nickname)
                .limit(limit)
            )
            return [
                {
                    "nickname": r.nickname,
                    "owner": r.owner,
                    "rating": round(r.rating),
                    "games": r.games,
                    "wins": r.wins,
                }
                for r in rows
            ]

    async def result_of(self, game_id: str) -> Json | None:
        async with self.db.read() as conn:
            r = (
                await conn.execute(select(schema.results.c.data).where(schema.results.c.game_id == game_id))
            ).first()
            return None if r is None else json.loads(r.data)

    # -- sessions ------------------------------------------------------------------------

    async def create_session(self, sid: str, key: str, max_age: float) -> None:
        """A new session for the account ``key``; sessions older than ``max_age``
        seconds (refused on read already) are deleted on the way."""
        now = self.db.clock.time()
        async with self.db.write() as conn:
            await conn.execute(
                delete(schema.account_sessions).where(schema.account_sessions.c.created < now - max_age)
            )
            await conn.execute(insert(schema.account_sessions).values(sid=sid, key=key, created=now))

    async def session_alive(self, sid: str, key: str, max_age: float) -> bool:
        """Whether the session ``sid`` of the account ``key`` exists, younger than ``max_age`` seconds."""
        async with self.db.read() as conn:
            r = (
                await conn.execute(
                    select(schema.account_sessions.c.sid).where(
                        schema.account_sessions.c.sid == sid,
                        schema.account_sessions.c.key == key,
                        schema.account_sessions.c.created >= self.db.clock.time() - max_age,
                    )
                )
            ).first()
            return r is not None

    async def drop_session(self, sid: str, key: str) -> None:
        async with self.db.write() as conn:
            await conn.execute(
                delete(schema.account_sessions).where(
                    schema.account_sessions.c.sid == sid, schema.account_sessions.c.key == key
                )
            )

    # -- the signing secret ------------------------------------------------------------------

    async def secret(self) -> str:
        """The session-signing secret, made once and kept in the database."""
        async with self.db.read() as conn:
            r = (
                await conn.execute(select(schema.meta.c.value).where(schema.meta.c.name == "secret"))
            ).first()
            if r is not None:
                return str(r.value)
        value = secrets.token_urlsafe(48)
        try:
            async with self.db.write() as conn:
                await conn.execute(insert(schema.meta).values(name="secret", value=value))
        except IntegrityError:
            return await self.secret()
        return value


__all__ = ["EMPTY_STATS", "AccountStore"]
