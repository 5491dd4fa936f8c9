"""Solo games: creation, history, records and replays (``docs/protocol.md``).

A solo game is a private table of one person and bots (``Tables.create_solo``);
it is then played over the one WebSocket like any table.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from damepique.engine import Rules, View
from damepique.engine.fairness import fairness_json
from damepique.engine.match import winners_of as match_winners
from damepique.engine.record import replay as replay_record

from ..errors import Refusal
from ..http import address_key, browser_id, client_host, json_body, rules_from_body
from ..play.pace import SPEEDS
from ..play.thinking import CHOICES
from ..protocol import Json
from ..storage.games import GameRow, GameStore
from ..tables.registry import Tables
from ..tables.seats import TableSeat, clean_name
from .analyses import seats_proved
from .played_deals import check_shown, deal_data, played_until
from .replays import position_at, replay_data
from .uploads import Uploads

MAX_BODY = 65_536
"""Bytes of a new game's JSON body (its options fit in a few hundred)."""
MAX_RECORD = 2_000_000
"""Bytes of an uploaded record."""

BOT_NAMES = {
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "North-West", "North-East", "East"),
}
"""Bots sit clockwise from the person (seat 0, south); the page translates these names."""


def solo_seats(players: int, name: object, level: str, player: str | None) -> list[TableSeat]:
    seats = [TableSeat("human", clean_name(name, "You"), player=player)]
    return seats + [TableSeat("bot", n, level) for n in BOT_NAMES[players]]


def winners_of(g: GameRow) -> list[int]:
    """The seats that won a finished game (several when they shared the win)."""
    if g.totals is None:
        return []
    rules = Rules.from_json(g.rules)
    return list(match_winners(g.totals, rules.target, rules.tie))


def shown_record(g: GameRow, now: float) -> Json:
    """A finished game's record as anyone may have it: ``Refusal("withheld")``
    while its cards must stay hidden (a daily deal's, until the day is over:
    others still play the same cards), then with its secret revealed."""
    assert g.record is not None
    until = g.options.get("withheld_until")
    if until is None:
        return g.record
    if now < float(until):
        tourney = g.options.get("tourney")
        if tourney is not None:
            # Never shown alone: other tables play the same cards (results.py shows each deal once all have).
            raise Refusal(
                "withheld",
                "a tournament's game: the tournament's results page shows its deals,"
                " each once every table has played it",
                params={"tourney": str(tourney)},
            )
        raise Refusal("withheld", "this game's cards are shown once the day is over")
    return g.record | {"fairness": fairness_json(g.secret_bytes, revealed=True)}


def _replay(record: Json) -> Json:
    """A stored game's replay page data (run in a thread: it replays every card)."""
    return replay_data(replay_record(record), record.get("players"))


def _position(record: Json, deal: int, play: int) -> tuple[View, int] | None:
    """The view of the seat to play card ``play`` of deal ``deal`` of a stored
    game, and that seat; None when the game has no such card (run in a thread)."""
    return position_at(replay_record(record), deal, play)


def install(app: FastAPI, tables: Tables, games: GameStore, uploads: Uploads) -> None:
    def clock_time() -> float:
        return tables.settings.clock.time()

    @app.post("/api/games")
    async def create_game(request: Request) -> JSONResponse:
        body = await json_body(request, MAX_BODY)
        rules = rules_from_body(body)
        level = str(body.get("level", "intermediate"))
        speed = str(body.get("speed", "normal"))
        if level not in CHOICES and level != "random":
            raise Refusal("bad_level", f"level must be one of {', '.join(CHOICES)}")
        if speed not in SPEEDS:
            raise Refusal("bad_speed", "speed must be normal or fast")
        seats = solo_seats(rules.players, body.get("name"), level, browser_id(request, body))
        tables.refuse_creation(client_host(request))
        table, token = await tables.create_solo(rules, level, speed, seats)
        return JSONResponse({"game": table.game_id, "code": table.code, "token": token, "seat": 0})

    @app.get("/api/history")
    async def history(request: Request) -> Json:
        owner = browser_id(request, {})
        rows = await games.games_of(owner) if owner else []
        return {
            "games": [
                {
                    "game": g.id,
                    "finished": g.finished,
                    "created": g.created,
                    "players": [s["name"] for s in g.seats],
                    "totals": g.totals,
                    "winner": g.winner,
                    "winners": winners_of(g),
                    "rules": g.rules,
                    "level": g.options.get("level"),
                    "hints": g.options.get("hints"),
                }
                for g in rows
            ]
        }

    async def finished(game_id: str) -> Json:
        """The record of a finished game as it may be shown now; ``not_found`` else."""
        g = await games.get_game(game_id)
        if g is None or g.record is None:
            raise Refusal("not_found", "no finished game with this id")
        return shown_record(g, clock_time())

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        shown = await finished(game_id)
        return Response(
            json.dumps(shown, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="damepique-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/replay")
    async def replay_game(game_id: str) -> JSONResponse:
        shown = await finished(game_id)
        # Off the event loop: a long game's replay would hold up every table.
        data = await asyncio.to_thread(_replay, shown)
        return JSONResponse(data | {"game": game_id})

    @app.get("/api/games/{game_id}/advice")
    async def replay_advice(game_id: str, deal: int = 0, play: int = 0) -> JSONResponse:
        """The expert's view of a finished game at one card: the advice for the
        seat to play card ``play`` of deal ``deal`` (what a replay page shows)."""
        shown = await finished(game_id)
        found = await asyncio.to_thread(_position, shown, deal, play)  # off the loop, as a replay
        if found is None:
            raise Refusal("bad_deal", "no such card in this game")
        view, seat = found
        options = await tables.thinker.advise(view)
        return JSONResponse({"game": game_id, "deal": deal, "play": play, "seat": seat, "options": options})

    async def played_deal(request: Request, game_id: str) -> tuple[GameRow, list[Json]]:
        """A game whose finished deals the request may replay now: one it
        proves it played (``seats_proved``), over or not, of a kind that shows
        them before its end (``played_deals``)."""
        loaded = await games.load_game(game_id)
        if loaded is None:
            raise Refusal("not_found", "no game with this id")
        row, events = loaded
        if not await seats_proved(request, row, tables, {}):
            raise Refusal("not_your_seat", "a deal is replayed before the game's end by its player only")
        check_shown(row)
        return row, events

    @app.get("/api/games/{game_id}/deals/{deal}/replay")
    async def replay_played_deal(request: Request, game_id: str, deal: int) -> JSONResponse:
        """A finished deal of a solo game, still being played or not, for its player."""
        row, events = await played_deal(request, game_id)
        data = await asyncio.to_thread(deal_data, row, events, deal)  # off the loop, as a replay
        return JSONResponse(data | {"game": game_id, "deal": deal})

    @app.get("/api/games/{game_id}/deals/{deal}/advice")
    async def played_deal_advice(request: Request, game_id: str, deal: int, play: int = 0) -> JSONResponse:
        """The expert's view at card ``play`` of such a deal (``/advice`` of a finished game)."""
        row, events = await played_deal(request, game_id)
        match = await asyncio.to_thread(played_until, row, events, deal)
        found = position_at(match, deal, play)
        if found is None:
            raise Refusal("bad_deal", "no such card in this deal")
        view, seat = found
        options = await tables.thinker.advise(view)
        return JSONResponse({"game": game_id, "deal": deal, "play": play, "seat": seat, "options": options})

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_RECORD:
            raise Refusal("too_large", "a record larger than 2 MB")
        status, body = await uploads.replay(raw, address_key(client_host(request)))
        return Response(body, status_code=status, media_type="application/json")


__all__ = ["BOT_NAMES", "install", "solo_seats"]
