"""The challenges' routes and an account's event stream (``docs/bot-api.md``).

``GET /api/stream/event`` is newline-delimited JSON, one event a line, for as
long as the client keeps it open: first every challenge the account received
and has not answered, then each event as it happens (``challenge``,
``challengeDeclined``, ``challengeCanceled``, ``gameStart``, ``gameFinish``),
and an empty line every ``KEEPALIVE_S`` seconds so that proxies keep it open.
It begins with an empty line once the account is subscribed: a client that
has read it misses no event after it. Then the challenges waiting for the
account's answer, and the games challenges started for it that are still
being played (``gameStart`` again: a bot whose stream dropped finds them).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import Request
from fastapi.responses import JSONResponse, StreamingResponse

from ..accounts.accounts import Accounts
from ..asgi import App
from ..cluster.events import channel
from ..errors import Refusal
from ..http import json_body
from ..protocol import Json, dumps
from ..tables.routes import table_options
from .service import Challenges

MAX_BODY = 4096
KEEPALIVE_S = 20.0


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

    async def events(account: str) -> AsyncIterator[str]:
        clock = challenges.clock
        async with challenges.broker.subscribe(channel(account)) as messages:
            # Subscribed first, then what is pending: nothing falls in between.
            # The first line (empty) says so: from then on no event is missed.
            yield "\n"
            for c in await challenges.received(account):
                yield line({"type": "challenge", "challenge": c.to_json()})
            for game in await challenges.playing(account):
                yield line({"type": "gameStart", "game": game})
            # A task reads the subscription: a read cancelled by the keep-alive's
            # timeout would close it, a queue's get is cancelled harmlessly.
            queue: asyncio.Queue[str] = asyncio.Queue()

            async def pump() -> None:
                async for message in messages:
                    await queue.put(message)

            task = asyncio.create_task(pump())
            try:
                while True:
                    try:
                        message = await clock.wait_for(queue.get(), KEEPALIVE_S)
                    except TimeoutError:
                        yield "\n"
                        continue
                    yield message + "\n"
            finally:
                task.cancel()

    def line(event: Json) -> str:
        return dumps(event) + "\n"


__all__ = ["KEEPALIVE_S", "install"]
