"""A crash right after the last card (issue 20): the game's end was written
after its last event, so a process that died in between left a game with no
result, no record (404) and no place in its player's history, for ever.
Now the last events and the end are one transaction; and a game found over
but not finished when it is loaded is finished then."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.storage.games import GameStore

from .helpers import new_game, play_out, recv_state

PLAYER = "browser-of-the-crash"


class Crash(BaseException):
    """The process dies here: nothing in the server catches a BaseException."""


def play_until_the_end(client: TestClient, rng: random.Random) -> tuple[str, str]:
    game = new_game(client, preset="short", player=PLAYER)
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        with contextlib.suppress(Exception):  # the server "died" under us: its socket says no more
            play_out(ws, recv_state(ws), rng)
    return game["game"], game["token"]


def test_a_crash_right_after_the_last_card_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "crash.sqlite3"
    crashed: list[str] = []
    real = GameStore.append_many

    async def append_then_die(self: GameStore, game_id: str, first_seq: int, bodies: list[Any]) -> None:
        await real(self, game_id, first_seq, bodies)
        # Whatever call stores the events that end the game, the process dies once it returns.
        runners = [t.runner for t in app.state.tables.tables.values() if t.runner is not None]
        if any(r.id == game_id and r.game.over for r in runners):
            crashed.append(game_id)
            raise Crash

    monkeypatch.setattr(GameStore, "append_many", append_then_die)
    app = create_app(str(db))
    with TestClient(app) as client:
        game_id, _ = play_until_the_end(client, random.Random(4))
    monkeypatch.undo()
    # Whether or not the crash found a moment to strike, the game is over as stored.
    with sqlite3.connect(db) as conn:
        finished, record = conn.execute(
            "SELECT finished, record FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    assert finished is not None and json.loads(record)["deals"]

    # And a fresh process knows the game's end without its player coming back.
    with TestClient(create_app(str(db))) as client:
        assert client.get(f"/api/games/{game_id}/record").status_code == 200
        history = client.get("/api/history", headers={"X-Player": PLAYER}).json()
        assert game_id in [g["game"] for g in history["games"]]


def test_a_game_over_but_not_finished_is_finished_when_it_is_loaded(tmp_path: Path) -> None:
    """What a crash left in a database written before the end was one transaction."""
    db = tmp_path / "old.sqlite3"
    with TestClient(create_app(str(db))) as client:
        game = new_game(client, preset="short", player=PLAYER)
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
            end = play_out(ws, recv_state(ws), random.Random(8))
        assert end["over"]
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games SET finished = NULL, record = NULL, totals = NULL WHERE id = ?", (game["game"],)
        )
        for code, data in conn.execute("SELECT code, data FROM mp_tables").fetchall():
            data = json.loads(data) | {"status": "playing"}
            conn.execute(
                "UPDATE mp_tables SET status = 'playing', data = ? WHERE code = ?", (json.dumps(data), code)
            )
    with TestClient(create_app(str(db))) as client:
        assert client.get(f"/api/games/{game['game']}/record").status_code == 404
        with client.websocket_connect("/ws") as ws:  # the player comes back
            ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
            state = recv_state(ws)
            assert state["over"] and state["totals"] == end["totals"]
        record = client.get(f"/api/games/{game['game']}/record")
        assert record.status_code == 200 and record.json()["deals"]
        assert game["game"] in [
            g["game"] for g in client.get("/api/history", headers={"X-Player": PLAYER}).json()["games"]
        ]
