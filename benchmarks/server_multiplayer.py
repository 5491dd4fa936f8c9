"""How many concurrent four-person tables a server sustains, and at what latency.

N tables of four people, every seat a person on its own loopback WebSocket to
``/ws`` (``/ws/table`` before protocol 2; 4N connections), no bots. Each person plays a random legal card
(or pass) as soon as it is their turn, after ``--think`` seconds on average
(0: as fast as the server answers). The latency of a card runs from the moment
it is sent to the moment the last of the table's four connections has received
the update carrying it. When a game ends the host asks for a rematch, so N
games are always in progress.

The simulated tables are spread over ``--client-procs`` client processes (a
table's four connections always in the same one, so a latency is measured on
one clock), each speaking WebSocket through a minimal callback-driven client
(``Socket``) that costs about half the CPU of the ``websockets`` library's.
The clients share the machine with the server, so they are kept cheap: each
connection lays the patches it gets over its own last state in place
(``patch_in_place``, what ``apply_patch`` gives; ``--check`` compares the two
on every patch), an action's text is written once per card, and the client
processes collect garbage as rarely as the server does.

By default each level gets a fresh ``damepique serve`` process (SQLite in a
temporary folder) on a free port, so one level's abandoned tables
(whose players a stand-in bot replaces after the grace period) do not load the
next; ``--url`` targets a server already running on this machine instead (one
process, or several behind a proxy: ``--server-pid`` names the processes whose
CPU and memory to read).

For each N of ``--tables``: cards/s, latency p50/p95/p99/max in ms, server CPU
(cores, and ms per card), client CPU, server RSS and RSS growth per table
(local servers only), errors, and the load average of the machine. ``--json``
prints one JSON object per level instead of a table row. Bounded: at most 600 s
a level, 5,000 tables, 16 client processes, ``--cards`` cards a level;
127.0.0.1 only; it stops by itself.

    python benchmarks/server_multiplayer.py --tables 50,100,200,300,500 --seconds 20 --client-procs 2
    python benchmarks/server_multiplayer.py --url http://127.0.0.1:8000 --tables 100 --json
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from damepique.server.protocol import apply_patch

try:
    from damepique.wire import lay_plays
except ImportError:  # a server from before play patches, measured from this script: it sends none
    lay_plays = None  # type: ignore[assignment]

try:
    import orjson

    loads: Any = orjson.loads
except ImportError:  # the client works without it, a little slower
    loads = json.loads


class ProtocolError(Exception):
    """A patch for a state this client does not hold (what ``apply_patch`` refuses)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code


MAX_SECONDS = 600.0
MAX_TABLES = 5000
MAX_PROCS = 16
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
CLIENT_GC_THRESHOLD = (10_000, 20, 100)
"""The client processes' collector: young collections rarer than Python's default."""


# -- reading processes -------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(base: str, seconds: float = 120.0) -> None:
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"no server answering at {base}")


@contextmanager
def local_server(gc: str | None = None, probe: str | None = None) -> Iterator[tuple[str, int]]:
    """A fresh ``damepique serve`` on a free loopback port: (base URL, pid);
    ``gc``: the server's ``DAMEPIQUE_GC`` (``paced`` or thresholds ``g0,g1,g2``;
    its default otherwise; a tree from before it takes the thresholds);
    ``probe``: run it under ``loop_probe.py``, its report written there."""
    # The load comes from one address and stands for many people: the limits
    # per client address (connections, tables and games created) are off.
    env = dict(os.environ) | {"DAMEPIQUE_PER_ADDRESS": "0", "DAMEPIQUE_CREATIONS": "0"}
    if gc:
        env["DAMEPIQUE_GC"] = gc
        if gc != "paced":  # a server from before DAMEPIQUE_GC read its thresholds here
            env["DAMEPIQUE_GC_THRESHOLD"] = gc
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        command = [sys.executable, "-m", "damepique", "serve"]
        if probe:
            command = [sys.executable, str(Path(__file__).with_name("loop_probe.py")), "--out", probe, "--"]
        proc = subprocess.Popen(
            [
                *command,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "bench.sqlite3"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(base)
            yield base, proc.pid
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# -- one client process ----------------------------------------------------------------------


class Tally:
    def __init__(self, max_cards: int) -> None:
        self.latencies: list[float] = []
        self.cards = 0
        self.bytes = 0
        """Bytes of messages received while measuring, all connections."""
        self.errors = 0
        self.lost = 0
        self.max_cards = max_cards
        self.measuring = False
        self.full: asyncio.Future[None] | None = None
        self.back: list[float] = []
        """After a reconnect storm: each connection's time from the drop to its first whole state."""
        self.stand_ins = 0
        self.lost_codes: dict[str, int] = {}
        """Connections the server closed, by close code ("None": cut without one)."""
        """``stand_in`` notices heard: a person's grace ran out and a bot took the seat."""


class Socket(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455: masked text frames, fragmented
    messages, ping/pong, close), driven by callbacks: a received message goes
    straight to ``on_message``, with no task, future or queue per message. The
    ``websockets`` library's client cost as much CPU per card as the server; on
    two cores the load generator then takes the CPU the server is being
    measured with, so the frames are read in place from each chunk the socket
    gives (most hold whole frames: nothing is buffered then)."""

    def __init__(self, on_message: Any, on_lost: Any) -> None:
        self.on_message = on_message
        self.on_lost = on_lost
        self.buf = bytearray()
        """The start of a frame (or of the handshake's answer) not yet whole."""
        self.need = 0
        """How many bytes ``buf`` needs before the frame in it can be read."""
        self.parts: list[bytes] = []
        self.transport: Any = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.open = False
        self.closing = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def handshake(self, host: str, path: str) -> None:
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        if self.buf:
            buf = self.buf
            buf += data
            if len(buf) < self.need:
                return
            data = bytes(buf)
            self.buf = bytearray()
        if not self.open:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.buf += data
                return
            status = data[: data.find(b"\r\n")]
            data = data[end + 4 :]
            if b" 101 " not in status + b" ":
                self.opened.set_exception(ConnectionError(status.decode(errors="replace")))
                return
            self.open = True
            self.opened.set_result(None)
        size = len(data)
        at = 0
        while size - at >= 2:
            first = data[at]
            n = data[at + 1]
            head = at + 2
            if n >= 126:
                if n & 0x80:  # a server's frames are never masked (RFC 6455 5.1)
                    self.close(1002)
                    return
                if n == 126:
                    if size - at < 4:
                        self.need = 4
                        break
                    n, head = data[at + 2] << 8 | data[at + 3], at + 4
                else:
                    if size - at < 10:
                        self.need = 10
                        break
                    n, head = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
            end = head + n
            if end > size:
                self.need = end - at
                break
            at = end
            op = first & 0x0F
            if op == 1 and first & 0x80 and not self.parts:  # a whole text message
                self.on_message(data[head:end])
            elif op in (0, 1):  # a fragment of a text message, or its last
                self.parts.append(data[head:end])
                if first & 0x80:
                    text = b"".join(self.parts)
                    self.parts = []
                    self.on_message(text)
            elif op == 9:
                self.frame(0xA, data[head:end])
            elif op == 8:  # the server closed it: a lost connection, unless we were closing
                if not self.closing:
                    self.close()
                    self.on_lost(int.from_bytes(data[head : head + 2], "big") if n >= 2 else 1005)
                return
        if at < size:
            if size - at < 2:
                self.need = 2
            self.buf += data[at:]

    def frame(self, op: int, payload: bytes) -> None:
        """A client's frame is masked: a random key XORed over the payload."""
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 1 << 16:
            head = bytes((0x80 | op, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | op, 0x80 | 127)) + n.to_bytes(8, "big")
        key = mask_key()
        mask = int.from_bytes((key * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(payload, "big") ^ mask).to_bytes(n, "big")
        self.transport.write(head + key + masked)

    def send(self, text: str | bytes) -> None:
        """A text message: ``str``, or already encoded as UTF-8."""
        if not self.closing:
            self.frame(0x1, text.encode() if isinstance(text, str) else text)

    def close(self, code: int = 1000) -> None:
        if not self.closing:
            self.closing = True
            with suppress(Exception):
                self.frame(0x8, code.to_bytes(2, "big"))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed"))
        if not self.closing:
            self.on_lost(None)  # no close frame: the connection was cut


_keys = b""
_key_at = 0


def mask_key() -> bytes:
    """Four bytes from ``os.urandom``, drawn 4 KB at a time (one system call per
    thousand frames rather than one per frame)."""
    global _keys, _key_at
    if _key_at >= len(_keys):
        _keys, _key_at = os.urandom(4096), 0
    _key_at += 4
    return _keys[_key_at - 4 : _key_at]


async def http_get_json(url: str) -> dict[str, Any]:
    import urllib.request

    def get() -> dict[str, Any]:
        with urllib.request.urlopen(url, timeout=10) as r:
            return dict(json.loads(r.read()))

    return await asyncio.to_thread(get)


def patch_in_place(state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``apply_patch(state, patch)`` (``damepique.server.protocol``) made in
    ``state`` itself, and its view, rather than in copies: a connection's last
    state is its own, and no one else holds it. ``ProtocolError``
    (``out_of_step``), and ``state`` unchanged, when ``patch`` does not build on
    it. ``--check`` compares the two on every patch of a run.

    >>> last = {"type": "state", "n": 4, "ack": 2, "over": False, "view": {"to_act": 1, "trick": []}}
    >>> patch = {"type": "state", "n": 5, "base": 4, "view": {"to_act": 2, "trick": ["2C"]}}
    >>> want = apply_patch(last, patch)
    >>> got = patch_in_place(last, patch)
    >>> got is last, got == want, list(got) == list(want), got
    (True, True, True, {'type': 'state', 'n': 5, 'over': False, 'view': {'to_act': 2, 'trick': ['2C']}})
    >>> stale = {"type": "state", "n": 7, "base": 6, "ack": 1}
    >>> patch_in_place(last, stale)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    server_multiplayer.ProtocolError: a patch for a state this client does not hold
    """
    if state.get("n") != patch["base"]:
        raise ProtocolError("out_of_step", "a patch for a state this client does not hold")
    view = state["view"]
    state.pop("ack", None)
    state.update(patch)
    del state["base"]
    if state.pop("plays", False):  # a play patch: its cards first (a server that knows them)
        view = state["view"] = lay_plays(view, patch["events"])
        state["event"] = patch["events"][-1] if patch["events"] else None
    if "view" in patch:
        view.update(patch["view"])
        state["view"] = view
    return state


class TableRun:
    """One table's four connections and its cards in flight."""

    def __init__(
        self,
        code: str,
        tokens: list[str],
        tally: Tally,
        think: float,
        seed: int,
        updates: str = "plays",
        check: bool = False,
    ) -> None:
        self.code = code
        self.tokens = tokens
        self.tally = tally
        self.think = think
        self.rng = random.Random(seed)
        self.sent: dict[tuple[int, int, str], list[Any]] = {}
        """(deal, seat, card) -> [time sent, connections that have seen it, measured]."""
        self.game: str | None = None
        self.sockets: list[Socket] = []
        self.done_keys: list[Any] = [None] * 4
        self.read: list[Any] = [None] * 4
        """The (game, deal) whose summary each seat last said it read."""
        self.states: list[dict[str, Any] | None] = [None] * 4
        """Each connection's last whole state, for the patches that follow it
        (its own: a patch is laid over it in place)."""
        self.updates = updates
        """``whole`` states only, ``patches``, or play patches too (``plays``)."""
        self.check = check
        """Lay each patch with ``apply_patch`` too and count a difference as an error."""
        self.dropped: list[float | None] = [None] * 4
        """When each connection was dropped by a storm, until its new one gets a whole state."""

    def hello(self, i: int) -> None:
        """Say hello on connection ``i`` as soon as it opens: the server closes a
        connection that stays silent past its hello time limit, so a setup
        that opened every connection first lost them in any run longer than that."""
        hello = {
            "type": "hello",
            "table": self.code,
            "token": self.tokens[i],
            "patches": self.updates != "whole",
            "plays": self.updates == "plays",
        }
        self.sockets[i].send(json.dumps(hello))

    def begin(self) -> None:
        self.sockets[0].send(json.dumps({"type": "start"}))

    def drop(self, i: int, at: float) -> None:
        """A storm: connection ``i`` is cut (no close handshake), as by a lost network."""
        ws = self.sockets[i]
        ws.closing = True
        ws.transport.abort()
        self.dropped[i] = at
        self.states[i] = None
        # Act again on the whole state the new connection gets (a card not sent, or
        # sent on the cut one and lost, is played again, as the page does).
        self.done_keys[i] = None

    def on_message(self, i: int, raw: bytes) -> None:
        tally = self.tally
        if tally.measuring:
            tally.bytes += len(raw)
        msg = loads(raw)
        kind = msg["type"]
        if kind != "state":
            if kind == "error":
                tally.errors += 1
            elif kind == "notice" and msg.get("kind") == "stand_in":
                tally.stand_ins += 1
            return
        if "base" in msg:  # a patch over this connection's last state (docs/protocol.md)
            state = self.states[i]
            want = None
            try:
                if state is None:
                    raise ProtocolError("out_of_step", "a patch before any state")
                if self.check:
                    want = apply_patch(state, msg)
                msg = patch_in_place(state, msg)
            except ProtocolError:
                tally.errors += 1
                return
            if want is not None and (want != msg or list(want) != list(msg)):
                tally.errors += 1
        else:
            self.states[i] = msg
            if self.dropped[i] is not None:
                tally.back.append(time.monotonic() - self.dropped[i])
                self.dropped[i] = None
        view = msg["view"]
        events = msg.get("events") or (msg.get("event"),)
        for ev in events:
            if ev and ev.get("type") == "play":
                key = (view["deal"], ev["seat"], ev["card"])
                entry = self.sent.get(key)
                if entry is not None:
                    entry[1] += 1
                    if entry[1] >= 4:
                        now = time.monotonic()
                        del self.sent[key]
                        if entry[2]:
                            tally.latencies.append(now - entry[0])
                            tally.cards += 1
                            if tally.cards >= tally.max_cards and tally.full and not tally.full.done():
                                tally.full.set_result(None)
        ws = self.sockets[i]
        if msg["over"]:
            if i == 0 and msg["game"] != self.game:
                self.game = msg["game"]
                ws.send(json.dumps({"type": "rematch", "game": msg["game"]}))
            return
        summary = msg.get("summary")
        if summary and msg["seat"] in summary["waiting"] and self.read[i] != (msg["game"], summary["deal"]):
            # The next deal waits for every person's "Continue" (protocol 2): press it at once.
            self.read[i] = (msg["game"], summary["deal"])
            ws.send(json.dumps({"type": "continue", "deal": summary["deal"]}))
        if view is None or view["to_act"] != msg["seat"]:
            return
        phase = view["phase"]
        if phase == "pass":
            key2: Any = (view["deal"], "pass")
        elif phase == "play":
            key2 = (view["deal"], len(view["tricks"]), len(view["trick"]))
        else:
            return
        if key2 == self.done_keys[i]:
            return
        self.done_keys[i] = key2
        if phase == "pass":
            cards = self.rng.sample(view["hand"], 3)
            act: tuple[Any, bytes] = (None, json.dumps({"type": "pass", "cards": cards}).encode())
        else:
            card = self.rng.choice(view["legal"])
            act = ((view["deal"], i, card), play_text(card))
        if self.think:
            delay = self.think * (0.5 + self.rng.random())
            asyncio.get_running_loop().call_later(delay, self.act, ws, *act)
        else:
            self.act(ws, *act)

    def act(self, ws: Socket, key: Any, text: bytes) -> None:
        if key is not None:
            self.sent[key] = [time.monotonic(), 0, self.tally.measuring]
        ws.send(text)


_plays: dict[str, bytes] = {}


def play_text(card: str) -> bytes:
    """``{"type": "play", "card": card}`` as JSON (UTF-8), written once per card."""
    text = _plays.get(card)
    if text is None:
        text = _plays[card] = json.dumps({"type": "play", "card": card}).encode()
    return text


async def client_main(
    pipe: Any,
    base: str,
    first: int,
    count: int,
    think: float,
    max_cards: int,
    updates: str = "plays",
    check: bool = False,
) -> None:
    import httpx

    loop = asyncio.get_running_loop()
    tally = Tally(max_cards)
    tally.full = loop.create_future()
    runs: list[TableRun] = []
    limits = httpx.Limits(max_connections=8)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:

        async def make(k: int) -> TableRun:
            r = await http.post(
                "/api/tables", json={"preset": "standard", "speed": "fast", "fill": False, "name": "P0"}
            )
            r.raise_for_status()
            t = r.json()
            tokens = [t["token"]]
            for j in range(1, 4):
                s = await http.post(f"/api/tables/{t['code']}/seats", json={"name": f"P{j}"})
                s.raise_for_status()
                tokens.append(s.json()["token"])
            return TableRun(t["code"], tokens, tally, think, first + k, updates, check)

        for k0 in range(0, count, 8):
            runs += await asyncio.gather(*(make(k) for k in range(k0, min(count, k0 + 8))))
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    # One socket for every game since protocol 2; tables had their own before.
    protocol = (await http_get_json(base + "/healthz")).get("protocol", 1)
    path = (parts.path.rstrip("/") or "") + ("/ws/table" if protocol == 1 else "/ws")

    def lost(code: int | None) -> None:
        tally.lost += 1
        tally.lost_codes[str(code)] = tally.lost_codes.get(str(code), 0) + 1

    async def connect(run: TableRun, i: int) -> None:
        handler = partial(run.on_message, i)
        _, ws = await loop.create_connection(lambda h=handler: Socket(h, lost), host, port)
        ws.handshake(f"{host}:{port}", path)
        await asyncio.wait_for(ws.opened, 60)
        if i < len(run.sockets):
            run.sockets[i] = ws
        else:
            run.sockets.append(ws)
        run.hello(i)

    for run in runs:
        for i in range(4):
            await connect(run, i)
    # What was built so far lives to the end: out of the collector's way, and
    # collections rarer than Python's default.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLD)
    pipe.send(("ready", count))
    start, warm_until, stop_at, storm_at = await loop.run_in_executor(None, pipe.recv)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    for run in runs:
        run.begin()
    await asyncio.sleep(max(0.0, warm_until - time.monotonic()))
    tally.measuring = True
    storm_s = None
    if storm_at is not None:
        # Every connection of this process cut at once, then every one opened again
        # at once (each says hello as it opens): how long until all are back.
        await asyncio.sleep(max(0.0, storm_at - time.monotonic()))
        cut = time.monotonic()
        for run in runs:
            for i in range(4):
                run.drop(i, cut)
        # Each reconnection bounded by the level's end: a connection the server
        # never accepts (its SYN dropped and sent again) is counted, not waited for.
        left = max(1.0, stop_at - time.monotonic())
        results = await asyncio.gather(
            *(asyncio.wait_for(connect(run, i), left) for run in runs for i in range(4)),
            return_exceptions=True,
        )
        tally.errors += sum(1 for r in results if isinstance(r, BaseException))
        while any(d is not None for run in runs for d in run.dropped) and time.monotonic() < stop_at:
            await asyncio.sleep(0.05)
        storm_s = max(tally.back) if len(tally.back) == 4 * len(runs) else None
    with suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(tally.full), max(0.0, stop_at - time.monotonic()))
    ended = time.monotonic()
    tally.measuring = False
    latencies, cards = list(tally.latencies), tally.cards
    for run in runs:
        for ws in run.sockets:
            ws.close()
    await asyncio.sleep(0.2)
    pipe.send(
        (
            "done",
            {
                "latencies": latencies,
                "cards": cards,
                "bytes": tally.bytes,
                "errors": tally.errors + tally.lost,
                "failure": f"{tally.lost} connections lost or closed by the server {tally.lost_codes}"
                if tally.lost
                else None,
                "ended": ended,
                "back": list(tally.back),
                "storm_s": storm_s,
                "stand_ins": tally.stand_ins,
            },
        )
    )


def client_process(
    pipe: Any,
    base: str,
    first: int,
    count: int,
    think: float,
    max_cards: int,
    updates: str = "plays",
    check: bool = False,
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(client_main(pipe, base, first, count, think, max_cards, updates, check))
    except BaseException as e:  # tell the parent rather than leave it waiting
        pipe.send(("failed", repr(e)))
        raise


# -- one level -------------------------------------------------------------------------------------


def quantile(lat: list[float], p: float) -> float | None:
    return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None


def run_level(
    base: str,
    pids: list[int],
    n: int,
    procs: int,
    seconds: float,
    warm: float,
    think: float,
    max_cards: int,
    updates: str = "plays",
    check: bool = False,
    probe: bool = False,
    storm: float | None = None,
) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    procs = max(1, min(procs, n))
    shares = [n // procs + (1 if k < n % procs else 0) for k in range(procs)]
    per_proc_cards = max(1, max_cards // procs)
    rss0 = sum(rss_mb(p) for p in pids)

    def signal_probe(signum: int) -> None:
        """The measured window's start (SIGUSR1) or end (SIGUSR2), for a server under ``loop_probe.py``."""
        if probe:
            for pid in pids:
                os.kill(pid, signum)

    children = []
    first = 0
    for share in shares:
        parent, child = ctx.Pipe()
        proc = ctx.Process(
            target=client_process,
            args=(child, base, first, share, think, per_proc_cards, updates, check),
            daemon=True,
        )
        proc.start()
        children.append((proc, parent))
        first += share

    def expect(parent: Any, kind: str, timeout: float) -> Any:
        if not parent.poll(timeout):
            raise RuntimeError(f"a client process did not report {kind!r} in {timeout:.0f} s")
        got, value = parent.recv()
        if got != kind:
            raise RuntimeError(f"a client process: {got} {value}")
        return value

    try:
        for _, parent in children:
            expect(parent, "ready", 300)
        start = time.monotonic() + 0.5
        warm_until = start + warm
        stop_at = start + seconds
        load0 = os.getloadavg()
        storm_at = None if storm is None else warm_until + storm
        for _, parent in children:
            parent.send((start, warm_until, stop_at, storm_at))
        time.sleep(max(0.0, warm_until - time.monotonic()))
        signal_probe(signal.SIGUSR1)
        cpu0 = sum(cpu_seconds(p) for p in pids)
        ccpu0 = sum(cpu_seconds(proc.pid) for proc, _ in children)
        t0 = time.monotonic()
        results = []
        cpu1 = ccpu1 = t1 = None
        for _, parent in children:
            if not parent.poll(max(1.0, stop_at - time.monotonic() + 60)):
                raise RuntimeError("a client process did not finish")
            if cpu1 is None:  # the first to finish: the end of the measured window
                t1 = time.monotonic()
                signal_probe(signal.SIGUSR2)
                cpu1 = sum(cpu_seconds(p) for p in pids)
                ccpu1 = sum(cpu_seconds(pr.pid) for pr, _ in children)
            results.append(expect(parent, "done", 5))
        assert cpu1 is not None and ccpu1 is not None and t1 is not None
        rss1 = sum(rss_mb(p) for p in pids)
        load1 = os.getloadavg()
    finally:
        for proc, _ in children:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()
    measured = max(1e-9, min(max(r["ended"] for r in results), stop_at) - warm_until)
    window = max(1e-9, t1 - t0)
    lat = sorted(x for r in results for x in r["latencies"])
    back = sorted(x for r in results for x in r["back"])
    storm_failure = None
    if storm is not None and len(back) < 4 * n:
        storm_failure = f"{4 * n - len(back)} connections not back by the level's end after the storm"
    cards = sum(r["cards"] for r in results)
    cpu = cpu1 - cpu0
    return {
        "tables": n,
        "connections": 4 * n,
        "client_procs": procs,
        "think_s": think,
        "seconds_measured": round(measured, 1),
        "cards": cards,
        "cards_per_s": round(cards / measured, 1),
        "p50_ms": quantile(lat, 0.50),
        "p95_ms": quantile(lat, 0.95),
        "p99_ms": quantile(lat, 0.99),
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "mean_ms": round(sum(lat) / len(lat) * 1000, 1) if lat else None,
        "server_cpu": round(cpu / window, 2) if pids else None,
        "server_ms_per_card": round(cpu / cards * 1000, 3) if pids and cards else None,
        "client_cpu": round((ccpu1 - ccpu0) / window, 2),
        "kb_per_card": round(sum(r["bytes"] for r in results) / cards / 1000, 2) if cards else None,
        "server_rss_mb": round(rss1, 1) if pids else None,
        "mb_per_table": round((rss1 - rss0) / n, 3) if pids else None,
        "errors": sum(r["errors"] for r in results),
        "failure": next((r["failure"] for r in results if r["failure"]), storm_failure),
        "storm_at_s": storm,
        "storm_settle_s": round(max(back), 2) if storm is not None and not storm_failure else None,
        "storm_back_p50_ms": quantile(back, 0.50),
        "storm_back_p99_ms": quantile(back, 0.99),
        "stand_ins": sum(r["stand_ins"] for r in results),
        "load_before": [round(x, 2) for x in load0],
        "load_after": [round(x, 2) for x in load1],
    }


COLUMNS = (
    ("tables", "tables"),
    ("cards_per_s", "cards/s"),
    ("p50_ms", "p50"),
    ("p95_ms", "p95"),
    ("p99_ms", "p99"),
    ("max_ms", "max"),
    ("server_cpu", "srv cores"),
    ("server_ms_per_card", "srv ms/card"),
    ("client_cpu", "cli cores"),
    ("kb_per_card", "KB/card"),
    ("server_rss_mb", "RSS MB"),
    ("mb_per_table", "MB/table"),
    ("errors", "errors"),
)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument(
        "--tables", default="50,100,200,300,500", help="comma-separated numbers of concurrent tables"
    )
    p.add_argument(
        "--seconds", type=float, default=20.0, help=f"per level, warm-up included (at most {MAX_SECONDS:.0f})"
    )
    p.add_argument("--warm", type=float, default=5.0, help="seconds not measured at the start of each level")
    p.add_argument("--think", type=float, default=0.0, help="mean seconds a person waits before acting")
    p.add_argument("--cards", type=int, default=1_000_000, help="stop a level after this many measured cards")
    p.add_argument("--client-procs", type=int, default=2, help=f"client processes (at most {MAX_PROCS})")
    p.add_argument("--url", help="a server already running on this machine, e.g. http://127.0.0.1:8000")
    p.add_argument(
        "--server-pid", default="", help="with --url: comma-separated pids whose CPU and memory to report"
    )
    p.add_argument(
        "--server-gc",
        default="",
        help="the server's DAMEPIQUE_GC: paced, or Python's own collector at thresholds"
        " such as 700,10,10 (default: the server's)",
    )
    p.add_argument(
        "--storm",
        type=float,
        default=None,
        help="a reconnect storm this many seconds into the measured window: every connection cut at "
        "once, then opened again at once, each saying hello (its settling time and lost seats reported)",
    )
    p.add_argument(
        "--probe",
        default="",
        help="run each local server under loop_probe.py: its loop's stalls, collections and where it "
        "stalled, written to this file (one per level: the number of tables is added to the name)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per level instead of a table row")
    p.add_argument(
        "--whole",
        action="store_true",
        help="ask for whole states only (no patches), as a client that does not ask for them",
    )
    p.add_argument(
        "--no-plays",
        action="store_true",
        help="ask for patches but not play patches (every card's patch rewrites the trick, tricks and hand)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="lay each patch with apply_patch too and count any difference as an error (slower clients)",
    )
    args = p.parse_args()
    updates = "whole" if args.whole else "patches" if args.no_plays else "plays"
    seconds = min(max(args.seconds, 1.0), MAX_SECONDS)
    warm = min(max(args.warm, 0.0), seconds - 0.5)
    procs = min(max(args.client_procs, 1), MAX_PROCS)
    levels = [min(max(int(x), 1), MAX_TABLES) for x in args.tables.split(",") if x.strip()]
    if args.url:
        parts = urlsplit(args.url)
        if parts.scheme not in ("http", "https") or parts.hostname not in LOCAL_HOSTS:
            p.error("--url must be an http address on this machine (127.0.0.1 or localhost)")
        base = args.url.rstrip("/")
    pids_given = [int(x) for x in args.server_pid.split(",") if x.strip()]
    server_gc = args.server_gc.strip() or None
    if not args.json:
        print(
            f"# think {args.think} s, {seconds:.0f} s a level ({warm:.0f} s warm-up), "
            f"{procs} client process(es), server gc {args.server_gc or 'default'}, "
            f"updates: {updates}, "
            f"load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        print(" | ".join(h for _, h in COLUMNS), flush=True)
    for n in levels:
        # The same level against a server given (``--url``) or a fresh local one.
        level = partial(
            run_level,
            n=n,
            procs=procs,
            seconds=seconds,
            warm=warm,
            think=args.think,
            max_cards=args.cards,
            updates=updates,
            check=args.check,
            storm=args.storm,
        )
        if args.url:
            wait_healthy(base)
            result = level(base, pids_given)
            result["url"] = base
        else:
            probe = f"{args.probe}.{n}.json" if args.probe else None
            with local_server(server_gc, probe) as (local, pid):
                result = level(local, [pid], probe=bool(probe))
            result["server_gc"] = server_gc
        result["patches"] = updates != "whole"
        result["updates"] = updates
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            row = " | ".join(str(result[k]) for k, _ in COLUMNS)
            extra = f"  (load {result['load_before'][0]} -> {result['load_after'][0]})"
            if result["storm_at_s"] is not None:
                extra += (
                    f"  storm: all back in {result['storm_settle_s']} s"
                    f" (p50 {result['storm_back_p50_ms']} ms, p99 {result['storm_back_p99_ms']} ms),"
                    f" {result['stand_ins']} stand-ins"
                )
            if result["failure"]:
                extra += f"  failure: {result['failure']}"
            print(row + extra, flush=True)
        if result["failure"] or result["errors"] or result["stand_ins"] or not result["cards"]:
            # A level that lost connections, saw errors or played nothing measured
            # nothing worth a row: say so loudly rather than report 0 cards.
            why = (
                result["failure"]
                or f"{result['errors']} errors, {result['stand_ins']} stand-ins, {result['cards']} cards"
            )
            print(f"FAILED at {n} tables: {why}", file=sys.stderr, flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
