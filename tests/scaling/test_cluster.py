"""Several server processes on PostgreSQL and Redis behind nginx (issue 7).

Real processes, a real nginx, a throwaway PostgreSQL cluster and a Redis
server, all on loopback and started by the tests. Four players of one table
are spread over two processes; the process that runs the table is killed
(SIGKILL) in the middle of a trick, or Redis is restarted, and the game must
finish with a record that holds every card acknowledged, once.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from damepique.engine.record import replay

from .cluster_helpers import Cluster, Seat, drive, is_subsequence, plays_of, settle
from .conftest import WITHIN


def seat_four(cluster: Cluster, a: str, b: str, **options: Any) -> tuple[str, list[Seat]]:
    """A table created at process ``a``; players 0 and 3 connect to ``a``, 1 and 2
    to ``b`` (player 1 takes its seat over HTTP at ``b``, player 2 over its
    WebSocket, both relayed to ``a``; player 3 sits over its WebSocket at ``a``)."""
    pa, pb = cluster.processes[a], cluster.processes[b]
    # A game of one deal (played to its end: a tie for the lowest total plays another):
    # every card of it crosses the processes as any deal's would.
    body = {
        "preset": "short",
        "rules": {"target": 1},
        "fill": False,
        "speed": "fast",
        "name": "Ann",
        **options,
    }
    t = httpx.post(pa.base + "/api/tables", json=body, timeout=10).json()
    code = t["code"]
    bob = httpx.post(pb.base + f"/api/tables/{code}/seats", json={"name": "Bob"}, timeout=10)
    assert bob.status_code == 201, bob.text
    info = httpx.get(pb.base + f"/api/tables/{code}", timeout=10).json()
    assert [s["name"] for s in info["seats"][:2]] == ["Ann", "Bob"]
    tokens = [t["token"], bob.json()["token"]]
    for name, base in (("Cy", pb.base), ("Di", pa.base)):
        from websockets.sync.client import connect

        ws = connect(base.replace("http", "ws") + "/ws", open_timeout=60)
        ws.send(json.dumps({"type": "hello", "table": code}))
        ws.send(json.dumps({"type": "sit", "name": name}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            assert msg["type"] != "error", msg
            if msg["type"] == "seated":
                tokens.append(msg["token"])
                break
        ws.close()
    urls = [pa.base, pb.base, pb.base, pa.base]
    seats = [
        Seat(cluster, code, tok, url, seed=i) for i, (tok, url) in enumerate(zip(tokens, urls, strict=True))
    ]
    settle(seats)  # every hello answered
    seats[0].ws.send(json.dumps({"type": "start"}))  # type: ignore[union-attr]
    return code, seats


def check_record(cluster: Cluster, seats: list[Seat]) -> dict[str, Any]:
    """The stored record of the finished game holds every card acknowledged and
    every card seen, in order, each once (the engine replays it)."""
    final = seats[0].latest
    assert final is not None and final["over"], final
    game = final["game"]
    record = httpx.get(cluster.front + f"/api/games/{game}/record", timeout=10).json()
    match = replay(record)  # raises on a duplicated or missing card
    assert match.over and match.totals == final["totals"]
    plays = plays_of(record, first_deal=0)
    assert len(plays) == 52 * len(record["deals"])
    for s in seats:
        assert s.acked, "every seat played"
        assert set(s.acked) <= set(plays)
        assert is_subsequence(s.acked, plays)
        assert is_subsequence(s.seen, plays), "what a seat was told happened in that order"
    return record


def come_back(seats: list[Seat], since: float) -> None:
    """Every page reconnects through nginx and hears its table again (bounded
    from ``since``: a hang, not a speed)."""
    for s in seats:
        s.ws.close()  # type: ignore[union-attr]
        s.reconnect()
    while any(s.latest is None for s in seats):
        for s in seats:
            s.pump(0.1)
        assert time.monotonic() - since < WITHIN, "the table never came back"


def over(seats: list[Seat]) -> bool:
    return all(s.latest is not None and s.latest["over"] for s in seats)


def test_two_processes_one_table_then_its_owner_is_killed_mid_trick(cluster: Cluster) -> None:
    code, seats = seat_four(cluster, "a", "b", timer=60)

    # Play across both processes until the middle of a trick, some way into the game.
    def mid_trick() -> bool:
        st = seats[0].latest
        if st is None or st["view"] is None or st["view"]["phase"] != "play":
            return False
        return sum(len(s.acked) for s in seats) >= 20 and 1 <= len(st["view"]["trick"]) <= 3

    drive(seats, mid_trick)
    settle(seats)
    before = seats[0].latest
    assert before is not None
    waiting = before["view"]["to_act"]
    deadline_before = seats[waiting].latest["timer"]["deadline"]  # type: ignore[index]
    holder = httpx.get(cluster.processes["a"].base + "/healthz").json()["process"]
    assert holder == "a"

    killed_at = time.monotonic()
    cluster.kill("a")
    # Every page reconnects through nginx: players 0 and 3 lost their server,
    # players 1 and 2 were relayed to it; p2 takes the table over.
    come_back(seats, killed_at)
    after = seats[waiting].latest
    assert after is not None and after["game"] == before["game"]
    taken_over_in = time.monotonic() - killed_at
    assert after["view"]["trick"] == before["view"]["trick"]
    assert after["view"]["tricks"] == before["view"]["tricks"]
    assert after["totals"] == before["totals"]
    # The turn timer kept its deadline across the takeover.
    assert abs(after["timer"]["deadline"] - deadline_before) < 1500, (after["timer"], deadline_before)
    info = httpx.get(cluster.front + f"/api/tables/{code}", timeout=10).json()
    assert info["status"] == "playing"

    drive(seats, lambda: over(seats), limit=180)
    check_record(cluster, seats)
    assert all(s.patches > 20 for s in seats)  # relayed or not, before and after the takeover
    print(f"takeover after SIGKILL: {taken_over_in:.1f} s; reconnects {[s.reconnects for s in seats]}")


def test_redis_restarted_mid_game_play_resumes(cluster: Cluster, redis_server: Any) -> None:
    _, seats = seat_four(cluster, "a", "b")
    drive(seats, lambda: sum(len(s.acked) for s in seats) >= 16)
    settle(seats)
    played = sum(len(s.acked) for s in seats)
    redis_server.stop()
    # Players at the table's own process may go on playing meanwhile; the others wait.
    # Play on until the outage is felt: a card acknowledged at the owner, or a page
    # relayed over Redis sent away (its frame never reached the owner).
    drive(seats, lambda: sum(len(s.acked) for s in seats) > played or any(s.reconnects for s in seats))
    redis_server.start()
    drive(seats, lambda: over(seats), limit=180)
    record = check_record(cluster, seats)
    assert sum(len(s.acked) for s in seats) > played
    assert any(s.reconnects for s in seats[1:3]), "the relayed pages started again"
    assert len(record["deals"]) >= 1


def lobby_lists(base: str, codes: set[str]) -> None:
    """Watch the lobby at ``base`` as a page does (``/ws/lobby``: the list, then what
    changes, pushed) until it lists ``codes``: no polling, a limit only for a hang."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + "/ws/lobby", open_timeout=WITHIN) as ws:
        seen: set[str] = set()
        while not codes <= seen:
            m = json.loads(ws.recv(timeout=WITHIN))
            if m["type"] == "lobby":
                seen = {t["code"] for t in m["tables"]}
            elif m["type"] == "lobby_changes":
                seen = (seen - set(m["gone"])) | {t["code"] for t in m["tables"]}


def test_the_lobby_lists_tables_of_every_process(calm_cluster: Cluster) -> None:
    p1, p2 = calm_cluster.processes["a"], calm_cluster.processes["b"]
    body = {"preset": "standard", "public": True}
    made = [httpx.post(p.base + "/api/tables", json=body).json()["code"] for p in (p1, p2)]
    for p in (p1, p2):
        lobby_lists(p.base, set(made))
        assert set(made) <= {t["code"] for t in httpx.get(p.base + "/api/lobby").json()["tables"]}


def test_a_score_sheet_changed_at_one_process_reaches_readers_at_the_other(calm_cluster: Cluster) -> None:
    from websockets.sync.client import connect

    p1, p2 = calm_cluster.processes["a"], calm_cluster.processes["b"]
    sheet = httpx.post(p1.base + "/api/sheets", json={"players": ["A", "B", "C", "D"]}).json()
    url = p2.base.replace("http", "ws") + f"/api/sheets/shared/{sheet['read_id']}/live"
    with connect(url, open_timeout=60) as ws:
        assert json.loads(ws.recv(timeout=60))["sheet"]["totals"] == [0, 0, 0, 0]
        r = httpx.post(p1.base + f"/api/sheets/{sheet['id']}/deals", json={"points": [5, 8, 13, 0]})
        assert r.status_code == 201, r.text
        assert json.loads(ws.recv(timeout=60))["sheet"]["totals"] == [5, 8, 13, 0]


def test_a_solo_game_moves_between_processes_as_a_table_does(cluster: Cluster) -> None:
    """A solo game is a table: opened at the other process it is relayed to the
    one that runs it (both pages play it), and when that process is killed the
    other takes it over on the page's next hello, with nothing played lost."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    a, b = cluster.processes["a"], cluster.processes["b"]
    game = httpx.post(
        a.base + "/api/games", json={"preset": "short", "speed": "fast", "level": "beginner"}
    ).json()

    def join(base: str, ref: str = "j") -> Any:
        ws = connect(base.replace("http", "ws") + "/ws", open_timeout=60)
        ws.send(json.dumps({"type": "hello", "token": game["token"], "id": ref}))
        return ws

    def until(ws: Any, test: Any) -> dict[str, Any]:
        while True:
            msg = json.loads(ws.recv(timeout=WITHIN))
            assert msg["type"] != "error", msg
            if msg["type"] == "state" and test(msg):
                return msg

    def my_turn(msg: dict[str, Any]) -> bool:
        view = msg["view"]
        return view["to_act"] == 0 and view["phase"] in ("pass", "play")

    ws1 = join(a.base)
    st = until(ws1, my_turn)
    assert st["view"]["phase"] == "pass"
    ws1.send(json.dumps({"type": "pass", "cards": st["view"]["hand"][:3], "id": 1}))
    until(ws1, lambda m: m.get("ack") == 1)

    ws2 = join(b.base)  # the same game, at the other process: relayed to a
    st2 = until(ws2, my_turn)
    assert st2["view"]["phase"] == "play" and st2["view"]["passed"] == st["view"]["hand"][:3]
    card = st2["view"]["legal"][0]
    ws2.send(json.dumps({"type": "play", "card": card, "id": 2}))
    until(ws2, lambda m: m.get("ack") == 2)
    seen = until(ws1, lambda m: card not in m["view"]["hand"])  # a's page heard of it too
    assert seen["game"] == game["game"]
    assert httpx.get(a.base + "/healthz").json()["process"] == "a"

    cluster.kill("a")
    with pytest.raises(ConnectionClosed) as closed:  # b's page: its table's process is gone
        while True:
            ws2.recv(timeout=WITHIN)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    ws3 = join(b.base, "k")  # the page reconnects (to b: a is dead), once: b runs the game now
    st3 = until(ws3, lambda m: m.get("ack") == "k")
    played = [c for t in st3["view"]["tricks"] for c in t["cards"]] + st3["view"]["trick"]
    assert card in played and card not in st3["view"]["hand"] and st3["game"] == game["game"]
    ws3.close()


def test_a_process_restarted_under_its_name_takes_its_tables_back(cluster: Cluster) -> None:
    """A process killed and started again at once under the same ``--process-id``
    is another run of it: the leases its predecessor held run out and the tables
    come back (here or at the other process), with their bots and timers, and
    the lobby lists them; none is renewed by the new run without being loaded."""
    code, seats = seat_four(cluster, "a", "b", public=True)
    drive(seats, lambda: sum(len(s.acked) for s in seats) >= 8)
    settle(seats)
    before = seats[0].latest
    assert before is not None
    assert httpx.get(cluster.processes["a"].base + "/healthz").json()["process"] == "a"
    cluster.kill("a")
    cluster.start_all(["a"])  # at once, under the same name
    come_back(seats, time.monotonic())
    after = seats[0].latest
    assert after is not None and after["game"] == before["game"]
    assert after["view"]["tricks"] == before["view"]["tricks"]
    lobby_lists(cluster.front, {code})  # the table is back in the lobby
    drive(seats, lambda: over(seats), limit=180)
    check_record(cluster, seats)
