"""Game analysis in the server (issue 26): a finished game's seat analysed in
the coach's worker with progress, kept and served again; never a game that is
not over, never a seat the asker did not play; uploaded records, any seat."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.bots.analysis import ANALYST, decisions
from damepique.engine.record import replay
from damepique.server.app import create_app
from damepique.server.solo.analyses import RUNNING, Job

from .helpers import my_turn, new_game, play_out, recv_state

PLAYER = "player-analysis-1"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'analysis.sqlite3'}")
    app.state.analyses.playouts = 12
    with TestClient(app) as c:
        yield c


def finish(client: TestClient, g: dict[str, Any], seed: int, stop: Any = None) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        return play_out(ws, recv_state(ws), random.Random(seed), stop=stop)


def wait_done(client: TestClient, key: str, seat: int) -> None:
    """Until the analysis running in the app's loop is over (its task awaited there)."""
    job = client.app.state.analyses.jobs.get((key, seat))  # type: ignore[attr-defined]
    if job is None or job.task is None:
        return

    async def done() -> None:
        await asyncio.wait_for(asyncio.shield(job.task), 300)

    client.portal.call(done)  # type: ignore[union-attr]


def test_a_finished_solo_game_is_analysed_for_its_player_with_progress_and_kept(client: TestClient) -> None:
    g = new_game(client, rules={"target": 1}, level="random", player=PLAYER)
    assert finish(client, g, 1)["over"]
    url = f"/api/games/{g['game']}/analysis"
    mine = {"X-Player": PLAYER}
    assert client.get(url, headers=mine).json()["status"] == "none"
    r = client.post(url, headers=mine, json={})
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["game"] == g["game"] and started["seat"] == 0
    assert started["status"] in ("running", "done") and started["total"] > 0
    record = json.loads(client.get(f"/api/games/{g['game']}/record").text)
    assert started["total"] == len(decisions(replay(record), 0))
    wait_done(client, g["game"], 0)
    answer = client.get(url, headers=mine, params={"seat": 0}).json()
    assert answer["status"] == "done" and answer["done"] == answer["total"] == started["total"]
    analysis = answer["analysis"]
    assert analysis["seat"] == 0 and 0 <= analysis["accuracy"] <= 100
    assert analysis["players"] == record["players"] and analysis["rules"] == record["rules"]
    assert sum(analysis["counts"].values()) == len(analysis["decisions"]) == started["total"]
    assert analysis["decisions"][0]["position"]["seat"] == 0
    # Kept: asked again, it is served at once, nothing runs.
    again = client.post(url, headers=mine, json={"seat": 0}).json()
    assert again["status"] == "done" and again["analysis"] == analysis
    assert not client.app.state.analyses.jobs  # type: ignore[attr-defined]
    # The seat's token proves the seat too.
    by_token = client.get(url, headers={"X-Seat-Token": g["token"]}).json()
    assert by_token["status"] == "done" and by_token["seat"] == 0


def test_an_analysis_an_earlier_analyst_made_is_made_again(client: TestClient) -> None:
    g = new_game(client, rules={"target": 1}, level="random", player=PLAYER)
    finish(client, g, 5)
    url = f"/api/games/{g['game']}/analysis"
    mine = {"X-Player": PLAYER}
    client.post(url, headers=mine, json={})
    wait_done(client, g["game"], 0)
    current = client.get(url, headers=mine).json()
    assert current["analysis"]["analyst"] == ANALYST and "outdated" not in current
    # The same game as an analysis kept from before ``analyst`` (none) and rated otherwise.
    analyses = client.app.state.analyses  # type: ignore[attr-defined]
    earlier = {k: v for k, v in current["analysis"].items() if k != "analyst"} | {"accuracy": 12.5}
    client.portal.call(analyses.store.put, g["game"], 0, 12, earlier)  # type: ignore[union-attr]
    # Asked without starting anything: served as it is, said to be outdated.
    kept = client.get(url, headers=mine).json()
    assert kept["status"] == "done" and kept["outdated"] is True and kept["analysis"] == earlier
    # No room for a new one: served as it is rather than refused; nothing started.
    analyses.jobs.update({(f"other-{k}", 0): Job(total=1) for k in range(RUNNING)})
    busy = client.post(url, headers=mine, json={})
    assert busy.status_code == 200 and busy.json()["outdated"] is True and busy.json()["analysis"] == earlier
    assert (g["game"], 0) not in analyses.jobs
    analyses.jobs.clear()
    # Room: made again; the page follows its progress, then gets the current analyst's.
    again = client.post(url, headers=mine, json={}).json()
    assert again["status"] == "running" and again["total"] == current["total"]
    assert client.get(url, headers=mine).json()["status"] in ("running", "done")
    wait_done(client, g["game"], 0)
    new = client.get(url, headers=mine).json()
    assert new["status"] == "done" and "outdated" not in new
    assert new["analysis"] == current["analysis"]  # the same seed and ratings: the same analysis
    assert client.post(url, headers=mine, json={}).json() == new  # kept: served at once
    assert not analyses.jobs


def test_nobody_analyses_a_seat_they_did_not_play(client: TestClient) -> None:
    g = new_game(client, rules={"target": 1}, level="random", player=PLAYER)
    finish(client, g, 2)
    url = f"/api/games/{g['game']}/analysis"
    for headers, body in (
        ({}, {}),
        ({"X-Player": "player-someone-else"}, {}),
        ({"X-Player": PLAYER}, {"seat": 1}),
    ):
        r = client.post(url, headers=headers, json=body)
        assert r.status_code == 403 and r.json()["code"] == "not_your_seat", r.text
    r = client.get(url, headers={"X-Seat-Token": "not-a-token-of-this-table"})
    assert r.status_code == 403
    assert client.post(url, headers={"X-Player": PLAYER}, json={"seat": 9}).json()["code"] == "bad_seat"
    assert client.post(url, headers={"X-Player": PLAYER}, json={"seat": "x"}).json()["code"] == "bad_seat"
    assert client.post("/api/games/nope/analysis", json={}).status_code == 404
    assert not client.app.state.analyses.jobs  # type: ignore[attr-defined]


def test_a_game_not_over_is_never_analysed(client: TestClient) -> None:
    g = new_game(client, rules={"target": 1}, level="random", player=PLAYER)
    state = finish(client, g, 3, stop=lambda s: my_turn(s) == "play" and len(s["view"]["hand"]) < 10)
    assert not state["over"]
    url = f"/api/games/{g['game']}/analysis"
    for headers in ({"X-Player": PLAYER}, {"X-Seat-Token": g["token"]}, {}):
        for r in (client.post(url, headers=headers, json={"seat": 0}), client.get(url, headers=headers)):
            assert r.status_code == 409 and r.json()["code"] == "not_finished", r.text
            assert "analysis" not in r.json()
    assert not client.app.state.analyses.jobs  # type: ignore[attr-defined]


def test_an_uploaded_record_is_analysed_for_any_seat(client: TestClient) -> None:
    g = new_game(client, rules={"target": 1}, level="random", player=PLAYER)
    finish(client, g, 4)
    record = json.loads(client.get(f"/api/games/{g['game']}/record").text)
    r = client.post("/api/analysis", json={"record": record, "seat": 2})
    assert r.status_code == 200, r.text
    key = r.json()["game"]
    assert key.startswith("u-") and r.json()["seat"] == 2
    wait_done(client, key, 2)
    answer = client.get(f"/api/analysis/{key}", params={"seat": 2}).json()
    assert answer["status"] == "done" and answer["analysis"]["seat"] == 2
    assert answer["total"] == len(decisions(replay(record), 2))
    bad = dict(record, deals=[{"hands": 3}])
    r = client.post("/api/analysis", json={"record": bad, "seat": 0})
    assert r.status_code == 400 and r.json()["code"] == "bad_record"
    r = client.post("/api/analysis", json={"record": record, "seat": 7})
    assert r.status_code == 400 and r.json()["code"] == "bad_seat"
    assert client.post("/api/analysis", json={"seat": 0}).json()["code"] == "bad_record"
    assert client.get("/api/analysis/u-nothing", params={"seat": 0}).json()["status"] == "none"
