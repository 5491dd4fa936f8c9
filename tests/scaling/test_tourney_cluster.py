"""A duplicate tournament across two real server processes on one PostgreSQL
and one Redis (issue 27, ``docs/tournaments.md``): players join at either
process and each sees the same tournament; the process that drives it (the
one its director started it at, holding its lease) is killed in the middle
of the round; the other takes the tournament and its tables over, and the
round ends there with every card that was acknowledged, the same results at
every process. Every wait is bounded (the socket's own timeout, a generous
limit on what only stops a hang)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from damepique.server.tourney.movement import Movement

from .cluster_helpers import Cluster, Seat, drive, is_subsequence, settle

LIMIT = 120.0
"""Seconds after which a wait fails the test: a hang, never a slow machine."""


def query(cluster: Cluster, sql: str, *args: Any) -> list[Any]:
    """Read the shared database directly (what no process's memory can answer for)."""
    import asyncpg

    async def run() -> list[Any]:
        conn = await asyncpg.connect(cluster.db)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    return asyncio.run(run())


def driver(cluster: Cluster, code: str) -> str | None:
    rows = query(
        cluster,
        "SELECT holder FROM leases WHERE name = $1 AND expires >= extract(epoch from clock_timestamp())",
        "tourney:" + code,
    )
    return str(rows[0]["holder"]).split("~")[0] if rows else None


def plays_stored(cluster: Cluster, game_ids: list[str]) -> list[list[tuple[int, str]]]:
    """(deal, card) of every card each tournament game's stored event log holds, in order."""
    out = []
    for gid in game_ids:
        rows = query(cluster, "SELECT body FROM events WHERE game_id = $1 ORDER BY seq", gid)
        plays, deal = [], -1
        for r in rows:
            e = json.loads(r["body"])
            if e["type"] == "deal":
                deal = e["number"]
            elif e["type"] == "play":
                plays.append((deal, e["card"]))
        out.append(plays)
    return out


def follow_until(base: str, code: str, status: str) -> dict[str, Any]:
    """The tournament as ``base`` shows it once its status is ``status``, read
    as its page does: again at each line of its changes stream (the first, empty,
    once the server listens: no change missed from there), no polling."""
    deadline = time.monotonic() + LIMIT
    with httpx.stream("GET", base + f"/api/tournaments/{code}/changes", timeout=LIMIT) as r:
        lines = r.iter_lines()
        next(lines)
        while (shown := httpx.get(base + f"/api/tournaments/{code}", timeout=30).json())["status"] != status:
            assert time.monotonic() < deadline, shown
            next(lines)  # a change (or the stream's keep-alive)
    return dict(shown)


NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]


def six_start(cluster: Cluster, **body: Any) -> tuple[str, dict[str, Any], list[str]]:
    """A tournament of two tables of three made at ``a``, six people joined at
    one process or the other, turn about, and started at ``a`` seating them
    in the order they came: its code, each one's join answer, their ids."""
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    made = httpx.post(
        a + "/api/tournaments",
        json={"name": "Club", "rules": {"players": 3, "target": 100}, "tables": 2, "bots": False, **body},
        timeout=30,
    ).json()
    code = made["code"]
    joined = {}
    for i, name in enumerate(NAMES):
        r = httpx.post((a, b)[i % 2] + f"/api/tournaments/{code}/players", json={"name": name}, timeout=30)
        assert r.status_code == 200, r.text
        joined[name] = r.json()
    # A player at each process sees the same tournament: everybody in it, once.
    seen = [httpx.get(base + f"/api/tournaments/{code}", timeout=30).json() for base in (a, b)]
    assert [p["name"] for p in seen[0]["players"]] == NAMES
    assert seen[0] == seen[1]
    ids = [joined[n]["id"] for n in NAMES]
    r = httpx.post(
        a + f"/api/tournaments/{code}/start",
        json={"director": made["director"], "seating": [ids[:3], ids[3:]]},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    assert driver(cluster, code) == "a"  # the process it was started at drives it
    return code, joined, ids


def seated(cluster: Cluster, code: str, joined: dict[str, Any], round_: int = 0) -> list[Seat]:
    """Each player asks where to sit in round ``round_`` at their own process
    (once the round's tables are made: the same answer everywhere) and connects there."""
    bases = [cluster.processes["a"].base, cluster.processes["b"].base]
    seats = []
    deadline = time.monotonic() + LIMIT
    for i, name in enumerate(NAMES):
        url = bases[i % 2] + f"/api/tournaments/{code}/me"
        while (me := httpx.post(url, json={"player": joined[name]["player"]}, timeout=30).json())[
            "seat"
        ] is None:
            assert time.monotonic() < deadline, me  # (a request between looks, no sleep)
        assert me["status"] == "playing" and me["round"] == round_, me
        seats.append(
            Seat(cluster, me["seat"]["table"], me["seat"]["token"], bases[i % 2], seed=10 * round_ + i)
        )
    return seats


def test_a_tournament_on_two_processes_survives_the_kill_of_its_driver(cluster: Cluster) -> None:
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    code, joined, ids = six_start(cluster, deals=2)
    assert httpx.get(b + f"/api/tournaments/{code}", timeout=30).json()["status"] == "playing"
    seats = seated(cluster, code, joined)
    settle(seats)  # every seat told its table
    drive(seats, lambda: sum(len(s.acked) for s in seats) >= 12, limit=LIMIT)
    settle(seats)

    # Mid-round (nobody playing while asked): the same results at both processes.
    halfway = [httpx.get(base + f"/api/tournaments/{code}/results", timeout=30).json() for base in (a, b)]
    assert halfway[0] == halfway[1] and halfway[0]["status"] == "playing" and sum(halfway[0]["progress"]) < 4
    cluster.kill("a")
    for s in seats:
        s.ws.close()  # type: ignore[union-attr]
        s.reconnect()  # through nginx: b alone answers now
    drive(seats, lambda: all(s.latest is not None and s.latest["over"] for s in seats), limit=LIMIT)

    # The survivor drives the tournament now, and finds it over.
    shown = follow_until(b, code, "over")
    assert [p["name"] for p in shown["players"]] == NAMES and shown["seating"] == [ids[:3], ids[3:]]
    data = httpx.get(b + f"/api/tournaments/{code}/results", timeout=30).json()
    assert data["final"] and data["progress"] == [2, 2]
    assert sorted(r["name"] for r in data["standings"]) == sorted(NAMES)
    assert all(r["points"] is not None for board in data["boards"] for r in board["results"])
    # Nothing lost: every card the server acknowledged is in its table's stored game, in order.
    doc = query(cluster, "SELECT data FROM tournaments WHERE code = $1", code)[0]
    stored = plays_stored(cluster, json.loads(doc["data"])["game_ids"])
    assert len(stored[0]) == len(stored[1]) > 0 and {d for d, _ in stored[0]} == {0, 1}
    for i, s in enumerate(seats):
        assert s.acked and is_subsequence(s.acked, stored[i // 3])
    # Over: driven no more (its lease handed back at the driver's next second:
    # no event says so, so look again after each request to b, no sleep).
    deadline = time.monotonic() + LIMIT
    while driver(cluster, code) is not None:
        assert time.monotonic() < deadline
        httpx.get(b + "/healthz", timeout=30)


def test_a_table_of_computer_players_goes_on_at_the_other_process_when_its_driver_is_killed(
    cluster: Cluster,
) -> None:
    """Nobody reconnects to a table of computer players: the tournament's new
    driver runs it (no table of a tournament is left stopped by a kill)."""
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    made = httpx.post(
        a + "/api/tournaments",
        json={"name": "Bots", "rules": {"players": 3}, "deals": 1, "tables": 2, "level": "beginner"},
        timeout=30,
    ).json()  # at normal speed: the computer players take their time, the deal is under way at the kill
    code = made["code"]
    assert (
        httpx.post(a + f"/api/tournaments/{code}/start", json={"director": made["director"]}).status_code
        == 200
    )
    doc = json.loads(query(cluster, "SELECT data FROM tournaments WHERE code = $1", code)[0]["data"])
    table, game = doc["table_codes"][1], doc["game_ids"][1]

    def cards() -> int:
        rows = query(
            cluster, "SELECT count(*) AS n FROM events WHERE game_id = $1 AND body LIKE '%\"play\"%'", game
        )
        return int(rows[0]["n"])

    def holder(name: str) -> str | None:
        rows = query(
            cluster,
            "SELECT holder FROM leases WHERE name = $1 AND expires >= extract(epoch from clock_timestamp())",
            name,
        )
        return str(rows[0]["holder"]).split("~")[0] if rows else None

    assert holder(table) == "a"
    cluster.kill("a")
    at_kill = cards()
    deadline = time.monotonic() + LIMIT
    while not (holder(table) == "b" and cards() > at_kill):
        assert time.monotonic() < deadline, (holder(table), cards(), at_kill)
        httpx.get(b + "/healthz", timeout=30)  # (a request between looks, no sleep)
    assert holder("tourney:" + code) == "b"
    assert httpx.get(b + f"/api/tournaments/{code}", timeout=30).json()["status"] == "playing"


def test_several_rounds_on_two_processes_move_the_players_and_score_every_round(cluster: Cluster) -> None:
    """Three rounds of one deal, the random draw between them (issue 29): each
    round's tables are made by the driver once the last round's have all
    finished, whichever process ran them; the players, at either process, are
    told their new table; every process shows the same seatings (the draw
    checked with the secret told at the end) and the same results, every
    round scored."""
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    code, joined, ids = six_start(cluster, deals=1, rounds=3, movement="random")
    tables = []
    for r in range(3):
        seats = seated(cluster, code, joined, r)
        tables.append(sorted({s.code for s in seats}))
        drive(
            seats,
            lambda seats=seats: all(s.latest is not None and s.latest["over"] for s in seats),
            limit=LIMIT,
        )
        for s in seats:
            s.ws.close()  # type: ignore[union-attr]
    assert len({code for round_ in tables for code in round_}) == 6  # each round its own two tables
    shown = follow_until(b, code, "over")
    assert shown == httpx.get(a + f"/api/tournaments/{code}", timeout=30).json()
    assert shown["movement"] == "random" and shown["round"] == 2
    doc = json.loads(query(cluster, "SELECT data FROM tournaments WHERE code = $1", code)[0]["data"])
    rounds = [p["seating"] for p in doc["past"]] + [doc["seating"]]
    moves = Movement("random", 2, bytes.fromhex(shown["fairness"]["secret"]))
    assert rounds == [moves.seating([ids[:3], ids[3:]], r) for r in range(3)]
    data = [httpx.get(base + f"/api/tournaments/{code}/results", timeout=30).json() for base in (a, b)]
    assert data[0] == data[1] and data[0]["final"]
    boards = data[0]["boards"]
    assert [(x["round"], x["published"]) for x in boards] == [(0, True), (1, True), (2, True)]
    assert all(r["points"] is not None and not r["stand_in"] for x in boards for r in x["results"])
    assert sorted(r["name"] for r in data[0]["standings"]) == sorted(NAMES)
    for row in data[0]["standings"]:
        mine = [r["matchpoints"] for x in boards for r in x["results"] if r["name"] == row["name"]]
        assert len(mine) == 3 and row["matchpoints"] == round(sum(mine), 2)
