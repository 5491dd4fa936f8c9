"""WebSocket pings that cost what the connections needing them cost.

uvicorn pings every WebSocket every ``ws_ping_interval`` seconds, whether or
not its peer just spoke: at 4,900 tables, 19,600 connections are some 1,000
pings a second, each a frame written, a pong read and two timers, the same at
idle tables as at busy ones. ``Keepalive``, mixed into the server's WebSocket
protocol (``guard.guarded``), changes three things and keeps the rest (a
ping unanswered within ``ws_ping_timeout`` closes the connection, 1011):

- a connection heard from (any frame: a card, a hello, a pong) within the
  interval is not pinged: it is alive; when its ping falls due it is only
  looked at, and its next one put off;
- the interval grows with the server's connections so that pings stay under
  ``MAX_PINGS_PER_S`` a second (at 20,000 idle connections each is pinged
  every 100 s, not 20 s): the keepalive's cost is bounded, not O(connections);
- the first ping falls at a random point of the first interval, so that
  connections opened together (a reconnect storm) do not ping together.

``DAMEPIQUE_WS_PING`` sets the interval in seconds (default 20; 0: no pings).
A proxy in front must let a connection stay silent longer than the longest
interval (``deploy/nginx.conf``: an hour).
"""

from __future__ import annotations

import os
import random
from typing import Any

from .clock import Clock

PING_S = 20.0
"""The interval at most ``MAX_PINGS_PER_S * PING_S`` connections (``DAMEPIQUE_WS_PING``)."""
MAX_PINGS_PER_S = 200.0
"""Pings a second the server sends at most, however many connections it holds."""


def ping_interval() -> float | None:
    """``$DAMEPIQUE_WS_PING`` in seconds (default 20); None for no pings (0)."""
    text = os.environ.get("DAMEPIQUE_WS_PING", "").strip()
    try:
        seconds = float(text) if text else PING_S
    except ValueError:
        raise ValueError(f"DAMEPIQUE_WS_PING: seconds between pings (0: none), not {text!r}") from None
    return seconds if seconds > 0 else None


def ping_delay(interval: float, connections: int, rate: float = MAX_PINGS_PER_S) -> float:
    """Seconds between two pings of a connection when the server holds ``connections``.

    >>> ping_delay(20, 100), ping_delay(20, 4000), ping_delay(20, 19600)
    (20, 20, 98.0)
    """
    return max(interval, connections / rate)


class Keepalive:
    """Mixed in before uvicorn's ``WebSocketsSansIOProtocol``: its pings as above."""

    clock: Clock
    """The app's clock (``guard.guarded`` sets it): when a peer was last heard and
    when its ping falls due are read on it, as every timer of the server is."""
    # What the protocol this is mixed into has (uvicorn's names).
    connections: set[Any]
    ping_interval: float | None
    ping_timer: Any
    _heard = 0.0
    _pinged = False

    def data_received(self, data: bytes) -> None:
        self._heard = self.clock.monotonic()
        super().data_received(data)  # type: ignore[misc]

    def schedule_ping(self) -> None:
        assert self.ping_interval is not None
        delay = ping_delay(self.ping_interval, len(self.connections))
        if not self._pinged:
            delay *= random.random()  # the first: anywhere in the first interval
            self._pinged = True
        self.ping_timer = self.clock.call_later(delay, self.send_keepalive_ping)

    def send_keepalive_ping(self) -> None:
        assert self.ping_interval is not None
        now = self.clock.monotonic()
        if now - self._heard < self.ping_interval:
            # Heard from lately: alive, nothing to send; looked at again one
            # interval after it was last heard.
            due = self._heard + ping_delay(self.ping_interval, len(self.connections))
            self.ping_timer = self.clock.call_later(due - now, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()  # type: ignore[misc]


__all__ = ["MAX_PINGS_PER_S", "PING_S", "Keepalive", "ping_delay", "ping_interval"]
