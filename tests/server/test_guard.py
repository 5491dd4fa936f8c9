"""What one client can do to a real server process (issue 20): requests that
trickle in, sockets that never say hello, too many connections from one
address, and a spectator that never reads: each is cut off without slowing
anybody else."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.conftest import free_port, start_server, stop_server

ATTACKER = "127.0.0.2"  # another loopback address: the tests' own requests come from 127.0.0.1


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        "DAMEPIQUE_REQUEST_TIMEOUT": "1",
        "DAMEPIQUE_HELLO_TIMEOUT": "1",
        "DAMEPIQUE_PER_ADDRESS": "20",
    }
    proc = start_server(tmp_path / "guard.sqlite3", port, tmp_path / "guard.log", env)
    try:
        yield port
    finally:
        stop_server(proc)


def attacker_socket(port: int) -> socket.socket:
    s = socket.socket()
    s.bind((ATTACKER, 0))
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def closed(s: socket.socket, within: float) -> bool:
    """Whether the server closes ``s`` within ``within`` seconds (reading any answer first)."""
    s.settimeout(within)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def test_requests_that_trickle_in_and_too_many_connections_are_cut_off(server: int) -> None:
    slow = [attacker_socket(server) for _ in range(20)]
    for s in slow:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
    extra = attacker_socket(server)  # the 21st from that address: closed at once
    assert closed(extra, 1.0)
    # Meanwhile everybody else is served.
    assert httpx.get(f"http://127.0.0.1:{server}/healthz", timeout=2).status_code == 200
    started = time.monotonic()
    assert all(closed(s, 4.0) for s in slow)
    assert time.monotonic() - started < 4.0
    # The address's allowance came back with them.
    again = attacker_socket(server)
    again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert again.recv(100).startswith(b"HTTP/1.1 200")


def test_a_socket_that_never_says_hello_is_closed(server: int) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server}/ws", open_timeout=5) as ws:
        with pytest.raises(ConnectionClosed) as gone:
            ws.recv(timeout=5)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 1008
    with connect(f"ws://127.0.0.1:{server}/ws", open_timeout=5) as ws:  # one that does stays
        ws.send(json.dumps({"type": "hello", "table": "K7QM4XPA"}))
        assert json.loads(ws.recv(timeout=5))["code"] == "no_table"
        time.sleep(1.5)
        ws.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(ws.recv(timeout=5))["type"] == "pong"


class SyncSocket:
    """A real WebSocket with the test client's two methods (for ``mp_helpers.Player``)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=5, max_size=None)

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_text(self) -> str:
        return str(self.ws.recv(timeout=30))


def stuck_spectator(port: int, code: str) -> socket.socket:
    """A WebSocket that says hello to a table as a visitor, then never reads
    (a raw socket with a small buffer: nothing reads it behind our back)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert raw.recv(12) == b"HTTP/1.1 101"
    payload, mask = json.dumps({"type": "hello", "table": code}).encode(), os.urandom(4)
    raw.sendall(
        bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )
    return raw


def test_a_spectator_that_never_reads_slows_nobody(server: int) -> None:
    """Two people play game after game at a table watched by a spectator that
    never reads: every game goes at its own pace (each send to the spectator
    used to hold the table up to 10 s once its buffers were full), and the
    server closes the spectator once its messages pile up."""
    from tests.multiplayer.mp_helpers import Player

    base = f"http://127.0.0.1:{server}"
    t = httpx.post(base + "/api/tables", json={"name": "Ann", "speed": "fast"}).json()
    ann, bob = SyncSocket(f"ws://127.0.0.1:{server}/ws"), SyncSocket(f"ws://127.0.0.1:{server}/ws")
    ann.send_text(json.dumps({"type": "hello", "table": t["code"], "token": t["token"]}))
    bob.send_text(json.dumps({"type": "hello", "table": t["code"]}))
    bob.send_text(json.dumps({"type": "sit", "name": "Bob"}))
    while json.loads(bob.receive_text())["type"] != "seated":
        pass
    stuck = stuck_spectator(server, t["code"])
    ann.send_text(json.dumps({"type": "start"}))
    durations: list[float] = []
    last = None
    for game in range(8):
        started = time.monotonic()
        players = [
            Player(ann, seed=2 * game, limit=60, after=last),
            Player(bob, seed=2 * game + 1, limit=60, after=last),
        ]
        for p in players:
            p.start()
        for p in players:
            p.join(70)
            assert not p.is_alive() and p.failure is None, p.failure
        final = players[0].final
        assert final is not None and final["over"]
        durations.append(time.monotonic() - started)
        last = final["game"]
        if httpx.get(base + f"/api/tables/{t['code']}").json()["spectators"] == 0:
            break
        ann.send_text(json.dumps({"type": "rematch", "game": final["game"]}))
    else:
        raise AssertionError(f"the spectator was never closed ({len(durations)} games)")
    assert max(durations) < 40, durations
    stuck.setblocking(False)
    with pytest.raises(OSError):  # what the server had sent is there, then the end (or a reset)
        while stuck.recv(65536):
            pass
        raise OSError("closed")
