"""The server's own CPU per card, without sockets: the ASGI app driven in process.

N four-person tables (the same as ``server_multiplayer.py``: standard rules,
``fast``, no bots, every seat a person asking for patches), each connection a
pair of ASGI ``receive``/``send`` callables on the app itself, in one event
loop, no uvicorn and no network. Each person plays a random legal card (or
pass) as soon as it is their turn; a finished game is followed by a rematch.
What is measured is everything the app does with a card, from the frame's
text to the four texts handed to ``send``: Starlette's and FastAPI's layers,
the table session, the engine, the SQLite event log, the updates. The
"players" (JSON parsing, patches laid over states) are measured apart and
subtracted. ``server/players`` is the server's CPU in units of the players':
the players' work is the same whatever the server's code, in the same
process, so the ratio takes out most of what a loaded machine does to both
(compare two commits by it, alternating: ``benchmarks/log.md``, issue 30's
fourth look).

    python benchmarks/server_inprocess.py --tables 100 --cards 20000
    python benchmarks/server_inprocess.py --solo --tables 300 --cards 20000   # solo games
    python benchmarks/server_inprocess.py --tables 100 --cards 20000 --profile /tmp/prof.pstats
    python benchmarks/server_inprocess.py --tables 1000 --warm 500 --hellos 4000   # CPU per hello
    python benchmarks/server_inprocess.py --tables 1000 --warm 500 --idle 20       # CPU per second, idle

This is a development tool for the hot path: ``server_multiplayer.py`` is the
benchmark the issue's goal is measured with (its uvicorn, kernel and clients
add to the cost here).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

from damepique.server.app import create_app
from damepique.server.protocol import VERSION, apply_patch

WS_PATH = "/ws/table" if VERSION == 1 else "/ws"
PLAYS = True
"""The people ask for play patches (``--no-plays``: plain patches; a server from before them sends none)."""
"""The game socket of the server being measured (one for every game since protocol 2)."""


class Player:
    """One seat's connection: the app's ``receive`` and ``send`` for it."""

    def __init__(self, run: TableRun, i: int) -> None:
        self.run = run
        self.i = i
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.state: dict[str, Any] | None = None
        self.done_key: Any = None
        self.read: Any = None

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send(self, message: Any) -> None:
        if message["type"] == "websocket.send":
            t0 = time.thread_time()
            self.run.on_message(self.i, message["text"])
            self.run.bench.client_time += time.thread_time() - t0

    def say(self, msg: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(msg)})


class TableRun:
    """A table's people (one, in a solo game, against three intermediate bots at fast speed)."""

    def __init__(self, bench: Bench, code: str, tokens: list[str], seed: int) -> None:
        self.bench = bench
        self.code = code
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.players = [Player(self, i) for i in range(len(tokens))]
        self.game: str | None = None

    def on_message(self, i: int, text: str) -> None:
        self.bench.heard = time.monotonic()
        msg = orjson.loads(text)
        if msg["type"] == "error":
            self.bench.errors += 1
            return
        if msg["type"] != "state":
            return
        p = self.players[i]
        if "base" in msg:
            msg = apply_patch(p.state, msg)
        elif "n" not in msg:
            self.bench.hello_states += 1  # the state answering a hello
        p.state = msg
        if self.bench.paused:
            return
        if i == 0:
            for ev in msg.get("events") or ():
                if ev and ev.get("type") == "play":
                    self.bench.cards += 1
        if msg["over"]:
            if i == 0 and msg["game"] != self.game and len(self.players) > 1:
                self.game = msg["game"]
                p.say({"type": "rematch", "game": msg["game"]})
            return
        summary = msg.get("summary")
        if summary and msg["seat"] in summary["waiting"] and p.read != (msg["game"], summary["deal"]):
            p.read = (msg["game"], summary["deal"])  # the next deal waits for every "Continue"
            p.say({"type": "continue", "deal": summary["deal"]})
        view = msg["view"]
        if view is None or view["to_act"] != msg["seat"]:
            return
        phase = view["phase"]
        key: Any = (view["deal"], "pass")
        if phase == "play":
            key = (view["deal"], len(view["tricks"]), len(view["trick"]))
        if phase not in ("pass", "play") or key == p.done_key:
            return
        p.done_key = key
        if phase == "pass":
            p.say({"type": "pass", "cards": self.rng.sample(view["hand"], 3)})
        else:
            p.say({"type": "play", "card": self.rng.choice(view["legal"])})


class Bench:
    def __init__(self) -> None:
        self.cards = 0
        self.errors = 0
        self.client_time = 0.0
        self.hello_states = 0
        self.paused = False
        """Idle: the people stop playing (the tables stay, mid-game)."""
        self.heard = 0.0
        """When the last message came (``time.monotonic``)."""


async def measure_hellos(args: argparse.Namespace, runs: list[TableRun], bench: Bench) -> None:
    """Every connection says hello again (its seat token), one after the other:
    the server's CPU per hello, to the state it answers (the people's parsing
    taken out). The games stand still meanwhile."""
    bench.paused = True
    await asyncio.sleep(0.5)  # the cards in flight land
    people = [(run, p) for run in runs for p in run.players]
    rng = random.Random(7)
    picks = [rng.choice(people) for _ in range(args.hellos)]
    profile = cProfile.Profile() if args.profile else None
    if profile:
        profile.enable()
    h0, cl0, t0 = bench.hello_states, bench.client_time, time.process_time()
    for k, (run, p) in enumerate(picks):
        p.say({"type": "hello", "table": run.code, "token": run.tokens[p.i], "patches": True, "plays": PLAYS})
        if k % 50 == 49:
            while bench.hello_states - h0 < k + 1:
                await asyncio.sleep(0)
    while bench.hello_states - h0 < len(picks):
        await asyncio.sleep(0.001)
    cpu = time.process_time() - t0
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    client = bench.client_time - cl0
    n = len(picks)
    print(
        f"tables {len(runs)} hellos {n} | process {1000 * cpu / n:.3f} ms/hello"
        f" | players {1000 * client / n:.3f} | server {1000 * (cpu - client) / n:.3f} ms/hello"
        f" | errors {bench.errors}"
    )


async def measure_idle(args: argparse.Namespace, runs: list[TableRun], bench: Bench) -> None:
    """Nobody plays for ``--idle`` seconds (every table mid-game, every person
    connected): the server's CPU per second of wall time."""
    bench.paused = True
    # The messages already on their way take a few seconds to land at 1,000
    # tables (a fixed second of settling measured them): measured once 2 s pass
    # without one (30 s at most).
    settle = time.monotonic() + 30
    while time.monotonic() - bench.heard < 2.0 and time.monotonic() < settle:
        await asyncio.sleep(0.2)
    t0, w0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(args.idle)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    print(f"tables {len(runs)} idle {wall:.1f} s | server {1000 * cpu / wall:.2f} ms of CPU per second")


def pace_collector() -> asyncio.Task[None] | None:
    """The garbage collector as ``damepique serve`` sets it (a tree from before
    ``server/collector.py``: its thresholds), the app as built frozen out of it."""
    try:
        from damepique.server.clock import Clock
        from damepique.server.collector import Collector, start_collector
    except ImportError:
        from damepique.server.run import DEFAULT_GC_THRESHOLD  # type: ignore[attr-defined]

        gc.freeze()
        gc.set_threshold(*DEFAULT_GC_THRESHOLD)
        return None
    return start_collector(Collector(), Clock())


async def main(args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp()
    app = create_app(database_url=str(Path(folder) / "bench.sqlite3"))
    settings = getattr(app.state, "settings", None)  # (a server from before the limits has none)
    if settings is not None:
        settings.creations = 0  # every table comes from one address here
    life: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    started = asyncio.get_running_loop().create_future()

    async def life_send(m: Any) -> None:
        if m["type"] == "lifespan.startup.complete":
            started.set_result(None)

    await life.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, life.get, life_send))
    await started
    _pacing = pace_collector()  # as ``damepique serve`` does (kept: a task only weakly held)
    bench = Bench()
    runs: list[TableRun] = []
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        for k in range(args.tables if args.solo else 0):
            body = {"preset": "standard", "speed": "fast", "level": "intermediate"}
            g = (await http.post("/api/games", json=body)).json()
            runs.append(TableRun(bench, g.get("code", ""), [g["token"]], k))
        for k in range(0 if args.solo else args.tables):
            body = {"preset": "standard", "speed": "fast", "fill": False, "name": "P0"}
            r = await http.post("/api/tables", json=body)
            t = r.json()
            tokens = [t["token"]]
            for j in range(1, 4):
                s = await http.post(f"/api/tables/{t['code']}/seats", json={"name": f"P{j}"})
                tokens.append(s.json()["token"])
            runs.append(TableRun(bench, t["code"], tokens, k))
    tasks = []
    for run in runs:
        for i, p in enumerate(run.players):
            scope = {
                "type": "websocket",
                "asgi": {"version": "3.0"},
                "scheme": "ws",
                "path": "/ws" if args.solo else WS_PATH,
                "raw_path": b"/ws" if args.solo else WS_PATH.encode(),
                "query_string": b"",
                "root_path": "",
                "headers": [(b"host", b"127.0.0.1")],
                "client": ("127.0.0.1", 40000 + i),
                "server": ("127.0.0.1", 8000),
                "subprotocols": [],
                "state": {},
            }
            p.inbox.put_nowait({"type": "websocket.connect"})
            if args.solo and VERSION == 1:
                p.say({"type": "join", "token": run.tokens[i]})
            elif args.solo:
                p.say({"type": "hello", "token": run.tokens[i]})
            else:
                hello = {"type": "hello", "table": run.code, "token": run.tokens[i], "patches": True}
                p.say({**hello, "plays": PLAYS})
            tasks.append(asyncio.create_task(app(scope, p.receive, p.send)))
    for run in runs if not args.solo else ():
        run.players[0].say({"type": "start"})
    while bench.cards < args.warm:
        await asyncio.sleep(0.05)
    if args.hellos:
        await measure_hellos(args, runs, bench)
    if args.idle:
        await measure_idle(args, runs, bench)
    if args.hellos or args.idle:
        args.cards = 0
    profile = cProfile.Profile() if args.profile else None
    c0, cl0, t0, w0 = bench.cards, bench.client_time, time.process_time(), time.perf_counter()
    if profile:
        profile.enable()
    while bench.cards - c0 < args.cards:
        await asyncio.sleep(0.05)
    if not args.cards:
        await life.put({"type": "lifespan.shutdown"})
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await lifespan
        return
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    cpu = time.process_time() - t0
    cards = bench.cards - c0
    client = bench.client_time - cl0
    wall = time.perf_counter() - w0
    print(
        f"tables {args.tables} cards {cards} wall {wall:.2f} s | process {1000 * cpu / cards:.3f} ms/card"
        f" | players {1000 * client / cards:.3f} | server {1000 * (cpu - client) / cards:.3f} ms/card"
        f" | server/players {(cpu - client) / client:.2f} | errors {bench.errors}"
    )
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await life.put({"type": "lifespan.shutdown"})
    await lifespan


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument(
        "--solo", action="store_true", help="solo games (one person, three bots) instead of tables"
    )
    p.add_argument("--cards", type=int, default=20000, help="cards measured")
    p.add_argument("--warm", type=int, default=2000, help="cards played before measuring")
    p.add_argument("--profile", help="write a cProfile of the measured cards here")
    p.add_argument("--uvloop", action="store_true")
    p.add_argument("--hellos", type=int, default=0, help="measure this many hellos instead of cards")
    p.add_argument("--idle", type=float, default=0, help="measure this many seconds of nobody playing")
    p.add_argument("--no-plays", action="store_true", help="patches, but not play patches")
    a = p.parse_args()
    PLAYS = not a.no_plays
    if a.uvloop:
        import uvloop

        uvloop.install()
    asyncio.run(main(a))
