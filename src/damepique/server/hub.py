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


Bases = dict[Any, tuple[int, int]]
"""For each connection, the update (number, seat) it was sent last: the base a
patch to it may build on."""


def texts_for(
    text_for: Callable[[int], str], targets: list[tuple[Any, int]], bases: Bases
) -> tuple[list[tuple[Any, str]], Bases]:
    """Each target connection's text for one update, and the bases after it.

    ``text_for(seat)`` is a seat's whole message. When it is an update that
    can write patches (``games.Update``: ``n``, ``base``, ``patch(seat)``), a
    connection that asked for them (``patches`` true) and was sent update
    ``base`` for the same seat gets ``patch(seat)`` instead. Each text is built
    once per seat. The bases returned hold only the connections sent this
    update, and none after a ``text_for`` without a number: a connection that
    missed an update, or got a whole state some other way, gets a whole state
    next."""
    n = getattr(text_for, "n", None)
    base = getattr(text_for, "base", None)
    patch_for = getattr(text_for, "patch", None) if base is not None else None
    whole: dict[int, str] = {}
    patches: dict[int, str | None] = {}
    out: list[tuple[Any, str]] = []
    after: Bases = {}
    for conn, seat in targets:
        text = None
        if patch_for is not None and bases.get(conn) == (base, seat) and getattr(conn, "patches", False):
            if seat not in patches:
                patches[seat] = patch_for(seat)
            text = patches[seat]
        if text is None:
            if seat not in whole:
                whole[seat] = text_for(seat)
            text = whole[seat]
        if n is not None:
            after[conn] = (n, seat)
        out.append((conn, text))
    return out, after


class Hub:
    def __init__(self, send_timeout: float = 10.0) -> None:
        self._seats: dict[str, dict[Connection, int]] = defaultdict(dict)
        self._bases: dict[str, Bases] = {}
        self.send_timeout = send_timeout

    def attach(self, game_id: str, conn: Connection, seat: int) -> None:
        """Add a connection (sent its whole state next, never a patch)."""
        self._seats[game_id][conn] = seat
        self._bases.get(game_id, {}).pop(conn, None)

    def detach(self, game_id: str, conn: Connection) -> None:
        conns = self._seats.get(game_id)
        if conns is not None:
            conns.pop(conn, None)
            self._bases.get(game_id, {}).pop(conn, None)
            if not conns:
                del self._seats[game_id]
                self._bases.pop(game_id, None)

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
        """Send ``text_for(seat)`` to every connection, each with its own seat's
        message (or its patch, ``texts_for``)."""
        conns = list(self._seats.get(game_id, {}).items())
        if not conns:
            return
        texts, self._bases[game_id] = texts_for(text_for, conns, self._bases.get(game_id, {}))
        sends = [self.send_text(conn, text) for conn, text in texts]
        if len(sends) == 1:
            await sends[0]
        else:
            await asyncio.gather(*sends)
