"""The challenges' routes and an account's event stream (``docs/bot-api.md``).

``GET /api/stream/event`` is newline-delimited JSON, one event a line, for as
long as the client keeps it open: first every challenge the account received
and has not answered, then each event as it happens (``challenge``,
``challengeDeclined``, ``challengeCanceled``, ``gameStart``, ``gameFinish``),
and an empty line every ``KEEPALIVE_S`` seconds so that proxies keep it open.
It begins with an empty line once the account is subscribed: a client that
has read it misses no event after it. Then the challenges waiting for the
account's answer, and the games being played with the account seated
(``gameStart`` again, the same ids: a bot whose stream dropped finds them).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping

from fastapi import Request
from fastapi.responses import JSONResponse, StreamingResponse

from damepique.wire import challenge_event, game_start_event

from ..accounts.accounts import Accounts
from ..asgi import App
from ..cluster.events import KEEPALIVE_S, channel, follow
from ..errors import Refusal
from ..http import json_body
from ..protocol import dumps
from ..tables.routes import table_options
from .service import Challenges

MAX_BODY = 4096


def install(app: App, challenges: Challenges, accounts: Accounts) -> None:
    settings = challenges.tables.settings

    async def who(request: Request) -> str:
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        if account is None:
            raise Refusal("account_needed", "sign in, or send a bot's token (Authorization: Bearer)")
        return account

    @app.post("/api/challenges")
    async def create(request: Request) -> JSONResponse:
        account = await who(request)
        body = await json_body(request, MAX_BODY)
        # The table's options as POST /api/tables takes them, beside the challenged.
        table_body = {k: v for k, v in body.items() if k != "to"}
        options = table_options({"fill": False, **table_body}, settings.timer_choices)
        challenge = await challenges.create(account, body, options)
        return JSONResponse(challenge.to_json(), status_code=201)

    @app.get("/api/challenges")
    async def mine(request: Request) -> JSONResponse:
        account = await who(request)
        found = await challenges.of(account)
        return JSONResponse(
            {
                "in": [c.to_json() for c in found if c.challenger != account],
                "out": [c.to_json() for c in found if c.challenger == account],
            }
        )

    @app.post("/api/challenges/{cid}/accept")
    async def accept(cid: str, request: Request) -> JSONResponse:
        challenge = await challenges.accept(await who(request), cid)
        return JSONResponse(challenge.to_json())

    @app.post("/api/challenges/{cid}/decline")
    async def decline(cid: str, request: Request) -> JSONResponse:
        account = await who(request)
        body = await json_body(request, MAX_BODY)
        challenge = await challenges.decline(account, cid, body.get("reason"))
        return JSONResponse(challenge.to_json())

    @app.delete("/api/challenges/{cid}")
    async def cancel(cid: str, request: Request) -> JSONResponse:
        challenge = await challenges.cancel(await who(request), cid)
        return JSONResponse(challenge.to_json())

    @app.get("/api/stream/event", response_model=None)
    async def stream(request: Request) -> StreamingResponse | JSONResponse:
        account = await who(request)
        return StreamingResponse(events(account), media_type="application/x-ndjson")

    def events(account: str) -> AsyncIterator[str]:
        async def pending() -> list[str]:
            # Subscribed first, then what is pending: nothing falls in between.
            lines = [
                line(challenge_event("challenge", c.to_json())) for c in await challenges.received(account)
            ]
            # The games being played, a challenge's with its id (the same ids as when
            # they started: a client that saw one drops it).
            games = {(g["game"], g["seat"]): g for g in await challenges.tables.playing(account)}
            games |= {(g["game"], g["seat"]): g for g in await challenges.playing(account)}
            return lines + [line(game_start_event(game)) for game in games.values()]

        return follow(challenges.broker, channel(account), challenges.clock, app.stopping, pending)

    def line(event: Mapping[str, object]) -> str:
        return dumps(event) + "\n"


__all__ = ["KEEPALIVE_S", "install"]
