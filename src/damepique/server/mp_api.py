"""Routes of multiplayer tables: the JSON API, the table WebSocket and the lobby's.

``install(app, games)`` adds them to the app of ``create_app``; the protocol
is in ``docs/multiplayer.md``. A table connection says ``hello`` with the
table's code (and its seat token when it has one); every later action acts
for the seat the token proved, never for a seat number the client names.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from damepique.engine import RulesError

from .accounts import Accounts
from .accounts import install as install_accounts
from .codes import display_code, normalize_code
from .games import LEVELS, SPEEDS
from .http import error_response, rules_from_body
from .lobby import Multiplayer
from .mpstore import MpStore
from .multiplayer import QUICK_MESSAGES, Client, MpSettings
from .protocol import VERSION, ProtocolError, dumps, error
from .protocol import parse as parse_message
from .table import CommandError

TABLE_TYPES = ("hello", "sit", "start", "pass", "play", "leave", "rematch", "chat", "mute", "unmute", "ping")
MAX_BAD_CODES = 20


def parse(text: str | bytes | None) -> dict[str, Any]:
    """One table message, checked for shape only."""
    return parse_message(text, TABLE_TYPES)


def _flag(body: dict[str, Any], key: str, default: bool) -> bool:
    v = body.get(key, default)
    if not isinstance(v, bool):
        raise CommandError("bad_option", f"{key} must be true or false")
    return v


def install(app: FastAPI, games: Any, settings: MpSettings | None = None) -> Multiplayer:
    # The game store's write lock, when it has one (SqlStore): see MpStore.
    store = MpStore(games.store.engine, getattr(games.store, "_write_lock", None))
    accounts = Accounts(store)
    mp = Multiplayer(games, store, settings)
    mp.accounts = accounts
    app.state.multiplayer = mp
    install_accounts(app, accounts)

    async def nickname_of(key: str | None) -> str | None:
        if key is None:
            return None
        acc = await store.get_account(key)
        return None if acc is None else str(acc["nickname"])

    async def body_of(request: Request) -> dict[str, Any] | None:
        raw = await request.body()
        if len(raw) > 65536:
            return None
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

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
        body = await body_of(request)
        if body is None:
            return error_response("bad_request", "send a JSON object")
        account = accounts.account_of(request.cookies)
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
                nickname=await nickname_of(account),
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

    async def find(code: str) -> Any:
        norm = normalize_code(code)
        return None if norm is None else await mp.get(norm)

    @app.get("/api/tables/{code}")
    async def table_info(code: str) -> JSONResponse:
        mt = await find(code)
        if mt is None or mt.status == "closed":
            return error_response("no_table", "no table with this code", 404)
        return JSONResponse(mt.info())

    @app.post("/api/tables/{code}/seats")
    async def take_seat(code: str, request: Request) -> JSONResponse:
        body = await body_of(request)
        if body is None:
            return error_response("bad_request", "send a JSON object")
        mt = await find(code)
        if mt is None:
            return error_response("no_table", "no table with this code", 404)
        account = accounts.account_of(request.cookies)
        try:
            token, seat = await mt.sit(body.get("name"), account, await nickname_of(account), None)
        except CommandError as e:
            status = 409 if e.code in ("table_full", "already_started") else 400
            return error_response(e.code, e.reason, status)
        return JSONResponse({"code": mt.code, "token": token, "seat": seat}, status_code=201)

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
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not client.allow():
                    await client.send_text(dumps(error("rate_limited", "too many messages; slow down")))
                    continue
                await client.send_text(dumps({"v": VERSION, "type": "lobby", "tables": mp.lobby()}))
        except WebSocketDisconnect:
            pass
        finally:
            mp.lobby_conns.discard(client)

    @app.websocket("/ws/table")
    async def table_ws(ws: WebSocket) -> None:
        await ws.accept()
        client = Client(ws, account=accounts.account_of(ws.cookies))
        mt: Any = None
        seat: int | None = None
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None and message.get("bytes") is not None:
                    text = message["bytes"]
                ref = None
                try:
                    if not client.allow():
                        raise ProtocolError("rate_limited", "too many messages; slow down")
                    msg = parse(text)
                    ref = msg.get("id") if isinstance(msg.get("id"), (str, int)) else None
                    kind = msg["type"]
                    if kind == "ping":
                        await client.send_text(dumps({"v": VERSION, "type": "pong", "ref": ref}))
                        continue
                    if kind == "hello":
                        new_mt, new_seat = await _hello(msg, client)
                        if mt is not None:
                            mt.detach(client)
                        mt, seat = new_mt, new_seat
                        await mt.attach(client, seat)
                        await mt.send_state(client, seat, ref)
                        continue
                    if mt is None:
                        raise ProtocolError("not_joined", "send hello with a table code first")
                    if seat is not None and mt.conns.get(client, None) != seat:
                        seat = None  # the seat was given up (left for good)
                    if kind == "sit":
                        if seat is not None:
                            raise CommandError("already_seated", "you already sit at this table")
                        token, s = await mt.sit(
                            msg.get("name"),
                            client.account,
                            await nickname_of(client.account),
                            None,
                            announce=False,
                        )
                        seat = s
                        mt.conns[client] = s
                        await mt.send(
                            client,
                            {
                                "v": VERSION,
                                "type": "seated",
                                "code": mt.code,
                                "token": token,
                                "seat": s,
                                "ref": ref,
                            },
                        )
                        await mt.announce()
                        continue
                    if kind in ("mute", "unmute"):
                        target = msg.get("seat")
                        if (
                            not isinstance(target, int)
                            or isinstance(target, bool)
                            or not 0 <= target < len(mt.seats)
                        ):
                            raise CommandError("bad_seat", "no such seat")
                        if kind == "mute":
                            client.mutes.add(target)
                        else:
                            client.mutes.discard(target)
                        await mt.send(
                            client, {"v": VERSION, "type": "muted", "seats": sorted(client.mutes), "ref": ref}
                        )
                        continue
                    if seat is None:
                        raise CommandError("not_seated", "take a seat first; spectators only watch")
                    if kind == "start":
                        await mt.start(seat)
                    elif kind in ("pass", "play"):
                        runner = mt.runner
                        if runner is None or mt.status != "playing":
                            raise CommandError("no_game", "no game in progress at this table")
                        if runner.broken:
                            async with mt.lock:
                                await mt.load_game()
                            runner = mt.runner
                        await runner.command(seat, msg)
                    elif kind == "leave":
                        await mt.leave(seat)
                        seat = None
                    elif kind == "rematch":
                        await mt.rematch(seat, msg.get("game"))
                    elif kind == "chat":
                        await _chat(mt, client, seat, msg.get("message"))
                except ProtocolError as e:
                    await client.send_text(dumps(error(e.code, e.reason, ref)))
                except CommandError as e:
                    await client.send_text(dumps(error(e.code, e.reason, ref)))
        except WebSocketDisconnect:
            pass
        finally:
            if mt is not None:
                mt.detach(client)

    async def _hello(msg: dict[str, Any], client: Client) -> tuple[Any, int | None]:
        raw = msg.get("table")
        code = normalize_code(raw) if isinstance(raw, str) and len(raw) < 40 else None
        token = msg.get("token")
        if token is not None:
            found = await mp.by_token(token)
            if found is None:
                raise ProtocolError("bad_token", "this seat token is not valid (any more)")
            if raw is not None and found[0].code != code:
                raise ProtocolError("bad_token", "this seat token is for another table")
            return found
        if code is None:
            client.bad_codes += 1
            raise ProtocolError("bad_code", "a table code has 8 letters and digits")
        if client.bad_codes >= MAX_BAD_CODES:
            raise ProtocolError("rate_limited", "too many unknown codes on this connection")
        found_mt = await mp.get(code)
        if found_mt is None or found_mt.status == "closed":
            client.bad_codes += 1
            raise ProtocolError("no_table", "no table with this code")
        return found_mt, None

    async def _chat(mt: Any, client: Client, seat: int, message: object) -> None:
        import time

        if message not in QUICK_MESSAGES:
            raise CommandError("bad_chat", "only the preset quick messages can be sent")
        now = time.monotonic()
        if now - client.last_chat < mp.settings.chat_interval:
            raise CommandError("rate_limited", "one message a second at most")
        client.last_chat = now
        text = dumps({"v": VERSION, "type": "chat", "seat": seat, "message": message})
        for conn in list(mt.conns):
            if seat not in getattr(conn, "mutes", set()):
                await mt.send_raw(conn, text)

    return mp


__all__ = ["install", "parse"]
