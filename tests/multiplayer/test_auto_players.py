"""``players: "auto"`` at a table with others (issue 17): the table starts with
as many seats as people sit at it when its host starts (3 to 5; bots fill up
to 3), the people first in the order they sat, their seat tokens following
them, and the rules of that count from then on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app

from .mp_helpers import Player, create_table, hello, recv, recv_type, sit


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(str(tmp_path / "auto.sqlite3"))
    app.state.settings.chat_interval = 0.0
    with TestClient(app) as c:
        yield c


def started(ws: Any) -> dict[str, Any]:
    """The first state of the game, once the start went out."""
    while True:
        msg = recv(ws)
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["type"] == "state":
            return msg


def test_the_table_starts_with_as_many_seats_as_people_sat_down(client: TestClient) -> None:
    t = create_table(client, preset="standard", rules={"players": "auto"})
    listed = client.get(f"/api/tables/{t['code']}").json()
    assert listed["rules"]["players"] == "auto" and len(listed["seats"]) == 5
    with (
        client.websocket_connect("/ws") as a,
        client.websocket_connect("/ws") as b,
        client.websocket_connect("/ws") as c,
        client.websocket_connect("/ws") as d,
    ):
        hello(a, t["code"], t["token"])
        tokens = {}
        for ws, name in ((b, "Bea"), (c, "Cy"), (d, "Dom")):
            hello(ws, t["code"])
            tokens[name] = sit(ws, name)["token"]
        # Cy leaves: three people remain, in seats 0, 1 and 3.
        c.send_text(json.dumps({"type": "leave"}))
        recv_type(c, "notice")
        a.send_text(json.dumps({"type": "start"}))
        states = [started(ws) for ws in (a, b, d)]
        assert [s["seat"] for s in states] == [0, 1, 2]  # Dom moved from seat 3 to seat 2
        state = states[2]
        assert state["rules"]["players"] == 3 and len(state["seats"]) == 3
        assert [s["name"] for s in state["seats"]] == ["Host", "Bea", "Dom"]
        # Three players: a card fewer each of 51 (the two of diamonds put aside by the standard rules).
        assert all(len(s["view"]["hand"]) == 17 for s in states)
        # Dom's seat token followed him to his new seat; Cy's, who left, is no more.
        with client.websocket_connect("/ws") as d2:
            assert hello(d2, t["code"], tokens["Dom"])["you"] == 2
    assert client.get(f"/api/tables/{t['code']}").json()["rules"]["players"] == 3


def test_two_people_and_bots_fill_up_to_three(client: TestClient) -> None:
    t = create_table(client, preset="short", rules={"players": "auto"}, public=True)
    assert client.get("/api/lobby").json()["tables"][0]["players"] == "auto"
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        bea = sit(b, "Bea")
        a.send_text(json.dumps({"type": "start"}))
        first = started(a)
        assert first["rules"]["players"] == 3
        kinds = [s["kind"] for s in first["seats"]]
        assert kinds == ["human", "human", "bot"]
        assert client.get("/api/lobby").json()["tables"][0]["players"] == 3
        # Bea comes back on another connection with her token: the same seat.
        with client.websocket_connect("/ws") as b2:
            assert hello(b2, t["code"], bea["token"])["you"] == 1
        players = [Player(a, seed=1, first=first), Player(b, seed=2)]
        for p in players:
            p.start()
        for p in players:
            p.join(60)
            assert p.final is not None and p.failure is None and p.errors == []


def test_auto_rules_must_hold_for_every_count(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": {"players": "auto", "pass_cycle": "across"}})
    assert (
        r.status_code == 400
        and r.json()["code"] == "bad_rules"
        and "players auto: with 3 players" in r.json()["reason"]
    )
    r = client.post("/api/games", json={"rules": {"players": "auto"}})
    assert r.status_code == 400 and r.json()["code"] == "bad_rules"  # a solo game has its count
