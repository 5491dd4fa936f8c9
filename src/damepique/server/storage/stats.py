"""Who played which finished game (``schema.player_games``), and which account
a browser's guest games count for (``schema.player_links``): what a player's
statistics are computed from (``server/stats``), with the games' records."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..protocol import Json
from . import schema
from .database import Database
from .games import GameRow, _row


@dataclass
class Played:
    """One game a player finished: who (``a:KEY`` or ``g:BROWSER``), which game and
    seat, when, and their part of it (``accounts.summaries``), if summed up yet."""

    player: str
    game: str
    seat: int
    finished: float
    summary: Json | None


class StatsStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def played(
        self,
        game_id: str,
        players: Mapping[int, str],
        finished: float | None = None,
        summaries: Mapping[int, Json] | None = None,
    ) -> None:
        """The game ended with these people at these seats (``a:KEY`` or ``g:BROWSER``),
        each with their part of it summed up; said twice (a restart at the end),
        the second time changes nothing."""
        if not players:
            return
        at = self.db.clock.time() if finished is None else finished
        rows = [
            {
                "player": p,
                "game_id": game_id,
                "seat": seat,
                "finished": at,
                "summary": None
                if summaries is None or seat not in summaries
                else json.dumps(summaries[seat]),
            }
            for seat, p in players.items()
        ]
        pg = schema.player_games
        try:
            async with self.db.write() as conn:
                # Said again: the rows are there, and nothing is written (a failed insert
                # would read as a database that takes no writes, on /healthz).
                there = await conn.execute(select(pg.c.player).where(pg.c.game_id == game_id))
                known = {r.player for r in there}
                rows = [r for r in rows if r["player"] not in known]
                if rows:
                    await conn.execute(insert(pg), rows)
        except IntegrityError:  # another process said it at the same moment
            return

    async def keep_summary(self, played: Played, summary: Json) -> None:
        """A game's summary worked out late (from its record): kept for next time."""
        pg = schema.player_games
        async with self.db.write() as conn:
            done = await conn.execute(
                update(pg)
                .where(pg.c.player == played.player, pg.c.game_id == played.game)
                .values(summary=json.dumps(summary))
            )
            if not done.rowcount:  # a solo game from before anyone's games were kept
                await conn.execute(
                    insert(pg).values(
                        player=played.player,
                        game_id=played.game,
                        seat=played.seat,
                        finished=played.finished,
                        summary=json.dumps(summary),
                    )
                )

    async def rows(self, game_ids: list[str]) -> dict[str, GameRow]:
        """These stored games, by id (to sum up those without a summary)."""
        games = schema.games
        async with self.db.read() as conn:
            found = await conn.execute(select(games).where(games.c.id.in_(game_ids)))
            return {r.id: _row(r) for r in found}

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

    async def played_by(self, account: str | None, devices: list[str], limit: int = 1000) -> list[Played]:
        """The finished games of an account and of these browsers' guest games,
        newest first, each with the seat played and its summary when there is
        one: from ``player_games``, and the solo games the browsers own from
        before it was kept (seat 0, no summary yet)."""
        keys = ([f"a:{account}"] if account else []) + [f"g:{d}" for d in devices]
        pg, games = schema.player_games, schema.games
        found: dict[str, Played] = {}
        async with self.db.read() as conn:
            if keys:
                rows = await conn.execute(
                    select(pg.c.player, pg.c.game_id, pg.c.seat, pg.c.finished, pg.c.summary)
                    .where(pg.c.player.in_(keys))
                    .order_by(pg.c.finished.desc())
                    .limit(limit)
                )
                for r in rows:
                    summary = json.loads(r.summary) if r.summary else None
                    found.setdefault(
                        r.game_id, Played(r.player, r.game_id, int(r.seat), float(r.finished), summary)
                    )
            if devices:
                rows = await conn.execute(
                    select(games.c.id, games.c.owner, games.c.finished)
                    .where(or_(*(games.c.owner == d for d in devices)), games.c.finished.is_not(None))
                    .order_by(games.c.finished.desc())
                    .limit(limit)
                )
                for r in rows:
                    found.setdefault(r.id, Played(f"g:{r.owner}", r.id, 0, float(r.finished), None))
        return sorted(found.values(), key=lambda p: -p.finished)[:limit]


__all__ = ["Played", "StatsStore"]
