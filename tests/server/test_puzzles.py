"""Puzzles in the server (issue 26): a puzzle is served without its answer;
an answer comes back with the numbers of the card chosen and of the best one,
and the player's new Glicko-2 rating (up when right, down when wrong); bad
cards, ratings and themes are refused and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from damepique.bots import puzzles
from damepique.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'puzzles.sqlite3'}")) as c:
        yield c


def test_a_puzzle_then_its_answer_and_the_rating(client: TestClient) -> None:
    info = client.get("/api/puzzles").json()
    assert info["count"] == len(puzzles.load()["puzzles"]) and set(info["themes"]) <= set(puzzles.THEMES)
    p = client.get("/api/puzzles/next", params={"rating": 1500}).json()
    assert set(p) == {"id", "preset", "rules", "view", "theme", "rating"}  # never the answer
    shipped = {q["id"]: q for q in puzzles.load()["puzzles"]}[p["id"]]
    assert p["view"] == shipped["view"]
    start = {"rating": 1500, "rd": 200, "vol": 0.06}
    right = client.post(
        f"/api/puzzles/{p['id']}/answer", json={"card": shipped["answer"][0], "rating": start}
    ).json()
    assert right["correct"] and right["answer"] == shipped["answer"] and right["margin"] == shipped["margin"]
    assert right["chosen"]["cards"] == right["best"]["cards"]
    assert right["rating"]["rating"] > 1500 and right["rating"]["rd"] < 200
    wrong_card = next(o["cards"][0] for o in shipped["options"] if not o["best"])
    wrong = client.post(f"/api/puzzles/{p['id']}/answer", json={"card": wrong_card, "rating": start}).json()
    assert not wrong["correct"] and wrong["rating"]["rating"] < 1500
    assert wrong["best"]["payoff"] - wrong["chosen"]["payoff"] >= puzzles.MARGIN - 0.02
    # A first answer, without a rating: a new player's.
    assert (
        client.post(f"/api/puzzles/{p['id']}/answer", json={"card": wrong_card}).json()["rating"]["rd"] < 350
    )


def test_themes_and_what_was_seen(client: TestClient) -> None:
    theme = max(puzzles.counts(puzzles.load()["puzzles"], "theme").items(), key=lambda kv: kv[1])[0]
    seen: list[str] = []
    for _ in range(5):
        p = client.get("/api/puzzles/next", params={"theme": theme, "seen": ",".join(seen)}).json()
        assert p["theme"] == theme and p["id"] not in seen
        seen.append(p["id"])
    r = client.get("/api/puzzles/next", params={"theme": "nope"})
    assert r.status_code == 400


def test_bad_answers_are_refused(client: TestClient) -> None:
    p = client.get("/api/puzzles/next").json()
    illegal = next(c for c in ("2C", "AS", "QS", "2H", "KD") if c not in p["view"]["legal"])
    url = f"/api/puzzles/{p['id']}/answer"
    refused = client.post(url, json={"card": illegal}).json()
    legal_cards = " ".join(p["view"]["legal"])
    assert refused["code"] == "illegal_play"
    assert refused["reason"] == f"'{illegal}' is not a legal card of this puzzle: play one of {legal_cards}"
    assert client.post(url, json={"card": 3}).status_code == 400
    legal = p["view"]["legal"][0]
    for rating in ({"rating": "x"}, {"rating": 1500, "rd": 0}, {"rating": 99999}, [1500]):
        r = client.post(url, json={"card": legal, "rating": rating})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", rating
    assert client.post("/api/puzzles/nope/answer", json={"card": legal}).status_code == 404
    assert client.get("/api/puzzles/nope").status_code == 404


def test_a_served_puzzle_names_no_seed_that_deals_its_hidden_hands(client: TestClient) -> None:
    """A puzzle's id is on the page (and in its JSON): a number in it that deals
    the seat its cards, as ``Deal.shuffled`` does for the bot games puzzles are
    mined from, would deal every other hand too, and so give the answer away."""
    import random
    import re

    from damepique.engine import CardSet, Deal, Rules

    for p in puzzles.load()["puzzles"]:
        served = client.get(f"/api/puzzles/{p['id']}").json()
        assert "origin" not in served
        view, rules = served["view"], Rules.from_json(served["rules"])
        seat, players = view["seat"], rules.players
        played = [
            c for t in view["tricks"] for i, c in enumerate(t["cards"]) if (t["leader"] + i) % players == seat
        ]
        played += [c for i, c in enumerate(view["trick"]) if (view["trick_leader"] + i) % players == seat]
        dealt = set(view["hand"] + played + (view["passed"] or [])) - set(view["received"] or [])
        for n in re.findall(r"\d+", served["id"]):
            shuffled = Deal.shuffled(rules, random.Random(int(n))).hands[seat]
            assert set(str(CardSet(shuffled)).split()) != dealt, (served["id"], n)


def test_answers_kept_under_a_puzzle_s_old_id_count_under_its_public_id(tmp_path: Path) -> None:
    """A database at revision 0022 holds an answer under a shipped puzzle's old
    id (which named its seed, the file's ``origin`` now): after the upgrade it
    is kept under the puzzle's public id, and still counts for the player."""
    import sqlite3

    from alembic import command

    from damepique.server.storage.database import alembic_config

    path = tmp_path / "old.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    command.upgrade(alembic_config(url), "0022")
    p = puzzles.load()["puzzles"][0]
    rating = '{"rating": 1500, "rd": 350, "vol": 0.06}'
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO puzzle_attempts (player, puzzle_id, theme, correct, puzzle_rating, at,"
            " before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ("g:device-1", p["origin"], p["theme"], True, p["rating"], 1.0, rating, rating),
        )
    with TestClient(create_app(url)) as client:
        me = client.get("/api/puzzles/me", headers={"X-Player": "device-1"}).json()
        assert me["tried"] == 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT puzzle_id FROM puzzle_attempts").fetchall() == [(p["id"],)]
