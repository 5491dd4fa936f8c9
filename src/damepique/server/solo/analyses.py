"""Game analysis in the server (issue 26, ``docs/protocol.md``): a finished
game's decisions of one seat rated by the expert (``bots.analysis``).

The work runs in the coach's worker process (``Thinker.coach``), one decision
at a time, never on the event loop: a player's advice asked meanwhile waits
one decision at most, and the progress (decisions done of the total) is
known after each. At most ``RUNNING`` analyses run at once in a process; an
analysis is kept (``storage.analyses``) and served again without
recomputing, unless an earlier analyst made it (its ``analyst`` is not
``ANALYST``: the ratings have changed since): asked for, it is made again,
and served as it was meanwhile only where a new one cannot run. One that is
running is joined, not started twice.

Who may analyse what: a stored game only once it is over, and only the seat
the asker played (proved by the browser's player id, ``X-Player``, that the
seat was played with, or by the seat's token at the game's table,
``X-Seat-Token``): the analysis uses what that seat saw, and no seat's view
is shown before the game ends. An uploaded record: any seat (its uploader
holds the whole record).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from damepique.bots.analysis import (
    ANALYSIS_PLAYOUTS,
    ANALYST,
    Decision,
    decisions_of_record,
    rate_json,
    summary,
)

from ..errors import Refusal
from ..http import client_id, json_body
from ..protocol import Json
from ..storage.analyses import AnalysisStore
from ..storage.games import GameRow, GameStore
from ..tables.registry import Tables

RUNNING = 4
"""Analyses that may run at once in one process; past that a new one is refused (``busy``)."""
MAX_DECISIONS = 600
"""The most decisions of one seat an analysis takes on (a game to 100 has 90 to 200)."""
MAX_RECORD = 2_000_000
"""Bytes of an uploaded record's request."""
SEED = 0
"""The analyses' seed: the same game and seat always give the same analysis."""


@dataclass
class Job:
    """An analysis under way: ``done`` decisions of ``total`` rated."""

    total: int
    done: int = 0
    error: Refusal | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Analyses:
    """The analyses of this process: those running, and the store of those done."""

    def __init__(self, store: AnalysisStore, tables: Tables, playouts: int | None = None) -> None:
        self.store = store
        self.tables = tables
        self.playouts = playouts or int(os.environ.get("DAMEPIQUE_ANALYSIS_PLAYOUTS", ANALYSIS_PLAYOUTS))
        self.jobs: dict[tuple[str, int], Job] = {}

    async def status(self, key: str, seat: int) -> Json:
        """``{"status": "done", "analysis"}`` (with ``"outdated": true`` when an
        earlier analyst made it and no new one runs), ``{"status": "running",
        "done", "total"}`` or ``{"status": "none"}`` (never started here); a
        job that failed raises its refusal once (a new one of an outdated
        analysis: the outdated one is served)."""
        stored = await self.store.get(key, seat)
        outdated = stored is not None and stored.get("analyst") != ANALYST
        job = self.jobs.get((key, seat)) if stored is None or outdated else None
        if job is not None:
            if job.error is None:
                return {"status": "running", "done": job.done, "total": job.total}
            del self.jobs[(key, seat)]
            if stored is None:
                raise job.error
        if stored is None:
            return {"status": "none", "done": 0, "total": 0}
        n = len(stored.get("decisions", []))
        done = {"status": "done", "done": n, "total": n, "analysis": stored}
        return done | {"outdated": True} if outdated else done

    async def start(self, key: str, seat: int, record: Json, extra: Json) -> Json:
        """The analysis of ``seat`` in ``record``: stored, running, or started
        now; one an earlier analyst made is made again (and served as it is,
        ``outdated``, while the analyses running leave no room)."""
        current = await self.status(key, seat)
        if current["status"] == "running" or (current["status"] == "done" and not current.get("outdated")):
            return current
        if len(self.jobs) >= RUNNING:
            if current["status"] == "done":
                return current
            raise Refusal("busy", "other games are being analysed; try again in a moment")
        points, error = await self.tables.thinker.coach(decisions_of_record, record, seat, MAX_DECISIONS)
        if error is not None:
            code = error["error"] if error["error"] in ("bad_seat", "too_large") else "bad_record"
            raise Refusal(code, str(error.get("reason", "")))
        if (key, seat) in self.jobs:  # started by another request meanwhile
            return await self.status(key, seat)
        job = self.jobs[(key, seat)] = Job(total=len(points))
        job.task = asyncio.create_task(self._run(key, seat, job, points, extra))
        return {"status": "running", "done": 0, "total": job.total}

    async def _run(self, key: str, seat: int, job: Job, points: list[Decision], extra: Json) -> None:
        try:
            entries = []
            for d in points:
                entries.append(await self.tables.thinker.coach(rate_json, d, self.playouts, SEED))
                job.done += 1
            await self.store.put(key, seat, self.playouts, summary(seat, entries) | extra)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            job.error = Refusal("unavailable", f"the analysis failed: {type(e).__name__}")
            return
        self.jobs.pop((key, seat), None)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        self.jobs.clear()


def _seat_param(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise Refusal("bad_seat", "seat must be a whole number")
    try:
        return int(str(value))
    except ValueError:
        raise Refusal("bad_seat", "seat must be a whole number") from None


async def seats_proved(request: Request, game: GameRow, tables: Tables, body: Json) -> set[int]:
    """The seats of ``game`` the request proves it played: by the browser's
    player id (``X-Player``) or by a seat token of the game's table
    (``X-Seat-Token``, or ``token`` in the body)."""
    proved: set[int] = set()
    player = client_id(request.headers.get("x-player"))
    if player is not None:
        proved |= {i for i, s in enumerate(game.seats) if s.get("player") == player}
    token = request.headers.get("x-seat-token") or body.get("token")
    if isinstance(token, str) and 8 <= len(token) <= 128:
        found = await tables.store.find_token(token)
        if found is not None and found[0] == game.options.get("code"):
            proved.add(found[1])
    return proved


def upload_key(record: Json) -> str:
    """An uploaded record's key: ``u-`` and the SHA-256 of its canonical JSON (40 hex digits)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "u-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _players(record: Json) -> Any:
    players = record.get("players")
    return players if isinstance(players, list) else None


def install(app: FastAPI, tables: Tables, games: GameStore, analyses: Analyses) -> None:
    async def stored_game(
        request: Request, game_id: str, body: Json, seat: int | None
    ) -> tuple[GameRow, int]:
        g = await games.get_game(game_id)
        if g is None:
            raise Refusal("not_found", "no game with this id")
        if g.finished is None or g.record is None:
            raise Refusal("not_finished", "a game is analysed once it is over")
        proved = await seats_proved(request, g, tables, body)
        if seat is None:
            if len(proved) != 1:
                raise Refusal("not_your_seat", "say which of your seats to analyse, and prove it is yours")
            seat = next(iter(proved))
        if not 0 <= seat < len(g.seats):
            raise Refusal("bad_seat", f"seat {seat} is not a seat of this game")
        if seat not in proved:
            raise Refusal("not_your_seat", "a person analyses only the seat they played")
        return g, seat

    def answer(key: str, seat: int, status: Json) -> JSONResponse:
        return JSONResponse({"game": key, "seat": seat} | status)

    @app.post("/api/games/{game_id}/analysis")
    async def analyse_game(request: Request, game_id: str) -> JSONResponse:
        body = await json_body(request, 4096)
        g, seat = await stored_game(request, game_id, body, _seat_param(body.get("seat")))
        assert g.record is not None
        extra = {"players": _players(g.record), "rules": g.record.get("rules")}
        return answer(game_id, seat, await analyses.start(game_id, seat, g.record, extra))

    @app.get("/api/games/{game_id}/analysis")
    async def game_analysis(request: Request, game_id: str, seat: str | None = None) -> JSONResponse:
        _g, s = await stored_game(request, game_id, {}, _seat_param(seat))
        return answer(game_id, s, await analyses.status(game_id, s))

    @app.post("/api/analysis")
    async def analyse_upload(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_RECORD)
        record = body.get("record")
        if not isinstance(record, dict):
            raise Refusal("bad_record", 'send the record as {"record": {...}, "seat": N}')
        seat = _seat_param(body.get("seat"))
        seat = 0 if seat is None else seat
        key = upload_key(record)
        extra = {"players": _players(record), "rules": record.get("rules")}
        status = await analyses.start(key, seat, record, extra)
        return answer(key, seat, status)

    @app.get("/api/analysis/{key}")
    async def upload_analysis(key: str, seat: str | None = None) -> JSONResponse:
        if not key.startswith("u-") or len(key) > 64:
            raise Refusal("not_found", "no uploaded record with this id")
        s = _seat_param(seat)
        s = 0 if s is None else s
        return answer(key, s, await analyses.status(key, s))


__all__ = ["MAX_DECISIONS", "RUNNING", "Analyses", "install", "seats_proved", "upload_key"]
