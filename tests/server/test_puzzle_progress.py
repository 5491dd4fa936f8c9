"""A person's puzzle progress (issue 26): each answer is kept for who gave it,
a guest's browser or an account; on sign-in the browser's answers and rating
move to the account, once (signing in again counts nothing twice), and the
account's rating is the one its answers, replayed in order, give. The
statistics show the puzzle figures: rating, solved, streaks, by theme. Pass
puzzles are answered with three cards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.bots import puzzles
from damepique.server.app import create_app
from damepique.server.solo.puzzles import START, new_rating

DEVICE = "device-of-zoe-1234"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'progress.sqlite3'}")) as c:
        yield c


def shipped() -> list[dict[str, Any]]:
    return [p for p in puzzles.load()["puzzles"] if p["theme"] != "pass"]


def wrong_card(p: dict[str, Any]) -> str:
    return str(next(o["cards"][0] for o in p["options"] if not o["best"]))


def answer(client: TestClient, p: dict[str, Any], right: bool, **extra: Any) -> dict[str, Any]:
    card = p["answer"][0] if right else wrong_card(p)
    r = client.post(f"/api/puzzles/{p['id']}/answer", json={"card": card, **extra})
    assert r.status_code == 200, r.text
    return dict(r.json())


def replay(start: dict[str, float], steps: list[tuple[dict[str, Any], bool]]) -> dict[str, Any]:
    rating: dict[str, Any] = dict(start)
    for p, right in steps:
        rating = new_rating(rating, p["rating"], right)
    return rating


def test_a_guest_keeps_progress_and_it_moves_to_the_account_once(client: TestClient) -> None:
    ps = shipped()
    themes = {p["theme"]: p for p in ps}
    a, b, c = list(themes.values())[:3]
    # The device had progress of its own from before (kept on it): the first answer starts there.
    local = {"rating": 1620.0, "rd": 120.0, "vol": 0.06}
    first = answer(client, a, True, player=DEVICE, rating=local)
    assert first["rating"] == new_rating(local, a["rating"], True)
    # Later answers start from the kept rating, whatever the page sends.
    second = answer(client, b, False, player=DEVICE, rating=START)
    assert second["rating"] == new_rating(first["rating"], b["rating"], False)
    mine = client.get("/api/puzzles/me", headers={"X-Player": DEVICE}).json()
    assert mine["tried"] == 2 and mine["solved"] == 1 and mine["rating"] == round(second["rating"]["rating"])
    assert client.get("/api/stats", headers={"X-Player": DEVICE}).json()["puzzles"] == mine

    # Zoé makes an account on another browser and solves one there first.
    r = client.post("/api/accounts", json={"nickname": "Zoe", "password": "a long password"})
    assert r.status_code in (200, 201), r.text
    third = answer(client, c, True, player="another-browser-99")
    assert third["rating"] == new_rating(START, c["rating"], True)  # the account's own start
    # She signs in on the first browser: its answers move to the account.
    link = client.post("/api/stats/link", json={"player": DEVICE}).json()
    assert link == {"linked": True}
    expected = replay(local, [(a, True), (b, False), (c, True)])  # in the order they were given
    me = client.get("/api/puzzles/me").json()
    assert me["tried"] == 3 and me["solved"] == 2 and me["rating"] == round(expected["rating"])
    assert me["by_theme"] == {
        t: {"tried": 1, "solved": int(right)}
        for t, right in ((a["theme"], True), (b["theme"], False), (c["theme"], True))
    }
    assert me["streak"] == 1 and me["best_streak"] == 1
    # Signing in again on that browser moves nothing twice.
    assert client.post("/api/stats/link", json={"player": DEVICE}).json() == {"linked": True}
    assert client.get("/api/puzzles/me").json() == me
    stats = client.get("/api/players/Zoe/stats").json()
    assert stats["puzzles"] == me
    # The next answer, signed in, starts from the merged rating.
    fourth = answer(client, a, True, rating=START)
    assert fourth["rating"] == new_rating(expected, a["rating"], True)
    # The guest browser holds nothing any more.
    client.post("/api/logout")
    assert client.get("/api/puzzles/me", headers={"X-Player": DEVICE}).json()["tried"] == 0


def test_answers_without_a_player_are_kept_nowhere(client: TestClient) -> None:
    p = shipped()[0]
    assert answer(client, p, True)["correct"]
    assert client.get("/api/puzzles/me").status_code == 400
    assert client.get("/api/puzzles/me", headers={"X-Player": DEVICE}).json()["tried"] == 0


def test_a_pass_puzzle_is_answered_with_three_cards(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from damepique.server.solo import puzzles as route

    hand = ["2C", "3C", "QS", "AS", "KH", "5D", "9D", "TC", "JH", "4S", "6H", "8D", "KC"]
    p = {
        "id": "standard-1-0",
        "preset": "standard",
        "rules": {},
        "view": {"phase": "pass", "hand": hand, "legal": []},
        "answer": ["AS", "KH", "QS"],
        "margin": 2.0,
        "theme": "pass",
        "rating": 1500,
        "playouts": 3000,
        "options": [
            {"cards": ["AS", "KH", "QS"], "expected": 5.0, "payoff": 1.0, "best": True},
            {"cards": ["AS", "KC", "QS"], "expected": 7.5, "payoff": -1.2, "best": False},
        ],
    }
    monkeypatch.setattr(route, "by_id", lambda: {p["id"]: p})
    url = f"/api/puzzles/{p['id']}/answer"
    right = client.post(url, json={"cards": ["QS", "KH", "AS"], "player": DEVICE}).json()
    assert right["correct"] and right["cards"] == ["QS", "KH", "AS"] and right["chosen"]["best"]
    other = client.post(url, json={"cards": ["KC", "AS", "QS"]}).json()
    assert not other["correct"] and other["chosen"]["cards"] == ["AS", "KC", "QS"]
    unmeasured = client.post(url, json={"cards": ["2C", "3C", "4S"]}).json()
    assert not unmeasured["correct"] and unmeasured["chosen"] is None
    for bad in (["QS", "KH"], ["QS", "QS", "KH"], ["QS", "KH", "AD"], "QS", None):
        r = client.post(url, json={"cards": bad})
        assert r.status_code == 400 and r.json()["code"] == "illegal_pass", bad
    assert client.get("/api/puzzles/me", headers={"X-Player": DEVICE}).json()["by_theme"] == {
        "pass": {"tried": 1, "solved": 1}
    }
