"""Bots think off the event loop.

``expert`` (and the training advice, which runs the expert's search) run in a
process pool, so one long decision never stalls the other tables; the cheap
levels decide on the loop while they stay cheap (see ``CHEAP``), else in a
small thread pool. Levels that are not installed yet fall back to
the next weaker one that is.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Literal, TypeVar

from damepique.bots import get_bot
from damepique.bots.base import Bot
from damepique.bots.registry import PERSONALITIES as PERSONALITY_NAMES
from damepique.engine import Deal, View

from ..errors import Refusal
from ..protocol import Json

if TYPE_CHECKING:
    from damepique.bots.advice import ReviewSoFar

T = TypeVar("T")

LEVELS = ("beginner", "intermediate", "expert")
"""The levels people choose for the computer players."""
PERSONALITIES = PERSONALITY_NAMES
"""Computer players with a style (``shooter``, "Bold"), chosen beside the levels."""
CHOICES = (*LEVELS, *PERSONALITIES)
"""Every computer player a person may seat."""
FALLBACK = {"shooter": "expert", "expert": "intermediate", "intermediate": "beginner", "beginner": "random"}
HEAVY = {"expert", "shooter"}
CHEAP = {"random", "beginner", "intermediate"}
"""Levels that decide in about a tenth of a millisecond: handing such a decision
to a thread costs more than making it (a thread hop, and the GIL handed back
and forth under load), so they decide on the loop until one is ever seen to
take longer than ``INLINE_LIMIT``; from then on that level uses the threads."""
INLINE_LIMIT = 0.010


@functools.lru_cache(maxsize=64)
def resolve_level(level: str) -> str:
    """The level actually available for ``level`` (``expert`` may fall back)."""
    name = level
    while True:
        try:
            get_bot(name)
            return name
        except KeyError:
            if name not in FALLBACK:
                return "random"
            name = FALLBACK[name]


_BOTS: dict[str, Bot] = {}

Decision = tuple[Literal["pass"], tuple[int, ...]] | tuple[Literal["play"], int]
"""A bot's choice: the cards it passes, or the card it plays."""


def _bot(level: str) -> Bot:
    bot = _BOTS.get(level)
    if bot is None:
        bot = _BOTS[level] = get_bot(resolve_level(level))
    return bot


def decide(level: str, view: View, seed: int) -> Decision:
    """``("pass", cards)`` or ``("play", card)`` for ``view``; runs in a worker."""
    bot = _bot(level)
    rng = random.Random(seed)
    if view.phase == "pass":
        return "pass", tuple(bot.choose_pass(view, rng))
    return "play", bot.choose_play(view, rng)


def advise(view: View) -> list[Json]:
    """Advice for every legal option (``damepique.bots.advice.advise``), best
    first, as JSON-ready dicts: each with its outcomes, its cost against the
    best in expected payoff (``score`` is the expected points, as before), and
    what separates it from the best (``comparison``); runs in a worker."""
    from damepique.bots.advice import advice_json, compare
    from damepique.bots.advice import advise as bot_advise

    options = bot_advise(view)
    out = []
    for a in options:
        entry = advice_json(a) | {"score": round(float(a.score), 3), "cost": round(float(a.cost), 2)}
        if a is not options[0]:
            entry["comparison"] = compare(a, options[0], view.rules).to_json()
        out.append(entry)
    return out


def hint(view: View) -> Json:
    """The best option alone, found as fast as one expert decision, and what
    separates it from the runner-up; runs in a worker."""
    from damepique.bots.advice import hint as bot_hint
    from damepique.bots.advice import hint_json

    return hint_json(bot_hint(view))


def review(deal: Deal, so_far: ReviewSoFar) -> list[Json]:
    """The seat's three costliest choices in a finished deal, its decisions
    not reviewed yet looked at first (``bots.advice.review_rest``); runs in a worker."""
    from damepique.bots.advice import review_rest

    return [item.to_json() for item in review_rest(deal, so_far)]


def review_step(deal: Deal, so_far: ReviewSoFar) -> ReviewSoFar | None:
    """The review one decision further (``bots.advice.review_next``); runs in a worker."""
    from damepique.bots.advice import review_next

    return review_next(deal, so_far)


BACKGROUND_NICE = 10
"""How much lower the process that prepares reviews runs than the server's
others: its work is done ahead of need, so the bots' moves and the advice
asked for go first on a busy machine."""

BACKGROUND_QUEUE = 16
"""Pieces of background work that may wait at once; past that, new ones are
dropped (what they would have prepared is done when it is asked for)."""


HEAVY_IN_FLIGHT = 2
"""Heavy decisions handed to each expert process at once; the others wait on
the loop (costing nothing) rather than as pickled views in the pool's queue:
with one decision running and one ready per process, a crowd of expert games
shares the pool in turn, and never holds more than this of the server's memory
or its loop's time (each decision sent is a view pickled on the loop)."""

TRAINING_QUEUE = 8
"""Training requests that may wait for the coach at once; past that they are refused."""


def spawning() -> multiprocessing.context.BaseContext:
    """Not "fork": the server has threads (SQLite, the bot thread pool), and a
    child forked while one of them holds a lock can hang for ever."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


@functools.cache
def _lifeline_pipe() -> tuple[Connection, Connection]:
    """The pipe, made once; the cache keeps its writing end open for the process's life."""
    return multiprocessing.Pipe(duplex=False)


def lifeline() -> Connection:
    """What a worker process watches to know the server is alive: the reading
    end of a pipe whose writing end this process alone holds (not inherited:
    descriptors are not, and the workers are not forked). A server killed
    (SIGKILL, a crash) closes it, and each worker reads the end of it."""
    return _lifeline_pipe()[0]


def worker_start(server: Connection, nice: int = 0) -> None:
    """A worker process's start: it leaves when the server is gone. A pool's
    worker holds both ends of its own queue's pipe, so without this a worker
    of a killed server waits on its queue for ever (with the forkserver, which
    waits on its workers): processes left behind at every crash."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    threading.Thread(target=_leave_with, args=(server,), name="lifeline", daemon=True).start()


def _leave_with(server: Connection) -> None:
    with contextlib.suppress(EOFError, OSError):
        server.recv_bytes()  # nothing is ever sent: this returns when the server is gone
    os._exit(0)


def worker_pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that leave with the server, ``nice``r than it."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=spawning(), initializer=worker_start, initargs=(lifeline(), nice)
    )


class Thinker:
    """Runs decisions in executors; ``close()`` shuts them down."""

    def __init__(self, threads: int = 2, processes: int | None = None) -> None:
        self.threads: Executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")
        self._processes = processes
        self._pool: Executor | None = None
        self._coach: Executor | None = None
        self._coaching = 0
        self._background: Executor | None = None
        self._waiting_background = 0
        self.slow: set[str] = set()
        self.workers = processes or max(1, (os.cpu_count() or 2) - 1)
        """The expert's processes: the machine's cores but the one the server's loop uses."""
        self._slots: asyncio.Semaphore | None = None

    def _heavy(self) -> Executor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    def inline(self, level: str) -> bool:
        """Whether ``level`` decides on the loop (``decide_now``) rather than in a worker."""
        actual = resolve_level(level)
        return actual in CHEAP and actual not in self.slow

    def decide_now(self, level: str, view: View, seed: int) -> Decision:
        # This thread's CPU time: a busy machine does not make a cheap bot look slow.
        start = time.thread_time()
        choice = decide(level, view, seed)
        if time.thread_time() - start > INLINE_LIMIT:
            self.slow.add(resolve_level(level))
        return choice

    async def decide(self, level: str, view: View, seed: int) -> Decision:
        actual = resolve_level(level)
        loop = asyncio.get_running_loop()
        if actual not in HEAVY:
            return await loop.run_in_executor(self.threads, decide, level, view, seed)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers * HEAVY_IN_FLIGHT)
        async with self._slots:  # the pool's bound: see HEAVY_IN_FLIGHT
            return await loop.run_in_executor(self._heavy(), decide, level, view, seed)

    async def _train(self, work: Callable[..., T], *args: object) -> T:
        """Training work (advice, hints, reviews) in a pool of its own, one
        process, so that the coach never slows the bots of other tables; at
        most ``TRAINING_QUEUE`` requests wait, the others are refused."""
        if self._coaching >= TRAINING_QUEUE:
            raise Refusal("too_many", "the coach is busy with other players; try again in a moment")
        if self._coach is None:
            self._coach = worker_pool(1)
        self._coaching += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._coach, work, *args)
        finally:
            self._coaching -= 1

    async def coach(self, work: Callable[..., T], *args: object) -> T:
        """Other work in the coach's process (a game's analysis, one decision
        at a time, so that advice asked meanwhile waits one decision at most).
        Not counted against ``TRAINING_QUEUE``: its caller bounds it."""
        if self._coach is None:
            self._coach = worker_pool(1)
        return await asyncio.get_running_loop().run_in_executor(self._coach, work, *args)

    async def advise(self, view: View) -> list[Json]:
        return await self._train(advise, view)

    async def hint(self, view: View) -> Json:
        return await self._train(hint, view)

    async def review(self, deal: Deal, so_far: ReviewSoFar) -> list[Json]:
        return await self._train(review, deal, so_far)

    async def background(self, work: Callable[..., T], *args: object) -> T | None:
        """Work done ahead of need (a review prepared while its deal is
        played) in a process of its own at a lower priority
        (``BACKGROUND_NICE``), one piece at a time; None when
        ``BACKGROUND_QUEUE`` pieces wait already (dropped: its result is
        computed when it is asked for)."""
        if self._waiting_background >= BACKGROUND_QUEUE:
            return None
        if self._background is None:
            self._background = worker_pool(1, BACKGROUND_NICE)
        self._waiting_background += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._background, work, *args)
        finally:
            self._waiting_background -= 1

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        for pool in (self._pool, self._coach, self._background):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
