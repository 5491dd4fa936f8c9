"""Statistics for everyone: ``GET /api/stats`` (mine: the signed-in account, or
this browser's guest games), ``POST /api/stats/link`` (a browser's guest games
count for the account signed in on it) and ``GET /api/players/{nickname}/stats``.
``docs/multiplayer.md``, "Statistics"."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from ..accounts.accounts import Accounts
from ..accounts.leavers import WINDOW_S, barred_until, recent
from ..accounts.nicknames import nickname_key
from ..accounts.summaries import summary_of
from ..clock import Clock
from ..errors import Refusal
from ..http import client_id, json_body
from ..protocol import Json
from ..storage.daily import DailyStore
from ..storage.puzzles import PuzzleStore
from ..storage.stats import Played, StatsStore
from .figures import daily_figures, figures
from .puzzles import figures_of, new_rating

BACKFILL = 25
"""Games without a summary summed up from their records at one visit (the rest at the next)."""


def install(app: FastAPI, stats: StatsStore, accounts: Accounts, clock: Clock, puzzles: PuzzleStore) -> None:
    store = accounts.store
    daily = DailyStore(stats.db)

    async def summaries(account: str | None, devices: list[str]) -> list[Json]:
        """A player's game summaries, newest first. Games from before they were kept
        are summed up from their records, ``BACKFILL`` a visit, in a thread (a
        replay is some 20 ms), and kept: the loop is never held long."""
        played = await stats.played_by(account, devices)
        missing = [p for p in played if p.summary is None][:BACKFILL]
        if missing:
            rows = await stats.rows([p.game for p in missing])

            def work() -> list[tuple[Played, Json | None]]:
                return [(p, summary_of(rows[p.game], p.seat)) for p in missing if p.game in rows]

            for p, summary in await asyncio.to_thread(work):
                if summary is not None:
                    p.summary = summary
                    await stats.keep_summary(p, summary)
        return [p.summary for p in played if p.summary is not None]

    async def daily_of(players: list[str]) -> Json:
        entries = [e for p in players for e in await daily.entries_of(p)]
        return daily_figures(entries)

    async def of_account(key: str) -> Json:
        acc = await store.get_account(key)
        assert acc is not None
        devices = await stats.devices_of(key)
        out = figures(await summaries(key, devices))
        now = clock.time()
        leaves = await stats.leaves_of(key, now - WINDOW_S)
        return out | {
            "nickname": acc["nickname"],
            "guest": False,
            "rating": round(acc["rating"]),
            "ratings": await store.history(key),
            "leaves": {"recent": len(recent(leaves, now)), "barred_until": barred_until(leaves, now)},
            "daily": await daily_of([key, *devices]),
            "puzzles": await figures_of(puzzles, key, devices),
        }

    @app.get("/api/stats")
    async def my_stats(request: Request) -> JSONResponse:
        """The signed-in player's figures, else the figures of this browser's guest
        games (``X-Player`` or ``?player=``: its id)."""
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        if account is not None and await store.get_account(account) is not None:
            return JSONResponse(await of_account(account))
        device = client_id(request.headers.get("x-player") or request.query_params.get("player"))
        if device is None:
            raise Refusal("bad_request", "say which browser: its player id (X-Player), 8 to 64 characters")
        out = figures(await summaries(None, [device]))
        guest: Json = {"nickname": None, "guest": True, "rating": None, "ratings": [], "leaves": None}
        mine = {"daily": await daily_of([device]), "puzzles": await figures_of(puzzles, None, [device])}
        return JSONResponse(out | guest | mine)

    @app.post("/api/stats/link")
    async def link(request: Request) -> JSONResponse:
        """On sign-in the page says its browser id: its guest games count for the account."""
        body = await json_body(request, 4096)
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        if account is None:
            raise Refusal("account_needed", "sign in first")
        device = client_id(body.get("player"))
        if device is None:
            raise Refusal("bad_request", "player must be the browser's id, 8 to 64 characters")
        owner = await stats.link(device, account)
        if owner == account:
            # The browser's puzzle answers and rating move to the account, once.
            await puzzles.merge(device, account, new_rating)
        return JSONResponse({"linked": owner == account})

    @app.get("/api/players/{nickname}/stats")
    async def player_stats(nickname: str) -> JSONResponse:
        key = nickname_key(nickname)
        if key is None or await store.get_account(key) is None:
            raise Refusal("not_found", "no player with this nickname")
        return JSONResponse(await of_account(key))


__all__ = ["install"]
