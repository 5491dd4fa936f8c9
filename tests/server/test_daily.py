"""The daily deal (issue 27): the same sealed cards and the same experts for
everyone on a day, one try each, the secret kept until the day is over (the
app's clock crosses midnight: nothing sleeps), and results compared with the
field's."""

from __future__ import annotations

import contextlib
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.cli import referee_data
from damepique.engine.fairness import SCHEME
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.daily.days import bounds
from damepique.server.play.pace import Pace
from damepique.server.settings import Settings

from .helpers import recv_state

LATE = bounds("2026-12-07")[0] - 60
"""A minute before midnight UTC on 2026-12-06, the tests' day: a test moves the
clock past midnight by ``MIDNIGHT``, a few ticks of the server's upkeep (it runs
each second of the clock; twelve hours of it took the test five seconds)."""
MIDNIGHT = 120
"""Seconds from ``LATE`` to a minute past midnight: 2026-12-07."""


class Daily:
    """An app whose clock stands late on the test day, the day's experts cheap."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._running = contextlib.ExitStack()
        self.open(LATE)

    def open(self, start: float) -> None:
        """The app on this database (stopped first if it runs), its clock at ``start``."""
        self._running.close()
        self.clock = ManualClock(start=start)
        app = create_app(f"sqlite+aiosqlite:///{self.db}", settings=Settings(clock=self.clock),
                         pace=Pace(0, 0, 0))  # fmt: skip
        app.state.daily.level = "intermediate"
        self.client = self._running.enter_context(TestClient(app))

    def close(self) -> None:
        self._running.close()

    def advance(self, seconds: float) -> None:
        self.client.portal.call(self.clock.advance, seconds)  # type: ignore[union-attr]

    def start(self, player: str, **body: Any) -> Any:
        return self.client.post("/api/daily", json={"speed": "fast", "name": "Ann"} | body,
                                headers={"X-Player": player})  # fmt: skip

    def results(self, player: str, date: str = "2026-12-06") -> Any:
        r = self.client.get(f"/api/daily/{date}/results", headers={"X-Player": player})
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def daily(tmp_path: Path) -> Iterator[Daily]:
    app = Daily(tmp_path / "d.sqlite3")
    try:
        yield app
    finally:
        app.close()


def first_choice(state: dict[str, Any]) -> dict[str, Any] | None:
    """Always the same answer to the same position: the first cards of the hand
    to pass, the first legal card to play."""
    view = state.get("view")
    if not view or state.get("over") or view["to_act"] != state["seat"]:
        return None
    if view["phase"] == "pass":
        return {"type": "pass", "cards": view["hand"][: state["rules"].get("pass_count", 3)]}
    return {"type": "play", "card": view["legal"][0]}


def play(client: TestClient, token: str, stop_after: int | None = None) -> tuple[dict[str, Any], list[Any]]:
    """Play the seat with ``first_choice`` (``stop_after`` moves at most); the
    last state and every message received."""
    log: list[Any] = []
    moves = 0
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        state = recv_state(ws, log)
        while not state["over"] and (stop_after is None or moves < stop_after):
            msg = first_choice(state)
            if msg is None:
                state = recv_state(ws, log)
                continue
            moves += 1
            ws.send_text(json.dumps(msg | {"id": moves}))
            state = recv_state(ws, log)
            while state.get("ack") != moves:
                state = recv_state(ws, log)
    return state, log


def test_two_players_get_the_same_cards_and_the_same_expert_answers(daily: Daily) -> None:
    a, b = daily.start("device-aaaa").json(), daily.start("device-bbbb").json()
    assert a["game"] != b["game"] and a["date"] == b["date"] == "2026-12-06"
    final_a, log_a = play(daily.client, a["token"])
    final_b, log_b = play(daily.client, b["token"])

    def seen(log: list[Any]) -> list[Any]:
        # Every hand held and every card on the table, message after message.
        return [(m["view"]["deal"], m["view"]["hand"], m["view"]["trick"]) for m in log if m.get("view")]

    assert seen(log_a) == seen(log_b) and len(seen(log_a)) > 50
    assert final_a["over"] and final_a["totals"] == final_b["totals"]
    assert len(final_a["results"]) == 4  # a fixed number of deals, not a game to 100
    # The experts at both tables gave the same answers: the same finished deals.
    assert final_a["results"] == final_b["results"]


def test_one_try_a_day_a_reload_resumes_and_a_new_day_brings_a_new_deal(daily: Daily) -> None:
    first = daily.start("device-aaaa").json()
    state, _ = play(daily.client, first["token"], stop_after=3)
    assert not state["over"]
    again = daily.start("device-aaaa").json()  # a reload: the same game, a new seat token
    assert again["game"] == first["game"] and again["token"] != first["token"]
    final, _ = play(daily.client, again["token"])
    assert final["over"]
    refused = daily.start("device-aaaa")
    assert refused.status_code == 409 and refused.json()["code"] == "daily_played"
    me = daily.client.get("/api/daily/me", headers={"X-Player": "device-aaaa"}).json()
    assert me["status"] == "finished" and me["streak"] == 1
    daily.advance(MIDNIGHT)  # 2026-12-07
    tomorrow = daily.start("device-aaaa").json()
    assert tomorrow["date"] == "2026-12-07" and tomorrow["game"] != first["game"]
    play(daily.client, tomorrow["token"])
    me = daily.client.get("/api/daily/me", headers={"X-Player": "device-aaaa"}).json()
    assert me["streak"] == 2 and [d["date"] for d in me["days"]] == ["2026-12-07", "2026-12-06"]
    # A day missed: the streak is broken. The app started again two days later (moved
    # there, its upkeep of each second took the test twelve seconds): the streak is
    # counted from the days stored and the clock's date, nothing kept in memory.
    daily.open(bounds("2026-12-09")[0] + 60)
    assert daily.client.get("/api/daily/me", headers={"X-Player": "device-aaaa"}).json()["streak"] == 0


def test_a_browser_s_try_moves_to_the_account_and_a_second_device_resumes_it(daily: Daily) -> None:
    c = daily.client
    started = daily.start("device-aaaa").json()
    assert daily.results("device-aaaa")["you"] == {"finished": False, "ranked": False}
    r = c.post("/api/accounts", json={"nickname": "Zoe", "password": "a long password"})
    assert r.status_code in (200, 201), r.text
    # Signed in, the browser's try is the account's: on this device and on another.
    assert daily.results("device-aaaa")["you"] == {"finished": False, "ranked": True}
    other = daily.start("device-zzzz").json()
    assert other["game"] == started["game"]
    final, _ = play(c, other["token"])
    assert final["over"]
    assert daily.start("device-yyyy").json()["code"] == "daily_played"
    board = daily.results("device-zzzz")["leaderboard"]
    assert [(row["nickname"], row["rank"]) for row in board] == [("Zoe", 1)]


def test_the_commitment_first_the_secret_once_the_day_is_over(daily: Daily, tmp_path: Path) -> None:
    c = daily.client
    day = c.get("/api/daily/2026-12-06").json()
    assert day["fairness"]["scheme"] == SCHEME and "secret" not in day["fairness"]
    assert (day["deals"], day["over"], day["today"]) == (4, False, True)
    ahead = c.get("/api/daily/2026-12-07")
    assert ahead.status_code == 404 and ahead.json()["code"] == "daily_not_yet"
    assert c.get("/api/daily/2026-13-01").json()["code"] == "bad_date"
    # A day gone by that nobody asked for is not made now (nor its par played).
    gone = c.get("/api/daily/1999-01-01")
    assert (gone.status_code, gone.json()["code"]) == (404, "no_daily")
    assert c.get("/api/daily/2026-12-06/record").json()["code"] == "withheld"
    # A browser id too short to be one is refused saying what an id is.
    short = c.post("/api/daily", json={"player": "short"}).json()
    assert (short["code"], "8 to 64 characters" in short["reason"]) == ("no_player", True)

    started = daily.start("device-aaaa").json()
    final, log = play(c, started["token"])
    # The player's game is over, the day is not: the secret and the others' cards stay hidden.
    assert final["over"] and "secret" not in final["fairness"]
    assert final["fairness"]["commitment"] == day["fairness"]["commitment"]
    assert all("secret" not in json.dumps(m.get("fairness")) for m in log)
    for path in ("record", "replay", "advice"):
        r = c.get(f"/api/games/{started['game']}/{path}")
        assert (r.status_code, r.json()["code"]) == (403, "withheld")
    assert daily.results("device-aaaa")["par"] is not None  # a finished player sees the par

    daily.advance(MIDNIGHT)  # past midnight UTC
    day = c.get("/api/daily/2026-12-06").json()
    secret = day["fairness"]["secret"]
    assert day["over"] and hashlib.sha256(bytes.fromhex(secret)).hexdigest() == day["fairness"]["commitment"]
    par = c.get("/api/daily/2026-12-06/record").json()
    assert referee_data(json.dumps(par).encode(), "verify") == (0, {"verified": True, "deals": 4})
    # Anyone checks the par the day after, with the command.
    out = subprocess.run(
        [sys.executable, "-m", "damepique", "daily", "--date", "2026-12-06", "--secret", secret,
         "--level", "intermediate"], capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(out.stdout) == par
    # The player's own game now verifies too, with the same hands as the par.
    mine = json.loads(c.get(f"/api/games/{started['game']}/record").text)
    assert referee_data(json.dumps(mine).encode(), "verify") == (0, {"verified": True, "deals": 4})
    assert [d["hands"] for d in mine["deals"]] == [d["hands"] for d in par["deals"]]
    # No frame of the game carried a card the player could not know then, nor the secret.
    from damepique.engine import Rules

    from ..multiplayer.mp_helpers import cards_in, knowable

    checked = 0
    for msg in log:
        assert secret not in json.dumps(msg)
        if msg["type"] != "state" or msg.get("view") is None:
            assert list(cards_in(msg)) == [], msg
            continue
        v = msg["view"]
        plays = sum(len(t["cards"]) for t in v["tricks"]) + len(v["trick"])
        known = knowable(mine, Rules.from_json(mine["rules"]), 0, v["deal"], plays, v["phase"] != "pass")
        for card in cards_in(msg):
            assert card in known, (card, msg.get("event"))
            checked += 1
    assert checked > 500


def test_no_card_is_played_after_midnight_nor_any_hint_asked(daily: Daily) -> None:
    started = daily.start("device-aaaa").json()
    with daily.client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": started["token"]}))
        state = recv_state(ws)
        for kind in ("hint", "advice"):
            ws.send_text(json.dumps({"type": kind, "id": kind}))
            msg = json.loads(ws.receive_text())
            while msg["type"] != "error":
                msg = json.loads(ws.receive_text())
            assert msg["code"] == "no_advice"
        daily.advance(MIDNIGHT)
        ws.send_text(json.dumps(first_choice(state) | {"id": 1}))
        msg = json.loads(ws.receive_text())
        while msg["type"] != "error":
            msg = json.loads(ws.receive_text())
        assert msg["code"] == "day_over"
    # Unfinished at midnight: not counted, and the day's board is what it was.
    assert daily.results("device-aaaa", "2026-12-06")["you"] == {"finished": False, "ranked": False}


async def _seed_results(app: Any, date: str, results: dict[str, list[int]], par: list[int]) -> None:
    """Finished tries built by hand (``results``: nickname -> points by deal)."""
    from sqlalchemy import update

    from damepique.server.storage import schema
    from damepique.server.storage.daily import Entry

    store = app.state.daily.store
    await app.state.daily.day(date)  # made, its par played: replaced by the hand-built one
    par_json = json.dumps({"record": {}, "points": [[p, 0, 0, 0] for p in par]})
    async with store.db.write() as conn:
        await conn.execute(
            update(schema.daily_days).where(schema.daily_days.c.date == date).values(par=par_json)
        )
    for i, (name, points) in enumerate(results.items()):
        nickname = None if name.startswith("device-") else name
        player = f"player-{name}"
        await store.add_entry(Entry(date, player, player, nickname and f"k{i}", nickname, "C", f"g{i}", 1.0))
        await store.finish(f"g{i}", 2.0 + i, points)


def test_the_duplicate_arithmetic_on_hand_built_results(daily: Daily) -> None:
    app = daily.client.app
    results = {
        "Ann": [0, 13, 5, 2],  # 20
        "Bob": [4, 13, 0, 9],  # 26
        "device-cccc": [2, 0, 7, 1],  # 10, not signed in: counted in the field, not on the board
        "Dee": [26, 0, 0, 0],  # 26, tied with Bob
    }
    daily.client.portal.call(_seed_results, app, "2026-12-06", results, [3, 13, 1, 6])  # type: ignore[union-attr]
    out = daily.results("player-Ann")
    # The field's averages, deal by deal: (0+4+2+26)/4 = 8, (13+13+0+0)/4 = 6.5, 3, 3.
    assert [d["average"] for d in out["field"]] == [8.0, 6.5, 3.0, 3.0]
    assert out["field"][0]["distribution"] == [[0, 1], [2, 1], [4, 1], [26, 1]]
    assert out["field"][1]["distribution"] == [[0, 2], [13, 2]]
    assert out["played"] == 4
    # Ann: 20 points against a field of 20.5 -> +0.5; against the par (23) -> +3; second of four.
    assert out["you"]["vs_field"] == 0.5 and out["you"]["vs_par"] == 3 and out["you"]["rank"] == 2
    assert [(r["rank"], r["nickname"], r["total"], r["vs_field"]) for r in out["leaderboard"]] == [
        (2, "Ann", 20, 0.5),
        (3, "Bob", 26, -5.5),
        (3, "Dee", 26, -5.5),
    ]
    # Somebody who has not played sees the board but nothing of the deals.
    other = daily.results("device-none")
    assert other["you"] is None and other["field"] is None and other["par"] is None
    assert len(other["leaderboard"]) == 3


def test_the_worked_example_of_docs_daily_runs() -> None:
    import doctest

    doc = Path(__file__).resolve().parents[2] / "docs" / "daily.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.attempted >= 4 and result.failed == 0
