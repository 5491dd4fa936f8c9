"""Kill the real server (SIGKILL) in the middle of a table's game, start it
again on the same database: the table resumes with its seats, timer and
scores, the players come back with their tokens, and the game finishes
(one of them on patches: the updates built from each card's events)."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import httpx

from ..clocks import WITHIN
from ..conftest import held_port
from .mp_helpers import Patched, Player, Socket


def state_now(sock: Socket, code: str, token: str) -> dict[str, Any]:
    sock.send_text(json.dumps({"type": "hello", "table": code, "token": token, "id": "now"}))
    while True:
        msg = json.loads(sock.receive_text())
        if msg["type"] == "state" and msg.get("ack") == "now":
            return msg


def test_sigkill_mid_game_then_every_table_resumes(tmp_path: Path, server_process: Any) -> None:
    db = tmp_path / "kill.sqlite3"
    # The port is held from the first start to the end: the restarted server
    # finds it free even with other tests starting servers beside (pytest -n 2).
    # The app's clock stands still: the turn timer (30 s, and the few seconds a
    # turn that ran out while the server was down gets) never plays for a seat
    # however long a loaded machine takes to restart the server.
    with held_port() as (listener, port):
        base = f"http://127.0.0.1:{port}"
        ws_url = f"ws://127.0.0.1:{port}/ws"
        proc = server_process(db, port, listener, clock="manual")
        t = httpx.post(
            base + "/api/tables",
            json={"preset": "short", "timer": 30, "speed": "fast", "level": "beginner", "name": "Ann"},
        ).json()
        bob = httpx.post(base + f"/api/tables/{t['code']}/seats", json={"name": "Bob"}).json()
        tokens = [t["token"], bob["token"]]
        a, b = Socket(ws_url), Socket(ws_url)
        b.send_text(json.dumps({"type": "hello", "table": t["code"], "token": tokens[1]}))
        pa, pb = Player(a, seed=1, actions=6), Player(b, seed=2, actions=6)
        pb.start()
        a.send_text(json.dumps({"type": "hello", "table": t["code"], "token": tokens[0]}))
        a.send_text(json.dumps({"type": "start"}))
        pa.start()
        # Both done with their actions (the bound only stops a hang) before the
        # snapshot: a player still reading its socket would race state_now for it.
        pa.join(WITHIN)
        pb.join(WITHIN)
        assert not pa.is_alive() and not pb.is_alive()
        assert pa.errors == [] and pb.errors == []
        before = state_now(a, t["code"], tokens[0])
        assert not before["over"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        a.close()
        b.close()

        server_process(db, port, listener, clock="manual")
        a, b = Patched(Socket(ws_url)), Socket(ws_url)
        after = state_now(a, t["code"], tokens[0])
        assert after["game"] == before["game"]
        assert after["totals"] == before["totals"] and after["results"] == before["results"]
        assert after["view"]["tricks"] == before["view"]["tricks"]
        assert after["view"]["trick"] == before["view"]["trick"]
        assert after["seats"][1]["name"] == "Bob" and after["timer"]["seconds"] == 30
        b_after = state_now(b, t["code"], tokens[1])
        pa, pb = Player(a, seed=3, first=after), Player(b, seed=4, first=b_after)
        pa.start()
        pb.start()
        pa.join(WITHIN)
        pb.join(WITHIN)
        assert pa.failure is None and pb.failure is None, (pa.failure, pb.failure)
        assert pa.final is not None and pa.final["over"]
        assert a.patches > 10  # the resumed game's updates came as patches, laid over whole states
        record = httpx.get(base + f"/api/games/{after['game']}/record").json()
        assert record["format"] == "damepique-game/1"
        a.close()
        b.close()
