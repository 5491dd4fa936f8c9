"""Routes of multiplayer tables: the JSON API, the table WebSocket and the lobby's.

``install(app, games)`` adds them to the app of ``create_app``; the protocol
is in ``docs/multiplayer.md``. A table connection says ``hello`` with the
table's code (and its seat token when it has one); every later action acts
for the seat the token proved, never for a seat number the client names.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from damepique.engine import RulesError

from .accounts import Accounts
from .accounts import install as install_accounts
from .cluster import Cluster, Link
from .codes import display_code, normalize_code
from .games import LEVELS, SPEEDS
from .http import error_response, frames, json_body, rules_from_body
from .lobby import Multiplayer
from .mpstore import MpStore
from .multiplayer import QUICK_MESSAGES, Client, MpSettings, MultiTable
from .protocol import VERSION, dumps, error
from .ratelimit import TOO_MANY_CODES, retry_after
from .ratelimit import too_many_codes as too_many_codes_reason
from .rawsocket import App, RawWebSocket
from .table import CommandError
from .table_session import TableMoved

MAX_BODY = 65_536
"""Bytes of a table route's JSON body (a table's options fit in a few hundred)."""


TABLE_OPTIONS = (
    "preset",
    "rules",
    "timer",
    "fill",
    "level",
    "speed",
    "public",
    "ranked",
    "spectators",
    "name",
)
"""The keys of ``POST /api/tables``; any other is refused (a typo, or ``target`` outside
``rules``, would otherwise make a table the creator did not ask for)."""


def _flag(body: dict[str, Any], key: str, default: bool) -> bool:
    v = body.get(key, default)
    if not isinstance(v, bool):
        raise CommandError("bad_option", f"{key} must be true or false")
    return v


def install(
    app: App, games: Any, settings: MpSettings | None = None, cluster: Cluster | None = None
) -> Multiplayer:
    # The game store's write lock, when it has one (SqlStore): see MpStore.
    store = MpStore(games.store.engine, getattr(games.store, "_write_lock", None))
    accounts = Accounts(store)
    mp = Multiplayer(games, store, settings, cluster)
    mp.accounts = accounts
    app.state.multiplayer = mp
    install_accounts(app, accounts)

    @app.get("/api/multiplayer")
    async def mp_options() -> dict[str, Any]:
        return {
            "timers": list(mp.settings.timer_choices),
            "levels": list(LEVELS),
            "speeds": list(SPEEDS),
            "quick_messages": list(QUICK_MESSAGES),
            "grace": mp.settings.grace,
        }

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        if body is None:
            return error_response("bad_request", "send a JSON object")
        unknown = [k for k in body if k not in TABLE_OPTIONS]
        if unknown:
            return error_response(
                "bad_option",
                f"unknown table option {str(unknown[0])[:40]!r} (known: {', '.join(TABLE_OPTIONS)}; "
                "the rules' options, such as target, go in rules)",
            )
        account = await accounts.account_of(request.cookies)
        try:
            rules = rules_from_body(body)
            timer = body.get("timer", 0)
            if not isinstance(timer, int) or isinstance(timer, bool):
                raise CommandError("bad_timer", "time per turn is a whole number of seconds")
            mt, token, seat = await mp.create(
                rules=rules,
                timer=timer,
                fill=_flag(body, "fill", True),
                level=str(body.get("level", "intermediate")),
                public=_flag(body, "public", False),
                ranked=_flag(body, "ranked", False),
                spectators=_flag(body, "spectators", True),
                speed=str(body.get("speed", "normal")),
                name=body.get("name"),
                account=account,
                nickname=await mp.nickname_of(account),
                player=None,
            )
        except RulesError as e:
            return error_response("bad_rules", e.reason)
        except CommandError as e:
            return error_response(e.code, e.reason, 401 if e.code == "account_needed" else 400)
        return JSONResponse(
            {
                "code": mt.code,
                "display": display_code(mt.code),
                "link": f"/#/t/{mt.code}",
                "token": token,
                "seat": seat,
            },
            status_code=201,
        )

    async def find(code: str) -> tuple[str | None, Any]:
        """(the process running the table, the table when it is this one)."""
        norm = normalize_code(code)
        if norm is None:
            return None, None
        owner = await mp.cluster.owner_for(norm)
        if owner != mp.cluster.pid:
            return owner, norm
        try:
            return owner, await mp.get(norm)
        except TableMoved:
            return None, None

    def too_many_codes(request: Request) -> JSONResponse | None:
        """The answer when this address named too many unknown codes lately: any
        code is refused then, known or not (the answer must not tell which)."""
        wait = mp.unknown_codes.wait(_host(request))
        if not wait:
            return None
        resp = error_response(TOO_MANY_CODES, too_many_codes_reason(wait), 429)
        resp.headers["Retry-After"] = str(retry_after(wait))
        return resp

    def no_table(request: Request) -> JSONResponse:
        mp.unknown_codes.miss(_host(request))
        return error_response("no_table", "no table with this code", 404)

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> JSONResponse:
        if (refused := too_many_codes(request)) is not None:
            return refused
        owner, mt = await find(code)
        if owner is not None and owner != mp.cluster.pid:
            # Run by another process: what the store says (who is connected is known there).
            data = await store.load_table(mt)
            mt = None if data is None else MultiTable.from_data(mp, data)
        if mt is None or mt.status == "closed":
            return no_table(request)
        return JSONResponse(mt.info())

    @app.post("/api/tables/{code}/seats")
    async def take_seat(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        if body is None:
            return error_response("bad_request", "send a JSON object")
        if (refused := too_many_codes(request)) is not None:
            return refused
        owner, mt = await find(code)
        if mt is None:
            return no_table(request)
        account = await accounts.account_of(request.cookies)
        nickname = await mp.nickname_of(account)
        try:
            if owner != mp.cluster.pid:
                assert owner is not None
                sat = await mp.cluster.call(
                    owner, "sit", code=mt, name=body.get("name"), account=account, nickname=nickname
                )
                token, seat, code = sat["token"], sat["seat"], mt
            else:
                token, seat = await mt.sit(body.get("name"), account, nickname, None)
                code = mt.code
        except CommandError as e:
            if e.code == "no_table":  # closed, here or at the process that runs it
                return no_table(request)
            status = {"table_full": 409, "already_started": 409, "unavailable": 503}
            return error_response(e.code, e.reason, status.get(e.code, 400))
        return JSONResponse({"code": code, "token": token, "seat": seat}, status_code=201)

    @app.get("/api/lobby")
    async def lobby() -> dict[str, Any]:
        return {"tables": mp.lobby()}

    @app.websocket("/ws/lobby")
    async def lobby_ws(ws: WebSocket) -> None:
        await ws.accept()
        client = Client(ws)
        mp.lobby_conns.add(client)
        try:
            await client.send_text(dumps({"v": VERSION, "type": "lobby", "tables": mp.lobby()}))
            async for _ in frames(ws):
                if not client.allow():
                    await client.send_text(dumps(error("rate_limited", "too many messages; slow down")))
                    continue
                await client.send_text(dumps({"v": VERSION, "type": "lobby", "tables": mp.lobby()}))
        except WebSocketDisconnect:
            pass
        finally:
            mp.lobby_conns.discard(client)

    @app.raw_websocket("/ws/table")
    async def table_ws(ws: RawWebSocket) -> None:
        # Straight on ASGI (``rawsocket``): its frames are every card of every game.
        await ws.accept()
        client = Client(ws, account=await accounts.account_of(ws.cookies), host=ws.host)
        link = Link(mp.cluster, client)
        try:
            async for text in ws.frames():
                await link.on_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            await link.close()

    return mp


def _host(conn: Request | WebSocket) -> str | None:
    """The client's address as the ASGI server gives it: behind a proxy, uvicorn's
    ``--proxy-headers`` and ``--forwarded-allow-ips`` decide what that is
    (``docs/deploy.md``); forwarding headers are never read here."""
    return conn.client.host if conn.client is not None else None


__all__ = ["install"]
