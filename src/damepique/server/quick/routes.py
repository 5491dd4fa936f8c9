"""Quick match's routes: ``GET /api/quick`` (the choices) and the socket ``/ws/match``.

A page opens ``/ws/match`` and sends ``join``; it hears ``queued`` (with the
seconds left before bots fill), then ``matched`` (the table's code and its
seat token) or ``replaced`` (the same person queued from elsewhere). ``leave``,
or closing the socket, takes the person out of the queue; a socket the server
closes as it restarts (code 1012) keeps the wait, for the page to take back
with its ticket. ``docs/multiplayer.md``.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

from fastapi import WebSocket, WebSocketDisconnect

from damepique.wire import quick_message

from ..accounts.accounts import Accounts
from ..accounts.leavers import WINDOW_S, barred_until, recent
from ..asgi import App, Connection
from ..errors import Refusal
from ..http import client_id, frames
from ..protocol import MAX_MESSAGE, Json, dumps, error
from ..tables.registry import Tables
from ..tables.seats import clean_name
from .queue import DEFAULT_WAIT, MAX_WAIT, PLAYER_CHOICES, TARGETS
from .service import QuickMatch

RESTART = 1012
"""The close code of a server going away (uvicorn's on shutdown): the page comes back."""
WAITS = (15, 30, 60, 120)
"""The waits a page offers (any whole number of seconds up to ``MAX_WAIT`` is taken)."""


def _frame(raw: str | bytes | None) -> Json:
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE:
        raise Refusal("bad_message", f"a message is a JSON text of at most {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw)
    except ValueError:
        raise Refusal("bad_json", "not valid JSON") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refusal("bad_message", "a message is a JSON object with a type")
    return msg


def install(app: App, quick: QuickMatch, tables: Tables, accounts: Accounts) -> None:
    async def refuse_bot(account: str, ranked: bool) -> None:
        """A bot joins quick matches only when its owner allows it, and only casual ones."""
        acc = await tables.accounts.get_account(account)
        if acc is None or not acc["quick"]:
            raise Refusal("bot_not_allowed", "this bot's owner has not allowed it in quick matches")
        if ranked:
            raise Refusal("bots_casual_only", "bots play quick matches in casual games only")

    async def refuse_leaver(account: str) -> None:
        """``Refusal`` when the account left too many ranked games lately (``accounts.leavers``)."""
        now = quick.clock.time()
        leaves = await tables.stats.leaves_of(account, now - WINDOW_S)
        until = barred_until(leaves, now)
        if until is not None:
            minutes = max(1, math.ceil((until - now) / 60))
            raise Refusal(
                "quick_barred",
                f"you left {len(recent(leaves, now))} ranked games in the last 24 hours: "
                f"quick ranked matches are closed to you for {minutes} more minutes",
                params={"minutes": minutes, "leaves": len(recent(leaves, now))},
            )

    @app.get("/api/quick")
    async def quick_options() -> Json:
        return {
            "waits": list(WAITS),
            "wait": DEFAULT_WAIT,
            "max_wait": MAX_WAIT,
            "targets": list(TARGETS),
            "players": list(PLAYER_CHOICES),
        }

    @app.websocket("/ws/match")
    async def match_socket(ws: WebSocket) -> None:
        await ws.accept()
        # The app's clock and send queue, as every other socket's.
        conn = Connection(ws, clock=quick.clock, max_queue=tables.settings.send_queue)
        ticket: str | None = None
        codes: list[int] = []
        try:
            account = await accounts.account_of(ws.cookies, ws.headers.get("authorization"))
        except Refusal as e:
            conn.post(dumps(error(e)))
            await ws.close(1008)
            return
        try:
            async for raw in frames(ws, codes.append):
                try:
                    if not conn.allow():
                        raise Refusal("rate_limited", "too many messages; slow down")
                    msg = _frame(raw)
                    if msg["type"] == "join":
                        sitter = replace(await tables.sitter(account), player=client_id(msg.get("player")))
                        if sitter.program and account is not None:
                            await refuse_bot(account, msg.get("ranked") is True)
                        rating = None
                        if msg.get("ranked") is True and account is not None:
                            await refuse_leaver(account)
                            acc = await tables.accounts.get_account(account)
                            rating = None if acc is None else float(acc["rating"])
                        entry = quick.entry(
                            msg, sitter.to_json(), clean_name(msg.get("name"), "Player"), rating
                        )
                        if ticket is not None and ticket != entry.ticket:
                            await quick.leave(ticket, conn)
                        ticket = entry.ticket
                        await quick.join(conn, entry)
                    elif msg["type"] == "leave":
                        if ticket is not None:
                            await quick.leave(ticket, conn)
                            conn.post(dumps(quick_message("left", ticket)))
                            ticket = None
                    else:
                        raise Refusal("bad_message", "a quick match message is join or leave")
                except Refusal as e:
                    conn.post(dumps(error(e)))
        except WebSocketDisconnect:
            pass
        finally:
            if ticket is not None:
                await quick.leave(ticket, conn, keep=codes == [RESTART])


__all__ = ["WAITS", "install"]
