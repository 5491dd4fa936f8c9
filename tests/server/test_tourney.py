"""Duplicate tournaments for clubs (issue 27): tables that play the same deals
in the same seat positions, scored against the others who held the same
cards (checked against a computation by hand), no table told anything of a
deal it is still playing, a restart in the middle, and a round the director
ends with deals unfinished."""

from __future__ import annotations

import contextlib
import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import Rules
from damepique.server.app import create_app
from damepique.server.clock import ManualClock
from damepique.server.duplicate import score_board
from damepique.server.play.pace import Pace
from damepique.server.settings import Settings
from damepique.server.tourney.movement import Movement

from ..clocks import WITHIN, move, wait
from ..multiplayer.mp_helpers import Player, cards_in, hello, knowable

RULES = {"players": 4, "target": 100}


def make_app(path: Path, clock: ManualClock | None = None, **settings: Any) -> Any:
    """The app on a database at ``path``, its clock moved by the test, computer
    players answering at once; ``settings``: others (``grace=30``)."""
    return create_app(
        f"sqlite+aiosqlite:///{path}",
        settings=Settings(clock=clock or ManualClock(), **settings),
        pace=Pace(0, 0, 0),
    )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "t.sqlite3")) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tournaments", json={"name": "Club night", "rules": RULES} | body)
    assert r.status_code == 200, r.text
    return r.json()


def join(client: TestClient, code: str, names: list[str]) -> list[dict[str, Any]]:
    out = []
    for name in names:
        r = client.post(f"/api/tournaments/{code}/players", json={"name": name})
        assert r.status_code == 200, r.text
        out.append(r.json() | {"name": name})
    return out


def seat_of(client: TestClient, code: str, player: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{code}/me", json={"player": player["player"]})
    assert r.status_code == 200, r.text
    return dict(r.json()["seat"])


def stored(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    app: Any = client.app
    loaded = client.portal.call(app.state.tourneys.games.load_game, game_id)  # type: ignore[union-attr]
    assert loaded is not None
    return list(loaded[1])


def run(players: list[Player]) -> None:
    for p in players:
        p.start()
    for p in players:
        p.join(WITHIN)
        assert not p.is_alive(), "the game did not finish in time"
        assert p.failure is None, p.failure
        assert p.errors == [], p.errors


def frames_hold_only_what_the_seat_knows(
    events: list[dict[str, Any]], seat: int, log: list[dict[str, Any]]
) -> int:
    """The hidden-card check, on a table of a tournament: every card a frame
    carries is one this seat may know at that point of its own table's game
    (the other tables' plays of the same deals included in what it may not)."""
    record: dict[str, Any] = {"deals": []}
    for e in events:
        if e["type"] == "deal":
            record["deals"].append(
                {"hands": e["hands"], "kitty": e.get("kitty") or [], "plays": [], "passes": []}
            )
        elif e["type"] == "play":
            record["deals"][-1]["plays"].append(e["card"])
        elif e["type"] == "pass":
            record["deals"][-1]["passes"].append((e["seat"], e["cards"]))
    for d in record["deals"]:
        passes = [None] * 4
        for s, cards in d["passes"]:
            passes[s] = cards
        d["passes"] = passes
    checked = 0
    rules = Rules.from_json(RULES)
    for msg in log:
        if msg["type"] != "state" or msg.get("view") is None:
            assert list(cards_in(msg)) == [], msg
            continue
        v = msg["view"]
        plays = sum(len(t["cards"]) for t in v["tricks"]) + len(v["trick"])
        exchanged = v["phase"] != "pass" and rules.pass_offset(v["deal"]) % 4 != 0
        known = knowable(record, rules, seat, v["deal"], plays, exchanged)
        for card in cards_in(msg):
            assert card in known, (seat, card)
            checked += 1
    return checked


def test_two_tables_of_people_and_one_of_bots_play_the_same_deals_scored_as_duplicate(
    client: TestClient,
) -> None:
    t = create(client, deals=2, tables=3, bots=True)
    code = t["code"]
    people = join(client, code, [f"P{i}" for i in range(8)])
    ids = [p["id"] for p in people]
    refused = client.post(f"/api/tournaments/{code}/start", json={"director": "not the token"})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_director")
    r = client.post(
        f"/api/tournaments/{code}/start",
        json={"director": t["director"], "seating": [ids[:4], ids[4:], []]},
    )
    assert r.status_code == 200, r.text
    assert (
        client.post(f"/api/tournaments/{code}/players", json={"name": "Late"}).json()["code"]
        == "tourney_started"
    )
    seats = [seat_of(client, code, p) for p in people]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3] * 2
    logs: list[list[dict[str, Any]]] = [[] for _ in people]
    with contextlib.ExitStack() as stack:
        conns = [stack.enter_context(client.websocket_connect("/ws")) for _ in people]
        for conn, seat, log in zip(conns, seats, logs, strict=True):
            hello(conn, seat["table"], seat["token"], log)
        run([Player(c, seed=i, log=logs[i]) for i, c in enumerate(conns)])
    data = client.get(f"/api/tournaments/{code}/results").json()
    # Every table over: the tournament is over, its secret revealed.
    assert data["status"] == "over" and data["progress"] == [2, 2, 2] and "secret" in data["fairness"]
    shown = client.get(f"/api/tournaments/{code}").json()
    games = [seats[0]["table"], seats[4]["table"]]
    assert len(set(games)) == 2 and shown["status"] == "over"
    # The same deals in the same seats at every table.
    doc = client.portal.call(client.app.state.tourneys.get, code)  # type: ignore[attr-defined,union-attr]
    dealt = [[e["hands"] for e in stored(client, g) if e["type"] == "deal"] for g in doc["game_ids"]]
    assert dealt[0] == dealt[1] == dealt[2] and len(dealt[0]) == 2
    # The scores by hand: on each board, one point for each other table that took more, a half for a tie.
    for board in data["boards"]:
        assert board["published"] and [sorted(h) for h in board["hands"]] == [
            sorted(h) for h in dealt[0][board["deal"]]
        ]
        for s in range(4):
            rows = [r for r in board["results"] if r["seat"] == s]
            assert [r["table"] for r in rows] == [1, 2, 3]
            for r in rows:
                others = [o["points"] for o in rows if o is not r]
                by_hand = sum(1 if o > r["points"] else 0.5 if o == r["points"] else 0 for o in others)
                assert r["matchpoints"] == by_hand
                assert r["diff"] == round(sum(others) / 2 - r["points"], 2)
    # The standings add every board's matchpoints up.
    for row in data["standings"]:
        mine = [r["matchpoints"] for b in data["boards"] for r in b["results"]
                if (r["table"], r["seat"]) == (row["table"], row["seat"])]  # fmt: skip
        assert row["matchpoints"] == sum(mine) and row["percent"] == round(100 * sum(mine) / (2 * 2), 1)
    assert data["standings"][0]["rank"] == 1
    names = {(r["table"], r["seat"]): r["name"] for r in data["standings"]}
    assert names[(1, 0)] == "P0" and names[(2, 3)] == "P7" and names[(3, 0)].startswith("Bot")
    csv = client.get(f"/api/tournaments/{code}/results.csv")
    assert csv.status_code == 200 and csv.text.count("\n") == 1 + 2 * 4 * 3
    # No frame to a table carried a card it could not know then (its own hidden ones, another table's).
    for i, log in enumerate(logs):
        game = doc["game_ids"][i // 4]
        assert frames_hold_only_what_the_seat_knows(stored(client, game), i % 4, log) > 50
        assert all(doc["secret"] not in json.dumps(m) for m in log)
    # A tournament's records stay with it: the generic record route withholds them.
    withheld = client.get(f"/api/games/{doc['game_ids'][0]}/record").json()
    # Said as a tournament's (its results page), not as the daily deal's "the end of the day".
    assert (withheld["code"], withheld["params"]) == ("withheld", {"tourney": doc["code"]})
    assert "results page" in withheld["reason"]


def test_a_restart_then_the_director_ends_the_round_with_a_deal_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with TestClient(make_app(path)) as client:
        t = create(client, deals=2, tables=2, bots=True)
        code = t["code"]
        ann, bob = join(client, code, ["Ann", "Bob"])
        r = client.post(
            f"/api/tournaments/{code}/start",
            json={"director": t["director"], "seating": [[ann["id"]], [bob["id"]]]},
        )
        assert r.status_code == 200, r.text
        a, b = seat_of(client, code, ann), seat_of(client, code, bob)
        log: list[dict[str, Any]] = []
        with client.websocket_connect("/ws") as ws:
            hello(ws, a["table"], a["token"], log)
            run([Player(ws, seed=1, log=log)])  # Ann's table plays both deals; Bob has not come
        data = client.get(f"/api/tournaments/{code}/results").json()
        # Bob's table has not finished deal 1: nothing of it is published, to anyone.
        assert data["progress"] == [2, 0] and data["status"] == "playing"
        assert [b["published"] for b in data["boards"]] == [False, False]
        assert "hands" not in json.dumps(data["boards"]) and data["standings"] == []
    with TestClient(make_app(path)) as client:  # the server restarts
        assert client.get(f"/api/tournaments/{code}").json()["status"] == "playing"
        with client.websocket_connect("/ws") as ws:
            hello(ws, b["table"], b["token"])
            end = client.post(f"/api/tournaments/{code}/end", json={"director": t["director"]})
            assert end.status_code == 200 and end.json()["status"] == "over"
            ws.send_text(json.dumps({"type": "pass", "cards": ["2C", "3C", "4C"]}))
            msg = json.loads(ws.receive_text())
            while msg["type"] != "error":
                msg = json.loads(ws.receive_text())
            assert msg["code"] == "round_over"
        data = client.get(f"/api/tournaments/{code}/results").json()
        assert data["final"] and all(b["published"] for b in data["boards"])
        # A deal a table did not finish scores the board's average for everyone on it: (2 - 1) / 2.
        for board in data["boards"]:
            for r in board["results"]:
                assert r["matchpoints"] == 0.5 and r["diff"] == 0.0
                assert (r["points"] is None) == (r["table"] == 2)


def test_a_player_who_drops_keeps_the_seat_a_bot_plays_meanwhile_and_the_result_is_marked(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "t.sqlite3", clock, grace=30)
    with TestClient(app) as client:
        t = create(client, deals=1, tables=1, bots=True)
        code = t["code"]
        (ann,) = join(client, code, ["Ann"])
        client.post(
            f"/api/tournaments/{code}/start", json={"director": t["director"], "seating": [[ann["id"]]]}
        )
        seat = seat_of(client, code, ann)
        with client.websocket_connect("/ws") as ws:
            hello(ws, seat["table"], seat["token"])
        # Ann dropped: her seat waits the grace period, then a computer player plays it.
        move(client, clock, 31)

        async def over() -> bool:
            return (await app.state.tourneys.get(code))["status"] == "over"

        wait(client, over)
        data = client.get(f"/api/tournaments/{code}/results").json()
        mine = [r for b in data["boards"] for r in b["results"] if r["name"] == "Ann"]
        assert len(mine) == 1 and mine[0]["stand_in"] and mine[0]["kind"] == "human"
        others = [r for b in data["boards"] for r in b["results"] if r["name"] != "Ann"]
        assert not any(r["stand_in"] for r in others)
        assert client.get(f"/api/tournaments/{code}/results.csv").text.count(",yes") == 1


def test_a_guest_s_tournament_game_counts_in_their_browser_s_statistics_then_their_account_s(
    client: TestClient,
) -> None:
    """Issue 28: a guest who joined with their browser's id (``X-Player``) finds
    their tournament game in that browser's statistics, under ``tourney``, and
    the game moves to the account they sign up with, as their other guest games."""
    device = "browser-of-zoe-1"
    t = create(client, deals=1, tables=1, bots=True)
    code = t["code"]
    r = client.post(f"/api/tournaments/{code}/players", json={"name": "Zoé"}, headers={"X-Player": device})
    assert r.status_code == 200, r.text
    zoe = r.json()
    assert device not in json.dumps(client.get(f"/api/tournaments/{code}").json())  # never shown
    r = client.post(
        f"/api/tournaments/{code}/start", json={"director": t["director"], "seating": [[zoe["id"]]]}
    )
    assert r.status_code == 200, r.text
    seat = seat_of(client, code, zoe)
    with client.websocket_connect("/ws") as ws:
        hello(ws, seat["table"], seat["token"])
        run([me := Player(ws, seed=3)])
    assert me.final is not None and me.final["over"]
    mine = client.get("/api/stats", headers={"X-Player": device}).json()
    assert mine["guest"] and mine["games"] == 1, mine
    assert mine["by_mode"] == {"tourney": {"games": 1, "wins": mine["wins"]}}
    assert mine["last"][0]["game"] == me.final["game"] and mine["last"][0]["seat"] == seat["seat"]
    assert mine["points"] == me.final["totals"][seat["seat"]]
    # Zoé signs up on this browser: the tournament's game counts for her account.
    r = client.post("/api/accounts", json={"nickname": "Zoe", "password": "correct horse"})
    assert r.status_code == 201, r.text
    r = client.post("/api/stats/link", json={"player": device})
    assert r.status_code == 200 and r.json() == {"linked": True}
    client.cookies.clear()
    hers = client.get("/api/players/zoe/stats").json()
    assert hers["games"] == 1 and hers["by_mode"] == {"tourney": {"games": 1, "wins": mine["wins"]}}


def test_bad_input_is_refused_and_changes_nothing(client: TestClient) -> None:
    for body, code in (
        ({"deals": 0}, "bad_deals"),
        ({"tables": 21}, "bad_tables"),
        ({"name": ""}, "bad_name"),
        ({"rules": {"players": 6}}, "bad_rules"),
        ({"level": "godlike"}, "bad_level"),
    ):
        r = client.post("/api/tournaments", json={"name": "Club", "rules": RULES} | body)
        assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
    t = create(client, deals=1, tables=1, bots=False)
    join(client, t["code"], ["Ann"])
    r = client.post(f"/api/tournaments/{t['code']}/start", json={"director": t["director"]})
    assert r.json()["code"] == "not_enough_players"
    assert client.get(f"/api/tournaments/{t['code']}").json()["status"] == "open"
    assert client.get("/api/tournaments/ZZZZ-ZZZZ").status_code == 404


def test_a_name_taken_in_the_tournament_is_refused(client: TestClient) -> None:
    """Two players of one name could not be told apart in the director's seating or the results."""
    t = create(client, deals=1, tables=1)
    join(client, t["code"], ["Ann"])
    r = client.post(f"/api/tournaments/{t['code']}/players", json={"name": " ann "})
    assert (r.status_code, r.json()["code"]) == (409, "name_taken")
    assert r.json()["reason"] == "a player of this tournament is called ann already: choose another name"
    assert [p["name"] for p in client.get(f"/api/tournaments/{t['code']}").json()["players"]] == ["Ann"]


def test_a_seating_refused_names_the_player_seated_twice(client: TestClient) -> None:
    t = create(client, deals=1, tables=2)
    ids = [p["id"] for p in join(client, t["code"], ["Ann", "Bob"])]
    for seating, reason in (
        ([[ids[0], ids[1]], [ids[1]]], "Bob is seated twice: one seat per player"),
        ([["nobody"], []], "'nobody' is not the id of a player of this tournament"),
    ):
        r = client.post(
            f"/api/tournaments/{t['code']}/start", json={"director": t["director"], "seating": seating}
        )
        assert (r.status_code, r.json()["code"], r.json()["reason"]) == (400, "bad_seating", reason)
    assert client.get(f"/api/tournaments/{t['code']}").json()["status"] == "open"


def test_a_start_time_starts_it_at_random_on_the_first_visit_after(tmp_path: Path) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "t.sqlite3", clock)
    with TestClient(app) as client:
        at = clock.time() + 600
        t = create(client, deals=1, tables=1, bots=True, start=at)
        early = create(client, deals=1, tables=1, bots=False, start=at)  # one player, no bots: cannot start
        join(client, t["code"], ["Ann"])
        join(client, early["code"], ["Bob"])
        assert client.get(f"/api/tournaments/{t['code']}").json()["status"] == "open"
        move(client, clock, 600)
        shown = client.get(f"/api/tournaments/{t['code']}").json()
        assert shown["status"] == "playing" and len(shown["seating"][0]) == 4
        assert client.get(f"/api/tournaments/{early['code']}").json()["status"] == "open"
        # That one waits for its director: no process drives it (nor retries every second).
        move(client, clock, 5)
        assert "tourney:" + early["code"] not in app.state.node.owned
        assert "tourney:" + t["code"] in app.state.node.owned


def test_its_driver_starts_it_at_its_start_time_with_nobody_visiting(tmp_path: Path) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "t.sqlite3", clock)
    with TestClient(app) as client:
        t = create(client, deals=1, tables=2, bots=True, start=clock.time() + 600)
        join(client, t["code"], ["Ann"])
        move(client, clock, 600)

        async def started() -> bool:
            # Read from the store: a visit of the page would start it itself.
            doc = await app.state.tourneys.store.load(t["code"])
            return bool(doc["status"] == "playing" and len(doc["table_codes"]) == 2)

        wait(client, started, clock)
        doc = client.portal.call(app.state.tourneys.store.load, t["code"])  # type: ignore[union-attr]
        assert doc["players"][0]["seat"]["table"] in doc["table_codes"]
        assert app.state.node.owned >= {"tourney:" + t["code"]}  # driven here, the only process


@pytest.mark.parametrize("moving", ["rotation", "fixed", "random"])
def test_three_rounds_move_the_players_by_the_movement_chosen_and_all_are_scored(
    tmp_path: Path, moving: str
) -> None:
    """The rotation makes each meet every other of another seat position once;
    fixed tables keep everybody where they started; the random draw seats each
    position's players anew, a draw anyone checks with the secret told at the end."""
    clock = ManualClock()
    app = make_app(tmp_path / "t.sqlite3", clock, grace=5)
    with TestClient(app) as client:
        body = {"rules": {"players": 3, "target": 100}, "deals": 1, "tables": 3, "rounds": 3, "bots": True}
        t = create(client, **body, movement=moving)
        code = t["code"]
        assert client.get(f"/api/tournaments/{code}").json()["movement"] == moving
        bad = client.post("/api/tournaments", json={"name": "Club", "tables": 2, "rounds": 3})
        assert bad.json()["code"] == "bad_rounds"  # past as many rounds as tables, the rotation repeats
        odd = client.post("/api/tournaments", json={"name": "Club", "movement": "howell"})
        assert odd.status_code == 400 and odd.json()["code"] == "bad_movement"
        ids = [p["id"] for p in join(client, code, [f"P{i}" for i in range(9)])]
        first = [ids[0:3], ids[3:6], ids[6:9]]
        r = client.post(f"/api/tournaments/{code}/start", json={"director": t["director"], "seating": first})
        assert r.status_code == 200, r.text
        # Nobody comes: computer players stand in after the grace period, round after round.

        async def over() -> bool:
            return bool((await app.state.tourneys.store.load(code))["status"] == "over")

        wait(client, over, clock)
        doc = client.portal.call(app.state.tourneys.store.load, code)  # type: ignore[union-attr]
        rounds = [p["seating"] for p in doc["past"]] + [doc["seating"]]
        data = client.get(f"/api/tournaments/{code}/results").json()
        secret = bytes.fromhex(data["fairness"]["secret"])
        assert rounds == [Movement(moving, 3, secret).seating(first, r) for r in range(3)]  # type: ignore[arg-type]
        for seating in rounds:  # each keeps their seat position (the same cards as the others in it)
            assert [sorted(row[s] for row in seating) for s in range(3)] == [
                sorted(ids[s::3]) for s in range(3)
            ]
        met: Counter[frozenset[str]] = Counter()
        for seating in rounds:
            for row in seating:
                met.update(frozenset(pair) for pair in itertools.combinations(row, 2))
        if moving == "rotation":
            for i, j in itertools.combinations(range(9), 2):  # meets every other position's once
                assert met[frozenset((ids[i], ids[j]))] == (0 if i % 3 == j % 3 else 1)
        elif moving == "fixed":
            assert rounds == [first] * 3
        assert data["rounds"] == 3 and [b["round"] for b in data["boards"]] == [0, 1, 2]
        assert all(b["published"] and len(b["results"]) == 9 for b in data["boards"])
        assert data["boards"][0]["hands"] != data["boards"][1]["hands"]  # each round its own deals
        assert sorted(r["name"] for r in data["standings"]) == [f"P{i}" for i in range(9)]
        for row in data["standings"]:
            mine = [
                r["matchpoints"] for b in data["boards"] for r in b["results"] if r["name"] == row["name"]
            ]
            assert len(mine) == 3 and row["matchpoints"] == sum(mine)
            assert row["percent"] == round(100 * sum(mine) / (3 * 2), 1)


def test_score_board_by_hand() -> None:
    # Four tables held these cards and took 3, 0, 3 and 13 points.
    assert score_board([3, 0, 3, 13]) == [(1.5, 2.33), (3.0, 6.33), (1.5, 2.33), (0.0, -11.0)]
    # One table did not finish: it scores the average (1); the others are compared
    # between themselves, 1 and 0, scaled to the board's top of 2.
    assert score_board([3, None, 13]) == [(2.0, 10.0), (1.0, 0.0), (0.0, -10.0)]
    assert score_board([5]) == [(0.0, 0.0)]


def test_the_worked_example_of_docs_tournaments_runs() -> None:
    import doctest

    doc = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


def test_the_page_offers_the_movements_the_server_takes() -> None:
    """The page keeps its own list (web/tourney.js): the server's, in its order (the default first)."""
    import re

    from damepique.server.tourney.movement import KINDS

    page = (Path(__file__).resolve().parents[2] / "src" / "damepique" / "web" / "tourney.js").read_text()
    found = re.search(r"const MOVEMENTS = \[([^\]]*)\]", page)
    assert found is not None
    assert tuple(re.findall(r'"([a-z]+)"', found.group(1))) == KINDS
