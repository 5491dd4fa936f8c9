"""Records people upload (``POST /api/replay``), replayed in a process of
their own within a time limit.

Replaying checks every pass and play through the engine: a legal record of
2 MB takes about a second of CPU. On the event loop that second would stop
every game of the server, and a loop of uploads would stop them for good
(issue 20). Here one record at a time is replayed in a worker process; at most
``WAITING`` more wait for it, the others are refused at once; a record that is
not done within the time limit is refused and its worker is killed (the next
upload starts a fresh one).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing.pool
import os
from collections.abc import Callable
from typing import TypeVar

from damepique.engine import RecordError
from damepique.engine.record import load as load_record
from damepique.engine.record import replay as replay_record

from ..clock import Clock
from ..errors import Refusal
from ..play.thinking import spawning
from .replays import replay_data

T = TypeVar("T")

WAITING = 4
"""Uploads that may wait while one is replayed; past that they are refused."""
SECONDS = 5.0
"""A record's time limit in the worker (``DAMEPIQUE_REPLAY_SECONDS``)."""
STARTING = 60.0
"""How long a new worker may take to start (a loaded machine)."""


def replay_upload(raw: bytes) -> tuple[int, bytes]:
    """The answer to an upload, status and JSON body; runs in the worker (the
    answer's JSON is written there too: it is as long as the record)."""
    try:
        data = load_record(raw)
        match = replay_record(data)
    except RecordError as e:
        return 400, json.dumps(e.to_json() | {"code": e.kind}).encode()
    players = data.get("players") if isinstance(data.get("players"), list) else None
    return 200, json.dumps(replay_data(match, players), separators=(",", ":")).encode()


def _ready() -> int:
    """Run first in a new worker: defined here so that unpickling it imports
    this module and the engine's record code, which would otherwise be
    imported inside the first record's time limit (seen to pass 0.2 s on a
    loaded machine)."""
    return os.getpid()


class Uploads:
    """The worker that replays uploaded records; ``close()`` stops it."""

    def __init__(
        self, seconds: float | None = None, waiting: int = WAITING, clock: Clock | None = None
    ) -> None:
        self.clock = clock or Clock()
        """What the time limits are counted on (the app's clock)."""
        self.seconds = (
            seconds if seconds is not None else float(os.environ.get("DAMEPIQUE_REPLAY_SECONDS", SECONDS))
        )
        self.waiting = waiting
        self._queued = 0
        self._one = asyncio.Lock()  # one record at a time: a time-out kills only its own
        self._pool: multiprocessing.pool.Pool | None = None

    async def replay(self, raw: bytes) -> tuple[int, bytes]:
        if self._queued > self.waiting:
            raise Refusal("busy", "other records are being checked; try again in a moment")
        self._queued += 1
        try:
            async with self._one:
                pool = await self._worker()
                try:
                    async with self.clock.timeout(self.seconds):
                        return await _run(pool, replay_upload, raw)
                except BaseException:
                    # Timed out, or the client left: the worker may be deep in
                    # the record; kill it rather than wait for it.
                    self._pool = None
                    await asyncio.to_thread(pool.terminate)
                    raise
        except TimeoutError:
            raise Refusal("too_slow", f"the record could not be checked within {self.seconds:g} s") from None
        finally:
            self._queued -= 1

    async def _worker(self) -> multiprocessing.pool.Pool:
        """The worker, started and ready: its start does not count against a record's time."""
        if self._pool is None:
            pool = spawning().Pool(1)
            try:
                await self.clock.wait_for(_run(pool, _ready), STARTING)
            except BaseException:
                await asyncio.to_thread(pool.terminate)
                raise
            self._pool = pool
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None


def _run(pool: multiprocessing.pool.Pool, work: Callable[..., T], *args: object) -> asyncio.Future[T]:
    """``work(*args)`` in ``pool``, as a future of this loop."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def answer(result: T) -> None:
        loop.call_soon_threadsafe(_settle, done, result, None)

    def fail(error: BaseException) -> None:
        loop.call_soon_threadsafe(_settle, done, None, error)

    pool.apply_async(work, args, callback=answer, error_callback=fail)
    return done


def _settle(done: asyncio.Future[T], result: T | None, error: BaseException | None) -> None:
    if done.done():  # cancelled meanwhile
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)  # type: ignore[arg-type]
