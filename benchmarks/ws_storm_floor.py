"""The floor under a reconnect storm: how long a bare uvicorn takes to take back N WebSockets.

The same storm as ``server_multiplayer.py --storm`` (every connection cut at
once, then every one opened again at once), against a uvicorn process with
``damepique serve``'s WebSocket settings (the sans-I/O protocol, the listen
queue, no compression, no pings) whose app does nothing but accept and send
each connection one 1,450-byte text, where the real server checks a seat
token and sends the seat's whole state. A connection is back when that first
text has come. The clients are ``server_multiplayer.py``'s own (``Socket``),
in ``--client-procs`` processes. What it says: the part of the real storm's
time that any server on this machine and these clients would take.

    ulimit -n 20000; python benchmarks/ws_storm_floor.py --connections 19600 --client-procs 4

127.0.0.1 only, bounded in count (20,000) and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import subprocess
import sys
import time
from typing import Any

from server_multiplayer import Socket, cpu_seconds, free_port, quantile  # this folder is on the path
from ws_floor import wait_listening

MAX_CONNECTIONS = 20_000
TEXT = "x" * 1450


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept, send one text, wait for the close."""
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": TEXT})
    while (await receive())["type"] != "websocket.disconnect":
        pass


def serve(port: int) -> None:
    import uvicorn

    from damepique.server.run import LISTEN_BACKLOG

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_ping_interval=None,
        backlog=LISTEN_BACKLOG,
        lifespan="off",
    )


def client(pipe: Any, port: int, count: int) -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        back: list[float] = []
        errors = 0

        async def connect(since: float) -> Socket:
            got: asyncio.Future[None] = loop.create_future()

            def on_message(text: Any) -> None:
                if not got.done():
                    back.append(time.monotonic() - since)
                    got.set_result(None)

            _, ws = await loop.create_connection(
                lambda: Socket(on_message, lambda code: None), "127.0.0.1", port
            )
            ws.handshake(f"127.0.0.1:{port}", "/ws")
            await asyncio.wait_for(got, 120)
            return ws

        sockets = []
        for k in range(0, count, 200):  # set up in steps, as the real benchmark does
            sockets += await asyncio.gather(
                *(connect(time.monotonic()) for _ in range(k, min(count, k + 200)))
            )
        back.clear()
        pipe.send("ready")
        cut_at = pipe.recv()
        await asyncio.sleep(max(0.0, cut_at - time.monotonic()))
        for ws in sockets:
            ws.transport.close()
        results = await asyncio.gather(*(connect(cut_at) for _ in range(count)), return_exceptions=True)
        errors = sum(1 for r in results if isinstance(r, BaseException))
        pipe.send((back, errors))
        for r in results:
            if isinstance(r, Socket):
                r.transport.close()
        await asyncio.sleep(0.2)

    asyncio.run(run())


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--connections", type=int, default=4000)
    p.add_argument("--client-procs", type=int, default=4)
    p.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    n = min(max(args.connections, 1), MAX_CONNECTIONS)
    procs = min(max(args.client_procs, 1), 16)
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)])
    try:
        wait_listening(port, 30, "the bare server")
        ctx = multiprocessing.get_context("spawn")
        shares = [n // procs + (1 if k < n % procs else 0) for k in range(procs)]
        children = []
        for share in shares:
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=client, args=(child, port, share), daemon=True)
            proc.start()
            children.append((proc, parent))
        for _, parent in children:
            if not parent.poll(300) or parent.recv() != "ready":
                raise SystemExit("a client did not set up")
        cut_at = time.monotonic() + 0.5
        cpu0 = cpu_seconds(server.pid)
        load0 = os.getloadavg()[0]
        for _, parent in children:
            parent.send(cut_at)
        back: list[float] = []
        errors = 0
        for _, parent in children:
            if not parent.poll(300):
                raise SystemExit("a client did not finish")
            b, e = parent.recv()
            back += b
            errors += e
        cpu = cpu_seconds(server.pid) - cpu0
        for proc, _ in children:
            proc.join(10)
        back.sort()
        print(
            json.dumps(
                {
                    "connections": n,
                    "client_procs": procs,
                    "back": len(back),
                    "errors": errors,
                    "settle_s": round(back[-1], 2) if back else None,
                    "back_p50_ms": quantile(back, 0.5),
                    "back_p99_ms": quantile(back, 0.99),
                    "server_cpu_s": round(cpu, 2),
                    "server_ms_per_connection": round(1000 * cpu / n, 3),
                    "load": [round(load0, 2), round(os.getloadavg()[0], 2)],
                }
            ),
            flush=True,
        )
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
