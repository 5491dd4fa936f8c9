"""What one address may leave behind (issue 20): tables and solo games it
creates are limited, and those nobody joins expire (a thousand of each took
the memory, and junk public tables filled the lobby, for ever)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.settings import Settings
from damepique.server.tables import registry

from ..clocks import move, wait
from .helpers import new_game, recv_state


def test_tables_and_games_one_address_creates_are_limited(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "c.sqlite3"))
    app.state.settings.creations = 3
    with TestClient(app) as client:
        new_game(client)
        new_game(client)
        assert client.post("/api/tables", json={"preset": "short", "name": "Lea"}).status_code == 201
        for path in ("/api/games", "/api/tables"):  # one allowance for both
            r = client.post(path, json={"preset": "short"})
            assert r.status_code == 429 and r.json()["code"] == "too_many_created", r.text
            assert 0 < int(r.headers["Retry-After"]) <= 200 and r.json()["params"]["seconds"] > 0
        # Nothing was made for the refused ones.
        assert len(app.state.tables.tables) == 3


def test_tables_and_games_nobody_joins_expire(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    clock = ManualClock()
    app = create_app(str(db), settings=Settings(clock=clock))
    tables = app.state.tables
    with TestClient(app) as client:
        junk = client.post("/api/tables", json={"preset": "short", "name": "Junk", "public": True}).json()
        lonely = new_game(client)  # made, never played
        played = new_game(client)
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": played["token"]}))
            recv_state(ws)
        assert [t["code"] for t in client.get("/api/lobby").json()["tables"]] == [junk["code"]]
        move(client, clock, app.state.settings.unjoined - registry.EXPIRY_CHECK_S)
        assert junk["code"] in tables.tables and lonely["code"] in tables.tables  # not yet

        async def gone() -> bool:
            return (
                junk["code"] not in tables.tables
                and await tables.store.load(lonely["code"]) is None
                and await tables.games.load_game(lonely["game"]) is None
            )

        move(client, clock, registry.EXPIRY_CHECK_S + 1)  # past the time: gone at the next look
        wait(client, gone, clock)
        assert client.get("/api/lobby").json()["tables"] == []
        assert client.get(f"/api/tables/{junk['code']}").status_code == 404
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": lonely["token"]}))
            assert json.loads(ws.receive_text())["code"] == "bad_token"
    with sqlite3.connect(db) as conn:
        games = {r[0] for r in conn.execute("SELECT id FROM games")}
        events = {r[0] for r in conn.execute("SELECT DISTINCT game_id FROM events")}
    assert lonely["game"] not in games and lonely["game"] not in events
    assert played["game"] in games  # joined once: kept, to be resumed whenever its player comes back
