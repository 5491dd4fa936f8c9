"""Training in the server (issue 19): advice with outcomes and what separates
each card from the best, hints once a trick and counted in the history (never
at a ranked table), the deal review's costliest choices, and the expert's
view of a finished game at any card."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app

from .helpers import my_turn, new_game, play_out, recv_state


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'training.sqlite3'}")) as c:
        yield c


def answer(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.receive_text())
        if msg["type"] in (kind, "error"):
            return msg


def test_advice_says_why_in_numbers(client: TestClient) -> None:
    g = new_game(client, rules={"passing": False}, level="random")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        state = recv_state(ws)
        state = play_out(
            ws, state, random.Random(1), stop=lambda s: my_turn(s) == "play" and len(s["view"]["legal"]) > 1
        )
        ws.send_text(json.dumps({"type": "advice", "id": "a"}))
        advice = answer(ws, "advice")
    assert advice["type"] == "advice" and advice["ref"] == "a"
    options = advice["options"]
    assert sorted(o["cards"][0] for o in options) == sorted(state["view"]["legal"])
    assert options[0]["best"] and options[0]["cost"] == 0 and "comparison" not in options[0]
    for o in options:
        assert set(o["outcomes"]) == {"queen", "hearts", "moon_by_self", "moon_by_other"}
        assert 0 <= o["outcomes"]["queen"] <= 1 and o["outcomes"]["hearts"] >= 0
        assert o["expected_points"] == pytest.approx(o["score"], abs=0.01)
        assert not o["mistake"] or o["cost"] >= 0.5  # a mistake costs at least half a point
    for o in options[1:]:
        assert o["comparison"]["cards"] == o["cards"] and o["comparison"]["other"] == options[0]["cards"]


def test_a_hint_once_a_trick_counted_in_the_history(client: TestClient) -> None:
    g = new_game(client, preset="short", level="random", player="player-0042")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        state = play_out(ws, recv_state(ws), random.Random(2), stop=lambda s: my_turn(s) == "play")
        ws.send_text(json.dumps({"type": "hint", "id": "h1"}))
        hint = answer(ws, "hint")
        assert hint["type"] == "hint" and hint["ref"] == "h1"
        assert hint["advice"]["best"] and hint["advice"]["cards"][0] in state["view"]["legal"]
        ws.send_text(json.dumps({"type": "hint", "id": "h2"}))  # the same trick: refused
        again = answer(ws, "hint")
        assert again["type"] == "error" and again["code"] == "hint_used" and again["ref"] == "h2"
        final = play_out(ws, state, random.Random(3))
    assert final["over"]
    history = client.get("/api/history", headers={"X-Player": "player-0042"}).json()["games"]
    assert history[0]["hints"] == [1, 0, 0, 0]


def test_no_hint_at_a_ranked_table(client: TestClient) -> None:
    for nick in ("Lea", "Tom"):
        assert (
            client.post("/api/accounts", json={"nickname": nick, "password": "correct horse"}).status_code
            == 201
        )
    cookie = client.cookies.get("damepique_session")
    t = client.post("/api/tables", json={"ranked": True, "name": "Tom"}).json()
    with client.websocket_connect("/ws", headers={"cookie": f"damepique_session={cookie}"}) as ws:
        ws.send_text(json.dumps({"type": "hello", "table": t["code"], "token": t["token"]}))
        ws.send_text(json.dumps({"type": "hint", "id": 1}))
        refused = answer(ws, "hint")
    assert refused["type"] == "error" and refused["code"] == "no_hints"


def test_the_review_lists_the_costliest_choices_with_their_position(client: TestClient) -> None:
    g = new_game(client, preset="short", level="random")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        play_out(ws, recv_state(ws), random.Random(4), stop=lambda s: len(s["results"]) >= 1)
        ws.send_text(json.dumps({"type": "review", "deal": 0, "id": "r"}))
        review = answer(ws, "review")
    assert review["type"] == "review" and review["deal"] == 0 and len(review["items"]) <= 3
    costs = [it["cost"] for it in review["items"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    for it in review["items"]:
        assert it["chosen"]["cards"] != it["best"]["cards"] and it["hand"]
        assert it["mistake"] == it["chosen"]["mistake"]
        if it["play"] is not None:
            assert it["chosen"]["cards"][0] in it["hand"]


def test_a_finished_game_shows_the_experts_view_at_any_card(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stored record is replayed off the event loop (issue 25), for the replay page and the advice.
    from damepique.server.solo import routes

    on_the_loop: list[bool] = []
    real = routes.replay_record

    def watched(record: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_the_loop.append(True)
        except RuntimeError:
            on_the_loop.append(False)
        return real(record)

    monkeypatch.setattr(routes, "replay_record", watched)
    g = new_game(client, preset="short", level="random")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        final = play_out(ws, recv_state(ws), random.Random(5))
    assert final["over"]
    record = client.get(f"/api/games/{g['game']}/record").json()
    r = client.get(f"/api/games/{g['game']}/advice", params={"deal": 1, "play": 5}).json()
    assert r["deal"] == 1 and r["play"] == 5
    played = record["deals"][1]["plays"][5]
    assert played in {o["cards"][0] for o in r["options"]}  # the card really played was legal there
    assert client.get(f"/api/games/{g['game']}/advice", params={"deal": 99}).status_code == 400
    assert client.get("/api/games/nope/advice").status_code == 404
    assert client.get(f"/api/games/{g['game']}/replay").json()["over"]
    assert len(on_the_loop) == 3 and not any(on_the_loop), on_the_loop
