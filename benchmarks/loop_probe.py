"""Where a server's event loop stalls: ``damepique serve`` with probes on.

Runs ``damepique serve ARGS`` in this process with three probes, and writes
what they saw to ``--out`` (JSON) when the server stops (SIGTERM or ^C):

- the loop's lag: a callback due every 5 ms notes how late it ran; the lags
  past 20 ms are counted by size, with their total (the time a card waited
  on nothing but the loop);
- the garbage collector (``gc.callbacks``): how many collections of each
  generation, their total and longest time;
- what the loop was doing when it stalled: a thread of its own looks every
  5 ms, and while the loop has been silent for more than 20 ms it takes the
  main thread's stack (the innermost frames of this project and of the
  libraries under it) and counts it; the stacks seen most are where the
  stalls come from. (A collection holds the interpreter's lock, so the
  thread cannot look during one: the collector's own figures say those.)

SIGUSR1 starts the count again (the start of a measured window) and SIGUSR2
keeps what was counted so far as the report's ``window`` (its end), so the
set-up before and the closing after are left out; the report's ``whole``
covers the server's life. ``benchmarks/server_multiplayer.py --probe FILE``
starts its local servers through this script and sends both. Nothing here
changes what the server does beyond the probes' own small cost (a callback
every 5 ms, a look every 5 ms).

    python benchmarks/loop_probe.py --out /tmp/probe.json -- --port 8000 --db /tmp/x.sqlite3
"""

from __future__ import annotations

import argparse
import gc
import json
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

TICK_S = 0.005
STALL_S = 0.020
BUCKETS_MS = (20, 50, 100, 200, 500, 1000, 2000, 5000)


class Probe:
    def __init__(self) -> None:
        self.beat = time.monotonic()
        self.main = threading.main_thread().ident
        self.loop: Any = None
        self.window: dict[str, Any] | None = None
        self.reset()

    def reset(self) -> None:
        self.lags: Counter[int] = Counter()
        self.lag_total = 0.0
        self.lag_max = 0.0
        self.ticks = 0
        self.gc_started = self.gc_cpu_started = 0.0
        """When the collection under way began (0: none since the count began)."""
        self.gc: dict[int, list[float]] = {g: [0, 0.0, 0.0, 0.0] for g in (0, 1, 2)}
        """Per generation: collections, their wall time, the longest, their CPU time (the
        thread's own: what a busy machine's scheduler adds to the wall time is not in it)."""
        self.gc_slow: Counter[int] = Counter()
        """Collections longer than ``STALL_S``, by generation."""
        self.stacks: Counter[str] = Counter()
        self.samples = 0
        self.appends: list[float] = []
        """How long each group commit of the event log took, its wait for the write lock included."""
        self.writes: list[float] = []
        """How long each other write held the write lock (``Database.write``)."""
        self.started = time.monotonic()
        self.cpu_started = time.thread_time()

    # -- on the loop ---------------------------------------------------------------------------

    def start(self, loop: Any) -> None:
        self.loop = loop
        self.beat = time.monotonic()
        loop.call_later(TICK_S, self.tick, self.beat + TICK_S)
        threading.Thread(target=self.watch, name="loop-probe", daemon=True).start()

    def tick(self, due: float) -> None:
        now = time.monotonic()
        self.beat = now
        self.ticks += 1
        lag = now - due
        if lag > STALL_S:
            self.lag_total += lag
            self.lag_max = max(self.lag_max, lag)
            ms = lag * 1000
            self.lags[next((b for b in reversed(BUCKETS_MS) if ms >= b), BUCKETS_MS[0])] += 1
        self.loop.call_later(TICK_S, self.tick, now + TICK_S)

    # -- the collector -------------------------------------------------------------------------

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.gc_started, self.gc_cpu_started = time.perf_counter(), time.thread_time()
            return
        if not self.gc_started:
            return  # the count began during this collection
        took = time.perf_counter() - self.gc_started
        row = self.gc[info["generation"]]
        row[3] += time.thread_time() - self.gc_cpu_started
        row[0] += 1
        row[1] += took
        row[2] = max(row[2], took)
        if took > STALL_S:
            self.gc_slow[info["generation"]] += 1

    # -- the watcher ---------------------------------------------------------------------------

    def watch(self) -> None:
        while True:
            time.sleep(TICK_S)
            if time.monotonic() - self.beat <= STALL_S:
                continue
            frame = sys._current_frames().get(self.main or 0)
            if frame is None:
                continue
            self.samples += 1
            self.stacks[_where(frame)] += 1

    def report(self) -> dict[str, Any]:
        seconds = time.monotonic() - self.started
        return {
            "seconds": round(seconds, 1),
            "lag_over_20ms": {f">={b}ms": self.lags[b] for b in BUCKETS_MS},
            "lag_total_s": round(self.lag_total, 3),
            "lag_max_ms": round(self.lag_max * 1000, 1),
            "main_thread_cpu_s": round(time.thread_time() - self.cpu_started, 2),
            "gc": {
                str(g): {
                    "count": int(n),
                    "total_s": round(t, 3),
                    "max_ms": round(m * 1000, 1),
                    "cpu_s": round(c, 3),
                }
                for g, (n, t, m, c) in self.gc.items()
            },
            "gc_over_20ms": {str(g): n for g, n in sorted(self.gc_slow.items())},
            "event_appends": _spread(self.appends),
            "other_writes": _spread(self.writes),
            "stall_samples": self.samples,
            "stall_stacks": [{"samples": n, "stack": s} for s, n in self.stacks.most_common(25)],
        }


def _spread(times: list[float]) -> dict[str, Any]:
    xs = sorted(times)
    if not xs:
        return {"count": 0}
    at = lambda q: round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 1)  # noqa: E731
    return {
        "count": len(xs),
        "total_s": round(sum(xs), 2),
        "p50_ms": at(0.5),
        "p99_ms": at(0.99),
        "max_ms": at(1.0),
    }


def timed(probes: list[Probe]) -> None:
    """Time the database's writes: the event log's group commits, waits
    included, and every other write's hold of the write lock."""
    import contextlib

    from damepique.server.storage.database import Database

    append, write = Database.append_events, Database.write

    async def append_events(self: Any, rows: Any) -> None:
        t = time.perf_counter()
        try:
            await append(self, rows)
        finally:
            for p in probes:
                p.appends.append(time.perf_counter() - t)

    @contextlib.asynccontextmanager
    async def held(self: Any) -> Any:
        inner = write(self)
        conn = await inner.__aenter__()
        t = time.perf_counter()  # the lock is held from here to the commit's end
        try:
            yield conn
        except BaseException as e:
            if not await inner.__aexit__(type(e), e, e.__traceback__):
                raise
        else:
            await inner.__aexit__(None, None, None)
        finally:
            for p in probes:
                p.writes.append(time.perf_counter() - t)

    Database.append_events = append_events  # type: ignore[method-assign]
    Database.write = held  # type: ignore[method-assign,assignment]


def _where(frame: Any) -> str:
    """The innermost frames of a stack, the project's first: where the loop was."""
    frames = traceback.extract_stack(frame)[::-1]
    ours = [f for f in frames if "damepique" in f.filename]
    rest = [f for f in frames[:4] if f not in ours]
    picked = (rest + ours[:4])[:7]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in picked)


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--out", required=True, help="where to write the report (JSON)")
    p.add_argument("serve", nargs=argparse.REMAINDER, help="-- then the arguments of damepique serve")
    args = p.parse_args()
    serve_args = [a for a in args.serve if a != "--"]
    probe = Probe()
    gc.callbacks.append(probe.on_gc)
    whole = Probe()
    gc.callbacks.append(whole.on_gc)

    def begin(*_: Any) -> None:
        probe.reset()

    def end(*_: Any) -> None:
        probe.window = probe.report()
        write()  # now too: a server slow to stop may be killed before its end

    timed([probe, whole])
    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)

    import uvicorn

    original = uvicorn.Server._serve

    async def serve(self: Any, *a: Any, **k: Any) -> None:
        import asyncio

        probe.start(asyncio.get_running_loop())
        whole.start(asyncio.get_running_loop())
        try:
            await original(self, *a, **k)
        finally:  # here: uvicorn raises the signal that stopped it again as its serve() returns
            write()

    def write() -> None:
        Path(args.out).write_text(json.dumps({"window": probe.window, "whole": whole.report()}, indent=1))

    uvicorn.Server._serve = serve  # type: ignore[method-assign]
    from damepique.cli import main as cli

    return int(cli(["serve", *serve_args]) or 0)


if __name__ == "__main__":
    sys.exit(main())
