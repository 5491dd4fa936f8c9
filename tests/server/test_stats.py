"""Statistics for everyone, from the stored games: a guest's figures by their
browser's id, an account's, and the guest's games counted for the account
once the browser links them on sign-in. Every figure here is worked out by
hand from the golden records the games are made of (``tests/golden``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from tests.multiplayer.mp_helpers import Player, hello, recv_type

from damepique.server.accounts.nicknames import nickname_key
from damepique.server.accounts.summaries import summary_of
from damepique.server.app import create_app
from damepique.server.settings import Settings
from damepique.server.storage import schema
from damepique.server.storage.daily import DailyStore
from damepique.server.storage.daily import Entry as DailyEntry
from damepique.server.storage.games import GameRow

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
DEVICE = "device-of-zoe-1234"
COOKIE = "damepique_session"


def golden(name: str, **rules: Any) -> dict[str, Any]:
    record = json.loads((GOLDEN / f"{name}.json").read_text())
    record["rules"] |= rules
    return dict(record)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'stats.sqlite3'}")) as c:
        yield c


def store_game(
    client: TestClient,
    game_id: str,
    record: dict[str, Any],
    kind: str,
    ranked: bool,
    players: dict[int, str],
    at: float,
) -> None:
    tables = client.app.state.tables  # type: ignore[attr-defined]
    n = record["rules"]["players"]
    seats = [{"kind": "human" if i in players else "bot", "name": f"S{i}"} for i in range(n)]
    row = GameRow(game_id, None, record["rules"], seats, "00" * 32, {"kind": kind, "ranked": ranked})

    async def store() -> None:
        await tables.games.create_game(row)
        await tables.games.finish(game_id, [0] * n, None, record)
        async with tables.games.db.write() as conn:  # when it ended: the order of "last games"
            await conn.execute(update(schema.games).where(schema.games.c.id == game_id).values(finished=at))
        await tables.stats.played(game_id, players, finished=at)

    client.portal.call(store)  # type: ignore[union-attr]


def tables_stats(client: TestClient) -> Any:
    return client.app.state.tables.stats  # type: ignore[attr-defined]


def register(client: TestClient, nickname: str) -> str:
    r = client.post("/api/accounts", json={"nickname": nickname, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return str(r.cookies[COOKIE])


def test_a_guest_and_an_account_and_the_guest_games_moving_to_the_account(client: TestClient) -> None:
    lea = register(client, "Lea")
    key = f"a:{nickname_key('Lea')}"
    guest = f"g:{DEVICE}"
    # Zoé, a guest: a solo game (two deals, a moon each way), two casual games.
    store_game(client, "g1", golden("tie_share_two_winners"), "solo", False, {0: guest}, 1000.0)
    store_game(client, "g2", golden("tie_share_one_winner"), "table", False, {0: guest}, 2000.0)
    store_game(client, "g3", golden("five_players_complete_deal", target=21, tie="share"), "table", False,
               {4: guest}, 3000.0)  # fmt: skip
    # Lea, signed in: a ranked game won (a three-way shared first place).
    store_game(client, "g4", golden("moon_off", target=26, tie="share"), "table", True, {1: key}, 4000.0)

    # Two daily deals of Zoé's, finished with 5 and 13 points (one begun and not finished).
    daily = DailyStore(client.app.state.db)  # type: ignore[attr-defined]

    async def days() -> None:
        for date, game, points in (
            ("2026-12-01", "d1", [0, 5]),
            ("2026-12-02", "d2", [13]),
            ("2026-12-03", "d3", None),
        ):
            await daily.add_entry(DailyEntry(date, DEVICE, DEVICE, None, None, "CODE", game, 1.0))
            if points is not None:
                await daily.finish(game, 2.0, points)

    client.portal.call(days)  # type: ignore[union-attr]
    zoe = client.get("/api/stats", headers={"X-Player": DEVICE}).json()
    assert zoe["daily"] == {
        "played": 2, "average": 9.0, "best": 5,
        "last": [{"date": "2026-12-02", "total": 13}, {"date": "2026-12-01", "total": 5}],
    }  # fmt: skip
    # g1: seat 0 takes 0 (its moon) and 26 (seat 1's moon): 26 over 2 deals, its queen in deal 1;
    #     totals 26 26 52 52, a shared win. g2: 26 (seat 2's moon), third... second place
    #     (one lower total), no queen. g3: 21 = the queen and 8 hearts, fifth of five.
    assert {k: zoe[k] for k in ("games", "wins", "first_places", "deals", "points", "queens")} == {
        "games": 3, "wins": 1, "first_places": 1, "deals": 4, "points": 73, "queens": 2,
    }  # fmt: skip
    assert zoe["average_points"] == 18.25 and zoe["queens_per_deal"] == 0.5
    assert zoe["moons_made"] == 1 and zoe["moons_conceded"] == 2
    assert zoe["first_place_rate"] == 0.333
    assert zoe["by_mode"] == {"casual": {"games": 2, "wins": 0}, "solo": {"games": 1, "wins": 1}}
    assert [(g["game"], g["place"], g["won"]) for g in zoe["last"]] == [
        ("g3", 5, False), ("g2", 2, False), ("g1", 1, True),
    ]  # fmt: skip
    assert zoe["last"][0]["analysis"] == "#/analysis/g3"
    assert zoe["last"][0]["replay"] == "#/replay/g3" and zoe["last"][0]["totals"] == [0, 2, 3, 0, 21]
    assert zoe["guest"] and zoe["ratings"] == []
    # Summed up from their records once (they came without), and kept for the next visit.
    kept = client.portal.call(tables_stats(client).played_by, None, [DEVICE])  # type: ignore[union-attr]
    assert [(p.game, p.summary is not None) for p in kept] == [("g3", True), ("g2", True), ("g1", True)]
    assert client.get("/api/stats", headers={"X-Player": DEVICE}).json() == zoe

    mine = client.get("/api/stats", cookies={COOKIE: lea}).json()
    client.cookies.clear()
    assert (mine["nickname"], mine["games"], mine["wins"], mine["deals"], mine["points"]) == (
        "Lea",
        1,
        1,
        1,
        0,
    )
    assert mine["average_points"] == 0.0 and mine["by_mode"] == {"ranked": {"games": 1, "wins": 1}}

    # Zoé signs in as Lea on her browser: its guest games count for Lea from now on.
    r = client.post("/api/stats/link", json={"player": DEVICE}, cookies={COOKIE: lea})
    client.cookies.clear()
    assert r.status_code == 200 and r.json() == {"linked": True}
    merged = client.get("/api/players/LEA/stats").json()
    assert {k: merged[k] for k in ("games", "wins", "first_places", "deals", "points", "queens")} == {
        "games": 4, "wins": 2, "first_places": 2, "deals": 5, "points": 73, "queens": 2,
    }  # fmt: skip
    assert merged["average_points"] == 14.6 and merged["queens_per_deal"] == 0.4
    assert merged["first_place_rate"] == 0.5 and merged["moons_conceded"] == 2
    assert merged["by_mode"]["ranked"] == {"games": 1, "wins": 1}
    assert merged["daily"]["played"] == 2  # the browser's daily deals count for Lea too
    assert [g["game"] for g in merged["last"]] == ["g4", "g3", "g2", "g1"]
    # The browser keeps the first account it linked to.
    tom = register(client, "Tom")
    r = client.post("/api/stats/link", json={"player": DEVICE}, cookies={COOKIE: tom})
    client.cookies.clear()
    assert r.json() == {"linked": False}
    assert client.get("/api/players/tom/stats").json()["games"] == 0


def test_bad_stats_requests_get_a_reason(client: TestClient) -> None:
    r = client.get("/api/stats")
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    assert client.get("/api/stats", headers={"X-Player": "short"}).status_code == 400
    r = client.post("/api/stats/link", json={"player": DEVICE})
    assert r.status_code == 401 and r.json()["code"] == "account_needed"
    assert client.get("/api/players/nobody/stats").status_code == 404
    empty = client.get("/api/stats", params={"player": DEVICE}).json()
    assert empty["games"] == 0 and empty["average_points"] is None and empty["last"] == []


def test_guests_at_a_table_with_friends_find_the_game_in_their_statistics(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite+aiosqlite:///{tmp_path / 'friends.sqlite3'}", settings=Settings(test_hooks=True)
    )
    host_id, guest_id = "device-of-the-host-1", "device-of-the-guest-1"
    with TestClient(app) as client:
        body = {"preset": "short", "level": "beginner", "speed": "fast", "name": "Host", "player": host_id}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        t = r.json()
        with client.websocket_connect("/ws") as host, client.websocket_connect("/ws") as guest:
            hello(host, t["code"], t["token"])
            hello(guest, t["code"])
            guest.send_text(json.dumps({"type": "sit", "name": "Gus", "player": guest_id}))
            assert recv_type(guest, "seated")["seat"] == 1
            host.send_text(json.dumps({"type": "start"}))
            first = recv_type(host, "state")  # the game has begun
            r = client.post(f"/api/test/tables/{t['code']}/forward", json={"until": "game_end"})
            assert r.status_code == 200, r.text
            players = [Player(host, seed=1, first=first), Player(guest, seed=2)]
            for p in players:
                p.start()
            for p in players:
                p.join(90)
                assert not p.is_alive() and p.failure is None, p.failure
        final = players[0].final
        assert final is not None and final["over"]
        # Each person's part was summed up as the game ended, as its record says.
        played = client.portal.call(tables_stats(client).played_by, None, [host_id, guest_id])  # type: ignore[union-attr]
        row = client.portal.call(tables_stats(client).rows, [final["game"]])[final["game"]]  # type: ignore[union-attr]
        for p in played:
            assert p.summary is not None
            again = summary_of(row, p.seat)
            assert again is not None and {**p.summary, "finished": None} == {**again, "finished": None}
        for device, seat in ((host_id, 0), (guest_id, 1)):
            mine = client.get("/api/stats", headers={"X-Player": device}).json()
            assert mine["games"] == 1 and mine["last"][0]["seat"] == seat, mine
            assert mine["points"] == final["totals"][seat]
            assert mine["by_mode"] == {"casual": {"games": 1, "wins": mine["wins"]}}


def test_a_tournament_s_game_counts_as_one_and_offers_no_replay() -> None:
    """A duplicate tournament's game is counted under ``tourney`` (not "with
    others"), and its last-games line offers the analysis but no replay: its
    record stays with the tournament, and a replay would only be refused."""
    import random

    from damepique.bots import get_bot
    from damepique.bots.analysis import play_game
    from damepique.engine import Rules
    from damepique.server.accounts.summaries import mode_for, seat_summary
    from damepique.server.stats.figures import figures

    assert mode_for("tourney", False) == "tourney"
    match = play_game(Rules(), [get_bot("random")] * 4, random.Random(5), deals=1)
    part = seat_summary(
        match, 0, game="g1", finished=1.0, mode=mode_for("tourney", False), players=["Zoé"] * 4
    )
    shown = figures([part])
    assert shown["by_mode"] == {"tourney": {"games": 1, "wins": int(part["won"])}}
    assert shown["last"][0]["replay"] is None and shown["last"][0]["analysis"] == "#/analysis/g1"
