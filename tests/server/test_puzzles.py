"""Puzzles in the server (issue 26): a puzzle is served without its answer;
an answer comes back with the numbers of the card chosen and of the best one,
and the player's new Glicko-2 rating (up when right, down when wrong); bad
cards, ratings and themes are refused and change nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


def assert_no_served_id_deals_its_seat(client: TestClient) -> None:
    """A puzzle's id is on the page (and in its JSON): a number in it that deals
    the seat its cards, as ``Deal.shuffled`` does for the bot games puzzles are
    mined from, would deal every other hand too, and so give the answer away.
    Every puzzle the server serves is looked at (its ids: ``by_id``)."""
    import random
    import re

    from damepique.engine import CardSet, Deal, Rules
    from damepique.server.solo import puzzles as served_puzzles

    ids = list(served_puzzles.by_id())
    assert ids and client.get("/api/puzzles").json()["count"] == len(ids)
    for ident in ids:
        served = client.get(f"/api/puzzles/{ident}").json()
        assert "origin" not in served and re.fullmatch(r"pz-[0-9a-f]{12}", served["id"]), served["id"]
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


def test_a_served_puzzle_names_no_seed_that_deals_its_hidden_hands(client: TestClient) -> None:
    assert_no_served_id_deals_its_seat(client)


OLD_COUNT = 40


def write_old_file(path: Path) -> list[dict[str, Any]]:
    """Shipped puzzles as a file written before public ids keeps them: the id
    where each was mined (``standard-SEED-K``: the seed deals every hand), no
    ``origin``. Returns those old entries."""
    old = [
        {"id": p["origin"], **{k: v for k, v in p.items() if k not in ("id", "origin")}}
        for p in puzzles.load()["puzzles"][:OLD_COUNT]
    ]
    puzzles.dump({"format": puzzles.FORMAT, "puzzles": old}, path)
    return old


@pytest.fixture
def serve_file(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """Makes the server read its puzzles from another file (as from the shipped one)."""
    from damepique.server.solo import puzzles as served_puzzles

    def serve(path: Path) -> None:
        monkeypatch.setattr(puzzles, "STARTER", path)
        served_puzzles.starter.cache_clear()
        served_puzzles.by_id.cache_clear()

    yield serve
    monkeypatch.undo()
    served_puzzles.starter.cache_clear()
    served_puzzles.by_id.cache_clear()


@pytest.mark.parametrize("through", ["load", "build --keep"])
def test_a_file_from_before_public_ids_is_served_by_public_ids_only(
    tmp_path: Path, serve_file: Callable[[Path], None], through: str
) -> None:
    """An old file read by the server itself, or kept by ``puzzles build --keep``
    (which copied its ids as they were): every puzzle is served under its
    public id, with the old id as its origin, and the same puzzle as before."""
    from damepique.cli import main

    old = write_old_file(tmp_path / "old.json.gz")
    served = tmp_path / "old.json.gz"
    if through == "build --keep":
        served = tmp_path / "kept.json.gz"
        args = ["puzzles", "build", "--keep", str(tmp_path / "old.json.gz"), "--out", str(served)]
        assert main([*args, "--count", str(OLD_COUNT), "--quiet"]) == 0
        kept = puzzles.load(served)["puzzles"]
        assert [(p["id"], p["origin"]) for p in kept] == [(puzzles.public_id(o["id"]), o["id"]) for o in old]
    serve_file(served)
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'p.sqlite3'}")) as client:
        assert client.get("/api/puzzles").json()["count"] == len(old)
        assert_no_served_id_deals_its_seat(client)
        for o in old[:5]:
            assert client.get(f"/api/puzzles/{o['id']}").status_code == 404
            p = client.get(f"/api/puzzles/{puzzles.public_id(o['id'])}").json()
            assert p["view"] == o["view"] and p["theme"] == o["theme"]


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


def test_answers_under_a_kept_file_s_old_ids_count_under_its_public_ids(
    tmp_path: Path, serve_file: Callable[[Path], None]
) -> None:
    """A server that served an old file (before public ids) kept answers under
    its old ids; the file rebuilt by ``build --keep`` serves public ids, and
    after the upgrade (migration 0023) those answers are under them."""
    import sqlite3

    from alembic import command

    from damepique.cli import main
    from damepique.server.storage.database import alembic_config

    old = write_old_file(tmp_path / "old.json")
    kept = tmp_path / "kept.json"
    args = ["puzzles", "build", "--keep", str(tmp_path / "old.json"), "--out", str(kept), "--quiet"]
    assert main([*args, "--count", str(OLD_COUNT)]) == 0
    path = tmp_path / "old.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    command.upgrade(alembic_config(url), "0022")
    rating = '{"rating": 1500, "rd": 350, "vol": 0.06}'
    with sqlite3.connect(path) as db:
        for o in old[:3]:
            db.execute(
                "INSERT INTO puzzle_attempts (player, puzzle_id, theme, correct, puzzle_rating, at,"
                " before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                ("g:device-1", o["id"], o["theme"], True, o["rating"], 1.0, rating, rating),
            )
    serve_file(kept)
    with TestClient(create_app(url)) as client:
        assert client.get("/api/puzzles/me", headers={"X-Player": "device-1"}).json()["tried"] == 3
    with sqlite3.connect(path) as db:
        stored = [r[0] for r in db.execute("SELECT puzzle_id FROM puzzle_attempts ORDER BY id")]
    assert stored == [p["id"] for p in puzzles.load(kept)["puzzles"][:3]]
