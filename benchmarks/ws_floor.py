"""The floor under ``server_multiplayer.py``: the same load on a server that does
nothing but relay.

N tables of four loopback WebSocket connections to one uvicorn process (the
same WebSocket implementation and settings as ``damepique serve``). A "card"
is one small text from the seat whose turn it is; the server answers it with a
state-sized text (``--size`` bytes, 1,450 like a mid-deal state) to each of the
table's four connections, with no game, no database and no JSON of its own.
The next seat plays as soon as it has its copy, so each table always has one
card in flight, as in ``server_multiplayer.py --think 0``, measured the same
way (from the card sent to the last of the four copies received, the clients'
``orjson.loads`` included), by the same client (``Socket``, on uvloop).

What it says: the CPU per card that uvicorn, the event loop and the kernel
take for one read and four writes, and how many tables even such a server
holds under 100 ms at the 99th percentile on this machine, with the load
clients on the same cores. ``--starlette`` puts Starlette's ``WebSocket``
(the app's own route type) in between. Bounded: at most 120 s a level,
2,000 tables; 127.0.0.1 only.

    python benchmarks/ws_floor.py --tables 200,500 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_multiplayer import Socket, cpu_seconds, free_port, loads

MAX_SECONDS = 120.0
MAX_TABLES = 2000

# -- the server ------------------------------------------------------------------------------


def relay_app(size: int, starlette: bool) -> Any:
    """An ASGI app: ``/t/{table}/{seat}``; a text from a seat goes out to the table's
    four seats as ``{"n": <its text>, "pad": "..."}`` of about ``size`` bytes."""
    tables: dict[str, list[Any]] = {}
    pad = "x" * max(0, size - 30)

    def text_for(card: str) -> str:
        return '{"n":' + card + ',"pad":"' + pad + '"}'

    if starlette:
        from starlette.applications import Starlette
        from starlette.routing import WebSocketRoute
        from starlette.websockets import WebSocket, WebSocketDisconnect

        async def endpoint(ws: WebSocket) -> None:
            await ws.accept()
            seats = tables.setdefault(ws.path_params["table"], [None] * 4)
            seats[int(ws.path_params["seat"])] = ws
            try:
                while True:
                    text = text_for(await ws.receive_text())
                    for other in seats:
                        if other is not None:
                            await other.send_text(text)
            except WebSocketDisconnect:
                pass

        return Starlette(routes=[WebSocketRoute("/t/{table}/{seat}", endpoint)])

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if (where := await accepted(scope, receive, send)) is None:
            return
        table, seat = where
        seats = tables.setdefault(table, [None] * 4)
        seats[seat] = send
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            out = {"type": "websocket.send", "text": text_for(message["text"])}
            for other in seats:
                if other is not None:
                    await other(out)

    return app


async def accepted(scope: Any, receive: Any, send: Any) -> tuple[str, int] | None:
    """The raw ASGI app's plumbing: the lifespan answered, a WebSocket at
    ``/t/{table}/{seat}`` accepted and its (table, seat) returned; None when
    there is nothing more to do."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return None
    if scope["type"] != "websocket":
        return None
    _, _, table, seat = scope["path"].split("/")
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    return table, int(seat)


def serve(port: int, size: int, starlette: bool) -> None:
    run(relay_app(size, starlette), port)


def run(app: Any, port: int) -> None:
    """Serve ``app`` with ``damepique serve``'s WebSocket settings."""
    import uvicorn

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=16 * 1024 * 1024,
        ws_per_message_deflate=False,
    )


# -- the clients ------------------------------------------------------------------------------


class Meter:
    """What a client process's tables measure: each card's time from sent to the
    last of its four copies (while ``measuring``), and the server's refusals."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measuring = False
        self.errors = 0


def client(port: int, tables: range, seconds: float, warm: float, out: Any) -> None:
    out.put(drive(port, tables, seconds, warm, RelayTable))


def drive(port: int, tables: range, seconds: float, warm: float, make: Any) -> dict[str, Any]:
    """Open four connections (``/t/{table}/{seat}``) for each table ``make(meter)``
    builds, start every table, measure ``seconds`` after ``warm``; the client
    loop of ``server_multiplayer.py`` (and of uvicorn's server): uvloop."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    return asyncio.run(_drive(port, tables, seconds, warm, make))


async def _drive(port: int, tables: range, seconds: float, warm: float, make: Any) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    meter = Meter()
    opened: list[Socket] = []
    runs = []
    for t in tables:
        table = make(meter)
        for seat in range(4):
            _, ws = await loop.create_connection(
                lambda tb=table: Socket(tb.on_message, lambda: None), "127.0.0.1", port
            )
            ws.handshake(f"127.0.0.1:{port}", f"/t/{t}/{seat}")
            await ws.opened
            table.sockets.append(ws)
            opened.append(ws)
        runs.append(table)
    await asyncio.sleep(0.2)
    for table in runs:
        table.start()
    await asyncio.sleep(warm)
    meter.measuring = True
    await asyncio.sleep(seconds)
    meter.measuring = False
    for ws in opened:
        ws.close()
    return {"latencies": meter.latencies, "errors": meter.errors}


class RelayTable:
    """A card is the next number, from seat ``n % 4``; the next goes once all four have it."""

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.n = 0
        self.seen = 0
        self.sent_at = 0.0
        self.sockets: list[Socket] = []

    def start(self) -> None:
        self.play()

    def play(self) -> None:
        self.n += 1
        self.seen = 0
        self.sent_at = time.monotonic()
        self.sockets[self.n % 4].send(str(self.n))

    def on_message(self, raw: bytes) -> None:
        if loads(raw)["n"] != self.n:
            return
        self.seen += 1
        if self.seen == 4:
            if self.meter.measuring:
                self.meter.latencies.append(time.monotonic() - self.sent_at)
            self.play()


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def wait_listening(port: int, seconds: float, what: str) -> None:
    """Until something accepts connections on 127.0.0.1:``port`` (``what``, the
    server just started, named if it never does within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            time.sleep(0.1)


def measure(
    command: list[str], port: int, what: str, tables: int, args: argparse.Namespace, target: Any
) -> dict[str, Any]:
    """Start the server ``command`` (listening on ``port``), ``args.client_procs``
    processes running ``target(port, tables, seconds, warm, queue)`` over the
    ``tables``, and measure: cards a second, latency, the server's CPU a card."""
    server = subprocess.Popen(command)
    try:
        wait_listening(port, 20, what)
        out: Any = mp.Queue()
        procs = args.client_procs
        parts = [range(tables)[i::procs] for i in range(procs)]
        clients = [
            mp.Process(target=target, args=(port, part, args.seconds, args.warm, out)) for part in parts
        ]
        for c in clients:
            c.start()
        time.sleep(args.warm + 0.5)
        cpu0, t0 = cpu_seconds(server.pid), time.monotonic()
        client0 = sum(cpu_seconds(c.pid or 0) for c in clients)
        time.sleep(args.seconds - 1)
        cpu1, t1 = cpu_seconds(server.pid), time.monotonic()
        client1 = sum(cpu_seconds(c.pid or 0) for c in clients)
        results = [out.get(timeout=60) for _ in clients]
        for c in clients:
            c.join(10)
    finally:
        server.terminate()
        server.wait(10)
    latencies = sorted(x for r in results for x in r["latencies"])
    cards_per_s = len(latencies) / args.seconds
    server_cores = (cpu1 - cpu0) / (t1 - t0)
    return {
        "tables": tables,
        "cards_per_s": round(cards_per_s, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.5), 1),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "server_cores": round(server_cores, 2),
        "server_ms_per_card": round(1000 * server_cores / cards_per_s, 3) if cards_per_s else None,
        "client_cores": round((client1 - client0) / (t1 - t0), 2),
        "load": os.getloadavg()[0],
        "errors": sum(r["errors"] for r in results),
    }


def level(tables: int, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    command = [sys.executable, __file__, "--serve", str(port), "--size", str(args.size)]
    row = measure(
        command + (["--starlette"] if args.starlette else []), port, "the relay server", tables, args, client
    )
    del row["errors"]  # a relay refuses nothing
    return {"tables": tables, "starlette": args.starlette, "size": args.size, **row}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", default="200,500", help="comma-separated numbers of tables")
    p.add_argument("--seconds", type=float, default=15.0, help="seconds measured per level")
    p.add_argument("--warm", type=float, default=3.0, help="seconds not measured at the start")
    p.add_argument("--size", type=int, default=1450, help="bytes of each of the four copies")
    p.add_argument("--client-procs", type=int, default=1, help="client processes")
    p.add_argument("--starlette", action="store_true", help="relay through Starlette's WebSocket")
    p.add_argument("--json", action="store_true", help="one JSON object per level")
    p.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve(args.serve, args.size, args.starlette)
        return
    args.seconds = min(args.seconds, MAX_SECONDS)
    for n in (int(x) for x in args.tables.split(",")):
        row = level(min(n, MAX_TABLES), args)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(" | ".join(f"{k} {v}" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
