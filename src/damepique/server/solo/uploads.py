"""Records people upload (``POST /api/replay``), replayed in a process of
their own, taking turns fairly by address, within a limit of work.

Replaying checks every pass and play through the engine: a legal record of
2 MB takes about a second of CPU. On the event loop that second would stop
every game of the server, and a loop of uploads would stop them for good
(issue 20). Here one record at a time is replayed in a worker process; the
uploads waiting for it take turns by address (``FairQueue``: each address at
most ``PER_ADDRESS`` waiting, ``WAITING`` in all), so one address sending
many cannot keep another's out (issue 25).

The limit is in work, not time: a record may hold at most ``WORK`` cards
passed and played (counted in the worker before anything is replayed), so
the same record is accepted or refused on a quiet machine and a loaded one
alike (a legal record of 0.83 MB was refused as too slow under load with a
limit of 5 s). A time limit remains, far above what ``WORK`` cards take
(``DAMEPIQUE_REPLAY_SECONDS``, 60 s), only as a guard against a worker that
hangs: its worker is killed and the next upload starts a fresh one.
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
from ..fair import FairQueue
from ..play.thinking import lifeline, spawning, worker_start
from .replays import replay_data

T = TypeVar("T")

WAITING = 64
"""Uploads that may wait while one is replayed, all addresses together."""
PER_ADDRESS = 2
"""Uploads one address may have waiting; past that its next is refused (``busy``)."""
WORK = 100_000
"""Cards passed and played a record may hold (a 100-point game holds some 400;
the 2 MB upload limit about 135,000): about a second of replay on a quiet machine."""
SECONDS = 60.0
"""A guard against a worker that hangs (``DAMEPIQUE_REPLAY_SECONDS``), not the limit."""
STARTING = 60.0
"""How long a new worker may take to start (a loaded machine)."""


def replay_upload(raw: bytes) -> tuple[int, bytes]:
    """The answer to an upload, status and JSON body; runs in the worker (the
    answer's JSON is written there too: it is as long as the record)."""
    try:
        data = load_record(raw)
        work = record_work(data)
        if work > WORK:
            refusal = Refusal(
                "too_large",
                f"a record of {work} cards passed and played: at most {WORK} are checked",
                params={"cards": WORK},
            )
            return refusal.status, json.dumps(refusal.body()).encode()
        match = replay_record(data)
    except RecordError as e:
        # The referee's error in the one shape: where it is (deal, play) in params.
        where = {k: v for k, v in e.to_json().items() if k in ("deal", "play")}
        card = e.to_json().get("card")
        refusal = Refusal(e.kind, e.reason, params=where, seat=e.seat, card=card)
        return refusal.status, json.dumps(refusal.body()).encode()
    players = data.get("players") if isinstance(data.get("players"), list) else None
    return 200, json.dumps(replay_data(match, players), separators=(",", ":")).encode()


def record_work(data: dict[str, object]) -> int:
    """The cards a loaded record passes and plays: what replaying it costs.

    >>> record_work({"deals": [{"plays": ["2C", "3C"], "passes": [["QS", "AS", "KS"], None]}]})
    5
    """
    deals = data.get("deals")
    work = 0
    for deal in deals if isinstance(deals, list) else ():
        if not isinstance(deal, dict):
            continue
        plays, passes = deal.get("plays"), deal.get("passes")
        work += len(plays) if isinstance(plays, list) else 0
        for p in passes if isinstance(passes, list) else ():
            work += len(p) if isinstance(p, list) else 0
    return work


def _ready() -> int:
    """Run first in a new worker: defined here so that unpickling it imports
    this module and the engine's record code, which would otherwise be
    imported inside the first record's time limit (seen to pass 0.2 s on a
    loaded machine)."""
    return os.getpid()


class Uploads:
    """The worker that replays uploaded records; ``close()`` stops it."""

    def __init__(
        self,
        seconds: float | None = None,
        waiting: int = WAITING,
        clock: Clock | None = None,
        per_address: int = PER_ADDRESS,
    ) -> None:
        self.clock = clock or Clock()
        """What the guard against a hung worker is counted on (the app's clock)."""
        self.seconds = (
            seconds if seconds is not None else float(os.environ.get("DAMEPIQUE_REPLAY_SECONDS", SECONDS))
        )
        # One record at a time (a time-out kills only its own), by turns of address.
        self.queue = FairQueue(workers=1, per_client=per_address, waiting=waiting, what="records")
        self._pool: multiprocessing.pool.Pool | None = None

    async def replay(self, raw: bytes, address: str = "") -> tuple[int, bytes]:
        """The answer to ``raw`` uploaded from ``address`` (``http.address_key``):
        status and JSON body; ``Refusal`` ``busy`` or ``too_slow``."""
        async with self.queue.turn(address):
            pool = await self._worker()
            try:
                async with self.clock.timeout(self.seconds):
                    return await _run(pool, replay_upload, raw)
            except BaseException as e:
                # Timed out, or the client left: the worker may be deep in
                # the record; kill it rather than wait for it.
                self._pool = None
                await asyncio.to_thread(pool.terminate)
                if isinstance(e, TimeoutError):
                    raise Refusal(
                        "too_slow", f"the record could not be checked within {self.seconds:g} s"
                    ) from None
                raise

    async def _worker(self) -> multiprocessing.pool.Pool:
        """The worker, started and ready: its start does not count against a record's time."""
        if self._pool is None:
            pool = spawning().Pool(1, initializer=worker_start, initargs=(lifeline(),))
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
