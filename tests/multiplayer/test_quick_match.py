"""Quick match over ``/ws/match`` with scripted pages and the app's clock moved
by hand: four people are seated together at once, two get two bots after
their wait, a person who leaves (or closes the page) is never seated, ranked
people sit with those of their rating, a page that reconnects with its ticket
hears where it sits, and a quick-matched game shows nobody a hidden card.

Every wait here is bounded: a message that does not come fails the test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from damepique.engine import Rules
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.quick.service import table_seater
from damepique.server.settings import Settings
from damepique.server.storage import schema

from ..clocks import wait
from .mp_helpers import Player, cards_in, check_frames, hello

BOUND_S = 20.0
"""The longest any message is waited for (it comes in milliseconds)."""


def make_app(path: Path, clock: ManualClock | None = None) -> Any:
    settings = Settings(clock=clock) if clock is not None else Settings()
    settings.chat_interval = 0.0
    settings.grace = 600.0
    return create_app(f"sqlite+aiosqlite:///{path}", settings=settings)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "quick.sqlite3", clock)) as c:
        yield c


def receive(ws: Any, seconds: float = BOUND_S) -> dict[str, Any]:
    """The next message, or the test fails after ``seconds`` (never hangs)."""

    async def get() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))


def receive_status(ws: Any, status: str) -> dict[str, Any]:
    """The next message of this status (how many wait, as it changes, passed over)."""
    msg = receive(ws)
    while msg.get("status") == "waiting" and status != "waiting":
        msg = receive(ws)
    assert msg["type"] == "quick" and msg["status"] == status, msg
    return msg


def join(ws: Any, name: str, **choice: Any) -> dict[str, Any]:
    body = {"type": "join", "name": name, "player": f"device-of-{name}", **choice}
    ws.send_text(json.dumps(body))
    return receive_status(ws, "queued")


def advance(client: TestClient, clock: ManualClock, seconds: float) -> None:
    client.portal.call(clock.advance, seconds)  # type: ignore[union-attr]


def receive_type(ws: Any, kind: str) -> dict[str, Any]:
    msg = receive(ws)
    while msg["type"] != kind:
        msg = receive(ws)
    return msg


def seats_of(client: TestClient, matched: dict[str, Any]) -> list[dict[str, Any]]:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": matched["code"], "token": matched["token"]}))
        return list(receive_type(ws, "table")["table"]["seats"])


def test_four_people_queued_at_once_are_seated_together(client: TestClient) -> None:
    names = ["Ana", "Ben", "Cleo", "Dan"]
    with (
        client.websocket_connect("/ws/match") as a,
        client.websocket_connect("/ws/match") as b,
        client.websocket_connect("/ws/match") as c,
        client.websocket_connect("/ws/match") as d,
    ):
        pages = [a, b, c, d]
        waiting = [join(ws, n)["waiting"] for ws, n in zip(pages, names, strict=True)]
        assert waiting == [1, 2, 3, 4]
        matched = [receive_status(ws, "matched") for ws in pages]
    assert len({m["code"] for m in matched}) == 1
    assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]
    assert matched[0]["link"] == f"/#/t/{matched[0]['code']}"
    seats = seats_of(client, matched[0])
    assert [s["kind"] for s in seats] == ["human"] * 4
    assert sorted(s["name"] for s in seats) == names


def test_two_people_get_two_bots_once_their_wait_is_over(client: TestClient, clock: ManualClock) -> None:
    quick = client.app.state.quick  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/match") as a, client.websocket_connect("/ws/match") as b:
        assert join(a, "Ana", wait=30, target=50)["seconds"] == 30
        assert join(b, "Ben", wait=30, target=50)["waiting"] == 2
        advance(client, clock, 29)
        assert len(quick.queue) == 2  # still waiting for people
        advance(client, clock, 1)
        ma, mb = receive_status(a, "matched"), receive_status(b, "matched")
    assert ma["code"] == mb["code"] and {ma["seat"], mb["seat"]} == {0, 1}
    seats = seats_of(client, ma)
    assert [s["kind"] for s in seats] == ["human", "human", "bot", "bot"]
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": ma["code"], "token": ma["token"]}))
        state = receive_type(ws, "state")
    assert state["rules"]["target"] == 50 and state["rules"]["players"] == 4


def test_a_person_who_leaves_or_closes_the_page_is_never_seated(
    client: TestClient, clock: ManualClock
) -> None:
    quick = client.app.state.quick  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/match") as a, client.websocket_connect("/ws/match") as c:
        join(a, "Ana", players="3-5")
        with client.websocket_connect("/ws/match") as gone:
            join(gone, "Gone", players="3-5")
        wait(client, lambda: len(quick.queue) == 1)  # the closed page left the queue
        join(c, "Cleo", players="3-5")
        c.send_text(json.dumps({"type": "leave"}))
        receive_status(c, "left")
        with client.websocket_connect("/ws/match") as e:
            join(e, "Eve", players="3-5")
            advance(client, clock, 30)
            ma, me = receive_status(a, "matched"), receive_status(e, "matched")
    assert ma["code"] == me["code"]
    seats = seats_of(client, ma)
    # Three to five players: the two people still there, and a bot to make three.
    assert [(s["kind"], s["name"]) for s in seats][:2] == [("human", "Ana"), ("human", "Eve")]
    assert [s["kind"] for s in seats] == ["human", "human", "bot"]
    assert len(quick.queue) == 0 and quick.local == {}


def register(client: TestClient, nickname: str, rating: float) -> str:
    r = client.post("/api/accounts", json={"nickname": nickname, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    db = client.app.state.db  # type: ignore[attr-defined]

    async def rate() -> None:
        async with db.write() as conn:
            await conn.execute(
                update(schema.accounts).where(schema.accounts.c.nickname == nickname).values(rating=rating)
            )

    client.portal.call(rate)  # type: ignore[union-attr]
    return str(r.cookies["damepique_session"])


def test_ranked_quick_matches_pair_people_by_rating(client: TestClient, clock: ManualClock) -> None:
    with client.websocket_connect("/ws/match") as anon:
        anon.send_text(json.dumps({"type": "join", "ranked": True}))
        assert receive(anon)["code"] == "account_needed"
    people = [("Low1", 1500.0), ("High1", 1900.0), ("Low2", 1505.0), ("High2", 1910.0)]
    cookies = {n: register(client, n, r) for n, r in people}
    pages = {
        n: client.websocket_connect("/ws/match", headers={"cookie": f"damepique_session={cookies[n]}"})
        for n, _ in people
    }
    try:
        for ws in pages.values():
            ws.__enter__()
            join(ws, "ignored", ranked=True, wait=10)
        # Four people of one choice, but 400 points apart: not one table at once.
        assert len(client.app.state.quick.queue) == 4  # type: ignore[attr-defined]
        advance(client, clock, 10)
        matched = {n: receive_status(ws, "matched") for n, ws in pages.items()}
    finally:
        for ws in pages.values():
            ws.__exit__(None, None, None)
    assert matched["Low1"]["code"] == matched["Low2"]["code"] != matched["High1"]["code"]
    assert matched["High1"]["code"] == matched["High2"]["code"]
    seats = seats_of(client, matched["High1"])
    assert [s["name"] for s in seats if s["kind"] == "human"] == ["High1", "High2"]
    assert seats_of(client, matched["Low1"])[0]["nickname"] == "Low1"


def test_a_player_who_left_three_ranked_games_waits_an_hour_for_quick_ranked(
    client: TestClient, clock: ManualClock
) -> None:
    cookie = register(client, "Runner", 1500.0)
    stats = client.app.state.tables.stats  # type: ignore[attr-defined]
    now = clock.time()
    headers = {"cookie": f"damepique_session={cookie}"}

    def left(game: str, ago: float) -> None:
        client.portal.call(stats.left, "runner", game, now - ago)  # type: ignore[union-attr]

    left("g1", 7200.0)
    left("g2", 600.0)
    with client.websocket_connect("/ws/match", headers=headers) as ws:
        join(ws, "Runner", ranked=True)  # two leaves: still welcome
        ws.send_text(json.dumps({"type": "leave"}))
        receive_status(ws, "left")
    left("g3", 60.0)  # the third in a day: an hour from this one
    with client.websocket_connect("/ws/match", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "join", "ranked": True}))
        refused = receive(ws)
        assert refused["code"] == "quick_barred" and refused["params"] == {"minutes": 59, "leaves": 3}
        assert "left 3 ranked games" in refused["reason"]
        join(ws, "Runner", ranked=False)  # casual play stays open
    assert client.get("/api/players/runner/stats").json()["leaves"]["barred_until"] == now - 60 + 3600
    advance(client, clock, 3540)
    with client.websocket_connect("/ws/match", headers=headers) as ws:
        join(ws, "Runner", ranked=True)


def test_a_reconnected_page_keeps_its_place_or_hears_where_it_sits(
    client: TestClient, clock: ManualClock
) -> None:
    quick = client.app.state.quick  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/match") as a:
        ticket = join(a, "Ana", wait=10)["ticket"]
    wait(client, lambda: len(quick.queue) == 0)
    with client.websocket_connect("/ws/match") as a, client.websocket_connect("/ws/match") as b:
        assert join(a, "Ana", wait=10, ticket=ticket)["ticket"] == ticket
        join(b, "Ben", wait=10)
        # The same person again from another page: the first page hears it was replaced.
        with client.websocket_connect("/ws/match") as a2:
            join(a2, "Ana", wait=10)
            assert receive_status(a, "replaced")["ticket"] == ticket
            advance(client, clock, 10)
            m2, mb = receive_status(a2, "matched"), receive_status(b, "matched")
        assert m2["code"] == mb["code"]
    with client.websocket_connect("/ws/match") as again:
        # The page that was matched comes back with its ticket: where it sits, not a new wait.
        again.send_text(json.dumps({"type": "join", "name": "Ana", "ticket": m2["ticket"]}))
        assert receive_status(again, "matched")["token"] == m2["token"]
    assert len(quick.queue) == 0


def test_the_people_waiting_hear_how_many_wait_with_them(client: TestClient) -> None:
    with client.websocket_connect("/ws/match") as a:
        assert join(a, "Ana", players="3-5")["waiting"] == 1
        with client.websocket_connect("/ws/match") as b, client.websocket_connect("/ws/match") as c:
            assert join(b, "Ben", players="3-5")["waiting"] == 2
            assert receive_status(a, "waiting")["waiting"] == 2
            assert join(c, "Cy", players="4")["waiting"] == 1  # another queue: Ana hears nothing of it
        assert receive_status(a, "waiting")["waiting"] == 1  # Ben closed his page (Cy too)
        a.send_text(json.dumps({"type": "leave"}))
        assert receive(a)["status"] == "left"  # nothing about the other queue came before


def test_bad_joins_get_a_reason_and_change_nothing(client: TestClient) -> None:
    quick = client.app.state.quick  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/match") as ws:
        for body, code in [
            ({"type": "join", "players": 6}, "bad_option"),
            ({"type": "join", "target": 75}, "bad_option"),
            ({"type": "join", "wait": -1}, "bad_option"),
            ({"type": "join", "wait": 10_000}, "bad_option"),
            ({"type": "join", "ranked": "yes"}, "bad_option"),
            ({"type": "dance"}, "bad_message"),
        ]:
            ws.send_text(json.dumps(body))
            answer = receive(ws)
            assert answer["type"] == "error" and answer["code"] == code, (body, answer)
        ws.send_text("{oops")
        assert receive(ws)["code"] == "bad_json"
    assert len(quick.queue) == 0 and quick.local == {}
    assert client.get("/api/quick").json()["wait"] == 30


def test_a_quick_matched_game_shows_nobody_a_hidden_card(tmp_path: Path) -> None:
    # The real clock: four people sit at once and play a short game (50 points) to its end.
    with TestClient(make_app(tmp_path / "real.sqlite3")) as client:
        pages = [client.websocket_connect("/ws/match") for _ in range(4)]
        try:
            queued = []
            for i, ws in enumerate(pages):
                ws.__enter__()
                queued.append(join(ws, f"P{i}", target=50))
            matched = [receive_status(ws, "matched") for ws in pages]
            # What the queue says carries no card (nor anyone's token but the page's own).
            assert [list(cards_in(m)) for m in queued + matched] == [[]] * 8
            assert all(sum(m["token"] in json.dumps(o) for o in matched) == 1 for m in matched)
        finally:
            for ws in pages:
                ws.__exit__(None, None, None)
        code = matched[0]["code"]
        logs: list[list[dict[str, Any]]] = [[] for _ in matched]
        conns = [client.websocket_connect("/ws") for _ in matched]
        try:
            players = []
            for ws, m, log in zip(conns, matched, logs, strict=True):
                ws.__enter__()
                hello(ws, code, m["token"], log)
                players.append(Player(ws, seed=m["seat"], log=log))
            for p in players:
                p.start()
            for p in players:
                p.join(150)
                assert not p.is_alive(), "the game did not finish in time"
                assert p.failure is None and p.errors == [], (p.failure, p.errors)
        finally:
            for ws in conns:
                ws.__exit__(None, None, None)
        final = players[0].final
        assert final is not None and final["over"]
        record = client.get(f"/api/games/{final['game']}/record").json()
        rules = Rules.from_json(record["rules"])
        for m, log in zip(matched, logs, strict=True):
            assert check_frames(record, rules, m["seat"], log) > 0
        # The game counts in each guest's statistics, by the browser's id the page sent.
        mine = lambda: client.get("/api/stats", headers={"X-Player": "device-of-P0"}).json()  # noqa: E731
        games = client.app.state.tables.games  # type: ignore[attr-defined]

        async def finished() -> bool:  # results are stored just after the last card
            row = await games.get_game(final["game"])
            return row is not None and row.finished is not None

        wait(client, finished)
        assert mine()["games"] == 1
        assert mine()["points"] == final["totals"][matched[0]["seat"]]
        assert mine()["last"][0]["mode"] == "casual"


def test_a_bot_joins_quick_matches_only_when_its_owner_allows_and_only_casual(client: TestClient) -> None:
    """Issue 29: a program in the queue is its owner's choice, and never ranked."""
    r = client.post("/api/accounts", json={"nickname": "owner_q", "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    token = client.post("/api/bots", json={"nickname": "quick_bot"}).json()["token"]
    bearer = {"authorization": f"Bearer {token}"}
    with client.websocket_connect("/ws/match", headers=bearer) as ws:
        ws.send_text(json.dumps({"type": "join", "name": "x"}))
        assert receive(ws)["code"] == "bot_not_allowed"
    assert len(client.app.state.quick.queue) == 0  # type: ignore[attr-defined]

    allowed = client.post("/api/bots/quick_bot/quick", json={"allowed": True})
    assert allowed.json() == {"nickname": "quick_bot", "quick": True}
    assert client.post("/api/bots/nobody_bot/quick", json={"allowed": True}).json()["code"] == "not_found"
    assert client.post("/api/bots/quick_bot/quick", json={"allowed": "yes"}).json()["code"] == "bad_request"
    # Only the owner decides: the bot itself cannot.
    assert client.post("/api/bots/quick_bot/quick", json={"allowed": True}, headers=bearer).status_code == 403
    with client.websocket_connect("/ws/match", headers=bearer) as ws:
        ws.send_text(json.dumps({"type": "join", "name": "x", "ranked": True}))
        assert receive(ws)["code"] == "bots_casual_only"
        assert len(client.app.state.quick.queue) == 0  # type: ignore[attr-defined]
        join(ws, "x")
        assert len(client.app.state.quick.queue) == 1  # type: ignore[attr-defined]


def test_a_restart_keeps_the_waits_and_the_seats_of_the_tickets(tmp_path: Path, clock: ManualClock) -> None:
    path = tmp_path / "restart.sqlite3"
    with TestClient(make_app(path, clock)) as first:
        with first.websocket_connect("/ws/match") as a, first.websocket_connect("/ws/match") as b:
            seated = [join(ws, n, wait=0, players="3-5") for ws, n in ((a, "Ana"), (b, "Ben"))]
            matched = [receive_status(ws, "matched") for ws in (a, b)]
        with first.websocket_connect("/ws/match") as c:
            waiting = join(c, "Cy", wait=30)
            advance(first, clock, 10)
            c.close(1012)  # the server going away closes its sockets so (uvicorn's code)
        quick = first.app.state.quick  # type: ignore[attr-defined]
        wait(first, lambda: not quick.local)
        assert len(quick.queue) == 1  # kept for the page to take back
    with TestClient(make_app(path, clock)) as second:
        with second.websocket_connect("/ws/match") as c:
            # Cy's page comes back with its ticket: its countdown goes on where it was.
            again = join(c, "Cy", wait=30, ticket=waiting["ticket"])
            assert again["seconds"] == 20
            advance(second, clock, 20)
            assert receive_status(c, "matched")["ticket"] == waiting["ticket"]
        with second.websocket_connect("/ws/match") as a:
            # Ana's page, seated before the restart, hears where it sits: not a new wait.
            a.send_text(json.dumps({"type": "join", "name": "Ana", "ticket": seated[0]["ticket"]}))
            assert receive_status(a, "matched")["token"] == matched[0]["token"]
        assert len(second.app.state.quick.queue) == 0  # type: ignore[attr-defined]


def test_a_wait_sits_at_one_table_once_whoever_seats_it(tmp_path: Path, clock: ManualClock) -> None:
    # Two owners seating the same people (one that lost the queue and does not know it
    # yet): the seat token names the wait, once; the second table seats nobody and
    # closes, and the database still takes writes.
    with TestClient(make_app(tmp_path / "once.sqlite3", clock)) as client:
        state = client.app.state  # type: ignore[attr-defined]
        people = [
            state.quick.entry({"wait": 30, "player": f"device-of-{n}", "players": "3-5"}, {}, n, None)
            for n in ("Ana", "Ben")
        ]
        seat = table_seater(state.tables)
        first = client.portal.call(seat, people[0].choice, people)  # type: ignore[union-attr]
        assert [w and w["seat"] for w in first] == [0, 1]
        before = set(state.tables.tables)
        assert client.portal.call(seat, people[0].choice, people) == [None, None]  # type: ignore[union-attr]
        assert set(state.tables.tables) == before  # the second table closed: no game of bots alone
        assert first[0] is not None
        names = [s["name"] for s in seats_of(client, first[0])]
        assert names[:2] == ["Ana", "Ben"] and len(names) == 3
        assert client.get("/healthz").status_code == 200
