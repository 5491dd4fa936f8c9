"""Bots think off the event loop.

``expert`` (and the training advice, which runs the expert's search) run in a
process pool, so one long decision never stalls the other tables; the cheap
levels decide on the loop while they stay cheap (see ``CHEAP``), else in a
small thread pool. Levels that are not installed yet fall back to
the next weaker one that is.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Literal

from damepique.bots import get_bot
from damepique.bots.base import Bot
from damepique.engine import View

from ..protocol import Json

LEVELS = ("beginner", "intermediate", "expert")
"""The levels people choose for the computer players."""
FALLBACK = {"expert": "intermediate", "intermediate": "beginner", "beginner": "random"}
HEAVY = {"expert"}
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
    """Advice for every legal option (``damepique.bots.advice.advise``), as
    JSON-ready dicts; runs in a worker."""
    from damepique.bots.advice import advise as bot_advise
    from damepique.engine import CARD_NAMES

    return [
        {
            "cards": [CARD_NAMES[c] for c in a.cards],
            "score": round(float(a.score), 3),
            "stderr": round(float(a.stderr), 3),
            "reason": a.reason,
            "best": bool(a.best),
            "mistake": bool(a.mistake),
        }
        for a in bot_advise(view)
    ]


class Thinker:
    """Runs decisions in executors; ``close()`` shuts them down."""

    def __init__(self, threads: int = 2, processes: int | None = None) -> None:
        self.threads: Executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")
        self._processes = processes
        self._pool: Executor | None = None
        self.slow: set[str] = set()

    def _heavy(self) -> Executor:
        if self._pool is None:
            workers = self._processes or max(1, (os.cpu_count() or 2) - 1)
            # Not "fork": the server has threads (SQLite, the bot thread pool), and a
            # child forked while one of them holds a lock can hang for ever.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
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
        pool = self._heavy() if actual in HEAVY else self.threads
        return await loop.run_in_executor(pool, decide, level, view, seed)

    async def advise(self, view: View) -> list[Json]:
        loop = asyncio.get_running_loop()
        pool = self._heavy() if resolve_level("expert") in HEAVY else self.threads
        return await loop.run_in_executor(pool, advise, view)

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
