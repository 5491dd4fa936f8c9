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


def test_a_tournament_on_two_processes_survives_the_kill_of_its_driver(cluster: Cluster) -> None:
    a, b = cluster.processes["a"].base, cluster.processes["b"].base
    made = httpx.post(
        a + "/api/tournaments",
        json={"name": "Club", "rules": {"players": 3, "target": 100}, "deals": 2, "tables": 2, "bots": False},
        timeout=30,
    ).json()
    code = made["code"]
    # Six people join, each at one process or the other, turn about.
    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"]
    joined = {}
    for i, name in enumerate(names):
        r = httpx.post((a, b)[i % 2] + f"/api/tournaments/{code}/players", json={"name": name}, timeout=30)
        assert r.status_code == 200, r.text
        joined[name] = r.json()
    # A player at each process sees the same tournament: everybody in it, once.
    seen = [httpx.get(base + f"/api/tournaments/{code}", timeout=30).json() for base in (a, b)]
    assert [p["name"] for p in seen[0]["players"]] == names
    assert seen[0] == seen[1]
    ids = [joined[n]["id"] for n in names]
    r = httpx.post(
        a + f"/api/tournaments/{code}/start",
        json={"director": made["director"], "seating": [ids[:3], ids[3:]]},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    assert driver(cluster, code) == "a"  # the process it was started at drives it
    # Each player asks where to sit at their own process: the tables are made, the same answer everywhere.
    where = {}
    for i, name in enumerate(names):
        me = httpx.post(
            (a, b)[i % 2] + f"/api/tournaments/{code}/me", json={"player": joined[name]["player"]}, timeout=30
        ).json()
        assert me["status"] == "playing" and me["seat"] is not None, me
        where[name] = me["seat"]
    assert httpx.get(b + f"/api/tournaments/{code}", timeout=30).json()["status"] == "playing"
    seats = [
        Seat(cluster, where[n]["table"], where[n]["token"], (a, b)[i % 2], seed=i)
        for i, n in enumerate(names)
    ]
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
    assert [p["name"] for p in shown["players"]] == names and shown["seating"] == [ids[:3], ids[3:]]
    data = httpx.get(b + f"/api/tournaments/{code}/results", timeout=30).json()
    assert data["final"] and data["progress"] == [2, 2]
    assert sorted(r["name"] for r in data["standings"]) == sorted(names)
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
