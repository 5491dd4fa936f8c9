"""The daily deal's routes (``docs/daily.md``).

``GET /api/daily/{date}`` the day's commitment (its secret once it is over);
``GET /api/daily/{date}/record`` the par game, once the day is over;
``POST /api/daily`` today's game, begun or resumed; ``GET /api/daily/{date}/results``
the field, the leaderboard and the player's result; ``GET /api/daily/me`` the
player's streak and history. The browser is named by ``X-Player`` (or
``player`` in a body), a signed-in person by their cookie.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from ..accounts.accounts import Accounts
from ..errors import Refusal
from ..http import browser_id, client_host, json_body
from ..play.pace import SPEEDS
from ..protocol import Json
from .service import Daily

MAX_BODY = 4_096


def install(app: FastAPI, daily: Daily, accounts: Accounts) -> None:
    async def who(request: Request, body: Json) -> tuple[str | None, str | None]:
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        return browser_id(request, body), account

    @app.post("/api/daily")
    async def play_today(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        speed = str(body.get("speed", "normal"))
        if speed not in SPEEDS:
            raise Refusal("bad_speed", "speed must be normal or fast")
        device, account = await who(request, body)
        if device is None and account is None:
            raise Refusal(
                "no_player", "the daily deal needs a player id (X-Player, 8 to 64 characters) or an account"
            )
        daily.tables.refuse_creation(client_host(request))
        return JSONResponse(await daily.start(device, account, body.get("name"), speed))

    @app.get("/api/daily/me")
    async def mine(request: Request) -> JSONResponse:
        return JSONResponse(await daily.history(*await who(request, {})))

    @app.get("/api/daily/{date}")
    async def day(date: str) -> JSONResponse:
        return JSONResponse(await daily.info(date))

    @app.get("/api/daily/{date}/record")
    async def record(date: str) -> JSONResponse:
        return JSONResponse(await daily.par_record(date))

    @app.get("/api/daily/{date}/results")
    async def results(date: str, request: Request) -> JSONResponse:
        return JSONResponse(await daily.results(date, *await who(request, {})))


__all__ = ["install"]
