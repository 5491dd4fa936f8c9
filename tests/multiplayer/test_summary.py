"""The summary of a finished deal at a table with others (issue 16): the next
deal is dealt at once but waits, no bot acting and no turn timer running,
until every person at the table has pressed "Continue", or 15 seconds (that on the
app's clock: ``test_table_rules.py``, below the app)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.server.app import create_app

from .mp_helpers import Player, create_table, hello, recv, sit


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'summary.sqlite3'}")
    app.state.settings.chat_interval = 0.0
    with TestClient(app) as c:
        yield c


def first_summary(
    client: TestClient, stack: contextlib.ExitStack
) -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
    """Two people and two bots play deal 0 to its end; each stops at the summary."""
    t = create_table(client, rules={"target": 100})
    ca = stack.enter_context(client.websocket_connect("/ws"))
    cb = stack.enter_context(client.websocket_connect("/ws"))
    hello(ca, t["code"], t["token"])
    hello(cb, t["code"])
    sit(cb, "Bob")
    ca.send_text(json.dumps({"type": "start"}))
    pa, pb = Player(ca, seed=1, until_summary=True), Player(cb, seed=2, until_summary=True)
    for p in (pa, pb):
        p.start()
    for p in (pa, pb):
        p.join(60)
        assert p.failure is None and p.summary is not None, p.failure
    assert pa.summary is not None and pb.summary is not None
    return ca, cb, pa.summary, pb.summary


def state_where(ws: Any, test: Any) -> dict[str, Any]:
    while True:
        msg = recv(ws)
        assert msg["type"] != "error", msg
        if msg["type"] == "state" and test(msg):
            return msg


def test_the_next_deal_waits_for_everybody_to_continue(client: TestClient) -> None:
    with contextlib.ExitStack() as stack:
        waits_for_everybody(*first_summary(client, stack))


def waits_for_everybody(ca: Any, cb: Any, sa: dict[str, Any], sb: dict[str, Any]) -> None:
    assert sb["summary"] == sa["summary"]
    summary = sa["summary"]
    assert summary["deal"] == 0 and summary["waiting"] == [0, 1]
    assert summary["deadline"] > 0 and sa["view"]["deal"] == 1 and sa["view"]["phase"] == "pass"
    # The bots (seats 2 and 3) have not passed: they wait with everybody else.
    assert sa["view"]["passed_seats"] == [False, False, False, False]
    ca.send_text(json.dumps({"type": "continue", "deal": 0}))
    after_a = state_where(cb, lambda m: m["summary"] and m["summary"]["waiting"] == [1])
    assert after_a["view"]["passed_seats"][2:] == [False, False]
    cb.send_text(json.dumps({"type": "continue", "deal": 1}))  # not the deal read: ignored
    cb.send_text(json.dumps({"type": "continue", "deal": 0}))
    done = state_where(ca, lambda m: m["summary"] is None and m["view"]["passed_seats"][2:] == [True, True])
    assert done["view"]["deal"] == 1


def test_a_solo_game_does_not_wait(tmp_path: Path) -> None:
    """The page holds a solo game's summary itself: the server holds nothing."""
    with TestClient(create_app(f"sqlite+aiosqlite:///{tmp_path / 'solo.sqlite3'}")) as c:
        g = c.post("/api/games", json={"speed": "fast", "level": "random", "preset": "short"}).json()
        with c.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            player = Player(ws, seed=3, until_summary=True)
            player.run()
            assert player.failure is None and player.final is not None and player.summary is None


def once_left(leaver: Any, reader: Any) -> dict[str, Any]:
    """``leaver`` leaves; ``reader``'s last state once the table has told it
    so. The table's message comes with the seat changed, the runner's state
    right after it; a ping answered after both bounds the wait (the summary's
    own 15 s would close it too, later)."""
    leaver.send_text(json.dumps({"type": "leave"}))
    while recv(reader)["type"] != "table":
        pass
    reader.send_text(json.dumps({"type": "ping", "id": "after-leave"}))
    last = None
    while (msg := recv(reader))["type"] != "pong":
        if msg["type"] == "state":
            last = msg
    assert last is not None
    return last


def test_a_person_who_leaves_during_the_summary_is_not_waited_for(client: TestClient) -> None:
    """Bob leaves the table while both read deal 0's summary: the next deal
    waits for Ann alone (not for the 15 seconds Bob would have had), and goes
    on, Bob's seat played by a bot, once she continues."""
    with contextlib.ExitStack() as stack:
        ca, cb, sa, _ = first_summary(client, stack)
        assert sa["summary"]["waiting"] == [0, 1]
        assert once_left(cb, ca)["summary"] == {**sa["summary"], "waiting": [0]}
        ca.send_text(json.dumps({"type": "continue", "deal": 0}))
        done = state_where(ca, lambda m: m["summary"] is None and all(m["view"]["passed_seats"][1:]))
        assert done["view"]["deal"] == 1 and not done["view"]["passed_seats"][0]


def test_the_summary_closes_when_its_last_reader_leaves(client: TestClient) -> None:
    """Ann continued; Bob, the one still reading, leaves: nobody is waited for."""
    with contextlib.ExitStack() as stack:
        ca, cb, _, _ = first_summary(client, stack)
        ca.send_text(json.dumps({"type": "continue", "deal": 0}))
        state_where(ca, lambda m: m["summary"] and m["summary"]["waiting"] == [1])
        last = once_left(cb, ca)
        assert last["summary"] is None
        # The three bots pass now (before the pong or after it).
        if last["view"]["passed_seats"][1:] != [True] * 3:
            last = state_where(ca, lambda m: m["view"]["passed_seats"][1:] == [True] * 3)
        assert last["view"]["deal"] == 1
