"""WebSockets answered straight on ASGI, in front of FastAPI's routes.

A table's WebSocket carries every card of every game, and each of its frames
through FastAPI costs more than the table's own work on it: the middleware
stack (each ``send`` wrapped, each wake-up of the connection's task passed down
a dozen frames), the router, Starlette's ``WebSocket`` checks
(``benchmarks/ws_floor.py`` measures that floor). A path registered with
``App.raw_websocket`` is answered by its handler with the server's own
``receive`` and ``send``; every other request goes to FastAPI as before.
``RawWebSocket`` behaves as Starlette's ``WebSocket`` does where the handlers
can tell: the same messages, cookies and client address, the same errors
after a close or a lost peer.

    app = App()

    @app.raw_websocket("/ws/echo")
    async def echo(ws: RawWebSocket) -> None:
        await ws.accept()
        async for frame in ws.frames():
            await ws.send_text(str(frame))
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from starlette._utils import get_route_path
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from .protocol import Json

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

    async def send_text(self, data: str) -> None:
        await self._put({"type": "websocket.send", "text": data})

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

    def raw_websocket(self, path: str) -> Callable[[Handler], Handler]:
        """Answer WebSockets at ``path`` with the decorated handler, before FastAPI."""

        def register(handler: Handler) -> Handler:
            self.raw_websockets[path] = handler
            return handler

        return register

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.raw_websockets:
            if self.root_path:  # as FastAPI does before routing
                scope["root_path"] = self.root_path
            handler = self.raw_websockets.get(get_route_path(scope))
            if handler is not None:
                scope["app"] = self
                await handler(RawWebSocket(scope, receive, send))
                return
        await super().__call__(scope, receive, send)


__all__ = ["App", "RawWebSocket"]
