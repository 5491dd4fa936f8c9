"""A table below the app: the server's registry, tables, runners and sessions,
with in-memory connections, a ``ManualClock``, the real engine and a real
SQLite store. No socket, no HTTP, no lifespan: a test sends what a page would
send, reads what the page would get, and moves the clock; the rules of play
(timers, stand-ins, grace, continue, rematch, reloads of a runner from its
stored events) are tested in milliseconds.

    async with Harness.open(tmp_path) as h:
        table, host = await h.table(timer=30)
        guest = await h.sit(table, "Bob")
        await host.send(type="start")
        ...
        await h.clock.advance(30)
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from damepique.engine import PRESETS
from damepique.server.asgi import Connection
from damepique.server.clock import ManualClock
from damepique.server.cluster.node import Node
from damepique.server.play.hub import Hub
from damepique.server.play.pace import Pace
from damepique.server.play.thinking import Thinker
from damepique.server.settings import Settings
from damepique.server.storage.accounts import AccountStore
from damepique.server.storage.database import Database
from damepique.server.storage.games import GameStore
from damepique.server.storage.tables import TableStore
from damepique.server.tables.registry import Tables
from damepique.server.tables.seats import Sitter, TableOptions, TableSeat
from damepique.server.tables.table import Table

from .clocks import until


class Outbox:
    """What a page's socket got (``asgi.Socket``): every text, and its close."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        self.texts.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


class Page:
    """One page's connection: a session of the server fed frame by frame."""

    def __init__(self, harness: Harness) -> None:
        self.socket = Outbox()
        self.conn = Connection(self.socket, clock=harness.clock, host="203.0.113.7")
        self.session = harness.tables._open(self.conn, False)
        self.read = 0
        """How many of the messages the test has read (``next``)."""

    async def send(self, **message: Any) -> None:
        await self.session.on_text(json.dumps(message))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(t) for t in self.socket.texts]

    async def next(
        self, kind: str | None = None, where: Callable[[dict[str, Any]], bool] | None = None
    ) -> Any:
        """The next message not read yet (of ``kind``, and ``where`` holds), once it came;
        the messages passed over are read too."""
        found: list[dict[str, Any]] = []

        def came() -> bool:
            while self.read < len(self.socket.texts):
                m = json.loads(self.socket.texts[self.read])
                self.read += 1
                if (kind is None or m["type"] == kind) and (where is None or where(m)):
                    found.append(m)
                    return True
            return False

        await until(came)
        return found[0]

    def close(self) -> None:
        """The page goes away (its socket closed)."""
        self.session.close()


class Harness:
    def __init__(self, db: Database, settings: Settings) -> None:
        assert isinstance(settings.clock, ManualClock)
        self.clock: ManualClock = settings.clock
        self.db = db
        self.settings = settings
        self.thinker = Thinker(threads=1, processes=1)
        self.tables = self._registry()

    def _registry(self) -> Tables:
        return Tables(
            games=GameStore(self.db),
            store=TableStore(self.db),
            accounts=AccountStore(self.db),
            hub=Hub(),
            thinker=self.thinker,
            pace=Pace(),
            settings=self.settings,
            node=Node(self.db),
        )

    @classmethod
    @asynccontextmanager
    async def open(cls, folder: Path, **settings: Any) -> AsyncIterator[Harness]:
        clock = ManualClock()
        db = Database(f"sqlite+aiosqlite:///{folder / 'harness.sqlite3'}", clock)
        await db.open()
        harness = cls(db, Settings(clock=clock, **({"timer_choices": (0, 5, 30)} | settings)))
        try:
            yield harness
        finally:
            await harness.tables.close()
            harness.thinker.close()
            await db.close()

    async def table(
        self, name: str = "Host", preset: str = "standard", **options: Any
    ) -> tuple[Table, Page, str]:
        """A table with others (``TableOptions``: fast bots unless said), its host
        seated and joined: the table, the host's page, and the host's token."""
        options = {"speed": "fast", "level": "beginner"} | options
        rules = PRESETS[preset].to_json()
        seats = [TableSeat() for _ in range(PRESETS[preset].players)]
        table = await self.tables.create("table", TableOptions(rules, **options), seats)
        token, _ = await table.sit(name, Sitter())
        host = await self.join(table.code, token)
        return table, host, token

    async def join(self, code: str, token: str | None = None) -> Page:
        """A page that says hello to a table (with a seat's token, or as a visitor)."""
        page = Page(self)
        await page.send(type="hello", table=code, **({"token": token} if token else {}))
        await page.next("table")
        return page

    async def sit(self, table: Table, name: str) -> tuple[Page, str]:
        """A page that comes to the table by its code and takes a seat: it and its token."""
        page = await self.join(table.code)
        await page.send(type="sit", name=name)
        seated = await page.next("seated")
        return page, seated["token"]

    async def restart(self) -> None:
        """The process stops and another starts on the same database: every table
        and game is loaded again from the store (the runner from its events)."""
        await self.tables.close()
        self.tables = self._registry()


async def play(page: Page, seed: int, stop: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Play random legal cards (and passes) for the page's seat, reading its
    states, until ``stop(state)`` holds; returns that state."""
    rng = random.Random(seed)
    done: tuple[Any, ...] | None = None
    while True:
        state = await page.next("state")
        if stop(state):
            return dict(state)
        view = state["view"]
        if state["over"] or view is None or view["to_act"] != state["seat"]:
            continue
        key = (view["deal"], view["phase"], len(view.get("tricks", [])), len(view.get("trick", [])))
        if key == done:
            continue
        done = key
        if view["phase"] == "pass":
            await page.send(type="pass", cards=rng.sample(view["hand"], state["rules"].get("pass_count", 3)))
        elif view["phase"] == "play":
            await page.send(type="play", card=rng.choice(view["legal"]))
