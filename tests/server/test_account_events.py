"""Issue 29: an account's event stream hears of every game it sits in, not
only a challenge's: ``gameStart`` (table code, seat, seat token) when a game
at a table it joined starts, and ``gameFinish`` when it ends, each with an id
that is the same when it is told again (a restart between the results and the
table's save finishes the game again): a client drops an id it has seen."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.multiplayer.mp_helpers import recv_type

from damepique.server.accounts.nicknames import nickname_key
from damepique.server.app import create_app
from damepique.server.cluster.events import tell
from damepique.server.settings import Settings
from damepique.server.storage import schema
from damepique.server.storage.database import Database
from damepique.server.storage.stats import StatsStore
from damepique.server.tables import registry
from damepique.wire import game_start_event

from ..conftest import PASSWORD
from .helpers import play_out, recv_state


def told(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """What the tables tell accounts on their event streams, as it is published."""
    heard: list[tuple[str, dict[str, Any]]] = []

    async def record(broker: Any, account: str, event: Any) -> None:
        heard.append((account, json.loads(json.dumps(event))))
        await tell(broker, account, event)

    monkeypatch.setattr(registry, "tell", record)
    return heard


def test_a_table_joined_tells_game_start_and_finish_once_by_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard = told(monkeypatch)
    db = tmp_path / "events.sqlite3"
    app = create_app(str(db), settings=Settings(test_hooks=True))
    with TestClient(app) as client:
        r = client.post("/api/accounts", json={"nickname": "ada_events", "password": PASSWORD})
        assert r.status_code == 201, r.text
        table = client.post("/api/tables", json={"preset": "short", "speed": "fast", "fill": True})
        assert table.status_code == 201, table.text
        code, token = table.json()["code"], table.json()["token"]
        signed_in = dict(client.cookies)
        client.cookies.clear()  # the guest's socket: no account
        with client.websocket_connect("/ws") as guest:
            client.cookies.update(signed_in)
            with client.websocket_connect("/ws") as ws:
                ws.send_text(json.dumps({"type": "hello", "table": code, "token": token}))
                guest.send_text(json.dumps({"type": "hello", "table": code}))
                guest.send_text(json.dumps({"type": "sit", "name": "Gus"}))
                assert recv_type(guest, "seated")["seat"] == 1
                ws.send_text(json.dumps({"type": "start"}))
                recv_state(ws)  # the game has begun
                # A stream opening now hears of this game again, as it started (the same id).
                tables = app.state.tables
                again = client.portal.call(tables.playing, nickname_key("ada_events"))  # type: ignore[union-attr]
                told_then = [e for _, e in heard if e["type"] == "gameStart"]
                assert told_then and [game_start_event(g) for g in again] == told_then
                r = client.post(f"/api/test/tables/{code}/forward", json={"until": "game_end"})
                assert r.status_code == 200, r.text
                # The deal before the last (forward ends some) holds its summary until both people
                # read it (or 15 s): they do, then the guest leaves and a bot plays the guest's last card.
                for sock in (ws, guest):
                    sock.send_text(json.dumps({"type": "continue", "deal": r.json()["deal"] - 1}))
                guest.send_text(json.dumps({"type": "leave"}))
                state = recv_state(ws)
                while not state["over"] and (state["view"]["phase"], len(state["view"]["hand"])) != (
                    "play",
                    1,
                ):
                    state = recv_state(ws)
                end = play_out(ws, state, random.Random(3))
    assert end["over"]
    starts = [e for _, e in heard if e["type"] == "gameStart"]
    finishes = [e for _, e in heard if e["type"] == "gameFinish"]
    assert len({a for a, _ in heard}) == 1  # hers only: the bots have no account
    game = end["game"]
    assert starts == [
        {
            "type": "gameStart",
            "id": f"gameStart:{game}:0",
            "game": {"table": code, "seat": 0, "game": game, "token": token},
        }
    ]
    assert len(finishes) == 1 and finishes[0]["id"] == f"gameFinish:{game}:0"
    assert finishes[0]["game"]["totals"] == end["totals"]

    # The process died after the results and before the table said "over":
    # the next one finishes the game again, and tells it with the same id.
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM mp_tables WHERE code = ?", (code,)).fetchone()
        data = json.loads(data) | {"status": "playing"}
        conn.execute(
            "UPDATE mp_tables SET status = 'playing', data = ? WHERE code = ?", (json.dumps(data), code)
        )
    heard.clear()
    with TestClient(create_app(str(db))) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": code, "token": token}))
        assert recv_state(ws)["over"]
    again = [e for _, e in heard if e["type"] == "gameFinish"]
    assert [e["id"] for e in again] == [finishes[0]["id"]] and again[0]["game"] == finishes[0]["game"]
    assert not [e for _, e in heard if e["type"] == "gameStart"]  # a resumed game is not a new one


def test_a_signed_in_tournament_player_hears_each_tables_game_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person who joins a tournament signed in is seated with their account:
    its event stream tells the table, seat and seat token, as ``/me`` does;
    a guest who joins by name alone has no stream to be told on."""
    heard = told(monkeypatch)
    with TestClient(create_app(str(tmp_path / "tourney.sqlite3"))) as client:
        made = client.post(
            "/api/tournaments",
            json={"name": "Club", "rules": {"players": 3}, "deals": 1, "tables": 1, "speed": "fast"},
        ).json()
        guest = client.post(f"/api/tournaments/{made['code']}/players", json={"name": "Gus"})
        assert guest.status_code == 200, guest.text
        r = client.post("/api/accounts", json={"nickname": "bea_events", "password": PASSWORD})
        assert r.status_code == 201, r.text
        joined = client.post(f"/api/tournaments/{made['code']}/players", json={"name": "Bea"}).json()
        started = client.post(f"/api/tournaments/{made['code']}/start", json={"director": made["director"]})
        assert started.status_code == 200, started.text
        seat = client.post(f"/api/tournaments/{made['code']}/me", json={"player": joined["player"]}).json()[
            "seat"
        ]
        assert "account" not in str(client.get(f"/api/tournaments/{made['code']}").json())  # never shown
    starts = [(a, e) for a, e in heard if e["type"] == "gameStart"]
    assert len(starts) == 1, heard
    game = starts[0][1]["game"]
    assert {k: game[k] for k in ("table", "seat", "token")} == seat
    assert starts[0][1]["id"] == f"gameStart:{game['game']}:{seat['seat']}"


async def test_a_game_finished_again_writes_its_statistics_once_and_fails_no_write(tmp_path: Path) -> None:
    """Finished again after a restart, a game's part for each person is said
    again: nothing is written the second time, and no write fails (a failed
    one reads as a database that takes no writes, on ``/healthz``)."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'again.sqlite3'}")
    await db.open()
    try:
        stats = StatsStore(db)
        await stats.played("g1", {0: "a:ann", 2: "g:some-browser-1"}, finished=1.0)
        await stats.played("g1", {0: "a:ann", 2: "g:some-browser-1"}, finished=9.0)
        assert db.failure is None
        async with db.read() as conn:
            rows = (
                await conn.execute(select(schema.player_games.c.player, schema.player_games.c.finished))
            ).all()
        assert sorted(rows) == [("a:ann", 1.0), ("g:some-browser-1", 1.0)]
    finally:
        await db.close()
