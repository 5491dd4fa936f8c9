"""Quick match across two real server processes on one PostgreSQL and one Redis:
pages at both processes are seated at one table by the one process that owns
the queue, and a person waiting at both processes at once is seated once.
Every read is bounded (the socket's own timeout)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .cluster_helpers import Cluster

READ_S = 60.0
"""The longest one message is waited for (it comes in well under a second)."""


def page(cluster: Cluster, name: str) -> ClientConnection:
    port = cluster.processes[name].port
    return connect(f"ws://127.0.0.1:{port}/ws/match", open_timeout=READ_S)


def next_status(ws: ClientConnection, *wanted: str) -> dict[str, Any]:
    """The next quick-match message of one of these statuses (counts of people passed over)."""
    while True:
        msg = json.loads(ws.recv(timeout=READ_S))
        assert msg["type"] == "quick", msg
        if msg["status"] in wanted:
            return dict(msg)


def test_two_processes_seat_people_from_both_and_one_person_once(cluster: Cluster) -> None:
    where = {"zoe@a": "a", "xav": "a", "yan": "b", "zoe@b": "b", "wil": "b"}
    pages = {n: page(cluster, p) for n, p in where.items()}
    try:
        for n in ("zoe@a", "xav", "yan", "zoe@b"):
            device = "device-of-zoe" if n.startswith("zoe") else f"device-of-{n}"
            pages[n].send(json.dumps({"type": "join", "name": n, "player": device, "wait": 120}))
            assert next_status(pages[n], "queued")["ticket"]
        # Zoé's second page (at b) took her place: her first page (at a) hears so.
        assert next_status(pages["zoe@a"], "replaced", "matched")["status"] == "replaced"
        pages["wil"].send(json.dumps({"type": "join", "name": "wil", "player": "device-of-wil", "wait": 120}))
        matched = {n: next_status(ws, "matched") for n, ws in pages.items() if n != "zoe@a"}
    finally:
        for ws in pages.values():
            ws.close()
    assert len({m["code"] for m in matched.values()}) == 1
    assert sorted(m["seat"] for m in matched.values()) == [0, 1, 2, 3]
    code = matched["xav"]["code"]
    # The table: four people, Zoé once, whichever process runs it.
    info = httpx.get(f"{cluster.processes['a'].base}/api/tables/{code}", timeout=READ_S).json()
    names = sorted(s["name"] for s in info["seats"])
    assert names == ["wil", "xav", "yan", "zoe@b"]
