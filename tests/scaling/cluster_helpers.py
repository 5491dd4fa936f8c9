"""Real server processes sharing PostgreSQL and Redis behind a real nginx, and
a driver that plays the four seats of a table from one thread, reconnecting a
seat whose connection closes (through nginx, as a page would)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from damepique.server.protocol import apply_patch

from ..conftest import ROOT, free_port, spawn_server, wait_healthy
from ..multiplayer.mp_helpers import decision_key


def _missing(what: str) -> None:
    """Skip a test whose service is not installed here; fail it under CI, which must have it."""
    message = f"{what} is not installed (scripts/test installs it as root)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if found is None:
        _missing("nginx")
    return str(found)


async def fresh_database(admin_url: str, name: str) -> str:
    """A new empty database on the throwaway cluster (each test its own)."""
    import asyncpg

    dsn = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return dsn.rsplit("/", 1)[0] + "/" + name


@dataclass
class Process:
    name: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    """Server processes on one database and one Redis, behind nginx."""

    dir: Path
    db: str
    broker: str
    secret: str = "test-secret-for-every-process-of-the-cluster-0123456789"
    processes: dict[str, Process] = field(default_factory=dict)
    nginx_port: int = 0

    def start_all(self, names: list[str]) -> list[Process]:
        """Start these processes at once (on a new database they migrate it together)."""
        env = {
            **os.environ,
            "DAMEPIQUE_SECRET": self.secret,
            "DAMEPIQUE_SECURE_COOKIES": "0",
            "DAMEPIQUE_GRACE": "60",
        }
        started = []
        for name in names:
            port = free_port()
            log = self.dir / f"{name}.log"
            extra = ("--broker", self.broker, "--process-id", name)
            started.append(Process(name, port, spawn_server(self.db, port, log, env, *extra)))
        for p in started:
            try:
                wait_healthy(p.proc, p.port, 60)
            except RuntimeError as e:
                raise RuntimeError(
                    f"{p.name}: {e}\n{(self.dir / f'{p.name}.log').read_text()[-3000:]}"
                ) from None
            self.processes[p.name] = p
        return started

    def kill(self, name: str) -> None:
        p = self.processes.pop(name)
        p.proc.send_signal(signal.SIGKILL)
        p.proc.wait(10)

    def start_nginx(self) -> None:
        """deploy/nginx.conf, its upstream pointed at our processes."""
        self.nginx_port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        upstream = "\n".join(
            f"        server 127.0.0.1:{p.port} max_fails=1 fail_timeout=2s;" for p in self.processes.values()
        )
        lines = [ln for ln in conf.splitlines() if "server 127.0.0.1:800" not in ln]
        conf = "\n".join(lines).replace("keepalive 32;", upstream.strip() + "\n        keepalive 32;")
        conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.nginx_port};")
        (self.dir / "logs").mkdir(exist_ok=True)
        (self.dir / "tmp").mkdir(exist_ok=True)
        (self.dir / "nginx.conf").write_text(conf)
        d = str(self.dir)
        nginx = [nginx_binary(), "-p", d, "-c", d + "/nginx.conf", "-e", d + "/logs/error.log"]
        # nginx binds its ports before it daemonizes: listening once this returns.
        subprocess.run(nginx, check=True)

    @property
    def front(self) -> str:
        return f"http://127.0.0.1:{self.nginx_port}"

    def stop(self) -> None:
        pid_file = self.dir / "nginx.pid"
        if pid_file.exists():
            os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
        for p in self.processes.values():
            if p.proc.poll() is None:
                p.proc.terminate()
        for p in self.processes.values():
            try:
                p.proc.wait(15)
            except subprocess.TimeoutExpired:
                p.proc.kill()
        self.processes.clear()


def make_cluster(tmp_path: Path, admin_url: str, broker: str, names: list[str]) -> Cluster:
    db = asyncio.run(fresh_database(admin_url, "c_" + tmp_path.name.lower()[-40:].replace("-", "_")))
    cluster = Cluster(tmp_path, db, broker)
    cluster.start_all(names)  # together, on a new database
    cluster.start_nginx()
    return cluster


class Seat:
    """One player's connection: keeps the latest state, what it played and saw."""

    def __init__(self, cluster: Cluster, code: str, token: str, url: str, seed: int) -> None:
        self.cluster = cluster
        self.code = code
        self.token = token
        self.rng = random.Random(seed)
        self.ws: ClientConnection | None = None
        self.latest: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        """The last ``table`` message: the answer to this connection's hello."""
        self.done_key: Any = None
        self.continued: set[int] = set()
        self.next_id = 0
        self.sent: dict[int, tuple[int, str]] = {}
        self.passing: set[int] = set()
        """Ids of passes sent and not acknowledged yet."""
        self.acked: list[tuple[int, str]] = []
        """(deal, card) of every card this seat played that the server acknowledged."""
        self.seen: list[tuple[int, str]] = []
        """(deal, card) of every card play this seat was told about, in order."""
        self.reconnects = 0
        self.patches = 0
        self._open(url)

    def _open(self, url: str) -> None:
        self.ws = connect(url.replace("http", "ws") + "/ws", max_size=None, open_timeout=60)
        # As the page does: updates come as patches (play patches too) over the last state.
        hello = {"type": "hello", "table": self.code, "token": self.token, "patches": True, "plays": True}
        self.ws.send(json.dumps(hello))

    def reconnect(self) -> None:
        """As the page does: through nginx, at once. A process whose table's owner
        died answers the hello once the owner's lease has run out (it waits that
        out), so the first attempt is the one that comes back: no back-off here."""
        self.reconnects += 1
        self.done_key = None
        self.latest = None
        self.table = None
        self._open(self.cluster.front)

    def pump(self, timeout: float) -> bool:
        """Read one message if one comes within ``timeout``; reconnect if closed."""
        assert self.ws is not None
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return False
        except ConnectionClosed:
            self.reconnect()
            return True
        msg = json.loads(raw)
        if msg["type"] == "error":
            raise AssertionError(f"the server refused: {msg}")
        if msg["type"] == "table":
            self.table = msg
        if msg["type"] == "state":
            if "base" in msg:
                msg = apply_patch(self.latest, msg)  # raises when out of step
                self.patches += 1
            self.latest = msg
            event = msg.get("event")
            if event and event["type"] == "play" and msg.get("view"):
                self.seen.append((msg["view"]["deal"], event["card"]))
            ack = msg.get("ack")
            if isinstance(ack, int) and ack in self.sent:
                self.acked.append(self.sent.pop(ack))
            self.passing.discard(ack)  # type: ignore[arg-type]
        return True

    def unanswered(self) -> bool:
        """Something this seat sent has not shown in its state yet: a card or a
        pass not acknowledged, or a "Continue" the summary does not show."""
        if self.sent or self.passing:
            return True
        summary = self.latest and self.latest.get("summary")
        return bool(
            summary and summary["deal"] in self.continued and self.latest["seat"] in summary["waiting"]  # type: ignore[index]
        )

    def waited_on(self) -> bool:
        """The game waits on this seat for something it has not done (and, the
        driver stopped, will not do): a card or pass asked of it, or its
        "Continue" on the summary."""
        st = self.latest
        if st is None:
            return False
        key = decision_key(st)
        if key is not None and key != self.done_key:
            return True
        summary = st.get("summary")
        return bool(
            summary and st.get("seat") in summary["waiting"] and summary["deal"] not in self.continued
        )

    def act(self) -> bool:
        st = self.latest
        if st is None:
            return False
        summary = st.get("summary")
        if summary and st.get("seat") in summary["waiting"] and summary["deal"] not in self.continued:
            self.continued.add(summary["deal"])  # the next deal waits for everybody's "Continue"
            self._send({"type": "continue", "deal": summary["deal"]})
        key = decision_key(st)
        if key is None or key == self.done_key:
            return False
        self.done_key = key
        view = st["view"]
        self.next_id += 1
        if view["phase"] == "pass":
            cards = self.rng.sample(view["hand"], st["rules"].get("pass_count", 3))
            msg: dict[str, Any] = {"type": "pass", "cards": cards, "id": self.next_id}
            self.passing.add(self.next_id)
        else:
            card = self.rng.choice(view["legal"])
            msg = {"type": "play", "card": card, "id": self.next_id}
            self.sent[self.next_id] = (view["deal"], card)
        if not self._send(msg):
            self.sent.pop(self.next_id, None)
            self.passing.discard(self.next_id)
        return True

    def _send(self, msg: dict[str, Any]) -> bool:
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(msg))
        except ConnectionClosed:
            self.reconnect()
            return False
        return True


def drive(seats: list[Seat], until: Any, limit: float = 120.0) -> None:
    """Play every seat with random legal cards until ``until()`` holds."""
    deadline = time.monotonic() + limit
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"not done in {limit} s: {[s.latest and s.latest.get('view') for s in seats]}"
            )
        busy = False
        for s in seats:
            while s.pump(0):
                busy = True
        for s in seats:
            busy = s.act() or busy
        if not busy:
            for s in seats:
                if s.pump(0.02):
                    break


def settled(seats: list[Seat]) -> bool:
    """Nothing the seats did is still on its way, told by what the server said
    (no quiet period): before the game, every seat's hello answered with the
    table; once it is under way, at each table every seat holds the same update
    (its ``n``), everything each seat sent shows in it, and the game waits on a
    seat for something it has not done (the driver has stopped), or is over."""
    if all(s.latest is None for s in seats):
        return all(s.table is not None for s in seats)
    tables: dict[str, list[Seat]] = {}
    for s in seats:
        tables.setdefault(s.code, []).append(s)
    for group in tables.values():
        states = [s.latest for s in group]
        if any(st is None for st in states) or len({st.get("n") for st in states if st}) != 1:
            return False
        if any(s.unanswered() for s in group):
            return False
        if not (states[0]["over"] or any(s.waited_on() for s in group)):  # type: ignore[index]
            return False
    return True


def settle(seats: list[Seat], limit: float = 120.0) -> None:
    """Read what the server sends until ``settled(seats)``; ``limit`` only stops a hang."""
    deadline = time.monotonic() + limit
    while not settled(seats):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"not settled in {limit} s: {[(s.latest, s.sent, s.passing) for s in seats]}"
            )
        if not any(s.pump(0) for s in seats):
            for s in seats:
                if s.pump(0.02):
                    break


def plays_of(record: dict[str, Any], first_deal: int) -> list[tuple[int, str]]:
    """(deal number, card) of every card played in a record, in order."""
    return [(first_deal + k, card) for k, deal in enumerate(record["deals"]) for card in deal["plays"]]


def is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    it = iter(whole)
    return all(x in it for x in part)
