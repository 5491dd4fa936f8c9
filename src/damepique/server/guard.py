"""The HTTP server's guard: how many connections an address may hold, and how
long a request may take to arrive.

uvicorn answers each connection with a protocol object; ``guarded`` gives it
ours, the same with three limits added where only the connection is known:

- an address holds at most ``per_address`` connections at once (HTTP and
  WebSocket together); past that a new one is closed at once, so one client
  cannot use up the server's descriptors (0: no cap, for load tests that play
  many people from one address);
- a request's headers and body must have arrived within ``request_s`` of its
  first byte (a request that trickles in holds nothing for long);
- (a WebSocket must say hello within ``relay.HELLO_S``: the relay's part.)

And one bound on what a client that does not read holds: with ``send_buffer``
bytes (0: the system's, which grows up to ``net.ipv4.tcp_wmem``'s largest, 4 MB
on Linux) the connection's kernel buffer and the server's own buffer of it are
that size, each; past them its messages wait in its ``asgi.Connection``, whose
own limit then closes it (a test fills them in a few messages, not thousands).

An address named in ``trusted`` (a proxy in front, ``FORWARDED_ALLOW_IPS``)
is not capped: every player comes through it, and the proxy limits its own
clients (``deploy/nginx.conf``).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .clock import Cancellable, Clock
from .keepalive import Keepalive
from .settings import env_number

log = logging.getLogger("damepique.server")


@dataclass
class Guard:
    per_address: int = field(default_factory=lambda: int(env_number("DAMEPIQUE_PER_ADDRESS", 64)))
    request_s: float = field(default_factory=lambda: env_number("DAMEPIQUE_REQUEST_TIMEOUT", 10.0))
    send_buffer: int = field(default_factory=lambda: int(env_number("DAMEPIQUE_SEND_BUFFER", 0)))
    trusted: frozenset[str] = frozenset()
    open: Counter[str] = field(default_factory=Counter)
    clock: Clock = field(default_factory=Clock)
    """What ``request_s`` is counted on (the app's clock: ``Settings.clock``)."""

    def admit(self, host: str | None) -> bool:
        """Count a new connection from ``host``; False (not counted) when it holds too many."""
        if host is None or host in self.trusted or self.per_address <= 0:
            return True
        if self.open[host] >= self.per_address:
            return False
        self.open[host] += 1
        return True

    def release(self, host: str | None) -> None:
        if host is None or host in self.trusted or host not in self.open:
            return
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]


def _host(transport: asyncio.BaseTransport) -> str | None:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else None


def guarded(guard: Guard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes with ``guard``'s limits."""

    class GuardedWebSocket(Keepalive, WebSocketsSansIOProtocol):
        """Counted by the HTTP connection it was upgraded from; let go when it ends.
        Its pings are ``keepalive``'s, on the app's clock."""

        clock = guard.clock

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(_host(self.transport))
            super().connection_lost(exc)

    class GuardedHTTP(HttpToolsProtocol):
        _deadline: Cancellable | None = None
        _counted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(_host(transport)):
                log.info("closing a connection from %s: it holds too many", _host(transport))
                transport.close()
                return
            self._counted = True
            if guard.send_buffer > 0:
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, guard.send_buffer)
                transport.set_write_buffer_limits(high=guard.send_buffer)
            self._arm()

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = guard.clock.call_later(guard.request_s, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            log.info("closing a connection from %s: its request trickles in", _host(self.transport))
            self.transport.close()

        def on_message_begin(self, *args: Any) -> None:
            self._arm()  # a new request on a kept-alive connection: its own time
            super().on_message_begin(*args)

        def on_message_complete(self, *args: Any) -> None:
            self._disarm()
            super().on_message_complete(*args)

        def handle_websocket_upgrade(self, *args: Any) -> Any:
            self._disarm()
            self._counted = False  # the WebSocket's now (it lets go)
            return super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted:
                self._counted = False
                guard.release(_host(self.transport))
            super().connection_lost(exc)

    return GuardedHTTP, GuardedWebSocket


__all__ = ["Guard", "guarded"]
