"""Puzzles mined from the server's finished games, only with consent (issue
26): an account setting, off until its person turns it on; a game is mined
only when every person at it allowed it (a guest cannot), and only from the
decisions of those people's seats, each from what that seat saw; the command
``damepique puzzles mine-games`` writes what it finds as a puzzle file."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from damepique.bots import get_bot, puzzles
from damepique.bots.analysis import play_game
from damepique.cli import main
from damepique.engine import CARD_NAMES, Rules, dump_match
from damepique.server.app import create_app
from damepique.server.storage import schema
from damepique.server.storage.database import Database
from damepique.server.storage.puzzles import PuzzleStore
from damepique.server.storage.stats import StatsStore


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'consent.sqlite3'}")) as c:
        yield c


def test_the_setting_is_off_until_the_person_turns_it_on(client: TestClient) -> None:
    assert client.post("/api/me/puzzle-consent", json={"allowed": True}).json()["code"] == "account_needed"
    client.post("/api/accounts", json={"nickname": "Zoe", "password": "a long password"})
    assert client.get("/api/me").json()["puzzle_consent"] is False
    assert client.post("/api/me/puzzle-consent", json={"allowed": "yes"}).json()["code"] == "bad_request"
    assert client.post("/api/me/puzzle-consent", json={"allowed": True}).json() == {"puzzle_consent": True}
    assert client.get("/api/me").json()["puzzle_consent"] is True
    client.post("/api/me/puzzle-consent", json={"allowed": False})
    assert client.get("/api/me").json()["puzzle_consent"] is False


def a_record(seed: int) -> dict[str, object]:
    bots = [get_bot("beginner") for _ in range(4)]
    return dump_match(play_game(Rules(target=26), bots, random.Random(seed), deals=1))


async def test_only_games_whose_every_person_allowed_it_are_mined(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}")
    await db.open()
    try:
        store, stats = PuzzleStore(db), StatsStore(db)
        async with db.write() as conn:
            for key, allowed in (("ann", True), ("ben", True), ("cy", False)):
                await conn.execute(
                    insert(schema.accounts).values(
                        key=key,
                        nickname=key,
                        password="x",
                        rating=1500.0,
                        created=0.0,
                        stats="{}",
                        puzzle_consent=allowed,
                    )
                )
            for i, game in enumerate(("both", "with_cy", "with_guest", "ann_alone")):
                await conn.execute(
                    insert(schema.games).values(
                        id=game,
                        rules="{}",
                        seats="[]",
                        options="{}",
                        created=0.0,
                        finished=float(i),
                        record=json.dumps(a_record(i)),
                    )
                )
        await stats.played("both", {0: "a:ann", 2: "a:ben"}, finished=1.0)
        await stats.played("with_cy", {0: "a:ann", 1: "a:cy"}, finished=2.0)
        await stats.played("with_guest", {0: "a:ben", 3: "g:some-browser-1"}, finished=3.0)
        await stats.played("ann_alone", {1: "a:ann"}, finished=4.0)  # a solo game: ann and bots
        found = await store.consented_games()
        assert [(g, seats) for g, _, seats in found] == [("ann_alone", [1]), ("both", [0, 2])]
    finally:
        await db.close()


def test_a_game_s_puzzles_come_from_the_allowed_seats_views_only() -> None:
    record = a_record(11)
    found = puzzles.mine_record(("g1", record, [2], 600, ()))
    assert found == puzzles.mine_record(("g1", record, [2], 600, ()))  # seeded by the game and seat
    assert found, "a deal of beginners has a clear choice somewhere"
    for p in found:
        assert p["origin"].startswith("game-g1-2-") and p["view"]["seat"] == 2
        assert "g1" not in p["id"]  # the id the page shows names no game (its record has every hand)
        view = puzzles.view_of_puzzle(p)
        assert p["view"] == view.to_json()
        hand = set(p["view"]["hand"])
        assert set(p["answer"]) <= hand and set(p["answer"]) <= set(CARD_NAMES)
    assert puzzles.mine_record(("bad", {"format": "nope"}, [0], 600, ())) == []


def test_the_command_writes_a_puzzle_file_of_the_allowed_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'none.sqlite3'}"
    out = tmp_path / "mined.json"
    assert main(["puzzles", "mine-games", "--db", url, "--out", str(out), "--playouts", "300"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said == {"out": str(out), "games": 0, "puzzles": 0, "themes": {}}  # nobody allowed it
    assert puzzles.load(out)["format"] == puzzles.FORMAT
