"""What one client can do to a real server process (issue 20): requests that
trickle in, sockets that never say hello, too many connections from one
address, and a spectator that never reads: each is cut off without slowing
anybody else."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.clocks import WITHIN, until
from tests.conftest import free_port, start_server, stop_server
from uvicorn.server import ServerState

from damepique.server.clock import ManualClock
from damepique.server.guard import Guard, guarded

ATTACKER = "127.0.0.2"  # another loopback address: the tests' own requests come from 127.0.0.1


def serving(folder: Path, name: str, **env: str) -> Iterator[int]:
    """A server process with ``env`` added to this one's, its port; stopped after."""
    port = free_port()
    proc = start_server(folder / f"{name}.sqlite3", port, folder / f"{name}.log", {**os.environ, **env})
    try:
        yield port
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """One process for the module: each test opens its own connections (the
    attacker's from another address) and leaves nothing the next one meets."""
    yield from serving(
        tmp_path_factory.mktemp("guard"),
        "guard",
        DAMEPIQUE_REQUEST_TIMEOUT="1",
        DAMEPIQUE_HELLO_TIMEOUT="1",
        DAMEPIQUE_PER_ADDRESS="20",
    )


def attacker_socket(port: int) -> socket.socket:
    s = socket.socket()
    s.bind((ATTACKER, 0))
    s.settimeout(WITHIN)
    s.connect(("127.0.0.1", port))
    return s


def closed(s: socket.socket, within: float) -> bool:
    """Whether the server closes ``s`` (reading any answer first); False after
    ``within`` seconds, a limit that only stops a hang."""
    s.settimeout(within)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


class Transport(asyncio.Transport):
    """What uvicorn's protocol writes to and closes, for a client at ``host``."""

    def __init__(self, host: str) -> None:
        super().__init__()
        self.host, self.closed, self.out = host, False, b""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.host, 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.out += bytes(data)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def hello_app(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


async def test_a_request_that_trickles_in_is_cut_off_on_the_app_s_clock() -> None:
    """Below the server: uvicorn's protocol with the guard's, on a ``ManualClock``."""
    clock = ManualClock()
    config = uvicorn.Config(hello_app, log_level="warning")
    config.load()
    guard = Guard(request_s=10.0, per_address=5, clock=clock)
    http, _ = guarded(guard)

    def connect(host: str) -> tuple[Any, Transport]:
        protocol, transport = http(config=config, server_state=ServerState(), app_state={}), Transport(host)
        protocol.connection_made(transport)
        return protocol, transport

    slow, slow_transport = connect(ATTACKER)
    slow.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
    quick, quick_transport = connect("127.0.0.1")
    await clock.advance(9.9)
    assert not slow_transport.closed  # within its time
    quick.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # a whole request: answered
    await until(lambda: quick_transport.out.startswith(b"HTTP/1.1 200"))
    await clock.advance(0.1)
    assert slow_transport.closed and guard.open[ATTACKER] == 1  # counted until uvicorn says it is gone
    slow.connection_lost(None)
    assert ATTACKER not in guard.open  # its allowance is back
    await clock.advance(60)
    assert not quick_transport.closed  # a request that arrived whole has no deadline
    quick.connection_lost(None)


def test_too_many_connections_from_one_address_are_cut_off(server: int) -> None:
    """A real process: the 21st connection of an address is closed at once; requests
    that trickle in are closed (on the server's own clock), and give the allowance back."""
    slow = [attacker_socket(server) for _ in range(20)]
    for s in slow:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
    extra = attacker_socket(server)  # the 21st from that address: closed at once
    assert closed(extra, WITHIN)
    # Meanwhile everybody else is served.
    assert httpx.get(f"http://127.0.0.1:{server}/healthz", timeout=WITHIN).status_code == 200
    assert all(closed(s, WITHIN) for s in slow)
    # The address's allowance came back with them.
    again = attacker_socket(server)
    again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert again.recv(100).startswith(b"HTTP/1.1 200")


def test_a_socket_that_never_says_hello_is_closed(server: int) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server}/ws", open_timeout=WITHIN) as ws:
        with pytest.raises(ConnectionClosed) as gone:
            ws.recv(timeout=WITHIN)
        assert gone.value.rcvd is not None and gone.value.rcvd.code == 1008
    with connect(f"ws://127.0.0.1:{server}/ws", open_timeout=WITHIN) as ws:  # one that does stays
        ws.send(json.dumps({"type": "hello", "table": "K7QM4XPA"}))
        assert json.loads(ws.recv(timeout=WITHIN))["code"] == "no_table"
        # A socket opened after that hello, silent, is closed: the hello limit has
        # passed for the first one too (no sleep: the server's own clock says so).
        with (
            connect(f"ws://127.0.0.1:{server}/ws", open_timeout=WITHIN) as silent,
            pytest.raises(ConnectionClosed),
        ):
            silent.recv(timeout=WITHIN)
        ws.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(ws.recv(timeout=WITHIN))["type"] == "pong"


class SyncSocket:
    """A real WebSocket with the test client's two methods (for ``mp_helpers.Player``)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=60, max_size=None)

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_text(self) -> str:
        return str(self.ws.recv(timeout=60))


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


@pytest.fixture
def stopped_clock_server(tmp_path: Path) -> Iterator[int]:
    """A server whose clock stands still, and whose buffers for a client that
    does not read are small: 4 KB in the kernel and 4 KB in the server
    (``DAMEPIQUE_SEND_BUFFER``; the system's grow to 4 MB, some sixteen whole
    games of messages), then 16 messages waiting (``DAMEPIQUE_SEND_QUEUE``)."""
    yield from serving(
        tmp_path,
        "stuck",
        DAMEPIQUE_CLOCK="manual",
        DAMEPIQUE_TEST_HOOKS="1",
        DAMEPIQUE_SEND_BUFFER="4096",
        DAMEPIQUE_SEND_QUEUE="16",
    )


def test_a_spectator_that_never_reads_slows_nobody(stopped_clock_server: int) -> None:
    """Two people play game after game (of one deal each) at a table watched by a
    spectator that never reads: every game goes at its own pace (each send to
    the spectator used to hold the table up to 10 s once its buffers were full),
    and the server closes the spectator once its messages pile up. The server's
    clock stands still but for 2 s a game (the wait for the close frame): the
    spectator can only be closed for the messages piled up (not for a send that
    waited 10 s), and a table that waited on the spectator's send would wait for
    ever (the players' reads fail)."""
    from tests.multiplayer.mp_helpers import Player

    server = stopped_clock_server
    base = f"http://127.0.0.1:{server}"
    t = httpx.post(base + "/api/tables", json={"name": "Ann", "speed": "fast", "rules": {"target": 1}}).json()
    ann, bob = SyncSocket(f"ws://127.0.0.1:{server}/ws"), SyncSocket(f"ws://127.0.0.1:{server}/ws")
    ann.send_text(json.dumps({"type": "hello", "table": t["code"], "token": t["token"]}))
    bob.send_text(json.dumps({"type": "hello", "table": t["code"]}))
    bob.send_text(json.dumps({"type": "sit", "name": "Bob"}))
    while json.loads(bob.receive_text())["type"] != "seated":
        pass
    stuck = stuck_spectator(server, t["code"])
    ann.send_text(json.dumps({"type": "start"}))
    last = None
    for game in range(4):  # it is closed in the first (at most 16 messages past 8 KB); each game spends
        # some of the players' message allowances, which a clock that stands still never gives back
        players = [
            Player(ann, seed=2 * game, after=last),
            Player(bob, seed=2 * game + 1, after=last),
        ]
        for p in players:
            p.start()
        for p in players:
            p.join(70)
            assert not p.is_alive() and p.failure is None, p.failure
        final = players[0].final
        assert final is not None and final["over"]
        last = final["game"]
        if httpx.get(base + f"/api/tables/{t['code']}").json()["spectators"] == 0:
            break
        # Closed for its pile of messages, the spectator is let go once its close frame
        # is sent, or after 2 s of the clock (its buffers are full: it never is). Two
        # seconds a game, four games at most: never the 10 s a send may wait.
        assert httpx.post(base + "/api/test/clock", json={"advance": 2}).status_code == 200
        ann.send_text(json.dumps({"type": "rematch", "game": final["game"]}))
    else:
        raise AssertionError("the spectator was never closed (4 games)")
    stuck.setblocking(False)
    with pytest.raises(OSError):  # what the server had sent is there, then the end (or a reset)
        while stuck.recv(65536):
            pass
        raise OSError("closed")
