"""Multiplayer tables over the WebSocket, in-process: whole games with several
people and a spectator (every frame checked for hidden cards), seat tokens,
bad and hostile input, timers, absence and stand-in bots, leaving, rematch,
quick messages, the lobby, a restart, accounts and ratings."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import PRESETS
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.settings import Settings

from ..clocks import WITHIN, move, wait
from ..server.helpers import MALFORMED
from .mp_helpers import (
    Patched,
    Player,
    check_frames,
    create_table,
    hello,
    next_error,
    recv,
    recv_type,
    sit,
)

GRACE = 60.0


def make_app(path: Path, clock: ManualClock | None = None) -> Any:
    """The app on a ``ManualClock`` (one that stands still unless a test moves it)."""
    settings = Settings(
        clock=clock or ManualClock(), grace=GRACE, timer_choices=(0, 1, 30, 60), chat_interval=0.0
    )
    return create_app(f"sqlite+aiosqlite:///{path}", settings=settings)


def away(
    client: TestClient, clock: ManualClock, ws: Any, seat: int, log: list[dict[str, Any]] | None = None
) -> None:
    """Once ``ws`` hears that ``seat`` is no longer connected (its grace period
    runs), move the clock past the grace period."""
    while True:
        m = recv(ws, log)
        if m["type"] == "table" and not m["table"]["seats"][seat]["connected"]:
            break
    move(client, clock, GRACE)


async def rated(client: TestClient, n: int) -> bool:
    """Whether ``n`` players have a rating (results are written just after the last card)."""
    return len(await client.app.state.accounts.store.leaderboard()) >= n  # type: ignore[attr-defined]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "mp.sqlite3")) as c:
        yield c


def ws_connect(client: TestClient, cookie: str | None = None) -> Any:
    headers = {"cookie": f"damepique_session={cookie}"} if cookie else {}
    return client.websocket_connect("/ws", headers=headers)


def run_players(players: list[Player], limit: float = WITHIN) -> None:
    for p in players:
        p.start()
    for p in players:
        p.join(limit)
        assert not p.is_alive(), "the game did not finish in time"
        assert p.failure is None, p.failure
        assert p.errors == [], p.errors


@pytest.mark.parametrize(
    ("preset", "people", "patches"),
    [
        ("short", 2, False),
        ("five_players", 3, True),
        ("three_players_kitty", 3, False),
        ("three_players_kitty", 3, True),  # the kitty shown with the first trick, by a patch
    ],
)
def test_friends_play_a_whole_game_and_no_frame_carries_a_hidden_card(
    client: TestClient, preset: str, people: int, patches: bool
) -> None:
    """With ``patches`` the players ask for patches and lay them over their
    last state: the states they hold are checked as whole ones."""
    rules = PRESETS[preset].replace(target=50)
    t = create_table(client, rules=rules.to_json())
    logs: list[list[dict[str, Any]]] = [[] for _ in range(people)]
    spectator_log: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        conns: list[Any] = [stack.enter_context(ws_connect(client)) for _ in range(people)]
        if patches:
            conns = [Patched(c) for c in conns]
        spec = stack.enter_context(ws_connect(client))
        host = conns[0]
        hello(host, t["code"], t["token"], logs[0])
        tokens = [t["token"]]
        for i in range(1, people):
            hello(conns[i], t["code"].lower(), None, logs[i])  # codes are read in any case
            seated = sit(conns[i], f"Friend {i}", logs[i])
            assert seated["seat"] == i
            tokens.append(seated["token"])
        hello(spec, f"{t['code'][:4]}-{t['code'][4:]}", None, spectator_log)
        host.send_text(json.dumps({"type": "start"}))
        players = [Player(c, seed=i, log=logs[i]) for i, c in enumerate(conns)]
        run_players(players)
        final = players[0].final
        assert final is not None and final["over"]
        assert [s["kind"] for s in final["seats"]].count("human") == people
        # The spectator saw the same game, without any hand.
        while not any(m["type"] == "state" and m["over"] for m in spectator_log):
            recv(spec, spectator_log)
        last = [m for m in spectator_log if m["type"] == "state"][-1]
        assert last["totals"] == final["totals"]
    record = client.get(f"/api/games/{final['game']}/record").json()
    if patches:
        # Whole states only after hello and at the start: the rest are patches,
        # most of them play patches (a card in the middle of a deal).
        assert all(c.states > 20 and c.patches > c.states // 2 for c in conns)
        assert all(c.plays > c.patches // 2 for c in conns)
    checked = sum(check_frames(record, rules, seat, logs[seat]) for seat in range(people))
    checked += check_frames(record, rules, None, spectator_log)
    assert checked > 500
    # A seat token is only ever sent to its holder.
    everything = json.dumps([logs, spectator_log])
    for i, token in enumerate(tokens):
        assert everything.count(token) == (0 if i == 0 else 1)


def test_bad_and_hostile_input_gets_a_reason_and_changes_nothing(client: TestClient) -> None:
    t = create_table(client, preset="standard", fill=False, rules={"players": 3})
    other = create_table(client, preset="short")
    with ws_connect(client) as a, ws_connect(client) as b, ws_connect(client) as c, ws_connect(client) as d:
        # Before hello, and hello itself.
        a.send_text(json.dumps({"type": "play", "card": "2C"}))
        assert next_error(a)["code"] == "not_joined"
        for msg, code in [
            ({"type": "hello", "table": "0O1I0O1I"}, "bad_code"),
            ({"type": "hello", "table": "ABCDEFGH"}, "no_table"),
            ({"type": "hello", "table": t["code"], "token": "forged-token-forged"}, "bad_token"),
            ({"type": "hello", "table": t["code"], "token": other["token"]}, "bad_token"),
            ({"type": "hello", "table": t["code"], "token": 12}, "bad_token"),
        ]:
            a.send_text(json.dumps(msg))
            err = next_error(a)
            assert err["code"] == code and err["reason"], (msg, err)
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        # A spectator cannot act.
        for msg in ({"type": "start"}, {"type": "play", "card": "2C"}, {"type": "chat", "message": "oops"}):
            b.send_text(json.dumps(msg))
            assert next_error(b)["code"] == "not_seated"
        sit(b, "Bob")
        # Start needs the host, and (no bots) a full table.
        b.send_text(json.dumps({"type": "start"}))
        assert next_error(b)["code"] == "not_host"
        a.send_text(json.dumps({"type": "start"}))
        assert next_error(a)["code"] == "cannot_start"
        a.send_text(json.dumps({"type": "play", "card": "2C"}))
        assert next_error(a)["code"] == "no_game"
        hello(c, t["code"])
        sit(c, "Cy")
        # Joining a full table, over the socket and over HTTP.
        hello(d, t["code"])
        d.send_text(json.dumps({"type": "sit", "name": "Dee"}))
        assert next_error(d)["code"] == "table_full"
        r = client.post(f"/api/tables/{t['code']}/seats", json={"name": "Eve"})
        assert r.status_code == 409 and r.json()["code"] == "table_full"
        a.send_text(json.dumps({"type": "start"}))
        state = recv_type(a, "state")
        hand = state["view"]["hand"]
        bad: list[tuple[str, str]] = [
            *MALFORMED,
            (json.dumps({"type": "pass", "cards": hand[:2]}), "illegal_pass"),
            (json.dumps({"type": "pass", "cards": "QS AS KS"}), "bad_card"),
            (json.dumps({"type": "play", "card": hand[0]}), "not_playing"),
            (json.dumps({"type": "rematch", "game": state["game"]}), "stale_rematch"),
            (json.dumps({"type": "rematch", "game": "old"}), "stale_rematch"),
            (json.dumps({"type": "chat", "message": "free text is not allowed"}), "bad_chat"),
            (json.dumps({"type": "mute", "seat": 9}), "bad_seat"),
            (json.dumps({"type": "sit", "name": "again"}), "already_seated"),
            (json.dumps({"type": "start"}), "cannot_start"),
        ]
        for text, code in bad:
            a.send_text(text)
            err = next_error(a)
            assert err["code"] == code and err["reason"], (text[:60], err)
        a.send_bytes(b"\xff\xfe")
        assert next_error(a)["code"] == "bad_json"
        # A seat number in an action is not trusted: b "passes for seat 0" and passes for itself.
        b_hand = recv_type(b, "state")["view"]["hand"]
        b.send_text(json.dumps({"type": "pass", "cards": b_hand[:3], "seat": 0, "id": "b1"}))
        mine = recv_type(b, "state")
        while mine.get("ack") != "b1":
            mine = recv_type(b, "state")
        assert mine["seat"] == 1 and set(mine["view"]["passed"]) == set(b_hand[:3])
        a.send_text(json.dumps({"type": "hello", "table": t["code"], "token": t["token"]}))
        again = recv_type(a, "state")
        assert again["view"]["hand"] == hand and again["view"]["passed"] is None
        # A flood is refused with a reason; the others are unaffected.
        for _ in range(250):
            c.send_text(json.dumps({"type": "ping"}))
        codes = set()
        for _ in range(250):
            m = recv(c)
            while m["type"] not in ("pong", "error"):
                m = recv(c)
            codes.add(m.get("code", "pong"))
        assert "rate_limited" in codes and "pong" in codes
        b.send_text(json.dumps({"type": "ping", "id": 5}))
        assert recv_type(b, "pong")["ref"] == 5


def test_seat_token_brings_a_player_back_to_the_same_seat(client: TestClient) -> None:
    t = create_table(client, preset="short")
    with ws_connect(client) as a:
        hello(a, t["code"], t["token"])
        with ws_connect(client) as b:
            hello(b, t["code"])
            bob = sit(b, "Bob")
            a.send_text(json.dumps({"type": "start"}))
            before = recv_type(b, "state")
        # Bob's connection dropped; a new one with the token is back in seat 1 with its view.
        with ws_connect(client) as b2:
            b2.send_text(json.dumps({"type": "hello", "table": t["code"], "token": bob["token"]}))
            table = recv_type(b2, "table")
            assert table["you"] == 1 and table["table"]["seats"][1]["connected"]
            state = recv_type(b2, "state")
            assert state["seat"] == 1 and state["view"]["hand"] == before["view"]["hand"]
            # The token alone is enough (no code), and it never opens another table.
            b2.send_text(json.dumps({"type": "hello", "token": bob["token"]}))
            assert recv_type(b2, "state")["seat"] == 1


def test_a_seats_second_connection_coming_and_going_tells_the_others_nothing(client: TestClient) -> None:
    # The table the others were shown is the same (Bob is connected all along):
    # a client keeps the last ``table`` it got, so none is sent (a reconnect storm's
    # new sockets often arrive before the old ones are found dead).
    t = create_table(client, preset="short")
    with ws_connect(client) as a, ws_connect(client) as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        bob = sit(b, "Bob")
        shown = recv_type(a, "table")["table"]
        while not shown["seats"][1]["connected"]:
            shown = recv_type(a, "table")["table"]
        with ws_connect(client) as b2:
            table = hello(b2, t["code"], bob["token"])
            assert table["you"] == 1 and table["table"] == shown  # the newcomer is answered all the same
            a.send_text(json.dumps({"type": "ping", "id": 1}))
            assert (m := recv(a))["type"] == "pong" and m["ref"] == 1
        a.send_text(json.dumps({"type": "ping", "id": 2}))
        assert (m := recv(a))["type"] == "pong" and m["ref"] == 2
        b.close()
        gone = recv_type(a, "table")["table"]  # Bob's last connection went: that changes the table
        assert not gone["seats"][1]["connected"]


def test_leaving_for_good_hands_the_seat_to_a_bot(client: TestClient) -> None:
    t = create_table(client, preset="short")
    with ws_connect(client) as a, ws_connect(client) as b:
        log: list[dict[str, Any]] = []
        hello(a, t["code"], t["token"], log)
        hello(b, t["code"])
        bob = sit(b, "Bob")
        a.send_text(json.dumps({"type": "start"}))
        recv_type(b, "state")
        b.send_text(json.dumps({"type": "leave"}))
        left = recv_type(b, "notice")
        assert left["kind"] == "left" and left["seat"] == 1
        b.send_text(json.dumps({"type": "play", "card": "2C"}))
        assert next_error(b)["code"] == "not_seated"
        host = Player(a, seed=5, log=log)
        run_players([host])
        assert host.final is not None and host.final["seats"][1]["kind"] == "bot"
        assert [m for m in log if m["type"] == "table"][-1]["table"]["seats"][1]["left"]
        with ws_connect(client) as b2:
            b2.send_text(json.dumps({"type": "hello", "table": t["code"], "token": bob["token"]}))
            assert next_error(b2)["code"] == "bad_token"


def test_rematch_keeps_the_table_together_and_a_stale_one_is_refused(client: TestClient) -> None:
    t = create_table(client, preset="short", rules={"target": 20})
    with ws_connect(client) as a, ws_connect(client) as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        sit(b, "Bob")
        a.send_text(json.dumps({"type": "start"}))
        pa, pb = Player(a, seed=1), Player(b, seed=2)
        run_players([pa, pb])
        assert pa.final is not None
        first = pa.final["game"]
        b.send_text(json.dumps({"type": "rematch", "game": first}))
        state = recv_type(a, "state")
        while state["game"] == first:
            state = recv_type(a, "state")
        assert state["seats"][1]["name"] == "Bob" and not state["over"]
        b.send_text(json.dumps({"type": "rematch", "game": first}))
        assert next_error(b)["code"] == "stale_rematch"


def test_quick_messages_and_muting(client: TestClient) -> None:
    t = create_table(client, preset="short")
    with ws_connect(client) as a, ws_connect(client) as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        sit(b, "Bob")
        a.send_text(json.dumps({"type": "chat", "message": "well_played"}))
        chat = recv_type(b, "chat")
        assert chat == {"v": 2, "type": "chat", "seat": 0, "message": "well_played"}
        b.send_text(json.dumps({"type": "mute", "seat": 0}))
        assert recv_type(b, "muted")["seats"] == [0]
        assert recv_type(a, "chat")["message"] == "well_played"  # the sender sees it
        a.send_text(json.dumps({"type": "chat", "message": "oops"}))
        assert recv_type(a, "chat")["message"] == "oops"
        b.send_text(json.dumps({"type": "ping", "id": "after"}))
        m = recv(b)
        while m["type"] != "pong":
            assert m["type"] != "chat", m
            m = recv(b)


class LobbyWatch:
    """What a page watching the lobby shows: the list, then the changes applied."""

    def __init__(self, ws: Any, soon: Any = None) -> None:
        self.ws = ws
        self.soon = soon
        """Called before each wait: moves the clock past the lobby's delay (0.1 s)."""
        first = recv_type(ws, "lobby")
        self.tables = {x["code"]: x for x in first["tables"]}
        self.messages: list[dict[str, Any]] = [first]

    def next(self) -> dict[str, dict[str, Any]]:
        m = recv(self.ws)
        while m["type"] != "lobby_changes":
            m = recv(self.ws)
        self.messages.append(m)
        for code in m["gone"]:
            del self.tables[code]
        self.tables.update((x["code"], x) for x in m["tables"])
        return self.tables

    def until(self, ok: Any) -> dict[str, dict[str, Any]]:
        while not ok(self.tables):
            if self.soon is not None:
                self.soon()
            self.next()
        return self.tables


def test_the_lobby_lists_public_tables_live_and_never_private_ones(client: TestClient) -> None:
    clock = client.app.state.settings.clock  # type: ignore[attr-defined]
    with client.websocket_connect("/ws/lobby") as ws:
        lobby = LobbyWatch(ws, soon=lambda: move(client, clock, 0.1))
        assert lobby.tables == {}
        private = create_table(client, preset="short")
        public = create_table(client, preset="short", public=True, ranked=False, timer=30)
        tables = lobby.until(bool)
        assert list(tables) == [public["code"]] and private["code"] not in json.dumps(lobby.messages)
        row = tables[public["code"]]
        assert row["taken"] == 1 and row["free"] == 3 and row["options"]["timer"] == 30
        other = create_table(client, preset="short", public=True)
        lobby.until(lambda t: other["code"] in t)
        client.post(f"/api/tables/{public['code']}/seats", json={"name": "Zoe"})
        tables = lobby.until(lambda t: t[public["code"]]["taken"] == 2)
        assert tables[public["code"]]["names"] == ["Host", "Zoe"]
        # Only what changed travels: Zoe's seat did not send the other table again.
        assert [x["code"] for x in lobby.messages[-1]["tables"]] == [public["code"]]
        # A page that says something is not answered with the list.
        ws.send_text(json.dumps({"type": "lobby"}))
        with client.websocket_connect("/ws/lobby") as ws2:  # a later watcher starts from the whole list
            assert LobbyWatch(ws2).tables == tables
        with ws_connect(client) as host:  # its host leaves: the table closes and goes
            hello(host, other["code"], other["token"])
            host.send_text(json.dumps({"type": "leave"}))
            recv_type(host, "notice")  # it is done: the lobby hears of it
            lobby.until(lambda t: other["code"] not in t)
        assert lobby.messages[-1]["gone"] == [other["code"]] and lobby.messages[-1]["tables"] == []
        assert sum(m["type"] == "lobby" for m in lobby.messages) == 1
    assert [x["code"] for x in client.get("/api/lobby").json()["tables"]] == [public["code"]]
    assert client.get(f"/api/tables/{private['code']}").status_code == 200
    assert client.get("/api/tables/ABCDEFGH").status_code == 404


def test_a_restart_resumes_every_table_with_seats_timers_and_scores(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    with TestClient(make_app(path)) as client:
        t = create_table(client, preset="short", timer=30)
        with ws_connect(client) as a, ws_connect(client) as b:
            hello(a, t["code"], t["token"])
            hello(b, t["code"])
            bob = sit(b, "Bob")
            a.send_text(json.dumps({"type": "start"}))
            pa, pb = Player(a, seed=1, actions=6), Player(b, seed=2, actions=6)
            pa.start()
            pb.start()
            pa.join(WITHIN)
            pb.join(WITHIN)
            # Bob's last card is in once his own hello after it is answered (in order).
            b.send_text(json.dumps({"type": "hello", "table": t["code"], "token": bob["token"], "id": "b"}))
            while recv(b).get("ack") != "b":
                pass
            a.send_text(json.dumps({"type": "hello", "table": t["code"], "token": t["token"], "id": "now"}))
            before = recv_type(a, "state")
            while before.get("ack") != "now":
                before = recv_type(a, "state")
            assert not before["over"]
    # A new app on the same database: the table and its game are back.
    with TestClient(make_app(path)) as client, ws_connect(client) as a, ws_connect(client) as b:
        hello(a, t["code"], t["token"])
        after = recv_type(a, "state")
        assert after["game"] == before["game"] and after["totals"] == before["totals"]
        assert (
            after["view"]["hand"] == before["view"]["hand"]
            and after["view"]["tricks"] == before["view"]["tricks"]
        )
        assert after["seats"][1]["name"] == "Bob" and after["timer"]["seconds"] == 30
        if after["view"]["to_act"] in (0, 1):
            # The turn keeps its deadline across the restart: it does not start again.
            assert before["timer"]["deadline"]
            assert abs(after["timer"]["deadline"] - before["timer"]["deadline"]) < 100
        hello(b, t["code"], bob["token"])
        pa, pb = Player(a, seed=3, first=after), Player(b, seed=4)
        run_players([pa, pb])
        assert pa.final is not None and pa.final["over"]


def register(client: TestClient, nickname: str, password: str = "correct horse") -> str:
    r = client.post("/api/accounts", json={"nickname": nickname, "password": password})
    assert r.status_code == 201, r.text
    cookie = r.cookies["damepique_session"]
    assert "httponly" in r.headers["set-cookie"].lower()
    client.cookies.clear()
    return cookie


def test_accounts_ranked_games_elo_leaderboard_and_profile(client: TestClient) -> None:
    assert client.post("/api/accounts", json={"nickname": "x", "password": "long enough"}).status_code == 400
    assert client.post("/api/accounts", json={"nickname": "lea", "password": "short"}).status_code == 400
    lea = register(client, "Lea")
    tom = register(client, "Tom")
    assert client.post("/api/accounts", json={"nickname": "LEA", "password": "whatever1"}).status_code == 409
    client.cookies.clear()
    assert client.post("/api/login", json={"nickname": "lea", "password": "wrong one"}).status_code == 401
    r = client.post("/api/login", json={"nickname": "LEA", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["nickname"] == "Lea"
    client.cookies.clear()
    assert client.get("/api/me").json() == {"nickname": None}
    assert client.get("/api/me", cookies={"damepique_session": lea + "x"}).json() == {"nickname": None}
    assert client.get("/api/me", cookies={"damepique_session": lea}).json()["nickname"] == "Lea"
    # Ranked tables need an account.
    r = client.post("/api/tables", json={"preset": "short", "ranked": True})
    assert r.status_code == 401 and r.json()["code"] == "account_needed"
    r = client.post(
        "/api/tables",
        json={"preset": "short", "ranked": True, "speed": "fast", "level": "beginner"},
        cookies={"damepique_session": lea},
    )
    client.cookies.clear()
    t = r.json()
    with ws_connect(client) as anon:
        hello(anon, t["code"])
        anon.send_text(json.dumps({"type": "sit", "name": "Anon"}))
        assert next_error(anon)["code"] == "account_needed"
    with ws_connect(client, lea) as a, ws_connect(client, tom) as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        seated = sit(b, "ignored")
        table = recv_type(b, "table")["table"]
        assert table["seats"][seated["seat"]]["name"] == "Tom" and table["options"]["ranked"]
        a.send_text(json.dumps({"type": "start"}))
        pa, pb = Player(a, seed=1), Player(b, seed=2)
        run_players([pa, pb])
        final = pa.final
        assert final is not None
    totals = final["totals"]
    wait(client, lambda: rated(client, 2))
    board = client.get("/api/leaderboard").json()["players"]
    assert {p["nickname"] for p in board} == {"Lea", "Tom"}
    ratings = {p["nickname"]: p["rating"] for p in board}
    if totals[0] < totals[1]:
        assert ratings["Lea"] == 1516 and ratings["Tom"] == 1484
    elif totals[0] > totals[1]:
        assert ratings["Lea"] == 1484 and ratings["Tom"] == 1516
    else:
        assert ratings == {"Lea": 1500, "Tom": 1500}
    profile = client.get("/api/players/lea").json()
    assert profile["nickname"] == "Lea" and len(profile["history"]) == 1
    stats = profile["stats"]
    assert stats["games"] == 1 and stats["deals"] == len(final["results"])
    assert stats["average_points"] == round(totals[0] / len(final["results"]), 2)
    assert stats["moons"] == sum(1 for r in final["results"] if r["moon"] == 0)
    assert client.get("/api/players/nobody").status_code == 404
    client.post("/api/logout")


def test_spectators_see_nothing_of_the_game_when_the_host_says_no(client: TestClient) -> None:
    t = create_table(client, preset="short", spectators=False)
    with ws_connect(client) as a, ws_connect(client) as b, ws_connect(client) as watcher:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        sit(b, "Bob")
        hello(watcher, t["code"])
        a.send_text(json.dumps({"type": "start"}))
        recv_type(a, "state")
        watcher.send_text(json.dumps({"type": "ping", "id": "w"}))
        m = recv(watcher)
        while m["type"] != "pong":
            assert m["type"] in ("table", "notice"), m
            m = recv(watcher)


def test_a_finished_table_set_aside_is_loaded_again_by_its_code(client: TestClient) -> None:
    t = create_table(client, preset="short", rules={"target": 20})
    with ws_connect(client) as a, ws_connect(client) as b:
        hello(a, t["code"], t["token"])
        hello(b, t["code"])
        bob = sit(b, "Bob")
        a.send_text(json.dumps({"type": "start"}))
        pa, pb = Player(a, seed=1), Player(b, seed=2)
        run_players([pa, pb])
        assert pa.final is not None
    tables = client.app.state.tables.tables  # type: ignore[attr-defined]
    wait(client, lambda: t["code"] not in tables)  # set aside once the results are stored
    with ws_connect(client) as b2:
        hello(b2, t["code"], bob["token"])
        again = recv_type(b2, "state")
        assert again["over"] and again["game"] == pa.final["game"]
        b2.send_text(json.dumps({"type": "rematch", "game": again["game"]}))
        fresh = recv_type(b2, "state")
        while fresh["game"] == again["game"]:
            fresh = recv_type(b2, "state")
        assert not fresh["over"]


@pytest.mark.parametrize("how", ["leave", "stay_away"])
def test_a_ranked_game_a_bot_finished_for_a_player_who_left_is_a_loss(tmp_path: Path, how: str) -> None:
    """Leaving for good, or dropping and never coming back (a stand-in finishes
    the game after the grace period), is a loss for Elo whatever the totals,
    and not a win in the statistics."""
    clock = ManualClock()
    with TestClient(make_app(tmp_path / "r.sqlite3", clock)) as client:
        lea = register(client, "Lea")
        tom = register(client, "Tom")
        r = client.post(
            "/api/tables",
            json={"preset": "short", "rules": {"target": 20}, "ranked": True, "speed": "fast"},
            cookies={"damepique_session": lea},
        )
        client.cookies.clear()
        t = r.json()
        with ws_connect(client, lea) as a:
            hello(a, t["code"], t["token"])
            with ws_connect(client, tom) as b:
                hello(b, t["code"])
                sit(b, "Tom")
                a.send_text(json.dumps({"type": "start"}))
                recv_type(b, "state")
                if how == "leave":
                    b.send_text(json.dumps({"type": "leave"}))
                    recv_type(b, "notice")
            if how == "stay_away":
                away(client, clock, a, 1)
            notice = recv_type(a, "notice")
            while notice["kind"] != ("left" if how == "leave" else "stand_in"):
                notice = recv_type(a, "notice")
            pa = Player(a, seed=1)
            run_players([pa])
            assert pa.final is not None and pa.final["over"]
        wait(client, lambda: rated(client, 2))
        board = client.get("/api/leaderboard").json()["players"]
        assert {p["nickname"]: p["rating"] for p in board} == {"Lea": 1516, "Tom": 1484}
        assert client.get("/api/players/tom").json()["stats"]["wins"] == 0
        # A leave, counted toward the bar on quick ranked matches (three in a day).
        assert client.get("/api/players/tom/stats").json()["leaves"] == {"recent": 1, "barred_until": None}
        assert client.get("/api/players/lea/stats").json()["leaves"]["recent"] == 0


def test_an_unknown_table_option_is_refused_with_a_reason(client: TestClient) -> None:
    """``target`` belongs in ``rules``: outside it (or any typo) the table is not made
    rather than made to 100 points unasked."""
    for body in ({"target": 50}, {"timre": 30}, {"preset": "short", "bots": True}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, body
        err = r.json()
        assert err["code"] == "bad_option" and repr(next(k for k in body if k != "preset")) in err["reason"]
    r = client.post("/api/tables", json={"rules": {"target": 50}, "name": "Ann"})
    assert r.status_code == 201
    assert client.get(f"/api/tables/{r.json()['code']}").json()["rules"]["target"] == 50


def test_a_signed_in_player_is_shown_by_their_nickname_at_an_unranked_table(client: TestClient) -> None:
    lea = register(client, "Lea")
    t = client.post(
        "/api/tables", json={"preset": "short", "name": "Player"}, cookies={"damepique_session": lea}
    ).json()
    client.cookies.clear()
    with ws_connect(client) as guest, ws_connect(client, register(client, "Tom")) as tom:
        hello(guest, t["code"])
        sit(guest, "Zoé")
        hello(tom, t["code"])
        seated = sit(tom, "Player")
        seats = recv_type(tom, "table")["table"]["seats"]
    assert [s["name"] for s in seats[:3]] == ["Lea", "Zoé", "Tom"] and seated["seat"] == 2
    assert seats[0]["nickname"] == "Lea" and seats[1]["nickname"] is None
