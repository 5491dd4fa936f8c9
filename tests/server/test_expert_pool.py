"""A crowd of expert games shares the expert's processes in turn: at most
``HEAVY_IN_FLIGHT`` decisions per process are handed over at once, the
others wait on the loop (no pickled view piles up in the pool's queue), and
each waiting one goes as soon as one comes back."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from concurrent.futures import Executor, Future
from typing import Any

from damepique.engine import Deal, Rules, view_of
from damepique.server.play.thinking import HEAVY_IN_FLIGHT, Thinker

from ..clocks import WITHIN
from ..conftest import ROOT


class HeldPool(Executor):
    """An executor that runs nothing until told: what was handed to it, in order."""

    def __init__(self) -> None:
        self.handed: list[Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.handed.append(future)
        return future


async def _crowd() -> None:
    thinker = Thinker(threads=1, processes=1)
    pool = HeldPool()
    thinker._pool = pool  # the expert's process pool, held
    view = view_of(Deal.shuffled(Rules(), random.Random(1)), 0)
    games = [asyncio.create_task(thinker.decide("expert", view, seed)) for seed in range(10)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(pool.handed) == HEAVY_IN_FLIGHT  # one process: this many handed over, 8 wait
    pool.handed[0].set_result(("pass", (0, 1, 2)))
    assert await games[0] == ("pass", (0, 1, 2))
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(pool.handed) == HEAVY_IN_FLIGHT + 1  # one came back: the next waiting one goes
    for k, future in enumerate(pool.handed):
        if not future.done():
            future.set_result(("pass", (k,)))
    while not all(g.done() for g in games):
        for future in pool.handed:
            if not future.done():
                future.set_result(("pass", ()))
        await asyncio.sleep(0)
    assert len(pool.handed) == 10
    thinker.threads.shutdown(wait=False)


def test_a_crowd_of_expert_games_takes_turns_in_the_pool() -> None:
    asyncio.run(_crowd())


KILLED_SERVER = """
import os, sys
from multiprocessing import forkserver
from damepique.server.play.thinking import BACKGROUND_NICE, lifeline, spawning, worker_pool, worker_start

pools = [worker_pool(2), worker_pool(1, BACKGROUND_NICE)]
pids = [pid for pool in pools for pid in {pool.submit(os.getpid).result() for _ in range(8)}]
uploads = spawning().Pool(1, initializer=worker_start, initargs=(lifeline(),))
pids.append(uploads.apply(os.getpid))
pids.append(forkserver._forkserver._forkserver_pid or 0)
print(" ".join(map(str, pids)), flush=True)
sys.stdin.read()  # killed meanwhile
"""


def test_the_server_s_worker_processes_leave_with_a_killed_server() -> None:
    """A server killed (SIGKILL, a crash) leaves no process behind: each of its
    pools' workers (expert, coach, background, daily, uploads) watches a pipe
    only the server holds and leaves when it closes, and the forkserver with
    them. Before, a worker waited on its own queue for ever: processes left at
    every crash (22 after a few browser runs whose server was killed)."""
    import select
    import signal

    server = subprocess.Popen(
        [sys.executable, "-c", KILLED_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT
    )
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        assert len(pids) >= 4 and all(pids), pids
        watched = [os.pidfd_open(pid) for pid in pids]  # each readable once its process is gone
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    try:
        left = set(watched)
        while left:
            ready, _, _ = select.select(list(left), [], [], WITHIN)
            assert ready, f"still running: {[pids[watched.index(fd)] for fd in left]}"
            left -= set(ready)
    finally:
        for fd in watched:
            os.close(fd)
