"""The hub owns the connections: it sends each one its own seat's messages.

It knows nothing of the rules: the runner hands it, per seat, the message
(JSON text) built from that seat's view, and the hub delivers it to that seat's
connections and nobody else's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from .protocol import dumps


class Connection(Protocol):
    async def send_text(self, data: str) -> None: ...


class Hub:
    def __init__(self, send_timeout: float = 10.0) -> None:
        self._seats: dict[str, dict[Connection, int]] = defaultdict(dict)
        self.send_timeout = send_timeout

    def attach(self, game_id: str, conn: Connection, seat: int) -> None:
        self._seats[game_id][conn] = seat

    def detach(self, game_id: str, conn: Connection) -> None:
        conns = self._seats.get(game_id)
        if conns is not None:
            conns.pop(conn, None)
            if not conns:
                del self._seats[game_id]

    def connections(self, game_id: str) -> int:
        return len(self._seats.get(game_id, {}))

    def connections_of(self, game_id: str) -> list[Connection]:
        return list(self._seats.get(game_id, {}))

    async def send(self, conn: Connection, msg: dict[str, Any]) -> None:
        await self.send_text(conn, dumps(msg))

    async def send_text(self, conn: Connection, text: str) -> None:
        # A closed or stuck connection: its reader will detach it.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.send_text(text), self.send_timeout)

    async def broadcast(self, game_id: str, text_for: Callable[[int], str]) -> None:
        """Send ``text_for(seat)`` to every connection, each with its own seat's message."""
        conns = list(self._seats.get(game_id, {}).items())
        if not conns:
            return
        cache: dict[int, str] = {}
        sends = []
        for conn, seat in conns:
            if seat not in cache:
                cache[seat] = text_for(seat)
            sends.append(self.send_text(conn, cache[seat]))
        if len(sends) == 1:
            await sends[0]
        else:
            await asyncio.gather(*sends)
