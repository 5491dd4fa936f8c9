"""Connections relayed to the process that runs what they watch.

A connection may arrive at any process (the load balancer spreads them).
Its first message names what it is for (a ``hello``); when that is run by
another process, this one *relays* the connection: its frames go to the
owner over the broker, the owner runs the connection's session as if it held
the socket, and what the session sends comes back the same way. When the
owner dies, or the broker loses messages, relayed connections are closed
with ``MOVED`` (1012) and their pages reconnect: the fresh hello gets the
whole state again.

The relay knows nothing of what a session does: the service gives it
``route`` (which lease a hello is for, or None) and ``open`` (a session for a
connection, relayed or not). A process alone takes the same path: every
owner is itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from typing import Protocol

from starlette.websockets import WebSocketDisconnect

from ..asgi import Connection, RawWebSocket
from ..clock import Cancellable
from ..errors import Refusal
from ..protocol import MAX_MESSAGE, Json, dumps, error
from ..settings import SEND_QUEUE
from .node import Node

log = logging.getLogger("damepique.server")

MOVED = 1012
"""WebSocket close code when what a connection watches moved to another process: reconnect."""
HELLO_S = float(os.environ.get("DAMEPIQUE_HELLO_TIMEOUT", "10"))
"""Seconds a new socket has to say hello; one that does not is closed (it holds a descriptor)."""
SILENT = 1008


class Session(Protocol):
    """One connection's messages, handled one at a time."""

    async def on_text(self, text: str | bytes | None) -> None: ...
    def close(self) -> None: ...


Route = Callable[[Json, Connection], Awaitable[str | None]]
Open = Callable[[Connection, bool], Session]


def hello_of(text: str) -> Json | None:
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


class RemoteConnection(Connection):
    """A connection held by another process (the *front*), as the owner's session sees it."""

    def __init__(self, node: Node, front: str, conn_id: str, account: str | None) -> None:
        super().__init__(None, account=account, clock=node.clock)
        self.node = node
        self.front = front
        self.conn_id = conn_id

    def post(self, text: str) -> None:
        if not self.closed:
            self.node.send(self.front, {"op": "out", "conn": self.conn_id}, text)

    async def end(self, code: int, reason: str) -> None:
        self.closed = True
        self.node.send(self.front, {"op": "end", "conn": self.conn_id, "code": code, "reason": reason})


class Relayed:
    """A relayed connection at the owner: its session, fed frame by frame."""

    def __init__(self, session: Session, conn: RemoteConnection) -> None:
        self.conn = conn
        self.session = session
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                try:
                    await self.session.on_text(text)
                except Exception:
                    log.exception("relayed connection %s failed", self.conn.conn_id)
        finally:
            self.session.close()


class Link:
    """A socket this process holds: its session runs here, or at the owner of
    what it watches when that is another process (then this one relays)."""

    def __init__(self, relay: Relay, conn: Connection) -> None:
        self.relay = relay
        self.conn = conn
        self.id = secrets.token_hex(8)
        self.local: Session | None = None
        self.owner: str | None = None
        """The process running this connection's session, while it is not this one."""
        self.name: str | None = None
        self.said_hello = False
        self.silent: Cancellable | None = None
        """The hello time limit (``HELLO_S``), called off as soon as a hello arrives."""

    async def on_text(self, text: str | bytes | None) -> None:
        relay = self.relay
        # The rate is counted here, where the socket is, before any work (a hello looks things up).
        if not self.conn.allow():
            self.conn.post(dumps(error(Refusal("rate_limited", "too many messages; slow down"))))
            return
        if isinstance(text, str) and len(text) <= MAX_MESSAGE:
            hello = hello_of(text)
            if hello is not None:
                self.said_hello = True
                if self.silent is not None:
                    # Now, not once the hello is answered: in a reconnect storm an
                    # answer may wait its turn past the limit, and the connection
                    # closed then would come back to wait again.
                    self.silent.cancel()
                name = await relay.route(hello, self.conn)
                if name is not None:
                    await self._route(await relay.owner_for(name), name)
        if self.owner is None or not isinstance(text, str) or len(text) > MAX_MESSAGE:
            # Here, or refused here without a trip to the owner.
            if self.local is None:
                self.local = relay.open(self.conn, False)
            await self.local.on_text(text)
            return
        relay.node.send(self.owner, {"op": "frame", "from": relay.node.pid, "conn": self.id}, text)

    async def _route(self, owner: str, name: str) -> None:
        node = self.relay.node
        self.name = name
        if owner == node.pid:
            if self.owner is not None:
                self._unrelay()
            return
        if self.local is not None:
            self.local.close()
            self.local = None
        if self.owner == owner:
            return
        if self.owner is not None:
            self._unrelay()
        self.owner = owner
        self.relay.links[self.id] = self
        node.send(owner, {"op": "open", "from": node.pid, "conn": self.id, "account": self.conn.account})

    def _unrelay(self) -> None:
        owner, self.owner = self.owner, None
        self.relay.links.pop(self.id, None)
        if owner is not None:
            self.relay.node.send(owner, {"op": "close", "from": self.relay.node.pid, "conn": self.id})

    def moved(self, why: str) -> None:
        """The owner is gone or changed: the page reconnects."""
        self._unrelay()
        self.relay.node.spawn(self.conn.end(MOVED, why))

    def close(self) -> None:
        """The socket closed."""
        if self.local is not None:
            self.local.close()
            self.local = None
        if self.owner is not None:
            self._unrelay()


class Relay:
    def __init__(
        self,
        node: Node,
        route: Route,
        open_session: Open,
        runnable: Callable[[str], Awaitable[bool]],
        send_queue: int = SEND_QUEUE,
    ) -> None:
        self.node = node
        self.send_queue = send_queue
        """Messages that may wait for a socket held here (``Settings.send_queue``)."""
        self.route = route
        self.open = open_session
        self._runnable = runnable
        self.links: dict[str, Link] = {}
        """Connections held here and relayed to another process, by id."""
        self.relayed: dict[tuple[str, str], Relayed] = {}
        """Connections held by other processes whose sessions run here."""
        for op, handler in (
            ("open", self._open),
            ("frame", self._frame),
            ("close", self._close),
            ("out", self._out),
            ("end", self._out),
        ):
            node.on_op(op, handler)
        node.on_unreachable(self._unreachable)
        node.on_reconnected(self._reset)
        node.every_tick(self._check)

    def link(self, conn: Connection) -> Link:
        return Link(self, conn)

    async def serve(self, ws: RawWebSocket, account: str | None) -> None:
        """One socket, from its first frame to its last: each goes to its link."""
        await ws.accept()
        conn = Connection(ws, account=account, host=ws.host, clock=self.node.clock, max_queue=self.send_queue)
        conn.reader = asyncio.current_task()
        link = Link(self, conn)
        silent = link.silent = self.node.clock.call_later(HELLO_S, conn.close_for, SILENT, "no hello")
        try:
            async for text in ws.frames():
                await link.on_text(text)
        except (WebSocketDisconnect, asyncio.CancelledError):
            pass  # the peer left, or the connection was closed for not reading
        finally:
            silent.cancel()
            link.close()

    async def owner_for(self, name: str) -> str:
        return await self.node.owner_for(name, lambda: self._runnable(name))

    # -- at the owner ------------------------------------------------------------------------

    async def _open(self, m: Json) -> None:
        key = (m["from"], m["conn"])
        old = self.relayed.pop(key, None)
        if old is not None:
            old.queue.put_nowait(None)
        conn = RemoteConnection(self.node, m["from"], m["conn"], m.get("account"))
        self.relayed[key] = Relayed(self.open(conn, True), conn)

    async def _frame(self, m: Json) -> None:
        relayed = self.relayed.get((m["from"], m["conn"]))
        if relayed is None:  # this process restarted, or dropped it: start again
            self.node.send(m["from"], {"op": "end", "conn": m["conn"], "code": MOVED, "reason": "reconnect"})
        else:
            relayed.queue.put_nowait(m["text"])

    async def _close(self, m: Json) -> None:
        relayed = self.relayed.pop((m["from"], m["conn"]), None)
        if relayed is not None:
            relayed.queue.put_nowait(None)

    # -- at the front ---------------------------------------------------------------------------

    async def _out(self, m: Json) -> None:
        link = self.links.get(m["conn"])
        if link is None:
            return
        if m.get("op") == "end":
            self.links.pop(link.id, None)
            link.owner = None
            self.node.spawn(link.conn.end(int(m.get("code", MOVED)), str(m.get("reason", ""))))
        else:
            link.conn.post(m.get("text") or "")

    # -- when processes come and go ---------------------------------------------------------------

    def _unreachable(self, pid: str) -> None:
        for link in list(self.links.values()):
            if link.owner == pid:
                link.owner = None
                self.links.pop(link.id, None)
                self.node.spawn(link.conn.end(MOVED, "the server running this table stopped; reconnect"))
        for key, relayed in list(self.relayed.items()):
            if key[0] == pid:
                self.relayed.pop(key, None)
                relayed.queue.put_nowait(None)

    def _reset(self) -> None:
        """The broker came back: every relayed connection starts again."""
        for link in list(self.links.values()):
            link.moved("the connection between servers was lost; reconnect")
        for key, relayed in list(self.relayed.items()):
            relayed.queue.put_nowait(None)
            self.relayed.pop(key, None)

    async def _check(self) -> None:
        """Relayed connections whose owner changed, and sessions for processes that died."""
        if not self.links and not self.relayed:
            return
        names = sorted({link.name for link in self.links.values() if link.name is not None})
        holders = await self.node.leases.holders(names)
        for link in list(self.links.values()):
            if link.name is not None and holders.get(link.name) != link.owner:
                link.moved("this table moved to another server; reconnect")
        fronts = sorted({front for front, _ in self.relayed})
        alive = await self.node.alive(fronts)
        for key, relayed in list(self.relayed.items()):
            if key[0] not in alive:
                self.relayed.pop(key, None)
                relayed.queue.put_nowait(None)

    async def stop(self) -> None:
        """This process is stopping: every relayed connection reconnects elsewhere."""
        for link in list(self.links.values()):
            link.moved("this server is stopping; reconnect")
        for relayed in list(self.relayed.values()):
            await relayed.conn.end(MOVED, "this server is stopping; reconnect")
            relayed.queue.put_nowait(None)
        self.relayed.clear()


__all__ = ["MOVED", "Link", "Relay", "RemoteConnection", "Session", "hello_of"]
