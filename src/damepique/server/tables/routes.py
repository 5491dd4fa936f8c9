"""The routes of tables: the JSON API, the one game socket ``/ws``, and the lobby's.

Every game, solo or with others, is played over ``/ws``: a connection says
``hello`` with its seat token (or a table's code, to watch), and every later
message acts for the seat the token proved (``session``). The socket is
answered straight on ASGI (``asgi.App.raw_websocket``): its frames are every
card of every game.
"""

from __future__ import annotations

from dataclasses import replace

from fastapi import Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from damepique.engine import Rules

from ..accounts.accounts import Accounts
from ..asgi import App, Connection, RawWebSocket
from ..errors import Refusal
from ..http import client_host, client_id, frames, json_body, refused, rules_from_body
from ..play.pace import SPEEDS
from ..play.thinking import CHOICES, LEVELS, PERSONALITIES
from ..protocol import Json, dumps, error
from .codes import display_code, normalize_code
from .limits import TOO_MANY_CODES, retry_after, too_many_codes
from .registry import Tables
from .seats import MAX_PLAYERS, MIN_PLAYERS, Sitter, TableOptions, TableSeat
from .session import QUICK_MESSAGES, TableMoved
from .table import Table

BAD_CREDENTIALS = 1008
"""Close code of a ``/ws`` whose bot token proves nobody (after an ``error`` saying so)."""
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
    "player",
)
"""The keys of ``POST /api/tables``; any other is refused (a typo, or ``target`` outside
``rules``, would otherwise make a table the creator did not ask for)."""


def _flag(body: Json, key: str, default: bool) -> bool:
    v = body.get(key, default)
    if not isinstance(v, bool):
        raise Refusal("bad_option", f"{key} must be true or false")
    return v


def with_player(sitter: Sitter, body: Json) -> Sitter:
    """The sitter with the browser's id the page sent (``player``): a guest's statistics."""
    return replace(sitter, player=client_id(body.get("player")))


def table_options(body: Json, timers: tuple[int, ...]) -> TableOptions:
    """A new table's options from ``POST /api/tables``'s body; ``Refusal`` names what is wrong."""
    unknown = [k for k in body if k not in TABLE_OPTIONS]
    if unknown:
        raise Refusal(
            "bad_option",
            f"unknown table option {str(unknown[0])[:40]!r} (known: {', '.join(TABLE_OPTIONS)}; "
            "the rules' options, such as target, go in rules)",
        )
    auto = isinstance(body.get("rules"), dict) and body["rules"].get("players") == "auto"
    if auto:
        # Valid for every count people may sit down as; held at the most until the start.
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            try:
                rules = rules_from_body(body | {"rules": body["rules"] | {"players": n}})
            except Refusal as e:
                raise Refusal(e.code, f"players auto: with {n} players, {e.reason}") from None
    else:
        rules = rules_from_body(body)
    timer = body.get("timer", 0)
    if not isinstance(timer, int) or isinstance(timer, bool):
        raise Refusal("bad_timer", "time per turn is a whole number of seconds")
    if timer not in timers:
        raise Refusal("bad_timer", f"time per turn must be one of {timers}")
    level = str(body.get("level", "intermediate"))
    if level not in CHOICES:
        raise Refusal("bad_level", f"level must be one of {', '.join(CHOICES)}")
    speed = str(body.get("speed", "normal"))
    if speed not in SPEEDS:
        raise Refusal("bad_speed", "speed must be normal or fast")
    return TableOptions(
        rules.to_json(),
        timer,
        _flag(body, "fill", True),
        level,
        _flag(body, "public", False),
        _flag(body, "ranked", False),
        _flag(body, "spectators", True),
        speed,
        auto,
    )


def install(app: App, tables: Tables, accounts: Accounts) -> None:
    settings = tables.settings

    async def account_of(request: Request) -> str | None:
        """The request's account: a bot's by its bearer token, a person's by the cookie."""
        return await accounts.account_of(request.cookies, request.headers.get("authorization"))

    @app.get("/api/multiplayer")
    async def mp_options() -> Json:
        return {
            "timers": list(settings.timer_choices),
            "levels": list(LEVELS),
            "personalities": list(PERSONALITIES),
            "speeds": list(SPEEDS),
            "quick_messages": list(QUICK_MESSAGES),
            "grace": settings.grace,
            "players": ["auto", *range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        }

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        options = table_options(body, settings.timer_choices)
        account = await account_of(request)
        if options.ranked and account is None:
            raise Refusal("account_needed", "ranked tables need an account: sign in first")
        seats = [TableSeat() for _ in range(Rules.from_json(options.rules).players)]
        tables.refuse_creation(client_host(request))
        table = await tables.create("table", options, seats)
        token, seat = await table.sit(body.get("name"), with_player(await tables.sitter(account), body))
        return JSONResponse(
            {
                "code": table.code,
                "display": display_code(table.code),
                "link": f"/#/t/{table.code}",
                "token": token,
                "seat": seat,
            },
            status_code=201,
        )

    def refuse_codes(request: Request) -> None:
        """When this address named too many unknown codes lately, any code is
        refused, known or not (the answer must not tell which)."""
        wait = tables.unknown_codes.wait(client_host(request))
        if wait:
            raise Refusal(TOO_MANY_CODES, too_many_codes(wait), params={"seconds": retry_after(wait)},
                          retry_after=retry_after(wait))  # fmt: skip

    def no_table(request: Request) -> Refusal:
        tables.unknown_codes.miss(client_host(request))
        return Refusal("no_table", "no table with this code")

    async def find(code: str) -> tuple[str | None, Table | None, str | None]:
        """(the process running the table, the table when it is this one, its code)."""
        norm = normalize_code(code)
        if norm is None:
            return None, None, None
        owner = await tables.relay.owner_for(norm)
        if owner != tables.node.pid:
            return owner, None, norm
        try:
            return owner, await tables.get(norm), norm
        except TableMoved:
            return None, None, None

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> JSONResponse:
        refuse_codes(request)
        owner, table, norm = await find(code)
        if owner is not None and norm is not None and table is None:
            # Run by another process: what the store says (who is connected is known there).
            data = await tables.store.load(norm)
            table = None if data is None else Table.from_data(tables, data)
        if table is None or table.status == "closed" or table.solo:
            raise no_table(request)
        return JSONResponse(table.info())

    @app.post("/api/tables/{code}/seats")
    async def take_seat(code: str, request: Request) -> JSONResponse:
        try:
            body = await json_body(request, MAX_BODY)
            refuse_codes(request)
            owner, table, norm = await find(code)
            if norm is None or (table is None and owner in (None, tables.node.pid)) or (table and table.solo):
                raise no_table(request)
            sitter = with_player(await tables.sitter(await account_of(request)), body)
            if table is None:
                assert owner is not None
                sat = await tables.node.call(
                    owner, "sit", code=norm, name=body.get("name"), sitter=sitter.to_json()
                )
                token, seat = sat["token"], sat["seat"]
            else:
                token, seat = await table.sit(body.get("name"), sitter)
        except Refusal as e:
            if e.code == "no_table":  # closed, here or at the process that runs it
                tables.unknown_codes.miss(client_host(request))
            return refused(e)
        return JSONResponse({"code": norm, "token": token, "seat": seat}, status_code=201)

    @app.get("/api/lobby")
    async def lobby() -> Json:
        return {"tables": tables.lobby.tables()}

    @app.websocket("/ws/lobby")
    async def lobby_ws(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws, clock=tables.clock, max_queue=tables.settings.send_queue)
        tables.lobby.watch(conn)
        try:
            # The page has nothing to say here: a frame is answered only when
            # they come too fast (never with the list: that was 46 KB a frame).
            async for _ in frames(ws):
                if not conn.allow():
                    conn.post(dumps(error(Refusal("rate_limited", "too many messages; slow down"))))
        except WebSocketDisconnect:
            pass
        finally:
            tables.lobby.watchers.discard(conn)

    @app.raw_websocket("/ws")
    async def game_socket(ws: RawWebSocket) -> None:
        # Straight on ASGI: its frames are every card of every game (``asgi``).
        try:
            account = await accounts.account_of(ws.cookies, ws.authorization)
        except Refusal as e:
            # A program whose token proves nobody hears why, then the socket closes:
            # it is never let in as a stranger.
            await ws.accept()
            await ws.send_text(dumps(error(e)))
            await ws.close(BAD_CREDENTIALS, e.reason[:120])
            return
        await tables.relay.serve(ws, account)


__all__ = ["TABLE_OPTIONS", "install", "table_options"]
