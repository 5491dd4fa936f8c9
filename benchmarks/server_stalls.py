"""How quickly a server answers everybody else while one client does something
heavy: the timings the tests used to assert (issue 24 moved them here; the
tests keep the behaviour, on the app's clock or waiting on signals).

One real ``damepique serve`` process on 127.0.0.1 and a free port, then:

- ``upload``: ``/healthz`` asked again and again while a record of about 1 MB
  (1,300 deals) is replayed (in the server's worker process): the median and
  the slowest answer, against the time the upload took. On the event loop, one
  request would wait nearly the whole replay.
- ``flood``: a connection at one table sends pings as fast as its socket takes
  them (refused past its allowance: ``rate_limited``) while a visitor at another
  table pings 20 times a second: its round trips.
- ``experts``: a solo game of three ``expert`` bots thinking (their pass) while
  the person of another solo game plays 11 cards: from each card sent to its
  acknowledgement.

Bounded (a few seconds each), loopback only; nothing is asserted, figures are
printed with the machine's load.

    python benchmarks/server_stalls.py
"""

from __future__ import annotations

import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


def start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a socket bound here (``--fd``): its first request waits in the queue."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    port = sock.getsockname()[1]
    env = os.environ | {"DAMEPIQUE_CREATIONS": "0", "DAMEPIQUE_PER_ADDRESS": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "damepique", "serve", "--port", str(port), "--db", str(folder / "s.sqlite3"),
         "--fd", str(sock.fileno())],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, pass_fds=(sock.fileno(),),
    )  # fmt: skip
    sock.close()
    base = f"http://127.0.0.1:{port}"
    assert httpx.get(base + "/healthz", timeout=300).status_code == 200
    return proc, base


def ms(seconds: list[float]) -> str:
    median, slowest = statistics.median(seconds) * 1000, max(seconds) * 1000
    return f"median {median:.1f} ms, slowest {slowest:.1f} ms, n={len(seconds)}"


def upload(base: str) -> str:
    rules = json.dumps({"target": 9000})
    big = subprocess.run(
        [sys.executable, "-m", "damepique", "random-game", "--seed", "3", "--rules", rules],
        capture_output=True, check=True, cwd=ROOT,
    ).stdout  # fmt: skip
    headers = {"Content-Type": "application/json"}
    small = subprocess.run(
        [sys.executable, "-m", "damepique", "random-game", "--seed", "3", "--rules", '{"target": 100}'],
        capture_output=True, check=True, cwd=ROOT,
    ).stdout  # fmt: skip
    httpx.post(base + "/api/replay", content=small, headers=headers, timeout=60)  # the worker is up
    answer: list[httpx.Response] = []
    thread = threading.Thread(
        target=lambda: answer.append(
            httpx.post(base + "/api/replay", content=big, headers=headers, timeout=60)
        )
    )
    started = time.perf_counter()
    thread.start()
    waits = []
    with httpx.Client(timeout=60) as client:
        while thread.is_alive():
            t = time.perf_counter()
            client.get(base + "/healthz")
            waits.append(time.perf_counter() - t)
    took = time.perf_counter() - started
    thread.join()
    size = len(big) / 1e6
    return f"/healthz during a {size:.1f} MB upload ({answer[0].status_code}, {took:.2f} s): {ms(waits)}"


def ws(base: str) -> Any:
    return connect(base.replace("http", "ws") + "/ws", max_size=None, open_timeout=60)


def recv(conn: Any) -> dict[str, Any]:
    return dict(json.loads(conn.recv(timeout=60)))


def flood(base: str) -> str:
    flooded = httpx.post(base + "/api/tables", json={"name": "Flo"}).json()
    other = httpx.post(base + "/api/tables", json={"name": "Ote"}).json()
    prog, watcher = ws(base), ws(base)
    prog.send(json.dumps({"type": "hello", "table": flooded["code"], "token": flooded["token"]}))
    watcher.send(json.dumps({"type": "hello", "table": other["code"]}))
    while recv(watcher)["type"] != "table":
        pass
    stop, sent, refused = threading.Event(), [0], [0]

    def run() -> None:
        while not stop.is_set():
            for _ in range(1000):
                prog.send(json.dumps({"type": "ping", "id": sent[0]}))
                sent[0] += 1
            for _ in range(1000):
                m = recv(prog)
                while m["type"] not in ("pong", "error"):
                    m = recv(prog)
                refused[0] += m["type"] == "error"

    flooder = threading.Thread(target=run)
    flooder.start()
    trips = []
    until = time.perf_counter() + 3.0
    n = 0
    while time.perf_counter() < until:
        n += 1
        t = time.perf_counter()
        watcher.send(json.dumps({"type": "ping", "id": f"w{n}"}))
        while recv(watcher).get("ref") != f"w{n}":
            pass
        trips.append(time.perf_counter() - t)
        time.sleep(0.05)  # 20 a second, a pace the limit allows anyone
    stop.set()
    flooder.join(60)
    return f"pings at another table during a flood ({sent[0]} sent, {refused[0]} refused): {ms(trips)}"


def experts(base: str) -> str:
    def game(level: str) -> dict[str, Any]:
        body = {"preset": "standard", "level": level, "speed": "fast", "player": "bench"}
        return dict(httpx.post(base + "/api/games", json=body, timeout=60).json())

    def state(conn: Any) -> dict[str, Any]:
        m = recv(conn)
        while m["type"] != "state":
            m = recv(conn)
        return m

    expert, quick = game("expert"), game("beginner")
    slow, conn = ws(base), ws(base)
    slow.send(json.dumps({"type": "hello", "token": expert["token"]}))
    s = state(slow)
    slow.send(json.dumps({"type": "pass", "cards": s["view"]["hand"][:3], "id": 1}))  # three experts think
    conn.send(json.dumps({"type": "hello", "token": quick["token"]}))
    st = state(conn)
    rng = random.Random(4)
    acks = []
    for n in range(1, 12):
        while st["view"]["to_act"] != st["seat"] or st["view"]["phase"] not in ("pass", "play"):
            st = state(conn)
        v = st["view"]
        t = time.perf_counter()
        if v["phase"] == "pass":
            conn.send(json.dumps({"type": "pass", "cards": v["hand"][:3], "id": n}))
        else:
            conn.send(json.dumps({"type": "play", "card": rng.choice(v["legal"]), "id": n}))
        st = state(conn)
        while st.get("ack") != n:
            st = state(conn)
        acks.append(time.perf_counter() - t)
    return f"a card to its ack while three experts think at another game: {ms(acks)}"


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        proc, base = start(Path(d))
        try:
            print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
            for run in (upload, flood, experts):
                print(f"{run.__name__}: {run(base)}", flush=True)
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
