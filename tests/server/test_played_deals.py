"""A finished deal of a solo game still being played may be replayed by its
own player (issue 25: the review's replay links came only once the game was
over): that deal alone, read from the events up to its end, never the deal
being played, a later one or the game's secret; refused to anybody else, and
for the games whose deals wait for their end (tables with others, the daily
deal)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app
from damepique.server.errors import Refusal
from damepique.server.solo.played_deals import check_shown
from damepique.server.storage.games import GameRow

from .helpers import my_turn, new_game, play_out, recv_state


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'played.sqlite3'}")) as c:
        yield c


def test_a_finished_deal_is_replayed_by_its_player_while_the_game_goes_on(client: TestClient) -> None:
    g = new_game(client, preset="short", level="random", player="player-0001")
    other = new_game(client, preset="short", level="random", player="player-0002")
    token = {"X-Seat-Token": g["token"]}
    deals = f"/api/games/{g['game']}/deals"
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
        state = play_out(
            ws,
            recv_state(ws),
            random.Random(7),
            stop=lambda s: len(s["results"]) == 1 and my_turn(s) is not None,
        )
        assert state["view"]["deal"] == 1  # deal 0 finished, deal 1 being played

        r = client.get(f"{deals}/0/replay", headers=token)
        assert r.status_code == 200, r.text
        live = r.json()
        assert set(live) == {"game", "deal", "players", "rules", "deals"} and live["deal"] == 0
        assert len(live["deals"]) == 1 and live["deals"][0]["number"] == 0 and live["deals"][0]["complete"]
        assert "secret" not in r.text and "fairness" not in r.text and "seed" not in r.text
        # The browser's own id proves the seat too (as for an analysis).
        assert client.get(f"{deals}/0/replay", headers={"X-Player": "player-0001"}).json() == live

        # The deal being played, and one not dealt yet: refused.
        for n in (1, 2):
            refused = client.get(f"{deals}/{n}/replay", headers=token)
            assert refused.status_code == 400 and refused.json()["code"] == "bad_deal"
            refused = client.get(f"{deals}/{n}/advice", params={"play": 0}, headers=token)
            assert refused.status_code == 400 and refused.json()["code"] == "bad_deal"
        # Another person (another game's token or browser, or nothing proved): refused.
        for headers in ({"X-Seat-Token": other["token"]}, {"X-Player": "player-0002"}, {}):
            refused = client.get(f"{deals}/0/replay", headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat", headers
            refused = client.get(f"{deals}/0/advice", params={"play": 3}, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat", headers
        assert client.get("/api/games/nope/deals/0/replay", headers=token).status_code == 404
        # The finished game's routes still wait for its end.
        assert client.get(f"/api/games/{g['game']}/replay").status_code == 404

        # The expert's view at any card of that deal, as for a finished game.
        advice = client.get(f"{deals}/0/advice", params={"play": 5}, headers=token).json()
        assert advice["deal"] == 0 and advice["play"] == 5 and 0 <= advice["seat"] < 4
        assert client.get(f"{deals}/0/advice", params={"play": 99}, headers=token).status_code == 400

        final = play_out(ws, state, random.Random(8))
    assert final["over"]
    # What was sent was exactly deal 0 as the finished game's replay shows it: nothing of deal 1.
    finished = client.get(f"/api/games/{g['game']}/replay").json()
    assert live["deals"] == [finished["deals"][0]] and finished["deals"][1] not in live["deals"]
    assert live["players"] == finished["players"] and live["rules"] == finished["rules"]
    record = client.get(f"/api/games/{g['game']}/record").json()
    assert record["deals"][0]["plays"][5] in {o["cards"][0] for o in advice["options"]}
    # The same view as the finished game's expert view at that card, so the same advice.
    assert advice == client.get(f"/api/games/{g['game']}/advice", params={"deal": 0, "play": 5}).json()


@pytest.mark.parametrize("kind", ["table", "daily", "tourney", None])
def test_games_whose_deals_wait_for_their_end_are_refused(kind: str | None) -> None:
    row = GameRow("g", None, {}, [], "", {"kind": kind} if kind else {})
    with pytest.raises(Refusal) as refused:
        check_shown(row)
    assert refused.value.code == "shown_at_end" and refused.value.status == 403
    check_shown(GameRow("g", None, {}, [], "", {"kind": "solo"}))
