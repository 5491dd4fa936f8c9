"""The test hooks (``server/testing.py``): off unless asked for; on, a test
moves the app's ManualClock and has a game played forward to the position it
is about, its moves stored and sent like any others."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import PRESETS, Rules
from damepique.server.app import create_app
from damepique.server.clock import Clock, ManualClock
from damepique.server.play.game import Game, Seat
from damepique.server.settings import Settings
from damepique.server.testing import plan

from .helpers import new_game, recv_state


def _app(tmp_path: Path, clock: Clock | None = None) -> Any:
    return create_app(str(tmp_path / "h.sqlite3"), settings=Settings(clock=clock or Clock(), test_hooks=True))


def test_the_hooks_are_off_unless_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DAMEPIQUE_TEST_HOOKS", raising=False)
    with TestClient(create_app(str(tmp_path / "off.sqlite3"))) as client:
        game = new_game(client)
        assert client.post("/api/test/clock", json={"advance": 1}).status_code in (404, 405)
        r = client.post(f"/api/test/tables/{game['code']}/forward", json={"until": "last_trick"})
        assert r.status_code in (404, 405)


def test_the_environment_turns_them_on_with_a_manual_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAMEPIQUE_TEST_HOOKS", "1")
    monkeypatch.setenv("DAMEPIQUE_CLOCK", "manual")
    settings = Settings()
    assert settings.test_hooks and isinstance(settings.clock, ManualClock)
    monkeypatch.delenv("DAMEPIQUE_CLOCK")
    assert type(Settings().clock) is Clock


def test_the_clock_moves_when_told(tmp_path: Path) -> None:
    clock = ManualClock(start=1000.0)
    with TestClient(_app(tmp_path, clock)) as client:
        r = client.post("/api/test/clock", json={"advance": 15})
        assert r.status_code == 200 and r.json()["time"] == 1015.0
        for bad in ({"advance": -1}, {"advance": "soon"}, {}, {"advance": True}):
            r = client.post("/api/test/clock", json=bad)
            assert r.status_code == 400 and r.json()["code"] == "bad_request", bad
        assert clock.time() == 1015.0  # refused: nothing moved


def test_a_real_clock_is_not_moved(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        r = client.post("/api/test/clock", json={"advance": 1})
        assert r.status_code == 400 and "real time" in r.json()["reason"]


def test_forward_to_the_last_trick_of_the_deal(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        game = new_game(client, preset="short")
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
            assert recv_state(ws)["view"]["phase"] == "pass"
            r = client.post(f"/api/test/tables/{game['code']}/forward", json={"until": "last_trick"})
            assert r.status_code == 200, r.text
            state = recv_state(ws)
            while len(state["view"]["hand"]) != 1:
                state = recv_state(ws)
        view = state["view"]
        assert view["deal"] == 0 and view["phase"] == "play" and len(view["tricks"]) == 12
        assert r.json()["deal"] == 0
        # Stored like any move: the game loaded again is at the same place.
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
            again = recv_state(ws)
        assert again["view"]["hand"] == view["hand"] and len(again["view"]["tricks"]) == 12


def test_forward_to_the_end_of_the_game_leaves_the_forced_last_trick(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        game = new_game(client, preset="short")
        r = client.post(f"/api/test/tables/{game['code']}/forward", json={"until": "game_end"})
        assert r.status_code == 200, r.text
        g = client.app.state.tables.tables[game["code"]].runner.game
        # The last trick (the bots may have played theirs since, up to the person's turn).
        assert not g.over and bin(g.deal.hands[0]).count("1") == 1
        assert all(bin(h).count("1") <= 1 for h in g.deal.hands)
        assert r.json()["deal"] == g.deal.number >= 1
        # Each seat's one card: the game is over after them, whoever plays them.
        copy = Game.replay(g.rules, g.seats, g.secret, g.log)
        while copy.waiting_on():
            seat = copy.waiting_on()[0]
            copy.play(seat, copy.view(seat).legal_cards()[0])
        assert copy.over
        r = client.post(f"/api/test/tables/{game['code']}/forward", json={"until": "nowhere"})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"
        r = client.post("/api/test/tables/ZZZZZZ/forward", json={"until": "claim"})
        assert r.status_code == 404


@pytest.mark.parametrize(("goal", "tricks"), [("claim", "all"), ("claim_none", "none")])
def test_forward_to_a_claim_stops_where_a_person_may_claim(goal: str, tricks: str) -> None:
    seats = [Seat("human", "You")] + [Seat("bot", "B", "random")] * 3
    for n in range(3):
        g = Game(PRESETS["short"], seats, secret=bytes([n]) * 32)
        g.deal_next()
        moves = plan(g, goal)
        assert moves is not None
        copy = Game.replay(g.rules, g.seats, g.secret, g.log + moves)
        deal = copy.deal
        assert deal is not None and deal.to_act == 0
        claim = copy.view(0).claim_plan()
        assert bin(deal.hands[0]).count("1") >= 2 and claim is not None and claim.tricks == tricks
        assert len(g.log) == 1  # the game itself did not move
        copy.claim(0)
        assert not copy.over


def test_forward_to_a_claim_passes_over_a_claim_that_ends_the_game() -> None:
    # At 26 points the first claim these cards reach ends the game for two of
    # the three (secrets 0 and 2): the page would show the game over, not the
    # deal's summary its test expects. The goal is the next claim instead.
    seats = [Seat("human", "You")] + [Seat("bot", "B", "random")] * 3
    for n in range(3):
        g = Game(dataclasses.replace(PRESETS["short"], target=26), seats, secret=bytes([n]) * 32)
        g.deal_next()
        moves = plan(g, "claim")
        assert moves is not None
        copy = Game.replay(g.rules, g.seats, g.secret, g.log + moves)
        copy.claim(0)
        assert not copy.over


def test_no_claim_for_bots_alone() -> None:
    seats = [Seat("bot", "B", "random")] * 4
    g = Game(Rules(target=1), seats, secret=bytes(32))
    g.deal_next()
    assert plan(g, "claim") is None
