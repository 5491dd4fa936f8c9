"""The web app: its parts made once and wired together, and the pages.

``create_app`` makes the one ``Database`` and the stores on it, the hub,
the bots' thinker, this process's place among the others (``Node``), the
tables' registry, the accounts and the score sheets, and installs their
routes. The protocol is in ``docs/protocol.md``; how the parts fit, in
``docs/architecture.md``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from damepique.bots.registry import BOT_INFO
from damepique.engine import PRESETS, Rules
from damepique.engine.rules import (
    FIRST_LEADS,
    FIRST_TRICK_DISCARDS,
    HEARTS_BROKEN_BY,
    LEFTOVER_RULES,
    MOON_RULES,
    PASS_CYCLES,
    TIE_RULES,
)

from . import testing
from .accounts import routes as account_routes
from .accounts.accounts import Accounts
from .asgi import App
from .challenges import routes as challenge_routes
from .challenges.service import Challenges
from .cluster.node import Node
from .daily import routes as daily_routes
from .daily.service import Daily
from .errors import Refusal
from .http import refused
from .play.hub import Hub
from .play.pace import SPEEDS, Pace
from .play.thinking import CHOICES, LEVELS, PERSONALITIES, Thinker, resolve_level
from .protocol import VERSION, Json
from .quick import routes as quick_routes
from .quick.service import QuickMatch, table_seater
from .settings import Settings
from .settings import database_url as make_url
from .sheets import routes as sheet_routes
from .sheets.live import Watchers
from .solo import analyses as analysis_routes
from .solo import puzzles as puzzle_routes
from .solo import routes as solo_routes
from .solo.analyses import Analyses
from .solo.uploads import Uploads
from .static import WebFiles
from .stats import routes as stats_routes
from .storage.accounts import AccountStore
from .storage.analyses import AnalysisStore
from .storage.challenges import ChallengeStore
from .storage.daily import DailyStore
from .storage.database import Database, DatabaseGone
from .storage.games import GameStore
from .storage.puzzles import PuzzleStore
from .storage.quick import QuickStore
from .storage.sheets import SheetStore
from .storage.tables import TableStore
from .storage.tourneys import TourneyStore
from .tables import routes as table_routes
from .tables.registry import Tables
from .tourney import routes as tourney_routes
from .tourney.service import Tourneys

log = logging.getLogger("damepique.server")


def create_app(
    database_url: str | None = None,
    *,
    thinker: Thinker | None = None,
    pace: Pace | None = None,
    settings: Settings | None = None,
    broker_url: str | None = None,
    process_id: str | None = None,
) -> App:
    """The ASGI app. ``database_url`` defaults to the per-user SQLite file;
    ``broker_url`` (default ``$DAMEPIQUE_BROKER``, else ``memory://``) connects
    this process to the others that share the database (``cluster``)."""
    settings = settings or Settings()
    # The app's one clock goes with the database to every store and to the node.
    db = Database(make_url(database_url), settings.clock)  # a path or any URL (postgresql://...)
    games = GameStore(db)
    thinker = thinker or Thinker()
    node = Node(db, broker_url or os.environ.get("DAMEPIQUE_BROKER"), process_id)
    accounts = Accounts(AccountStore(db))
    tables = Tables(
        games=games,
        store=TableStore(db),
        accounts=accounts.store,
        hub=Hub(),
        thinker=thinker,
        pace=pace or Pace(),
        settings=settings,
        node=node,
    )
    watchers = Watchers(node)
    quick = QuickMatch(node, settings.clock, table_seater(tables), QuickStore(db))
    daily = Daily(DailyStore(db), tables, accounts.store)
    tourneys = Tourneys(TourneyStore(db), tables, games)
    uploads = Uploads(clock=settings.clock)
    analyses = Analyses(AnalysisStore(db), tables)
    puzzle_store = PuzzleStore(db)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await db.open()
        await accounts.start()
        await tourneys.start()  # before the tables are taken over: which tournaments are over
        await node.start()  # its first round takes over the tables nobody runs (all of them, alone)
        quick.start()
        try:
            yield
        finally:
            await quick.stop()
            await tables.close()
            daily.close()
            await node.stop()
            thinker.close()
            accounts.close()
            uploads.close()
            analyses.close()
            await db.close()

    app = App(title="damepique", lifespan=lifespan, docs_url=None, redoc_url=None)

    @app.exception_handler(Refusal)
    async def refusal(_: Request, e: Refusal) -> JSONResponse:
        # The one answer to a refusal raised anywhere in an HTTP route: its status, its body.
        return refused(e)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input, which may not be JSON (NaN, Infinity): say where instead.
        fields = [{"loc": list(err.get("loc", ())), "msg": str(err.get("msg", ""))} for err in e.errors()]
        where = " ".join(str(p) for p in fields[0]["loc"] if p != "body") if fields else ""
        reason = (
            f"the body is not as expected: {where}: {fields[0]['msg']}"
            if fields
            else "the body is not as expected"
        )
        return refused(Refusal("bad_body", reason, params={"fields": fields}))

    @app.exception_handler(DatabaseGone)
    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(sqlite3.Error)
    async def storage_failed(_: Request, e: Exception) -> JSONResponse:
        # The database's own message may name its file or host: the log has it, the answer does not.
        log.error("a request failed on the database: %s: %s", type(e).__name__, e)
        return refused(Refusal("storage_failed", "the database does not take writes; try again later"))

    @app.exception_handler(RecursionError)
    async def too_deep(_: Request, e: RecursionError) -> JSONResponse:
        return refused(Refusal("bad_json", "the body is nested too deeply"))

    app.state.db = db
    app.state.settings = settings
    app.state.tables = tables
    app.state.node = node
    app.state.accounts = accounts
    app.state.quick = quick
    app.state.analyses = analyses
    app.state.daily = daily
    app.state.tourneys = tourneys

    web = WebFiles()

    def words(request: Request) -> str:
        # The words a page will load (i18n.js: the saved choice, else the
        # browser's language), guessed from the header the browser sent.
        lang = "fr" if request.headers.get("accept-language", "").lower().startswith("fr") else "en"
        return f"strings/{lang}.js"

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> HTMLResponse:
        return web.page("index.html", modules=[words(request)], fetches=["/api/options"])

    @app.get("/scorer/", include_in_schema=False)
    async def scorer(request: Request) -> HTMLResponse:
        return web.page("scorer/index.html", modules=[words(request)])

    web.mount(app)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        # Unhealthy when the database no longer takes writes (its last one failed,
        # or its file was deleted): a load balancer stops sending players here.
        # Public: it says what is wrong in words, never where the database lives.
        failure = db.health()
        body = {"ok": failure is None, "protocol": VERSION, "process": node.name}
        if failure is not None:
            body |= {"code": "storage_failed", "database": failure}
        return JSONResponse(body, status_code=200 if failure is None else 503)

    @app.get("/api/options")
    async def options() -> Json:
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
                "hearts_broken_by": list(HEARTS_BROKEN_BY),
                "first_trick_discard": list(FIRST_TRICK_DISCARDS),
                "tie": list(TIE_RULES),
            },
            "levels": list(LEVELS),
            "personalities": list(PERSONALITIES),
            "bots": {name: BOT_INFO[name] for name in CHOICES if name in BOT_INFO},
            "levels_available": {lv: resolve_level(lv) for lv in CHOICES},
            "speeds": list(SPEEDS),
        }

    solo_routes.install(app, tables, games, uploads)
    analysis_routes.install(app, tables, games, analyses)
    puzzle_routes.install(app, puzzle_store, accounts, settings.clock)
    table_routes.install(app, tables, accounts)
    quick_routes.install(app, quick, tables, accounts)
    challenges = Challenges(ChallengeStore(db), tables, accounts.store, node.broker, settings.clock)
    challenge_routes.install(app, challenges, accounts)
    stats_routes.install(app, tables.stats, accounts, settings.clock, puzzle_store)
    account_routes.install(app, accounts)
    sheet_routes.install(app, SheetStore(db), watchers)
    testing.install(app, tables, settings)
    daily_routes.install(app, daily, accounts)
    tourney_routes.install(app, tourneys, accounts)
    return app


__all__ = ["create_app"]
