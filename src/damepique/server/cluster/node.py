"""This process among the others: leases, messages between processes, calls.

Things (a table, by its code) are run by one process at a time, the one that
holds their lease; every process renews its leases each second, and takes
over, each second, what nobody runs any more (``every_tick`` handlers ask
``Leases.unheld``). Processes talk over the broker: each has a channel of its
own (``damepique:proc:<id>``) for what is addressed to it, in order, in
batches (``Mailbox``), and the services share named channels
(``publish``/``subscribe``: the lobby, the score sheets' changes).

The node knows nothing of games, tables or sheets: the services register
what they handle (``on_op`` for messages to this process, ``on_call`` for
calls, ``on_lost`` for leases that went elsewhere, ``every_tick``). One
process alone runs the same code, with in-memory leases and broker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..clock import Clock
from ..errors import Refusal
from ..protocol import Json
from ..storage.database import Database, create_engine
from .broker import MemoryBroker, broker_from_url
from .leases import Leases, MemoryLeases, SqlLeases

log = logging.getLogger("damepique.server")

TTL_MS = 5000
"""A lease runs out this long after its last renewal (the takeover delay after a crash)."""
LONE_TTL_MS = 10**15
"""A process alone: its leases in memory last as good as for ever (some 30,000 years)."""
TICK_S = 1.0
"""How often leases are renewed and the ``every_tick`` handlers run."""
SEND_TIMEOUT_S = 5.0
CALL_TIMEOUT_S = 10.0
OUTLAST_S = 0.25
"""How often a hello for a table whose process died looks whether its lease ran out."""

Handler = Callable[[Json], Awaitable[None]]


def process_id() -> str:
    """``$DAMEPIQUE_PROCESS_ID`` or host-pid-random (unique per start)."""
    return os.environ.get("DAMEPIQUE_PROCESS_ID") or (
        f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"
    )


def _channel(pid: str) -> str:
    return f"damepique:proc:{pid}"


class Mailbox:
    """What this process sends to one other process, in order. Messages that pile
    up while a publish is on its way leave together in the next one (under load
    most do), as one ``batch``: the headers in JSON, a newline, then the texts
    end to end (``lens`` says where each one ends), never escaped or parsed."""

    MAX_WAITING = 20_000
    MAX_BATCH = 500

    def __init__(self, node: Node, pid: str) -> None:
        self.node = node
        self.pid = pid
        self.waiting: list[tuple[Json, str]] = []
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        node.spawn(self._run())

    async def drained(self) -> None:
        """Return once everything posted has been published (or given up)."""
        await self._drained.wait()

    def post(self, message: Json, text: str) -> None:
        if len(self.waiting) >= self.MAX_WAITING:
            # Not taken for a long while (the broker is away): those connections
            # are started again when it is back, so the oldest can go.
            del self.waiting[: self.MAX_BATCH]
        self.waiting.append((message, text))
        self._drained.clear()
        self._wake.set()

    async def _run(self) -> None:
        channel = _channel(self.pid)
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.waiting:
                batch = self.waiting[: self.MAX_BATCH]
                del self.waiting[: self.MAX_BATCH]
                head = {"op": "batch", "items": [m for m, _ in batch], "lens": [len(t) for _, t in batch]}
                payload = json.dumps(head) + "\n" + "".join(t for _, t in batch)
                try:
                    heard = await self.node.clock.wait_for(
                        self.node.broker.publish(channel, payload), SEND_TIMEOUT_S
                    )
                except (TimeoutError, OSError):
                    heard = 0
                if not heard:
                    self.waiting.clear()
                    self._drained.set()
                    self.node.unreachable(self.pid)
                    return
            self._drained.set()


class Renewer(threading.Thread):
    """Renews this process's leases every second from a thread of its own, with
    its own event loop and database connection: a main loop kept busy for
    seconds never lets its leases run out and its tables move under its
    players' feet. A process that dies takes the thread with it, so its leases
    run out all the same; and a main loop silent for ``MAIN_LOOP_SILENCE_S``
    (hung) is not renewed for either. It sleeps on the app's clock, as the
    main loop does (a test moves a ``ManualClock`` for both)."""

    MAIN_LOOP_SILENCE_S = 30.0

    def __init__(self, node: Node, db: Database) -> None:
        super().__init__(name="damepique-leases", daemon=True)
        self.node = node
        self.db = db
        self.main = asyncio.get_running_loop()
        self.beat = node.clock.monotonic()
        """The last sign of life of the main loop (``Node._keep`` writes it)."""
        self.stopping = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(self._renew())

    def stop(self) -> None:
        """Renew no more: its sleep is cut short (a ``ManualClock`` may never wake it)."""
        self.stopping.set()
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):  # its loop closed already
                loop.call_soon_threadsafe(task.cancel)

    async def _renew(self) -> None:
        node = self.node
        self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
        engine = create_engine(self.db.url, pool_size=1, max_overflow=0)
        leases = SqlLeases(self.db, node.pid, node.ttl_ms, renew_engine=engine)
        last = node.clock.monotonic()
        try:
            while not self.stopping.is_set():
                await node.clock.sleep(TICK_S)
                now = node.clock.monotonic()
                if now - self.beat > self.MAIN_LOOP_SILENCE_S:
                    log.error("the main loop is silent for %.0f s: leases left to run out", now - self.beat)
                    continue
                try:
                    lost = await node.renew(leases)
                except Exception:
                    log.exception("renewing leases failed; trying again")
                    continue
                if lost and not self.stopping.is_set():
                    self.main.call_soon_threadsafe(node.spawn, node.lost(lost))
                if now - last > node.ttl_ms / 2000:
                    log.warning("leases renewed %.1f s after the previous time", now - last)
                last = now
        finally:
            await engine.dispose()


class Node:
    """This process: its leases, its mailboxes to the others, its calls."""

    def __init__(
        self, db: Database, broker_url: str | None = None, pid: str | None = None, ttl_ms: int = TTL_MS
    ) -> None:
        self.db = db
        self.clock: Clock = db.clock
        """The app's clock (the database's): ticks, time-outs, leases in memory."""
        self.broker = broker_from_url(broker_url, self.clock)
        self.name = pid or process_id()
        """This process's name, as its operator gave it (``--process-id``) or made up."""
        self.pid = f"{self.name}~{secrets.token_hex(3)}"
        """This run of it: what its leases and messages are held by. A process
        restarted under the same name is another run: the leases its
        predecessor held are not its own, so they run out and are taken over
        (by it or another) with the tables they name, never renewed blind."""
        self.ttl_ms = ttl_ms
        # Alone, leases live in memory, and never run out: no other process can take
        # a table over, so a loop held up for seconds (a busy machine) must not lose
        # its own tables (their pages were told to reconnect). With a broker, every
        # process shares the database's, which run out ``ttl_ms`` after their renewal.
        alone = self.alone = isinstance(self.broker, MemoryBroker)
        """No broker: nobody shares its tables (leases last, nobody takes over or reads its lobby)."""
        self.leases: Leases = (
            MemoryLeases(self.pid, LONE_TTL_MS, db, self.clock) if alone else SqlLeases(db, self.pid, ttl_ms)
        )
        self.owned: set[str] = set()
        """Names of the leases this process holds."""
        self.mailboxes: dict[str, Mailbox] = {}
        self._ops: dict[str, Handler] = {"call": self._answer, "reply": self._reply}
        self._calls: dict[str, tuple[str, asyncio.Future[Any]]] = {}
        self._callees: dict[str, Callable[..., Awaitable[Any]]] = {}
        self._channels: dict[str, Handler] = {}
        self._lost: list[Callable[[str], Awaitable[None]]] = []
        self._ticks: list[Callable[[], Awaitable[None]]] = []
        self._unreachable: list[Callable[[str], None]] = []
        self._reconnected: list[Callable[[], None]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._renewer: Renewer | None = None
        self._started = False

    # -- what the services register --------------------------------------------------------

    def on_op(self, op: str, handler: Handler) -> None:
        """Handle the messages of kind ``op`` addressed to this process."""
        self._ops[op] = handler

    def on_call(self, name: str, handler: Callable[..., Awaitable[Any]]) -> None:
        """Answer ``call(pid, name, **args)`` from another process (its result or its ``Refusal``)."""
        self._callees[name] = handler

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Hear every message published on a shared channel (before ``start``)."""
        self._channels[channel] = handler

    def on_lost(self, handler: Callable[[str], Awaitable[None]]) -> None:
        """A lease this process held went to another: stop running the thing."""
        self._lost.append(handler)

    def every_tick(self, handler: Callable[[], Awaitable[None]]) -> None:
        self._ticks.append(handler)

    def on_unreachable(self, handler: Callable[[str], None]) -> None:
        """Nobody listens at a process any more (it died, or the broker is away)."""
        self._unreachable.append(handler)

    def on_reconnected(self, handler: Callable[[], None]) -> None:
        """The broker came back: what it carried meanwhile is lost."""
        self._reconnected.append(handler)

    # -- start and stop ----------------------------------------------------------------------

    async def start(self) -> None:
        await self.broker.start()
        await self.leases.acquire(f"proc:{self.pid}")
        listen: list[tuple[str, Handler]] = [(_channel(self.pid), self._inbox), *self._channels.items()]
        ready = [asyncio.Event() for _ in listen]
        for (channel, handle), event in zip(listen, ready, strict=True):
            self.spawn(self._listen(channel, handle, event))
        await self.clock.wait_for(asyncio.gather(*(e.wait() for e in ready)), 30)
        if isinstance(self.leases, SqlLeases) and self.db.dialect != "sqlite":
            self._renewer = Renewer(self, self.db)
            self._renewer.start()
        elif not self.alone:
            # One machine: renew here (SQLite's one writer); alone, leases last: no renewal.
            self.spawn(self._keep_leases())
        self._started = True
        await self._tick()
        self.spawn(self._keep())

    async def stop(self) -> None:
        """Hand every lease back (another process takes over at once)."""
        # Let the mailboxes take the last words out (a moment at most).
        with contextlib.suppress(TimeoutError):
            async with self.clock.timeout(1.0):
                for box in list(self.mailboxes.values()):
                    await box.drained()
        if self._renewer is not None:
            self._renewer.stop()
            await asyncio.to_thread(self._renewer.join, 5)
        tasks, self._tasks = list(self._tasks), set()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._started:
            with contextlib.suppress(Exception):
                await self.leases.release_all()
        with contextlib.suppress(Exception):
            await self.broker.stop()

    # -- leases ---------------------------------------------------------------------------

    async def claim(self, name: str) -> bool:
        """Hold this lease (taking it when free); False when another process holds it."""
        if name in self.owned:
            return True
        if await self.leases.acquire(name):
            self.owned.add(name)
            return True
        return False

    async def owner_for(self, name: str, runnable: Callable[[], Awaitable[bool]]) -> str:
        """The process that runs ``name``, taking it here when nobody does and
        ``runnable()`` says it exists to be run."""
        if name in self.owned:
            return self.pid
        holder = await self.leases.holder(name)
        if holder is not None and holder != self.pid and await self.gone(holder):
            holder = await self._outlast(name, holder)
        if holder is not None and holder != self.pid:
            return holder
        if not await runnable() or await self.claim(name):
            return self.pid  # (nothing to run: the session here says so)
        return await self.leases.holder(name) or self.pid

    async def gone(self, pid: str) -> bool:
        """Nobody listens at ``pid`` any more: that process died (the broker
        dropped its subscriptions as it went). False when the broker cannot say."""
        try:
            heard = await self.clock.wait_for(self.broker.listeners(_channel(pid)), SEND_TIMEOUT_S)
        except (TimeoutError, OSError):
            return False
        return heard == 0

    async def _outlast(self, name: str, dead: str) -> str | None:
        """``dead`` died holding ``name``: wait for its lease to run out (its
        time to live at most, on the app's clock) and return who holds it then
        (None: nobody, to be taken here). A page's hello waits this out instead
        of being sent away to come back at its next back-off slot, seconds after
        the table could have been run here."""
        deadline = self.clock.monotonic() + self.ttl_ms / 1000 + TICK_S
        holder: str | None = dead
        while holder is not None and holder != self.pid and self.clock.monotonic() < deadline:
            await self.clock.sleep(OUTLAST_S)
            holder = await self.leases.holder(name)
        return holder

    def released(self, name: str) -> None:
        """The thing left this process's memory: hand its lease back."""
        if name in self.owned:
            self.owned.discard(name)
            self.spawn(self.leases.release(name))

    async def renew(self, leases: Leases) -> set[str]:
        """Renew every lease of this process (and its own ``proc:`` one); returns
        those that were ours when the renewal began and are not any more."""
        before = self.owned.copy()  # one C call: atomic under the GIL (``Renewer``'s thread)
        held = await leases.renew_all()
        if f"proc:{self.pid}" not in held:
            await leases.acquire(f"proc:{self.pid}")
        return before - held

    async def lost(self, names: set[str]) -> None:
        """These leases were ours when a renewal began and are not any more:
        another process runs them now (this one was too slow to renew). Stop
        writing at once. (A lease claimed meanwhile was never in ``names``.)"""
        for name in sorted(names):
            if name not in self.owned:
                continue  # handed back meanwhile
            log.warning("lost the lease of %s", name)
            self.owned.discard(name)
            for handler in self._lost:
                await handler(name)

    async def alive(self, pids: list[str]) -> set[str]:
        """Which of these processes hold their own lease (are running)."""
        held = await self.leases.holders([f"proc:{p}" for p in pids])
        return {name.removeprefix("proc:") for name in held}

    # -- messages between processes ----------------------------------------------------------

    def send(self, pid: str, message: Json, text: str = "") -> None:
        """To one process, after everything sent there before (see ``Mailbox``)."""
        box = self.mailboxes.get(pid)
        if box is None:
            box = self.mailboxes[pid] = Mailbox(self, pid)
        box.post(message, text)

    async def publish(self, channel: str, message: Json) -> None:
        """To every process listening on a shared channel (this one too)."""
        with contextlib.suppress(Exception):
            await self.clock.wait_for(self.broker.publish(channel, json.dumps(message)), SEND_TIMEOUT_S)

    def unreachable(self, pid: str) -> None:
        """Nobody listens at ``pid``: calls to it fail, and the services hear of it."""
        self.mailboxes.pop(pid, None)
        for to, future in list(self._calls.values()):
            if to == pid and not future.done():
                future.set_exception(Refusal("unavailable", "the server running this table is restarting"))
        for handler in self._unreachable:
            handler(pid)

    async def _listen(self, channel: str, handle: Handler, ready: asyncio.Event) -> None:
        async with self.broker.subscribe(channel, on_reconnect=self._broker_back) as messages:
            ready.set()
            async for raw in messages:
                try:
                    head, _, text = raw.partition("\n")
                    message = json.loads(head)
                    if message.get("op") != "batch":
                        await handle(message)
                        continue
                    at = 0
                    for item, n in zip(message["items"], message["lens"], strict=True):
                        if n:
                            item["text"] = text[at : at + n]
                            at += n
                        await handle(item)
                except Exception:
                    log.exception("bad message on %s", channel)

    def _broker_back(self) -> None:
        log.warning("broker connection restored; what it carried meanwhile is lost")
        for handler in self._reconnected:
            handler()

    async def _inbox(self, m: Json) -> None:
        handler = self._ops.get(str(m.get("op")))
        if handler is not None:
            await handler(m)

    async def call(self, pid: str, name: str, /, **args: Any) -> Any:
        """Run ``name`` at another process and return its result; its ``Refusal`` is raised here."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (pid, future)
        try:
            self.send(pid, {"op": "call", "from": self.pid, "id": call_id, "name": name, "args": args})
            reply = await self.clock.wait_for(future, CALL_TIMEOUT_S)
        except TimeoutError:
            raise Refusal("unavailable", "the server running this table did not answer; try again") from None
        finally:
            self._calls.pop(call_id, None)
        if "error" in reply:
            raise Refusal(reply["error"]["code"], reply["error"]["reason"])
        return reply["result"]

    async def _answer(self, m: Json) -> None:
        self.spawn(self._answer_call(m))

    async def _answer_call(self, m: Json) -> None:
        reply: Json = {"op": "reply", "id": m["id"]}
        try:
            callee = self._callees.get(m["name"])
            if callee is None:
                raise Refusal("bad_call", f"unknown call {str(m['name'])[:40]!r}")
            reply["result"] = await callee(**m["args"])
        except Refusal as e:
            reply["error"] = {"code": e.code, "reason": e.reason}
        except Exception as e:  # the caller gets an answer, not a time-out
            log.exception("call %s failed", m.get("name"))
            reply["error"] = {"code": "server_error", "reason": type(e).__name__}
        self.send(m["from"], reply)

    async def _reply(self, m: Json) -> None:
        pending = self._calls.pop(m["id"], None)
        if pending is not None and not pending[1].done():
            pending[1].set_result(m)

    # -- every second ---------------------------------------------------------------------------

    async def _keep_leases(self) -> None:
        while True:
            await self.clock.sleep(TICK_S)
            try:
                await self.lost(await self.renew(self.leases))
            except Exception:
                log.exception("renewing leases failed; trying again")

    async def _keep(self) -> None:
        while True:
            await self.clock.sleep(TICK_S)
            if self._renewer is not None:
                self._renewer.beat = self.clock.monotonic()
            await self._tick()

    async def _tick(self) -> None:
        for handler in self._ticks:
            try:
                await handler()
            except Exception:
                log.exception("cluster upkeep failed; trying again")

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        async def guarded() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("cluster task failed: %r", e)

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


__all__ = ["TICK_S", "TTL_MS", "Node", "process_id"]
