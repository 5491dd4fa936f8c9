"""The web app: pages, a small JSON API and one WebSocket per player connection.

``create_app`` wires the three seams (store, hub, table runners) and the
score keeper's routes. The protocol is in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from damepique.engine import PRESETS, RecordError, Rules, RulesError
from damepique.engine.record import load as load_record
from damepique.engine.record import replay as replay_record
from damepique.engine.rules import FIRST_LEADS, LEFTOVER_RULES, MOON_RULES, PASS_CYCLES

from . import mp_api, scorer_api
from .cluster import GAME, Cluster
from .games import LEVELS, SPEEDS, Games, Pace
from .http import error_response, frames, rules_from_body
from .hub import Hub
from .protocol import VERSION, ProtocolError, error, parse
from .ratelimit import RateLimit
from .rawsocket import App
from .replays import replay_data
from .settings import database_url as make_url
from .store import SqlStore, Store
from .table import CommandError
from .table_session import MOVED
from .thinking import Thinker, resolve_level

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 2_000_000


class Client:
    """One WebSocket, with sends serialised (the reader and the bots both send)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._lock = asyncio.Lock()
        self.limit = RateLimit(rate=50.0, burst=200.0)
        self.patches = False
        """Said ``join`` with ``"patches": true``: state updates may come as patches."""

    async def send_text(self, data: str) -> None:
        async with self._lock:
            await self.ws.send_text(data)

    def background(self, name: str, work: Coroutine[Any, Any, dict[str, Any]], ref: Any) -> None:
        """Run ``work`` and send its answer (or error) when done; a newer request of
        the same kind replaces an unfinished one."""
        old = self.tasks.get(name)
        if old is not None and not old.done():
            old.cancel()

        async def run() -> None:
            try:
                answer = await work
            except CommandError as e:
                answer = error(e.code, e.reason, ref)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a bot that failed: say so, keep the connection
                answer = error("unavailable", f"no {name} now: {type(e).__name__}", ref)
            else:
                answer = answer | {"ref": ref}
            with contextlib.suppress(Exception):
                await self.send_text(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))

        self.tasks[name] = asyncio.create_task(run())

    def cancel(self) -> None:
        for task in self.tasks.values():
            task.cancel()

    def allow(self) -> bool:
        return self.limit.allow()


def create_app(
    database_url: str | None = None,
    *,
    store: Store | None = None,
    hub: Hub | None = None,
    thinker: Thinker | None = None,
    pace: Pace | None = None,
    broker_url: str | None = None,
    process_id: str | None = None,
) -> FastAPI:
    """The ASGI app. ``database_url`` defaults to the per-user SQLite file;
    ``broker_url`` (default ``$DAMEPIQUE_BROKER``, else ``memory://``) connects
    this process to the others that share the database (``cluster``)."""
    url = make_url(database_url)  # a path or any URL people write (postgresql://...)
    store = store or SqlStore(url)
    hub = hub or Hub()
    thinker = thinker or Thinker()
    games = Games(store, hub, thinker, pace)
    cluster = Cluster(broker_url or os.environ.get("DAMEPIQUE_BROKER"), process_id)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.init()
        multiplayer = getattr(app.state, "multiplayer", None)
        if multiplayer is not None:
            await multiplayer.start()
        try:
            yield
        finally:
            if multiplayer is not None:
                await multiplayer.close()
            await games.close()
            thinker.close()
            await store.close()

    app = App(title="damepique", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.games = games
    app.state.store = store
    app.state.hub = hub

    # -- pages ---------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "protocol": VERSION, "process": app.state.cluster.pid}

    # -- JSON API ------------------------------------------------------------------

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "presets": {name: r.to_json() for name, r in PRESETS.items()},
            "defaults": Rules().to_json() | {"deck": 52, "pass_count": 3},
            "choices": {
                "players": [3, 4, 5],
                "target": [100, 50],
                "pass_cycle": list(PASS_CYCLES),
                "moon": list(MOON_RULES),
                "leftover": list(LEFTOVER_RULES),
                "first_lead": list(FIRST_LEADS),
                "deck": [52, 36],
            },
            "levels": list(LEVELS),
            "levels_available": {lv: resolve_level(lv) for lv in LEVELS},
            "speeds": list(SPEEDS),
        }

    @app.post("/api/games")
    async def create_game(request: Request) -> JSONResponse:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return error_response("bad_request", "send a JSON object")
        try:
            rules = rules_from_body(body)
            game_id, token, seat = await games.create_solo(
                rules=rules,
                level=str(body.get("level", "intermediate")),
                speed=str(body.get("speed", "normal")),
                name=str(body.get("name") or "You"),
                owner=_player(request, body),
            )
            await cluster.claim(GAME + game_id)  # it runs here from its first moment
        except RulesError as e:
            return error_response("bad_rules", e.reason)
        except CommandError as e:
            return error_response(e.code, e.reason)
        return JSONResponse({"game": game_id, "token": token, "seat": seat})

    @app.get("/api/history")
    async def history(request: Request) -> dict[str, Any]:
        owner = _player(request, {})
        rows = await store.games_of(owner) if owner else []
        return {
            "games": [
                {
                    "game": g.id,
                    "finished": g.finished,
                    "created": g.created,
                    "players": [s["name"] for s in g.seats],
                    "totals": g.totals,
                    "winner": g.winner,
                    "rules": g.rules,
                    "level": g.options.get("level"),
                }
                for g in rows
            ]
        }

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        g = await store.get_game(game_id)
        if g is None or g.record is None:
            return error_response("not_found", "no finished game with this id", 404)
        return Response(
            json.dumps(g.record, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="damepique-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_game(game_id: str) -> JSONResponse:
        g = await store.get_game(game_id)
        if g is None or g.record is None:
            return error_response("not_found", "no finished game with this id", 404)
        match = replay_record(g.record)
        return JSONResponse(replay_data(match, g.record.get("players")) | {"game": game_id})

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> JSONResponse:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return error_response("too_large", "a record larger than 2 MB", 413)
        try:
            data = load_record(raw)
            match = replay_record(data)
        except RecordError as e:
            return JSONResponse(e.to_json() | {"code": e.kind}, status_code=400)
        players = data.get("players") if isinstance(data.get("players"), list) else None
        return JSONResponse(replay_data(match, players))

    # -- the WebSocket -----------------------------------------------------------------

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        client = Client(ws)
        joined: tuple[Any, int] | None = None
        try:
            async for text in frames(ws):
                ref = None
                try:
                    if not client.allow():
                        raise ProtocolError("rate_limited", "too many messages; slow down")
                    msg = parse(text)
                    ref = msg.get("id") if isinstance(msg.get("id"), (str, int)) else None
                    kind = msg["type"]
                    if kind == "ping":
                        await client.send_text(json.dumps({"v": VERSION, "type": "pong", "ref": ref}))
                        continue
                    if kind == "join":
                        seat_of = await _seat_of(msg.get("token"))
                        if seat_of is not None:
                            await cluster.hold_game(seat_of[0])
                        found = await games.join(msg.get("token"))
                        if found is None:
                            raise ProtocolError("unknown_token", "no game for this token")
                        if joined is not None:
                            hub.detach(joined[0].id, client)
                        joined = found
                        runner, seat = found
                        client.patches = msg.get("patches") is True
                        hub.attach(runner.id, client, seat)
                        await hub.send(client, runner.state(seat, ack=ref))
                        continue
                    if joined is None:
                        raise ProtocolError("not_joined", "send a join message with your token first")
                    runner, seat = joined
                    if runner.broken:
                        fresh = await games.get(runner.id)
                        if fresh is None:
                            raise ProtocolError("unavailable", "this game is unavailable")
                        hub.detach(runner.id, client)
                        joined = (fresh, seat)
                        runner = fresh
                        hub.attach(runner.id, client, seat)
                    if kind in ("pass", "play"):
                        await runner.command(seat, msg)
                    elif kind == "advice":
                        # Training work runs beside the connection: the player's own
                        # cards are never held up behind the expert's search.
                        client.background("advice", runner.advice(seat), ref)
                    elif kind == "review":
                        client.background("review", runner.review(seat, msg.get("deal")), ref)
                except ProtocolError as e:
                    await hub.send(client, error(e.code, e.reason, ref))
                except CommandError as e:
                    await hub.send(client, error(e.code, e.reason, ref))
        except WebSocketDisconnect:
            pass
        finally:
            client.cancel()
            if joined is not None:
                hub.detach(joined[0].id, client)
                games.release(joined[0])
                if joined[0].id not in games.runners:
                    cluster.released(GAME + joined[0].id)

    async def _seat_of(token: object) -> tuple[str, int] | None:
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        return await store.find_seat(token)

    async def let_go(game_id: str) -> None:
        """Another process runs this solo game from now on: stop it here, and send
        its pages away (they reconnect)."""
        runner = games.runners.pop(game_id, None)
        if runner is not None:
            await runner.stop()
        for conn in hub.connections_of(game_id):
            hub.detach(game_id, conn)
            ws = getattr(conn, "ws", None)
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close(MOVED, "this game moved to another server; reconnect")

    scorer_api.install(app, url)
    app.state.cluster = cluster
    cluster.on_let_go = let_go
    cluster.sheet_watchers = app.state.sheets.watchers
    mp_api.install(app, games, cluster=cluster)
    return app


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return None
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        return None


def _player(request: Request, body: dict[str, Any]) -> str | None:
    p = request.headers.get("x-player") or body.get("player")
    if isinstance(p, str) and 8 <= len(p) <= 64:
        return p
    return None
