"""Who played which finished game (``schema.player_games``), and which account
a browser's guest games count for (``schema.player_links``): what a player's
statistics are computed from (``server/stats``), with the games' records."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import insert, or_, select
from sqlalchemy.exc import IntegrityError

from . import schema
from .database import Database
from .games import GameRow, _row


class StatsStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def played(self, game_id: str, players: Mapping[int, str], finished: float | None = None) -> None:
        """The game ended with these people at these seats (``a:KEY`` or ``g:BROWSER``);
        said twice (a restart at the end), the second time changes nothing."""
        if not players:
            return
        at = self.db.clock.time() if finished is None else finished
        rows = [
            {"player": p, "game_id": game_id, "seat": seat, "finished": at} for seat, p in players.items()
        ]
        try:
            async with self.db.write() as conn:
                await conn.execute(insert(schema.player_games), rows)
        except IntegrityError:
            return

    async def link(self, device: str, account: str) -> str:
        """Count the guest games of the browser ``device`` for ``account`` (the first
        account signed in on it keeps them); returns the account they count for."""
        links = schema.player_links
        try:
            async with self.db.write() as conn:
                await conn.execute(
                    insert(links).values(device=device, account=account, at=self.db.clock.time())
                )
        except IntegrityError:
            pass
        async with self.db.read() as conn:
            r = (await conn.execute(select(links.c.account).where(links.c.device == device))).first()
            return account if r is None else str(r.account)

    async def devices_of(self, account: str) -> list[str]:
        links = schema.player_links
        async with self.db.read() as conn:
            rows = await conn.execute(select(links.c.device).where(links.c.account == account))
            return [str(r.device) for r in rows]

    async def account_of_device(self, device: str) -> str | None:
        links = schema.player_links
        async with self.db.read() as conn:
            r = (await conn.execute(select(links.c.account).where(links.c.device == device))).first()
            return None if r is None else str(r.account)

    async def left(self, key: str, game_id: str, at: float) -> None:
        """The account ``key`` left the ranked game ``game_id`` (a bot finished it), at ``at``."""
        try:
            async with self.db.write() as conn:
                await conn.execute(insert(schema.ranked_leaves).values(key=key, game_id=game_id, at=at))
        except IntegrityError:
            return

    async def leaves_of(self, key: str, since: float) -> list[float]:
        """When the account ``key`` left ranked games, since ``since``."""
        rl = schema.ranked_leaves
        async with self.db.read() as conn:
            rows = await conn.execute(select(rl.c.at).where(rl.c.key == key, rl.c.at > since))
            return sorted(float(r.at) for r in rows)

    async def games_of(
        self, account: str | None, devices: list[str], limit: int = 500
    ) -> list[tuple[GameRow, int]]:
        """The finished games of an account and of these browsers' guest games,
        newest first, each with the seat played: from ``player_games``, and the
        solo games the browsers own from before it was kept (seat 0)."""
        keys = ([f"a:{account}"] if account else []) + [f"g:{d}" for d in devices]
        pg, games = schema.player_games, schema.games
        found: dict[str, tuple[GameRow, int]] = {}
        async with self.db.read() as conn:
            if keys:
                rows = await conn.execute(
                    select(games, pg.c.seat)
                    .join(pg, pg.c.game_id == games.c.id)
                    .where(pg.c.player.in_(keys), games.c.finished.is_not(None))
                    .order_by(games.c.finished.desc())
                    .limit(limit)
                )
                for r in rows:
                    found.setdefault(r.id, (_row(r), int(r.seat)))
            if devices:
                rows = await conn.execute(
                    select(games)
                    .where(or_(*(games.c.owner == d for d in devices)), games.c.finished.is_not(None))
                    .order_by(games.c.finished.desc())
                    .limit(limit)
                )
                for r in rows:
                    found.setdefault(r.id, (_row(r), 0))
        out = sorted(found.values(), key=lambda gs: -(gs[0].finished or 0.0))
        return out[:limit]


__all__ = ["StatsStore"]
