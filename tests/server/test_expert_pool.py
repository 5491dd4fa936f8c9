"""A crowd of expert games shares the expert's processes in turn: at most
``HEAVY_IN_FLIGHT`` decisions per process are handed over at once, the
others wait on the loop (no pickled view piles up in the pool's queue), and
each waiting one goes as soon as one comes back."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor, Future
from typing import Any

from damepique.engine import Deal, Rules, view_of
from damepique.server.play.thinking import HEAVY_IN_FLIGHT, Thinker


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
