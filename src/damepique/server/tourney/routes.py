"""A duplicate tournament's routes (``docs/tournaments.md``).

``POST /api/tournaments`` creates one (the director's token comes back once);
``GET /api/tournaments/{code}`` what anyone may know of it; ``POST
.../players`` joins it (``X-Player``: the browser's id, for its statistics);
``POST .../me`` a player's table and seat token;
``POST .../start`` and ``POST .../end`` the director's; ``GET .../results``
(JSON) and ``GET .../results.csv`` the published boards and the standings;
``GET .../changes`` a line at each change, for its page to draw it again.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from ..accounts.accounts import Accounts
from ..asgi import App
from ..cluster.events import follow
from ..http import browser_id, client_host, json_body
from ..protocol import Json
from ..tables.codes import display_code
from .results import results, results_csv
from .service import CHANGES, Tourneys

MAX_BODY = 16_384


def public(doc: Json) -> Json:
    """What anyone with the code may know: no token, no secret before the end."""
    from damepique.engine.fairness import fairness_json

    return {
        "code": doc["code"],
        "display": display_code(doc["code"]),
        "name": doc["name"],
        "status": doc["status"],
        "rules": doc["rules"],
        "deals": doc["deals"],
        "tables": doc["tables"],
        "rounds": doc.get("rounds", 1),
        "movement": doc.get("movement", "rotation"),
        "round": doc.get("round", 0),
        "bots": doc["bots"],
        "level": doc["level"],
        "speed": doc["speed"],
        "start": doc["start"],
        "players": [{"id": p["id"], "name": p["name"]} for p in doc["players"]],
        "seating": doc["seating"],
        "fairness": fairness_json(bytes.fromhex(doc["secret"]), revealed=doc["status"] == "over"),
    }


def install(app: App, tourneys: Tourneys, accounts: Accounts) -> None:
    @app.post("/api/tournaments")
    async def create(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        tourneys.tables.refuse_creation(client_host(request))
        return JSONResponse(await tourneys.create(body))

    @app.get("/api/tournaments/{code}")
    async def show(code: str) -> JSONResponse:
        return JSONResponse(public(await tourneys.get(code)))

    @app.post("/api/tournaments/{code}/players")
    async def join(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        account = await accounts.account_of(request.cookies, request.headers.get("authorization"))
        # The browser's id: a guest's games of the tournament count in its statistics.
        return JSONResponse(await tourneys.join(code, body.get("name"), account, browser_id(request, body)))

    @app.post("/api/tournaments/{code}/me")
    async def me(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        return JSONResponse(await tourneys.me(code, body.get("player")))

    @app.post("/api/tournaments/{code}/start")
    async def start(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        await tourneys.begin(code, body.get("director"), body.get("seating"))
        return JSONResponse(public(await tourneys.get(code)))

    @app.post("/api/tournaments/{code}/end")
    async def end(code: str, request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        await tourneys.end(code, body.get("director"))
        return JSONResponse(public(await tourneys.get(code)))

    @app.get("/api/tournaments/{code}/changes")
    async def follow_changes(code: str) -> StreamingResponse:
        """A line ``{"type": "changed"}`` at each change (ndjson, as ``/api/stream/event``)."""
        doc = await tourneys.get(code)
        lines = follow(
            tourneys.node.broker, CHANGES + doc["code"], tourneys.tables.settings.clock, app.stopping
        )
        return StreamingResponse(lines, media_type="application/x-ndjson")

    @app.get("/api/tournaments/{code}/results")
    async def show_results(code: str) -> JSONResponse:
        return JSONResponse(await results(await tourneys.get(code), tourneys.games))

    @app.get("/api/tournaments/{code}/results.csv")
    async def csv_results(code: str) -> Response:
        data = await results(await tourneys.get(code), tourneys.games)
        return Response(
            results_csv(data),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="tournament-{data["code"]}.csv"'},
        )


__all__ = ["install", "public"]
