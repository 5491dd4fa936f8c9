"""Several server processes sharing the tables: ownership, relaying, takeover.

Every multiplayer table is run by one process at a time, its *owner*: the
process that holds the table's lease (``leases.SqlLeases``, rows of the shared
database, renewed every second). A connection may arrive at any process (the
load balancer spreads them). When the table it says hello to is run
elsewhere, this process *relays* the connection: its frames go to the owner
over the broker, the owner runs the connection's ``TableSession`` as if it
held the socket, and what the session sends comes back the same way.

When a process dies its leases run out (``ttl``); every process looks for
tables that nobody runs each second and takes them over from the stored
events, timers included. Connections relayed to a dead owner, or relayed
while the broker was away (messages published meanwhile are lost), are
closed with code 1012 and the pages reconnect: the fresh ``hello`` gets the
whole state again. A process that stops cleanly hands its leases back at once.

With the ``memory://`` broker (the default) there is one process and none of
this runs: every table is local.

Solo games are leased too (``game:<id>``): a page joining one through another
process asks the process that runs it to let go (``hold_game``).

Channels: ``damepique:proc:<id>`` carries what is addressed to one process,
``damepique:lobby`` each process's list of public tables,
``damepique:sheets`` the score sheets' changes for their live readers.
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
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .broker import Broker, MemoryBroker, broker_from_url
from .codes import normalize_code
from .database import create_engine
from .leases import SqlLeases
from .multiplayer import Client
from .protocol import MAX_MESSAGE, dumps, error
from .table import CommandError
from .table_session import MOVED, TableSession

if TYPE_CHECKING:
    from .lobby import Multiplayer

log = logging.getLogger("damepique.server")

TTL_MS = 5000
"""A lease runs out this long after its last renewal (the takeover delay after a crash):
long enough for a busy process to renew in time, short enough for a quick takeover."""
TICK_S = 1.0
"""How often leases are renewed, relays checked and orphan tables looked for."""
SEND_TIMEOUT_S = 5.0
CALL_TIMEOUT_S = 10.0
LOBBY_EVERY_S = 5.0
LOBBY_STALE_S = 3 * LOBBY_EVERY_S


def process_id() -> str:
    """``$DAMEPIQUE_PROCESS_ID`` or host-pid-random (unique per start)."""
    return os.environ.get("DAMEPIQUE_PROCESS_ID") or (
        f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"
    )


def _channel(pid: str) -> str:
    return f"damepique:proc:{pid}"


GAME = "game:"
"""Leases of solo games are named ``game:<id>`` (a table's is its code)."""
LOBBY_CHANNEL = "damepique:lobby"
SHEETS_CHANNEL = "damepique:sheets"


async def _nothing(_: str) -> None:
    return None


def hello_of(text: str) -> dict[str, Any] | None:
    """The message when this frame is a ``hello``, else None."""
    if '"hello"' not in text:
        return None
    try:
        msg = json.loads(text)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        return None
    return msg


class RemoteClient(Client):
    """A connection held by another process (the *front*), as the owner's session sees it."""

    def __init__(self, cluster: Cluster, front: str, conn: str, account: str | None) -> None:
        super().__init__(ws=None, account=account)
        self.cluster = cluster
        self.front = front
        self.conn = conn

    async def send_text(self, data: str) -> None:
        self.cluster.send(self.front, {"op": "out", "conn": self.conn}, data)

    async def end(self, code: int, reason: str) -> None:
        self.cluster.send(self.front, {"op": "end", "conn": self.conn, "code": code, "reason": reason})


class Relayed:
    """A relayed connection at the table's owner: its session, fed frame by frame."""

    def __init__(self, cluster: Cluster, client: RemoteClient) -> None:
        self.client = client
        # The front counted the rate and holds the address's count of unknown codes;
        # frames may come here in bursts (batches).
        self.session = TableSession(cluster.mp, client, rate_limit=False, count_codes=False)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                try:
                    await self.session.on_text(text)
                except Exception:
                    log.exception("relayed connection %s failed", self.client.conn)
        finally:
            self.session.close()


class Link:
    """A table WebSocket this process holds: its session runs here, or at the
    table's owner when that is another process (then this process relays)."""

    def __init__(self, cluster: Cluster, client: Client) -> None:
        self.cluster = cluster
        self.client = client
        self.id = secrets.token_hex(8)
        self.local: TableSession | None = None
        self.owner: str | None = None
        """The process running this connection's session, while it is not this one."""
        self.code: str | None = None
        self._outbox: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    async def on_text(self, text: str | bytes | None) -> None:
        cluster = self.cluster
        # The rate limit is counted here, before any work (a hello looks up the database).
        if not self.client.allow():
            await self.client.send_text(dumps(error("rate_limited", "too many messages; slow down")))
            return
        if not cluster.single and isinstance(text, str) and len(text) <= MAX_MESSAGE:
            hello = hello_of(text)
            if (
                hello is not None
                and hello.get("token") is None
                and cluster.mp.unknown_codes.wait(self.client.host)
            ):
                # Over the limit of unknown codes: refused here, where the address is
                # counted, before any lookup and whichever process runs the table.
                await TableSession(cluster.mp, self.client, rate_limit=False).on_text(text)
                return
            code = None if hello is None else await cluster.hello_target(hello)
            if code is not None:
                await self._route(await cluster.owner_for(code), code)
        if self.owner is None or not isinstance(text, str) or len(text) > MAX_MESSAGE:
            # Here, or refused here without a trip to the owner.
            if self.local is None:
                self.local = TableSession(cluster.mp, self.client, rate_limit=False)
            await self.local.on_text(text)
            return
        cluster.send(self.owner, {"op": "frame", "from": cluster.pid, "conn": self.id}, text)

    async def _route(self, owner: str, code: str) -> None:
        cluster = self.cluster
        self.code = code
        if owner == cluster.pid:
            if self.owner is not None:
                await self._unrelay()
            return
        if self.local is not None:
            self.local.close()
            self.local = None
        if self.owner == owner:
            return
        if self.owner is not None:
            await self._unrelay()
        self.owner = owner
        cluster.links[self.id] = self
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        opened = {"op": "open", "from": cluster.pid, "conn": self.id, "account": self.client.account}
        cluster.send(owner, opened)

    async def _unrelay(self) -> None:
        owner, self.owner = self.owner, None
        self.cluster.links.pop(self.id, None)
        if owner is not None:
            self.cluster.send(owner, {"op": "close", "from": self.cluster.pid, "conn": self.id})

    def deliver(self, text: str, close: int = 0) -> None:
        """A message from the owner (or, with ``close``, the end of the connection)."""
        self._outbox.put_nowait((text, close))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while (item := await self._outbox.get()) is not None:
            text, close = item
            if close:
                self.cluster.links.pop(self.id, None)
                self.owner = None
                await self.client.end(close, text)
                continue
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.send_text(text), 10.0)

    async def close(self) -> None:
        """The socket closed."""
        if self.local is not None:
            self.local.close()
            self.local = None
        if self.owner is not None:
            await self._unrelay()
        if self._writer is not None:
            self._outbox.put_nowait(None)


class Mailbox:
    """What this process sends to one other process, in order. Messages that pile
    up while a publish is on its way leave together in the next one (under load
    most do), as one ``batch``: the headers in JSON, a newline, then the texts
    end to end (``lens`` says where each one ends), never escaped or parsed."""

    MAX_WAITING = 20_000
    MAX_BATCH = 500

    def __init__(self, cluster: Cluster, pid: str) -> None:
        self.cluster = cluster
        self.pid = pid
        self.waiting: list[tuple[dict[str, Any], str]] = []
        self._wake = asyncio.Event()
        cluster._spawn(self._run())

    def post(self, message: dict[str, Any], text: str) -> None:
        if len(self.waiting) >= self.MAX_WAITING:
            # Not taken for a long while (the broker is away): those connections
            # are started again when it is back, so the oldest can go.
            del self.waiting[: self.MAX_BATCH]
        self.waiting.append((message, text))
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
                    heard = await asyncio.wait_for(
                        self.cluster.broker.publish(channel, payload), SEND_TIMEOUT_S
                    )
                except (TimeoutError, OSError):
                    heard = 0
                if not heard:
                    self.waiting.clear()
                    self.cluster.unreachable(self.pid)
                    return


class Renewer(threading.Thread):
    """Renews this process's leases every second from a thread of its own, with
    its own event loop and database connection: a main loop kept busy for
    seconds (a burst of connections, a long collection) never lets its leases
    run out and its tables move under its players' feet. A process that dies
    takes the thread with it, so its leases run out all the same; and a main
    loop silent for ``MAIN_LOOP_SILENCE_S`` (hung) is not renewed for either."""

    MAIN_LOOP_SILENCE_S = 30.0

    def __init__(self, cluster: Cluster, url: str) -> None:
        super().__init__(name="damepique-leases", daemon=True)
        self.cluster = cluster
        self.url = url
        self.main = asyncio.get_running_loop()
        self.beat = time.monotonic()
        """The last sign of life of the main loop (``Cluster._keep`` writes it)."""
        self.stopping = threading.Event()

    def run(self) -> None:
        asyncio.run(self._renew())

    async def _renew(self) -> None:
        cluster = self.cluster
        engine = create_engine(self.url, pool_size=1, max_overflow=0)
        leases = SqlLeases(engine, cluster.pid, cluster.ttl_ms)
        last = time.monotonic()
        try:
            while not self.stopping.is_set():
                await asyncio.sleep(TICK_S)
                now = time.monotonic()
                if now - self.beat > self.MAIN_LOOP_SILENCE_S:
                    log.error("the main loop is silent for %.0f s: leases left to run out", now - self.beat)
                    continue
                try:
                    lost = await cluster.renew(leases)
                except Exception:
                    log.exception("renewing leases failed; trying again")
                    continue
                if lost and not self.stopping.is_set():
                    self.main.call_soon_threadsafe(cluster._spawn, cluster.lost(lost))
                if now - last > cluster.ttl_ms / 2000:
                    log.warning("leases renewed %.1f s after the previous time", now - last)
                last = now
        finally:
            await engine.dispose()


class Cluster:
    """This process among the others: leases, relays, takeovers, the shared lobby."""

    def __init__(self, broker_url: str | None = None, pid: str | None = None, ttl_ms: int = TTL_MS) -> None:
        self.broker: Broker = broker_from_url(broker_url)
        self.single = isinstance(self.broker, MemoryBroker)
        self.pid = pid or process_id()
        self.ttl_ms = ttl_ms
        self.mp: Multiplayer = None  # type: ignore[assignment]  # set by Multiplayer
        self.leases: SqlLeases | None = None
        self.owned: set[str] = set()
        """Codes of the tables whose lease this process holds."""
        self.links: dict[str, Link] = {}
        """Connections held here and relayed to another process, by id."""
        self.relayed: dict[tuple[str, str], Relayed] = {}
        """Connections held by other processes whose sessions run here."""
        self.remote_lobby: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        self.on_let_go: Callable[[str], Awaitable[None]] = _nothing
        """Stop running this solo game here (set by the app)."""
        self.sheet_watchers: Any = None
        """The score keeper's live readers here (``scorer_api.Watchers``): a change
        made at any process reaches them."""
        self._calls: dict[str, tuple[str, asyncio.Future[Any]]] = {}
        self.mailboxes: dict[str, Mailbox] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._lobby_sent = 0.0
        self._renewer: Renewer | None = None

    # -- start and stop ---------------------------------------------------------------------

    async def start(self, mp: Multiplayer, engine: Any, lock: asyncio.Lock | None) -> None:
        self.mp = mp
        if self.single:
            return
        self.leases = SqlLeases(engine, self.pid, self.ttl_ms, lock)
        await self.broker.start()
        await self.leases.acquire(f"proc:{self.pid}")
        listen = [(_channel(self.pid), self._inbox), (LOBBY_CHANNEL, self._lobby_news)]
        if self.sheet_watchers is not None:
            listen.append((SHEETS_CHANNEL, self._sheet_news))
            self.sheet_watchers.forward = self._forward_sheet
        ready = [asyncio.Event() for _ in listen]
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(channel, handle, event))
            for (channel, handle), event in zip(listen, ready, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), 30)
        await self._sweep()
        if engine.dialect.name == "sqlite":
            # One machine, one file, a write lock of this loop's: renew here.
            self._tasks.append(asyncio.get_running_loop().create_task(self._keep_leases()))
        else:
            self._renewer = Renewer(self, engine.url.render_as_string(hide_password=False))
            self._renewer.start()
        self._tasks.append(asyncio.get_running_loop().create_task(self._keep()))

    async def stop(self) -> None:
        """Stop relaying and hand every lease back (another process takes over at once)."""
        if self.single:
            return
        for link in list(self.links.values()):
            link.deliver("this server is stopping; reconnect", MOVED)
        for relayed in list(self.relayed.values()):
            with contextlib.suppress(Exception):
                await relayed.client.end(MOVED, "this server is stopping; reconnect")
            relayed.queue.put_nowait(None)
        self.relayed.clear()
        # Let the mailboxes take those last words out (a moment at most).
        deadline = time.monotonic() + 1.0
        while any(box.waiting for box in self.mailboxes.values()) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if self._renewer is not None:
            self._renewer.stopping.set()
            await asyncio.to_thread(self._renewer.join, 5)
        tasks, self._tasks = list(self._tasks), []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.leases is not None:
            with contextlib.suppress(Exception):
                await self.leases.release_all()
        with contextlib.suppress(Exception):
            await self.broker.stop()

    # -- ownership --------------------------------------------------------------------------

    async def claim(self, code: str) -> bool:
        """Hold this table's lease (taking it when free); False when another process runs it."""
        if self.single or code in self.owned:
            return True
        assert self.leases is not None
        if await self.leases.acquire(code):
            self.owned.add(code)
            return True
        return False

    async def owner_for(self, code: str) -> str:
        """The process that runs this table, taking it here when nobody does."""
        if self.single or code in self.owned:
            return self.pid
        assert self.leases is not None
        holder = await self.leases.holder(code)
        if holder is not None and holder != self.pid:
            return holder
        data = await self.mp.store.load_table(code)
        if data is None or data.get("status") == "closed":
            return self.pid  # the session here answers that there is no such table
        if await self.claim(code):
            return self.pid
        return await self.leases.holder(code) or self.pid

    async def hold_game(self, game_id: str) -> None:
        """Run this solo game here: a game is run by one process at a time, so the
        process that has it is asked to let go (its page reconnects, and lands
        wherever the load balancer sends it)."""
        if self.single:
            return
        assert self.leases is not None
        name = GAME + game_id
        deadline = time.monotonic() + CALL_TIMEOUT_S
        while not await self.claim(name):
            holder = await self.leases.holder(name)
            if holder is not None and holder != self.pid:
                with contextlib.suppress(CommandError):
                    await self.call(holder, "release_game", game=game_id)
            if time.monotonic() > deadline:
                raise CommandError("unavailable", "this game is busy on another server; try again")
            await asyncio.sleep(0.05)

    async def let_go(self, name: str) -> None:
        """Stop running a solo game here and hand its lease back now."""
        await self.on_let_go(name.removeprefix(GAME))
        self.owned.discard(name)
        if self.leases is not None:
            await self.leases.release(name)

    def released(self, code: str) -> None:
        """The table left this process's memory: hand its lease back."""
        if self.single or code not in self.owned:
            return
        self.owned.discard(code)
        assert self.leases is not None
        self._spawn(self.leases.release(code))

    async def hello_target(self, msg: dict[str, Any]) -> str | None:
        """The table code a ``hello`` message is for (from its token or its code)."""
        token = msg.get("token")
        if token is not None:
            if not isinstance(token, str) or not 8 <= len(token) <= 128:
                return None
            found = await self.mp.store.find_token(token)
            return None if found is None else found[0]
        raw = msg.get("table")
        return normalize_code(raw) if isinstance(raw, str) and len(raw) < 40 else None

    # -- messages between processes ------------------------------------------------------------

    def send(self, pid: str, message: dict[str, Any], text: str = "") -> None:
        """To one process, after everything sent there before (see ``Mailbox``)."""
        box = self.mailboxes.get(pid)
        if box is None:
            box = self.mailboxes[pid] = Mailbox(self, pid)
        box.post(message, text)

    def unreachable(self, pid: str) -> None:
        """Nobody listens at ``pid`` (it died, or the broker is away): connections
        relayed to it start again (their pages reconnect and, once its leases have
        run out, find their tables where they were taken over), calls to it fail,
        and sessions run here for its connections end."""
        self.mailboxes.pop(pid, None)
        for link in list(self.links.values()):
            if link.owner == pid:
                link.owner = None
                self.links.pop(link.id, None)
                link.deliver("the server running this table stopped; reconnect", MOVED)
        for to, future in list(self._calls.values()):
            if to == pid and not future.done():
                future.set_exception(
                    CommandError("unavailable", "the server running this table is restarting")
                )
        for key, relayed in list(self.relayed.items()):
            if key[0] == pid:
                self.relayed.pop(key, None)
                relayed.queue.put_nowait(None)

    async def _listen(self, channel: str, handle: Any, ready: asyncio.Event) -> None:
        async with self.broker.subscribe(channel, on_reconnect=self._reconnected) as messages:
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

    def _reconnected(self) -> None:
        """The broker came back: what it carried meanwhile is lost, so every relayed
        connection starts again (its page reconnects and gets the whole state)."""
        log.warning("broker connection restored; reconnecting relayed pages")
        for link in list(self.links.values()):
            link.deliver("the connection between servers was lost; reconnect", MOVED)
        for key, relayed in list(self.relayed.items()):
            relayed.queue.put_nowait(None)
            self.relayed.pop(key, None)
        self._lobby_sent = 0.0

    async def _inbox(self, m: dict[str, Any]) -> None:
        op = m.get("op")
        if op == "out" or op == "end":
            link = self.links.get(m["conn"])
            if link is not None:
                link.deliver(
                    m.get("text") or m.get("reason", ""), int(m.get("code", 0)) if op == "end" else 0
                )
        elif op == "open":
            key = (m["from"], m["conn"])
            old = self.relayed.pop(key, None)
            if old is not None:
                old.queue.put_nowait(None)
            self.relayed[key] = Relayed(self, RemoteClient(self, m["from"], m["conn"], m.get("account")))
        elif op == "frame":
            relayed = self.relayed.get((m["from"], m["conn"]))
            if relayed is None:  # this process restarted, or dropped it: start again
                self.send(m["from"], {"op": "end", "conn": m["conn"], "code": MOVED, "reason": "reconnect"})
            else:
                relayed.queue.put_nowait(m["text"])
        elif op == "close":
            relayed = self.relayed.pop((m["from"], m["conn"]), None)
            if relayed is not None:
                relayed.queue.put_nowait(None)
        elif op == "call":
            self._spawn(self._answer(m))
        elif op == "reply":
            pending = self._calls.pop(m["id"], None)
            if pending is not None and not pending[1].done():
                pending[1].set_result(m)

    async def call(self, pid: str, op: str, **args: Any) -> Any:
        """Run ``op`` at another process and return its result; its
        ``CommandError`` is raised here."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (pid, future)
        try:
            self.send(pid, {"op": "call", "from": self.pid, "id": call_id, "name": op, "args": args})
            reply = await asyncio.wait_for(future, CALL_TIMEOUT_S)
        except TimeoutError:
            raise CommandError(
                "unavailable", "the server running this table did not answer; try again"
            ) from None
        finally:
            self._calls.pop(call_id, None)
        if "error" in reply:
            raise CommandError(reply["error"]["code"], reply["error"]["reason"])
        return reply["result"]

    async def _answer(self, m: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "reply", "id": m["id"]}
        try:
            a = m["args"]
            if m["name"] == "release_game":
                await self.let_go(GAME + a["game"])
                reply["result"] = True
                self.send(m["from"], reply)
                return
            if m["name"] != "sit":
                raise CommandError("bad_call", f"unknown call {m['name']!r}")
            mt = await self.mp.get(a["code"])
            if mt is None:
                raise CommandError("no_table", "no table with this code")
            token, seat = await mt.sit(a["name"], a["account"], a["nickname"], None)
            reply["result"] = {"token": token, "seat": seat}
        except CommandError as e:
            reply["error"] = {"code": e.code, "reason": e.reason}
        except Exception as e:  # the caller gets an answer, not a time-out
            log.exception("call %s failed", m.get("name"))
            reply["error"] = {"code": "server_error", "reason": type(e).__name__}
        self.send(m["from"], reply)

    # -- the shared lobby ---------------------------------------------------------------------------

    def lobby_changed(self) -> None:
        if not self.single:
            self._spawn(self._publish_lobby())

    async def _publish_lobby(self) -> None:
        self._lobby_sent = time.monotonic()
        message = {"from": self.pid, "tables": self.mp.local_lobby()}
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.broker.publish(LOBBY_CHANNEL, json.dumps(message)), SEND_TIMEOUT_S)

    async def _lobby_news(self, m: dict[str, Any]) -> None:
        if m.get("from") == self.pid:
            return
        self.remote_lobby[m["from"]] = (time.monotonic(), list(m.get("tables") or []))
        self.mp.push_lobby()

    def lobby_entries(self) -> list[dict[str, Any]]:
        """Public tables run by the other processes (their latest word, if recent)."""
        now = time.monotonic()
        rows: list[dict[str, Any]] = []
        for pid, (at, tables) in list(self.remote_lobby.items()):
            if now - at > LOBBY_STALE_S:
                del self.remote_lobby[pid]
            else:
                rows.extend(t for t in tables if t["code"] not in self.owned)
        return rows

    # -- the score keeper's live readers ---------------------------------------------------------------

    def _forward_sheet(self, read_id: str, text: str) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # not on a loop: nothing to forward from
            return
        message = json.dumps({"from": self.pid, "read": read_id, "text": text})
        self._spawn(asyncio.wait_for(self.broker.publish(SHEETS_CHANNEL, message), SEND_TIMEOUT_S))

    async def _sheet_news(self, m: dict[str, Any]) -> None:
        if m.get("from") != self.pid:
            self.sheet_watchers.publish(m["read"], m["text"], forward=False)

    # -- every second: leases, relays, orphans ---------------------------------------------------------

    async def _keep_leases(self) -> None:
        """Renew every second, on its own task (SQLite: see ``Renewer`` otherwise)."""
        assert self.leases is not None
        while True:
            await asyncio.sleep(TICK_S)
            try:
                await self.lost(await self.renew(self.leases))
            except Exception:
                log.exception("renewing leases failed; trying again")

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            if self._renewer is not None:
                self._renewer.beat = time.monotonic()
            try:
                await self._check_links()
                await self._sweep()
                if time.monotonic() - self._lobby_sent > LOBBY_EVERY_S:
                    await self._publish_lobby()
            except Exception:
                log.exception("cluster upkeep failed; trying again")

    async def renew(self, leases: SqlLeases) -> set[str]:
        """Renew every lease of this process (and its own ``proc:`` one); returns
        those that were ours when the renewal began and are not any more."""
        before = self.owned.copy()  # one C call: atomic under the GIL (``Renewer``'s thread)
        held = await leases.renew_all()
        if f"proc:{self.pid}" not in held:
            await leases.acquire(f"proc:{self.pid}")
        return before - held

    async def lost(self, codes: set[str]) -> None:
        """These leases were ours when a renewal began and are not any more:
        another process runs them now (this one was too slow to renew). Stop
        writing at once. (A lease claimed meanwhile was never in ``codes``.)"""
        for code in sorted(codes):
            if code not in self.owned:
                continue  # handed back meanwhile
            log.warning("lost the lease of %s", code)
            self.owned.discard(code)
            if code.startswith(GAME):
                await self.on_let_go(code.removeprefix(GAME))
            else:
                await self.mp.drop(code)

    async def _check_links(self) -> None:
        """Relayed connections whose owner changed, and sessions for processes that died."""
        assert self.leases is not None
        codes = sorted({link.code for link in self.links.values() if link.code is not None})
        holders = await self.leases.holders(codes)
        for link in list(self.links.values()):
            if link.code is not None and holders.get(link.code) != link.owner:
                await link._unrelay()
                link.deliver("this table moved to another server; reconnect", MOVED)
        fronts = sorted({front for front, _ in self.relayed})
        alive = await self.leases.holders([f"proc:{f}" for f in fronts])
        for key, relayed in list(self.relayed.items()):
            if f"proc:{key[0]}" not in alive:
                self.relayed.pop(key, None)
                relayed.queue.put_nowait(None)

    async def _sweep(self) -> None:
        """Take over the tables nobody runs (their process died or stopped)."""
        assert self.leases is not None
        for code in await self.mp.store.orphan_codes():
            if await self.claim(code):
                log.info("taking over table %s", code)
                try:
                    await self.mp.get(code)
                except Exception:
                    log.exception("could not take over table %s", code)

    def _forget_task(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)

    def _spawn(self, coro: Any) -> None:
        async def guarded() -> None:
            try:
                await coro
            except Exception as e:
                log.warning("cluster task failed: %r", e)

        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.append(task)
        task.add_done_callback(self._forget_task)


__all__ = ["Cluster", "Link", "RemoteClient", "process_id"]
