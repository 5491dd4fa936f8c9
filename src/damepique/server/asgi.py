"""The WebSocket as the server holds it: answered on raw ASGI, with an outbox that never waits.

A table's WebSocket carries every card of every game, and each of its frames
through FastAPI costs more than the table's own work on it: the middleware
stack (each ``send`` wrapped, each wake-up of the connection's task passed down
a dozen frames), the router, Starlette's ``WebSocket`` checks
(``benchmarks/ws_floor.py`` measures that floor). A path registered with
``App.raw_websocket`` is answered by its handler with the server's own
``receive`` and ``send``; every other request goes to FastAPI as before.
``RawWebSocket`` behaves as Starlette's ``WebSocket`` does where the handlers
can tell: the same messages, cookies, headers and client address, the same errors
after a close or a lost peer.

    app = App()

    @app.raw_websocket("/ws/echo")
    async def echo(ws: RawWebSocket) -> None:
        await ws.accept()
        async for frame in ws.frames():
            await ws.send_text(str(frame))

A ``Connection`` is what the rest of the server holds of one client's socket.
Every message to it goes through ``Connection.post``, which never waits: a send
to a socket with room in its buffer completes on the spot (in the caller's own
step, at no cost of a task or a timer), and one that would wait goes on in the
connection's own writer task, the messages after it queued behind in order.
So a reader that does not read never holds up a table, nor the other
connections of the table: its queue grows, and once it passes ``max_queue``
messages (``Settings.send_queue``), or a send waits longer than
``SEND_TIMEOUT``, the connection is closed (its page, if it is alive at all,
reconnects and gets the whole state).
Both limits, and the rate of messages a client may send, read the connection's
clock (the app's one: a test moves it).

>>> import asyncio
>>> class Socket:
...     def __init__(self): self.got = []
...     async def send_text(self, text): self.got.append(text)
...     async def close(self, code=1000, reason=None): self.got.append(f"closed {code}")
>>> async def demo():
...     socket = Socket()
...     conn = Connection(socket)
...     conn.post("a"); conn.post("b")
...     return socket.got
>>> asyncio.run(demo())
['a', 'b']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import FastAPI
from starlette._utils import get_route_path
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from .clock import Clock
from .protocol import Json
from .settings import SEND_QUEUE
from .shield import Shield

Handler = Callable[["RawWebSocket"], Awaitable[None]]


class RawWebSocket:
    """One WebSocket on the ASGI server's ``receive`` and ``send``, nothing between."""

    __slots__ = ("_receive", "_send", "closed", "scope")

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self._receive = receive
        self._send = send
        self.closed = False
        """This side sent its close (or lost the peer): no more sends."""

    @property
    def cookies(self) -> dict[str, str]:
        """The request's cookies, parsed as Starlette parses them."""
        return HTTPConnection(self.scope).cookies

    @property
    def authorization(self) -> str | None:
        """The upgrade request's ``Authorization`` header (a bot's token), if any."""
        return HTTPConnection(self.scope).headers.get("authorization")

    @property
    def host(self) -> str | None:
        """The client's address as the ASGI server gives it (``scope["client"]``)."""
        client = self.scope.get("client")
        return None if client is None else client[0]

    async def accept(self) -> None:
        message = await self._receive()
        if message["type"] != "websocket.connect":
            raise RuntimeError(f'Expected ASGI message "websocket.connect", but got {message["type"]!r}')
        await self._send({"type": "websocket.accept", "subprotocol": None, "headers": []})

    async def frames(self) -> AsyncIterator[str | bytes | None]:
        """Each frame's text (or bytes, for a binary frame) until the peer leaves.
        A frame with neither is yielded as None, for the caller to refuse."""
        receive = self._receive
        while True:
            message = await receive()
            kind = message["type"]
            if kind == "websocket.receive":
                text = message.get("text")
                yield message.get("bytes") if text is None else text
            elif kind == "websocket.disconnect":
                return
            else:
                raise RuntimeError(
                    f'Expected ASGI message "websocket.receive" or "websocket.disconnect", but got {kind!r}'
                )

    def send_text(self, data: str) -> Coroutine[Any, Any, None]:
        # ``_put``'s own coroutine, not one awaiting it: every card's four texts
        # pass here, and each coroutine in the way is a frame made and run.
        return self._put({"type": "websocket.send", "text": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._put({"type": "websocket.close", "code": code, "reason": reason or ""}, closing=True)

    async def _put(self, message: Json, closing: bool = False) -> None:
        if self.closed:
            raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')
        if closing:
            self.closed = True
        try:
            await self._send(message)
        except OSError:  # the peer is gone (as Starlette says it)
            self.closed = True
            raise WebSocketDisconnect(code=1006) from None


class App(FastAPI):
    """FastAPI, with some WebSocket paths answered on raw ASGI (``raw_websocket``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.raw_websockets: dict[str, Handler] = {}
        self.stopping = asyncio.Event()
        """Set when the server begins to stop (``run.serve``): a response that
        would last as long as its client reads (an event stream) ends, so that
        the server's wait for its connections to close ends too."""
        self._shielded = Shield(self._dispatch)

    def raw_websocket(self, path: str) -> Callable[[Handler], Handler]:
        """Answer WebSockets at ``path`` with the decorated handler, before FastAPI."""

        def register(handler: Handler) -> Handler:
            self.raw_websockets[path] = handler
            return handler

        return register

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Every request passes the shield first (``shield``: limits, origins, headers).
        await self._shielded(scope, receive, send)

    async def _dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.raw_websockets:
            if self.root_path:  # as FastAPI does before routing
                scope["root_path"] = self.root_path
            handler = self.raw_websockets.get(get_route_path(scope))
            if handler is not None:
                scope["app"] = self
                await handler(RawWebSocket(scope, receive, send))
                return
        await super().__call__(scope, receive, send)


log = logging.getLogger("damepique.server")

SEND_TIMEOUT = 10.0
"""Seconds one send may wait for room in the socket's buffer."""
TOO_SLOW = 1008
"""Close code for a connection that does not read what it is sent (policy violation)."""


class Socket(Protocol):
    """What a connection needs of its WebSocket (``asgi.RawWebSocket`` has it)."""

    async def send_text(self, data: str) -> None:
        """Send one text frame. It is run up to its first wait in the caller's
        task and finished, if it waits, in another: it must not enter anything
        bound to the current task (``asyncio.timeout``, a ``TaskGroup``) before
        that first wait."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class RateLimit:
    """``rate`` messages a second on average, up to ``burst`` at once, at the
    times (monotonic seconds) the caller reads on its clock.

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> limit.allow(0.0), limit.allow(0.0), limit.allow(0.0), limit.allow(1.0)
    (True, True, False, True)
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp: float | None = None

    def allow(self, now: float) -> bool:
        """Take one message from the bucket; False when it is empty (the message is refused)."""
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Connection:
    """One client connection. Equal only to itself and hashed by identity
    (``eq=False``: object's own, in C; a connection is a key of its table's
    connections, looked up for every card)."""

    socket: Socket | None
    account: str | None = None
    """The signed-in account when the socket opened (from its session cookie)."""
    host: str | None = None
    """The client's address (``scope["client"]``): where unknown codes and creations are counted."""
    limit: RateLimit = field(default_factory=lambda: RateLimit(rate=50.0, burst=200.0))
    max_queue: int = SEND_QUEUE
    """Messages that may wait for it (``Settings.send_queue``) before it is closed as too slow."""
    patches: bool = False
    """Said ``hello`` with ``"patches": true``: state updates may come as patches."""
    plays: bool = False
    """And ``"plays": true``: a card's update may come as a play patch (``server.plays``)."""
    mutes: set[int] = field(default_factory=set)
    last_chat: float = -math.inf
    clock: Clock = field(default_factory=Clock)
    """The app's clock: the rate limit, the time a send may wait."""
    reader: asyncio.Task[Any] | None = None
    """The task reading this socket's frames: cancelled when the connection is closed for being slow."""
    closed: bool = False
    _queue: deque[str] = field(default_factory=deque, repr=False)
    _writer: asyncio.Task[None] | None = field(default=None, repr=False)
    _work: dict[str, asyncio.Task[None]] = field(default_factory=dict, repr=False)

    def allow(self) -> bool:
        return self.limit.allow(self.clock.monotonic())

    def post(self, text: str) -> None:
        """Send ``text`` after everything posted before, without ever waiting."""
        if self.closed or self.socket is None:
            return
        if self._writer is not None:
            if len(self._queue) >= self.max_queue:
                self._too_slow("too many messages waiting")
                return
            self._queue.append(text)
            return
        coro = self.socket.send_text(text)
        try:
            first = coro.send(None)
        except StopIteration:
            return  # sent: the usual case
        except Exception:
            self.closed = True  # the peer is gone: its reader sees it and detaches
            return
        self._writer = asyncio.get_running_loop().create_task(self._drain(coro, first))

    async def _drain(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        assert self.socket is not None
        try:
            await self.clock.wait_for(_Resumed(coro, first), SEND_TIMEOUT)
            while self._queue and not self.closed:
                await self.clock.wait_for(self.socket.send_text(self._queue.popleft()), SEND_TIMEOUT)
        except TimeoutError:
            self._too_slow(f"a send waited {SEND_TIMEOUT:.0f} s")
        except Exception:
            self.closed = True
        finally:
            self._writer = None

    def _too_slow(self, why: str) -> None:
        log.info("closing a connection that does not read: %s", why)
        self.close_for(TOO_SLOW, "this connection does not read")

    def close_for(self, code: int, reason: str) -> None:
        """Close the connection now, whatever it was doing: the close frame is
        sent (within 2 s), then the task reading its frames is stopped."""
        self.closed = True
        self._queue.clear()
        asyncio.get_running_loop().create_task(self._close_and_stop(code, reason))

    async def _close_and_stop(self, code: int, reason: str) -> None:
        await self._close(code, reason)
        if self.reader is not None and self.reader is not asyncio.current_task():
            self.reader.cancel()

    async def _close(self, code: int, reason: str) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.clock.wait_for(self.socket.close(code, reason), 2.0)

    async def end(self, code: int, reason: str) -> None:
        """Close the connection once what was posted before has gone (the page reconnects)."""
        writer = self._writer
        if writer is not None:
            with contextlib.suppress(Exception):
                await self.clock.wait_for(asyncio.shield(writer), 2.0)
        self.closed = True
        await self._close(code, reason)

    def background(self, name: str, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` beside the connection's frames (training advice): a newer
        piece of work of the same ``name`` replaces an unfinished one."""
        old = self._work.get(name)
        if old is not None and not old.done():
            old.cancel()
        self._work[name] = asyncio.get_running_loop().create_task(work)

    def cancel_work(self) -> None:
        for task in self._work.values():
            task.cancel()
        self._work.clear()


class _Resumed:
    """An awaitable that carries on a coroutine stopped at its first wait, which
    yielded ``first``: what ``await coro`` would have done from there on (each
    value the task sends or throws in is passed through, so a timeout's
    cancellation reaches the send and releases what it holds)."""

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, None]:
        coro, value = self.coro, self.first
        while True:
            try:
                sent = yield value
            except BaseException as e:
                try:
                    value = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    value = coro.send(sent)
                except StopIteration:
                    return


__all__ = [
    "SEND_TIMEOUT",
    "TOO_SLOW",
    "App",
    "Connection",
    "RateLimit",
    "RawWebSocket",
    "Socket",
]
