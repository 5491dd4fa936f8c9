"""The score keeper's JSON API, its live updates and pages (``docs/scorer.md``).

- ``/api/sheets...``: create a sheet, enter, edit and delete deals, undo,
  export CSV and JSON. A sheet has two ids: ``id``, which lets its holder
  change it, and ``read_id``, for the read-only shared link.
- ``/api/sheets/shared/{read_id}/live``: a WebSocket that sends the sheet on
  connect and again after every change, made at any process.
- ``/scorer/``: the pages (static files from ``web/scorer``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from damepique.scorer import (
    Entry,
    ScoreError,
    Sheet,
    SheetRules,
    entry_from_json,
    to_csv,
    to_export_json,
)
from damepique.wire import sheet_message

from ..errors import Refusal
from ..http import refused
from ..protocol import Json, dumps, error
from ..storage.sheets import SheetStore, StoredSheet
from .live import Watchers

PAGES = Path(__file__).resolve().parent.parent.parent / "web" / "scorer"
PREFIX = "/api/sheets"
PAGE_PREFIX = "/scorer"


def view(stored: StoredSheet, editor: bool) -> Json:
    """The sheet as the API sends it; only an editor gets the id that changes it."""
    out: Json = {"id": stored.id if editor else None, "read_id": stored.read_id}
    out |= stored.sheet.view()
    if not editor:
        out["can_undo"] = False
    out |= {
        "editable": editor,
        "version": stored.version,
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        "links": _links(stored, editor),
    }
    return out


def _links(s: StoredSheet, editor: bool) -> dict[str, str]:
    base = f"{PREFIX}/{s.id}" if editor else f"{PREFIX}/shared/{s.read_id}"
    links = {
        "share": f"{PAGE_PREFIX}/?view={s.read_id}",
        "api": base,
        "csv": f"{base}/export.csv",
        "json": f"{base}/export.json",
        "live": f"{PREFIX}/shared/{s.read_id}/live",
    }
    if editor:
        links["edit"] = f"{PAGE_PREFIX}/?id={s.id}"
    return links


# -- the API's shapes ---------------------------------------------------------------------------


class RulesIn(BaseModel):
    """The sheet's rules; every key may be left out for its default."""

    model_config = ConfigDict(extra="forbid")

    target: StrictInt = Field(100, description="The game ends after a deal that takes someone here")
    moon: Literal["others", "self", "off"] = Field(
        "others", description="others: +26 to each other player; self: -26 for the shooter"
    )
    jack_of_diamonds: StrictBool = Field(False, description="The J♦ takes 10 points off")
    queen_points: StrictInt | None = Field(
        None, description="The Q♠: 13 or 12 with 52 cards, 5 with 36; left out, the deck's usual"
    )
    black_maria: StrictBool = Field(False, description="K♠ 10 and A♠ 7 score too")
    deck: StrictInt = Field(52, description="52, or 36 (6 to ace: the Q♠ 5, each heart 1, the last trick 1)")
    tie: Literal["play_on", "share"] = Field(
        "play_on", description="A tie for the lowest total at the end: another deal, or a shared win"
    )


class SheetIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: list[str] = Field(
        ...,
        max_length=64,
        description="3 to 6 names, in seating order",
        examples=[["Ann", "Bob", "Cy", "Dee"]],
    )
    rules: RulesIn | None = Field(None, description="Left out: target 100, moon +26 to the others")


class EntryIn(BaseModel):
    """A deal: each player's points in order, or who shot the moon (a position from 0 or a name)."""

    model_config = ConfigDict(extra="forbid")

    points: list[StrictInt] | None = Field(None, max_length=64, examples=[[5, 8, 13, 0]])
    moon: StrictInt | str | None = Field(None, description="The player who shot the moon")
    jack: StrictInt | str | None = Field(
        None, description="With the J♦: who took it (the shooter if left out)"
    )
    ordinary: StrictBool | None = Field(
        None,
        description="The points are an ordinary deal, not a moon with the J♦ (after an ambiguous refusal)",
    )


class DealOut(BaseModel):
    number: int
    pass_: str = Field(alias="pass")
    entry: Json
    points: list[int]
    moon: int | None
    jack: int | None
    totals: list[int]


class NextDealOut(BaseModel):
    number: int
    pass_: str = Field(alias="pass")


class StatusOut(BaseModel):
    """Where the game stands: the page says it from ``code`` and ``params`` (``scm_CODE``)."""

    code: Literal["playing", "winner", "shared", "tie"]
    params: Json


class SheetOut(BaseModel):
    """A sheet with its totals and outcome. ``id`` is null on the shared, read-only view."""

    id: str | None
    read_id: str
    players: list[str]
    rules: RulesIn
    deal_total: int
    moon_points: int
    deals: list[DealOut]
    totals: list[int]
    leaders: list[int]
    leader: int | None = Field(description="The seat with the single lowest total, or null when tied")
    next_deal: NextDealOut | None = Field(description="null once the game is over")
    over: bool
    winner: int | None
    winners: list[int] = Field(description="Once over: the winner, or the players sharing the win")
    tied: list[int]
    status: StatusOut
    can_undo: bool
    editable: bool
    version: int
    created_at: str
    updated_at: str
    links: dict[str, str]


class RefusalOut(BaseModel):
    """A refusal, in the one shape of every refusal over HTTP (``docs/protocol.md``)."""

    error: str = Field(description="The code again (the field programs read first)")
    code: str = Field(description="What was refused, e.g. sum_short: the page has words for it")
    reason: str = Field(description="The same in English, for programs and logs")
    params: Json = Field(description="What the page's words need (numbers, names); maybe empty")
    kind: str | None = Field(None, description="The code's family: bad_sheet, bad_entry, ambiguous, ...")
    player: int | None = Field(None, description="The player (0 is the first column) it concerns")


_ERRORS: dict[int | str, Json] = {
    404: {"model": RefusalOut, "description": "No such sheet or deal"},
    409: {"model": RefusalOut, "description": "The game is over, or nothing to undo"},
    422: {
        "model": RefusalOut,
        "description": "A refused sheet or entry, or a body of the wrong shape (bad_body, params.fields)",
    },
}


def _refusal(err: ScoreError) -> Refusal:
    """The score keeper's error as a refusal (its words are the page's: no sentence here)."""
    return Refusal(err.code, err.reason, params=dict(err.params), kind=err.kind, player=err.player)


def _entry(sheet: Sheet, body: EntryIn) -> Entry:
    return entry_from_json(body.model_dump(), sheet.names)


def _export(stored: StoredSheet, fmt: str) -> Response:
    stamp = stored.created_at[:10]
    if fmt == "csv":
        return Response(
            to_csv(stored.sheet),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="damepique-sheet-{stamp}.csv"'},
        )
    data = to_export_json(stored.sheet, created_at=stored.created_at, updated_at=stored.updated_at)
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="damepique-sheet-{stamp}.json"'},
    )


SheetId = Annotated[str, PathParam(max_length=40, description="The sheet's id (the one that edits it)")]
ReadId = Annotated[str, PathParam(max_length=40, description="The sheet's read-only id")]
DealNumber = Annotated[int, PathParam(description="The deal's number, the first is 1")]


def make_router(store: SheetStore, watchers: Watchers) -> APIRouter:
    """The ``/api/sheets`` routes on ``store``; ``watchers`` hear of every change."""
    router = APIRouter(prefix=PREFIX, tags=["score keeper"], responses=_ERRORS)

    async def change(sheet_id: str, apply: Callable[[Sheet], object]) -> StoredSheet:
        """Change a sheet, then tell its live readers (at every process)."""
        stored = await store.change(sheet_id, apply)
        message = sheet_message(view(stored, editor=False))
        await watchers.changed(stored.read_id, json.dumps(message, ensure_ascii=False))
        return stored

    # The shared routes come first: "shared" is never a sheet id.

    @router.get("/shared/{read_id}", response_model=SheetOut, summary="A sheet, read-only")
    async def get_shared(read_id: ReadId) -> Json | Response:
        return view(await store.get(read_id, shared=True), editor=False)

    @router.get("/shared/{read_id}/export.{fmt}", summary="Export a shared sheet as CSV or JSON")
    async def export_shared(read_id: ReadId, fmt: Literal["csv", "json"]) -> Response:
        return _export(await store.get(read_id, shared=True), fmt)

    @router.websocket("/shared/{read_id}/live")
    async def live(ws: WebSocket, read_id: str) -> None:
        """Send the sheet now, then after each change, until the reader goes."""
        await ws.accept()
        try:
            stored = await store.get(read_id, shared=True)
        except ScoreError as e:
            # The protocol's one error message, as on a table's socket (docs/protocol.md).
            await ws.send_text(dumps(error(_refusal(e))))
            await ws.close(code=4404)
            return
        queue = watchers.watch(read_id)
        first = sheet_message(view(stored, editor=False))

        async def forward() -> None:
            while True:
                await ws.send_text(await queue.get())

        sender = asyncio.create_task(forward())
        try:
            await ws.send_text(json.dumps(first, ensure_ascii=False))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
            watchers.unwatch(read_id, queue)

    @router.post(
        "", response_model=SheetOut, status_code=201, summary="Start a sheet: 3 to 6 players and the rules"
    )
    async def create_sheet(body: SheetIn) -> Json | Response:
        sheet = Sheet(body.players, SheetRules.from_json(body.rules.model_dump() if body.rules else None))
        stored = await store.create(sheet)
        return JSONResponse(view(stored, editor=True), status_code=201)

    @router.get("/{sheet_id}", response_model=SheetOut, summary="A sheet, with its totals and outcome")
    async def get_sheet(sheet_id: SheetId) -> Json | Response:
        return view(await store.get(sheet_id), editor=True)

    @router.post(
        "/{sheet_id}/deals",
        response_model=SheetOut,
        status_code=201,
        summary="Enter the next deal: each player's points, or who shot the moon",
    )
    async def add_deal(sheet_id: SheetId, body: EntryIn) -> Json | Response:
        stored = await change(sheet_id, lambda sheet: sheet.add(_entry(sheet, body)))
        return JSONResponse(view(stored, editor=True), status_code=201)

    @router.put("/{sheet_id}/deals/{number}", response_model=SheetOut, summary="Correct a past deal")
    async def edit_deal(sheet_id: SheetId, number: DealNumber, body: EntryIn) -> Json | Response:
        stored = await change(sheet_id, lambda sheet: sheet.edit(number, _entry(sheet, body)))
        return view(stored, editor=True)

    @router.delete("/{sheet_id}/deals/{number}", response_model=SheetOut, summary="Delete a past deal")
    async def delete_deal(sheet_id: SheetId, number: DealNumber) -> Json | Response:
        stored = await change(sheet_id, lambda sheet: sheet.delete(number))
        return view(stored, editor=True)

    @router.post("/{sheet_id}/undo", response_model=SheetOut, summary="Undo the last change")
    async def undo(sheet_id: SheetId) -> Json | Response:
        stored = await change(sheet_id, lambda sheet: sheet.undo())
        return view(stored, editor=True)

    @router.get("/{sheet_id}/export.{fmt}", summary="Export a sheet as CSV or JSON")
    async def export(sheet_id: SheetId, fmt: Literal["csv", "json"]) -> Response:
        return _export(await store.get(sheet_id), fmt)

    return router


def install(app: FastAPI, store: SheetStore, watchers: Watchers) -> None:
    """Add the score keeper's API and pages to ``app``."""
    app.include_router(make_router(store, watchers))

    @app.exception_handler(ScoreError)
    async def refusal(_: Request, e: ScoreError) -> JSONResponse:
        # Every route's refusal, in the app's one shape (docs/protocol.md#refusals-over-http).
        return refused(_refusal(e))

    app.mount(PAGE_PREFIX, StaticFiles(directory=PAGES, html=True), name="scorer")


__all__ = ["install", "make_router", "view"]
