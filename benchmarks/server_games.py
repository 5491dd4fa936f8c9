"""How many concurrent solo games one server process sustains.

One ``damepique serve`` process (SQLite in a temporary folder), and in this
process N simulated people, each on its own loopback WebSocket, each playing a
solo game against three computer players at speed "fast". A person "thinks"
before each pass or card (``--think``, uniform between half and one and a half
times the value), then sends it; the latency is from sending the card to
receiving that person's own acknowledged update. When a game ends its player
starts a new one, so N games are always in progress.

For each N of ``--games`` it prints one JSON line: games, actions/s, p50/p99/max
latency in ms, errors. Bounded in time and count, 127.0.0.1 only.

    python benchmarks/server_games.py --games 100,200,300,400 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time

import httpx
from server_multiplayer import cpu_seconds, local_server  # this folder is on the path
from websockets.asyncio.client import connect

PROTOCOL = 2
"""The server's protocol (``/healthz``): a solo game says ``hello`` since 2, ``join`` before."""


async def person(
    http: httpx.AsyncClient,
    base: str,
    level: str,
    think: float,
    stop_at: float,
    warm_until: float,
    out: dict,  # type: ignore[type-arg]
    rng: random.Random,
) -> None:
    # One shared HTTP client: creating one per person costs an SSL context each.
    if True:
        while time.monotonic() < stop_at:
            r = await http.post("/api/games", json={"preset": "standard", "speed": "fast", "level": level})
            game = r.json()
            async with connect(base.replace("http", "ws") + "/ws", max_size=None) as ws:
                # Protocol 2 says hello with the seat token; a solo game said join before.
                first = "join" if PROTOCOL == 1 else "hello"
                await ws.send(json.dumps({"type": first, "token": game["token"]}))
                n = 0
                state = await next_state(ws, out)
                while time.monotonic() < stop_at and not state["over"]:
                    v = state["view"]
                    if v["to_act"] != state["seat"] or v["phase"] == "done":
                        state = await next_state(ws, out)
                        continue
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    n += 1
                    if v["phase"] == "pass":
                        cmd = {"type": "pass", "cards": rng.sample(v["hand"], 3), "id": n}
                    else:
                        cmd = {"type": "play", "card": rng.choice(v["legal"]), "id": n}
                    sent = time.monotonic()
                    await ws.send(json.dumps(cmd))
                    # States already on their way show the old position: wait for the ack.
                    while True:
                        state = await next_state(ws, out)
                        if state.get("ack") == n:
                            break
                    if sent >= warm_until:
                        out["latencies"].append(time.monotonic() - sent)
                if state["over"]:
                    out["games_finished"] += 1


async def next_state(ws, out: dict) -> dict:  # type: ignore[no-untyped-def, type-arg]
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "state":
            return m  # type: ignore[no-any-return]
        if m["type"] == "error":
            out["errors"] += 1
            raise RuntimeError(m)


async def run_level(
    base: str,
    games: int,
    seconds: float,
    think: float,
    level: str,
    warm: float,
    server_pid: int | None = None,
) -> dict:  # type: ignore[type-arg]
    out: dict = {"latencies": [], "errors": 0, "games_finished": 0}  # type: ignore[type-arg]
    start = time.monotonic()
    stop_at = start + seconds
    warm_until = start + warm
    cpu_mark: list[float] = []

    async def mark_cpu() -> None:
        await asyncio.sleep(warm)
        if server_pid:
            cpu_mark.append(cpu_seconds(server_pid))
        cpu_mark.append(time.process_time())
        await asyncio.sleep(max(0.0, seconds - warm))
        if server_pid:
            cpu_mark.append(cpu_seconds(server_pid))
        cpu_mark.append(time.process_time())

    marker = asyncio.create_task(mark_cpu())
    http = httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=50))
    tasks = [
        asyncio.create_task(person(http, base, level, think, stop_at, warm_until, out, random.Random(i)))
        for i in range(games)
    ]
    done, pending = await asyncio.wait(tasks, timeout=seconds + 30)
    await http.aclose()
    await marker
    for t in pending:
        t.cancel()
    failed = sum(1 for t in done if t.exception() is not None)
    lat = sorted(out["latencies"])
    measured = seconds - warm

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    extra = {}
    if server_pid and len(cpu_mark) == 4 and lat:
        server_cpu = cpu_mark[2] - cpu_mark[0]
        client_cpu = cpu_mark[3] - cpu_mark[1]
        extra = {
            "server_cpu_share": round(server_cpu / measured, 2),
            "server_cpu_ms_per_action": round(1000 * server_cpu / len(lat), 2),
            "client_cpu_share": round(client_cpu / measured, 2),
        }
    return extra | {
        "games": games,
        "level": level,
        "think_s": think,
        "actions_per_s": round(len(lat) / measured, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "samples": len(lat),
        "errors": out["errors"] + failed,
        "games_finished": out["games_finished"],
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="100,200,300", help="comma-separated numbers of concurrent games")
    p.add_argument("--seconds", type=float, default=30.0, help="per level, at most 600")
    p.add_argument("--warm", type=float, default=8.0, help="seconds not measured at the start of each level")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks before each action")
    p.add_argument("--level", default="intermediate")
    p.add_argument(
        "--server-gc",
        default="",
        help="the server's DAMEPIQUE_GC: paced, or Python's own collector at thresholds"
        " such as 700,10,10 (default: the server's)",
    )
    args = p.parse_args()
    seconds = min(args.seconds, 600.0)
    counts = [min(int(x), 2000) for x in args.games.split(",")]
    global PROTOCOL
    with local_server(args.server_gc.strip() or None) as (base, pid):
        PROTOCOL = int(httpx.get(base + "/healthz", timeout=10).json().get("protocol", 1))
        print(
            json.dumps({"cpus": os.cpu_count(), "python": sys.version.split()[0], "load": os.getloadavg()}),
            flush=True,
        )
        for n in counts:
            result = asyncio.run(run_level(base, n, seconds, args.think, args.level, args.warm, pid))
            print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
