"""How many concurrent four-person tables one server process sustains.

One ``damepique serve`` process (SQLite in a temporary folder). In this process,
N tables of four people, each person on its own loopback WebSocket to
``/ws/table``, every seat a person (no bots). Each person plays a random legal
card (or pass) as soon as it is their turn, after ``--think`` seconds (0: as
fast as the server answers). The latency of a card is from the moment it is
sent to the moment the last of the table's four connections has received the
update carrying it. When a game ends, the host asks for a rematch, so N games
are always in progress.

For each N of ``--tables`` it prints one JSON line: tables, cards/s, p50/p99/max
latency in ms, server CPU share, server memory per table (RSS growth from an
idle server to N seated tables, divided by N), errors. Bounded in time and
count, 127.0.0.1 only.

    python benchmarks/server_multiplayer.py --tables 100,300,500 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TableRun:
    """One table's four connections and the cards in flight."""

    def __init__(self, code: str, tokens: list[str], out: dict[str, Any], think: float, seed: int) -> None:
        self.code = code
        self.tokens = tokens
        self.out = out
        self.think = think
        self.rng = random.Random(seed)
        self.sent: dict[tuple[int, int, int, str], tuple[float, int]] = {}
        self.game: str | None = None

    async def seat(self, i: int, ws: Any, stop_at: float, warm_until: float) -> None:
        done_key = None
        await ws.send(json.dumps({"type": "hello", "table": self.code, "token": self.tokens[i]}))
        if i == 0:
            await ws.send(json.dumps({"type": "start"}))
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, stop_at - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                self.out["errors"] += 1
                continue
            if msg["type"] != "state":
                continue
            now = time.monotonic()
            view = msg["view"]
            for ev in msg.get("events") or [msg.get("event")]:
                if ev and ev.get("type") == "play":
                    key = (view["deal"], ev["seat"], 0, ev["card"])
                    entry = self.sent.get(key)
                    if entry is not None:
                        t0, seen = entry
                        seen += 1
                        if seen >= 4:
                            del self.sent[key]
                            if t0 >= warm_until:
                                self.out["latencies"].append(now - t0)
                        else:
                            self.sent[key] = (t0, seen)
            if msg["over"]:
                if i == 0 and msg["game"] != self.game:
                    self.game = msg["game"]
                    await ws.send(json.dumps({"type": "rematch", "game": msg["game"]}))
                continue
            if view is None or view["to_act"] != msg["seat"]:
                continue
            if view["phase"] == "pass":
                key2: Any = (view["deal"], "pass")
            elif view["phase"] == "play":
                key2 = (view["deal"], len(view["tricks"]), len(view["trick"]))
            else:
                continue
            if key2 == done_key:
                continue
            done_key = key2
            if self.think:
                await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            if view["phase"] == "pass":
                await ws.send(json.dumps({"type": "pass", "cards": self.rng.sample(view["hand"], 3)}))
            else:
                card = self.rng.choice(view["legal"])
                self.sent[(view["deal"], i, 0, card)] = (time.monotonic(), 0)
                self.out["cards"] += 1 if time.monotonic() >= warm_until else 0
                await ws.send(json.dumps({"type": "play", "card": card}))


async def run_level(base: str, pid: int, n: int, seconds: float, warm: float, think: float) -> dict[str, Any]:
    out: dict[str, Any] = {"latencies": [], "cards": 0, "errors": 0}
    limits = httpx.Limits(max_connections=20)
    rss0 = rss_mb(pid)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        runs = []
        for k in range(n):
            r = await http.post(
                "/api/tables", json={"preset": "standard", "speed": "fast", "fill": False, "name": "P0"}
            )
            t = r.json()
            tokens = [t["token"]]
            for j in range(1, 4):
                s = await http.post(f"/api/tables/{t['code']}/seats", json={"name": f"P{j}"})
                tokens.append(s.json()["token"])
            runs.append(TableRun(t["code"], tokens, out, think, k))
    sockets = []
    for _ in range(4 * len(runs)):
        if True:
            sockets.append(await connect(base.replace("http", "ws") + "/ws/table", max_size=None))
    start = time.monotonic()
    stop_at = start + seconds
    warm_until = start + warm
    cpu0 = cpu_seconds(pid)
    tasks = [
        run.seat(i, sockets[4 * k + i], stop_at, warm_until) for k, run in enumerate(runs) for i in range(4)
    ]
    await asyncio.gather(*tasks)
    cpu = cpu_seconds(pid) - cpu0
    rss1 = rss_mb(pid)
    for ws in sockets:
        await ws.close()
    lat = sorted(out["latencies"])
    measured = seconds - warm

    def q(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    return {
        "tables": n,
        "think_s": think,
        "cards_per_s": round(out["cards"] / measured, 1),
        "p50_ms": q(0.50),
        "p99_ms": q(0.99),
        "max_ms": round(lat[-1] * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "server_cpu": round(cpu / seconds, 2),
        "rss_mb": round(rss1, 1),
        "mb_per_table": round((rss1 - rss0) / n, 3),
        "errors": out["errors"],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", default="100,300,500", help="comma-separated numbers of concurrent tables")
    p.add_argument("--seconds", type=float, default=20.0, help="per level, at most 600")
    p.add_argument("--warm", type=float, default=5.0, help="seconds not measured at the start of each level")
    p.add_argument("--think", type=float, default=0.0, help="mean seconds a person waits before acting")
    args = p.parse_args()
    seconds = min(args.seconds, 600.0)
    levels = [min(int(x), 2000) for x in args.tables.split(",") if x.strip()]
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "damepique",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "bench.sqlite3"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            for n in levels:
                result = asyncio.run(run_level(base, proc.pid, n, seconds, args.warm, args.think))
                print(json.dumps(result), flush=True)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
