"""Kill the real server mid-trick (SIGKILL), start it again: the game goes on exactly."""

from __future__ import annotations

import json
import random
import signal
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from ..conftest import held_port


def recv_state(ws: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["type"] == "state":
            seen.append(msg)
            return msg


def act(
    ws: Any, state: dict[str, Any], rng: random.Random, seen: list[dict[str, Any]], n: int
) -> dict[str, Any]:
    view = state["view"]
    if view["phase"] == "pass":
        ws.send(json.dumps({"type": "pass", "cards": rng.sample(view["hand"], 3), "id": n}))
    else:
        ws.send(json.dumps({"type": "play", "card": rng.choice(view["legal"]), "id": n}))
    state = recv_state(ws, seen)
    while state.get("ack") != n:
        state = recv_state(ws, seen)
    return state


def mine(state: dict[str, Any]) -> bool:
    v = state["view"]
    return not state["over"] and v["to_act"] == state["seat"] and v["phase"] != "done"


def test_sigkill_mid_trick_then_restart(tmp_path: Path, server_process) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "restart.sqlite3"
    # The port is held from the first start to the end: the restarted server
    # finds it free even with other tests starting servers beside (pytest -n 2).
    with held_port() as (listener, port):
        base = f"http://127.0.0.1:{port}"
        proc = server_process(db, port, listener)
        game = httpx.post(
            f"{base}/api/games", json={"preset": "short", "speed": "fast", "level": "beginner"}
        ).json()
        rng = random.Random(11)
        seen: list[dict[str, Any]] = []
        n = 0
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": game["token"]}))
            state = recv_state(ws, seen)
            # Play until our turn in the middle of a trick of the second deal or later.
            while not (mine(state) and state["view"]["trick"] and state["view"]["deal"] >= 1):
                if mine(state):
                    n += 1
                    state = act(ws, state, rng, seen, n)
                else:
                    state = recv_state(ws, seen)
        before = state
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

        server_process(db, port, listener)
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": game["token"]}))
            state = recv_state(ws, seen)
            assert state["view"] == before["view"]
            assert state["totals"] == before["totals"] and state["results"] == before["results"]
            while not state["over"]:
                if mine(state):
                    n += 1
                    state = act(ws, state, rng, seen, n)
                else:
                    state = recv_state(ws, seen)
        record = httpx.get(f"{base}/api/games/{game['game']}/record").json()
        # The record holds exactly what was played: each deal's plays as our seat saw
        # them, our hands as dealt, and the final scores.
        for k, deal in enumerate(record["deals"]):
            views = [m["view"] for m in seen if m["view"] and m["view"]["deal"] == k]
            last = max(views, key=lambda v: (len(v["tricks"]), len(v["trick"])))
            played = [c for t in last["tricks"] for c in t["cards"]] + last["trick"]
            assert deal["plays"] == played
            first = views[0]
            dealt = set(first["hand"]) | set(first["passed"] or [])
            assert set(deal["hands"][0]) == dealt
            if first["passed"]:
                assert deal["passes"][0] == sorted(first["passed"], key=deal["hands"][0].index)
        replay = httpx.post(f"{base}/api/replay", json=record).json()
        assert replay["totals"] == state["totals"] and replay["winner"] == state["winner"]
