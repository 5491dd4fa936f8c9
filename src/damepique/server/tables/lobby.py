"""The lobby: every public table, of every process, for whoever looks for one.

Each process knows its own public tables (``local``); it tells the others
what they are whenever they change and every few seconds, on a shared
channel, and keeps their latest word for a while. Pages watching the lobby
(``/ws/lobby``) get the list on connect (``lobby``), then only what changed,
within 0.1 s of a change (``lobby_changes``: the entries new or changed, the
codes gone): at a hundred tables the whole list is some 46 KB, a change a few
hundred bytes. Every watcher has seen the same list (``_sent``), so one
message of changes serves them all.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

from damepique.wire import LobbyEntry, lobby_changes_message, lobby_message

from ..asgi import Connection
from ..cluster.node import Node
from ..protocol import Json, dumps

CHANNEL = "damepique:lobby"
EVERY_S = 5.0
STALE_S = 3 * EVERY_S
LIMIT = 200


class Lobby:
    def __init__(self, node: Node, local: Callable[[], list[LobbyEntry]]) -> None:
        self.node = node
        self.local = local
        self.watchers: set[Connection] = set()
        self._remote: dict[str, tuple[float, list[LobbyEntry]]] = {}
        self._push: asyncio.Task[None] | None = None
        self._everywhere = False
        self._published = -math.inf
        self._sent: dict[str, LobbyEntry] = {}
        """The list the watchers have, by code (what changes are counted from)."""
        node.subscribe(CHANNEL, self._news)
        node.every_tick(self._tick)
        node.on_reconnected(self._forget_published)

    def tables(self) -> list[LobbyEntry]:
        """Every public table, including those other processes run; open ones first."""
        rows = self.local()
        here = {r["code"] for r in rows}
        now = self.node.clock.monotonic()
        for pid, (at, tables) in list(self._remote.items()):
            if now - at > STALE_S:
                del self._remote[pid]
                continue
            # A table that just moved here may still be in its old process's last word.
            rows += [t for t in tables if t["code"] not in here and t["code"] not in self.node.owned]
        rows.sort(key=lambda r: (r["status"] != "waiting", -r["taken"], r["code"]))
        return rows[:LIMIT]

    def watch(self, conn: Connection) -> None:
        """A page watches the lobby: it gets the whole list now, changes after."""
        self._catch_up()  # the others first, so that all have seen the same list
        self.watchers.add(conn)
        conn.post(dumps(lobby_message(list(self._sent.values()))))

    def _catch_up(self) -> None:
        """Tell the watchers what changed since the list they have."""
        rows = {r["code"]: r for r in self.tables()}
        changed = [r for code, r in rows.items() if self._sent.get(code) != r]
        gone = [code for code in self._sent if code not in rows]
        self._sent = rows
        if (changed or gone) and self.watchers:
            text = dumps(lobby_changes_message(changed, gone))
            for conn in list(self.watchers):
                conn.post(text)

    def changed(self, everywhere: bool = True) -> None:
        """Tell the lobby soon (here and, ``everywhere``, at the other processes);
        changes close together go out as one message."""
        if not everywhere and not self.watchers:
            return
        self._everywhere = self._everywhere or everywhere
        if self._push is None or self._push.done():
            self._push = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        await self.node.clock.sleep(0.1)
        if self._everywhere:
            self._everywhere = False
            await self._publish()
        if self.watchers:
            self._catch_up()

    async def _publish(self) -> None:
        if self.node.alone:
            return  # nobody else to tell: this process's lobby is read from its tables
        self._published = self.node.clock.monotonic()
        await self.node.publish(CHANNEL, {"from": self.node.pid, "tables": self.local()})

    async def _news(self, m: Json) -> None:
        if m.get("from") == self.node.pid:
            return
        self._remote[str(m["from"])] = (self.node.clock.monotonic(), list(m.get("tables") or []))
        self.changed(everywhere=False)

    async def _tick(self) -> None:
        if self.node.clock.monotonic() - self._published > EVERY_S:
            await self._publish()

    def _forget_published(self) -> None:
        self._published = -math.inf


__all__ = ["CHANNEL", "Lobby"]
