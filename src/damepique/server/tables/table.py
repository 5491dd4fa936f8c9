"""One table with a code: its seats, host, options, and the game played at it.

Every game is played at a table. A solo game's table is private, of one
person and bots, and begins playing at once; a table with others fills as
people take seats (a seat token each), the host starts, bots fill the empty
seats, a rematch deals a new game to the same table, a bot stands in for a
person away past the grace period or gone for good. A table's state is one
JSON document (``to_data``) its registry writes before any change is
announced (``Services.save``); the game itself is a ``Runner``.

Connections watch a table with a seat or none (a visitor); the hub keeps them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Mapping
from dataclasses import replace
from typing import Protocol

from damepique.engine import Rules
from damepique.wire import LobbyEntry, TableInfo, lobby_entry, notice_message, table_info, table_message

from ..asgi import Connection
from ..clock import Clock
from ..errors import Refusal
from ..play.game import Game, Seat
from ..play.hub import Hub
from ..play.runner import Runner
from ..protocol import Json, Ref, dumps
from .seats import (
    BOT_NAMES,
    MIN_PLAYERS,
    STAND_IN_LEVEL,
    Sitter,
    TableOptions,
    TableSeat,
    check_ranked_sitter,
    clean_name,
    enough_people,
)

log = logging.getLogger("damepique.server")


class Services(Protocol):
    """What a table needs of its registry (``tables.registry.Tables``)."""

    hub: Hub
    clock: Clock

    @property
    def grace(self) -> float:
        """Seconds a person who dropped keeps their seat before a bot stands in."""

    async def save(self, table: Table) -> None: ...
    async def add_token(self, table: Table, seat: int, ticket: str | None = None) -> str: ...
    async def drop_token(self, table: Table, seat: int) -> None: ...
    async def move_tokens(self, table: Table, moves: Mapping[int, int]) -> None: ...
    async def new_game(self, table: Table) -> Runner: ...
    async def load_game(self, table: Table) -> Runner: ...
    async def record_result(self, table: Table, game_id: str, game: Game) -> None: ...
    async def game_started(self, table: Table) -> None: ...
    def lobby_changed(self) -> None: ...
    def forget(self, table: Table) -> None: ...


class Table:
    def __init__(
        self, services: Services, code: str, kind: str, options: TableOptions, seats: list[TableSeat]
    ) -> None:
        self.services = services
        self.hub = services.hub
        self.code = code
        self.kind = kind
        """``solo`` (one person and bots, private, playing at once; ``daily`` too) or ``table``."""
        self.options = options
        self.rules = Rules.from_json(options.rules)
        self.seats = seats
        self.host: int | None = None
        self.status = "waiting"
        self.game_id: str | None = None
        self.games: list[str] = []
        self.created = services.clock.time()
        self.joined = False
        """A person came to one of its seats (``attach``): a table nobody joined expires."""
        self.empty_since: float | None = services.clock.monotonic()
        """Since when nobody is connected (``clock.monotonic``); None while somebody is."""
        self.runner: Runner | None = None
        self.lock = asyncio.Lock()
        self.moved = False
        """Another process runs this table now (this one lost its lease)."""
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._info_key: tuple[object, ...] | None = None
        self._info: TableInfo | None = None
        self._texts: dict[int | None, str] = {}  # the ``table`` message as text per seat, of ``_info``
        self._background: set[asyncio.Task[None]] = set()
        self.hub.allow_spectators(code, options.spectators)

    @property
    def solo(self) -> bool:
        return self.kind in ("solo", "daily")

    # -- persistence ----------------------------------------------------------------

    def to_data(self) -> Json:
        return {
            "code": self.code,
            "kind": self.kind,
            "options": self.options.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "host": self.host,
            "status": self.status,
            "game": self.game_id,
            "games": self.games,
            "created": self.created,
            "joined": self.joined,
        }

    @classmethod
    def from_data(cls, services: Services, data: Json) -> Table:
        table = cls(
            services,
            data["code"],
            data.get("kind", "table"),
            TableOptions(**data["options"]),
            [TableSeat.from_json(s) for s in data["seats"]],
        )
        table.host = data.get("host")
        table.status = data["status"]
        table.game_id = data.get("game")
        table.games = list(data.get("games") or [])
        table.created = data.get("created", services.clock.time())
        table.joined = data.get("joined", True)  # from before it was kept: joined, to be safe
        return table

    # -- what people see --------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        return seat in self.hub.seats(self.code)

    def info(self) -> TableInfo:
        """The table as everybody may see it, built again only when something it shows
        changed (its ``table`` messages too: ``table_text``). Shared: never change it."""
        present = self.hub.seats(self.code)
        seats_present = frozenset(present)
        key = (
            self.status,
            self.host,
            self.game_id,
            # What it shows of who is there (not how many sockets each seat has, nor their order).
            seats_present,
            present.count(None),
            tuple((s.kind, s.name, s.nickname, s.level, s.program, s.away, s.left) for s in self.seats),
        )
        if key != self._info_key or self._info is None:
            self._info = self._build_info(seats_present, present.count(None))
            self._info_key = key
            self._texts = {}
        return self._info

    def table_text(self, seat: int | None) -> str:
        """The ``table`` message for ``seat`` as text: written once per change of the table."""
        info = self.info()  # first: it forgets the texts of a table that changed
        return self._texts.get(seat) or self._texts.setdefault(seat, dumps(table_message(seat, info)))

    def _build_info(self, present: frozenset[int | None], spectators: int) -> TableInfo:
        o = self.options
        return table_info(
            self.code,
            self.kind,
            self.status,
            host=self.host,
            game=self.game_id,
            options=o.shown(),
            # Until its host starts, an "auto" table has no count yet (its seats: the most).
            rules=self.rules.to_json() | ({"players": "auto"} if o.auto_players else {}),
            seats=[s.shown(i in present) for i, s in enumerate(self.seats)],
            spectators=spectators,
            can_start=self.can_start()[0],
        )

    def lobby_entry(self) -> LobbyEntry:
        humans = [s for s in self.seats if s.kind == "human" and not s.left]
        return lobby_entry(
            self.info(),
            "auto" if self.options.auto_players else self.rules.players,
            len(humans),
            sum(1 for s in self.seats if s.kind == "empty"),
            [s.name for s in humans],
        )

    def announce(self, skip: Connection | None = None) -> None:
        """Send every connection the table as it is now (its own ``you``)."""
        self.hub.tell(self.code, self.table_text, skip, replaces=True)
        if self.options.public:
            self.services.lobby_changed()

    async def notice(self, kind: str, seat: int | None) -> None:
        text = dumps(notice_message(kind, seat))
        self.hub.tell(self.code, lambda _: text)

    async def send_state(self, conn: Connection, seat: int | None, ref: Ref = None) -> None:
        if (runner := self.runner) is None or (seat is None and not self.options.spectators):
            return
        async with runner.lock:  # a card still being stored is not shown: a crash would take it back
            text = runner.state_text(seat, ack=ref)
        self.hub.send_text(conn, text, key=self.code)

    # -- connections ---------------------------------------------------------------------

    async def attach(self, conn: Connection, seat: int | None) -> None:
        self.hub.attach(self.code, conn, seat)
        self.empty_since = None
        if seat is not None and not self.joined:
            self.joined = True
            await self.services.save(self)
        if seat is not None:
            if (task := self._grace.pop(seat, None)) is not None:
                task.cancel()
            ts = self.seats[seat]
            if ts.away:
                async with self.lock:
                    ts.away = False
                    await self.services.save(self)
                if self.runner is not None:
                    self.runner.reseat()
                await self.notice("back", seat)
        # The newcomer hears of the table first, before any state; the others soon.
        self.hub.tell_one(self.code, conn, self.table_text(seat))
        self.announce(skip=conn)

    def detach(self, conn: Connection) -> None:
        """Forget a connection; the others hear of it soon."""
        seat = self.hub.seat_of(self.code, conn)
        if not self.hub.detach(self.code, conn):
            return
        if seat is not None:
            self._start_grace(seat)
        self.announce()
        if self.hub.count(self.code) == 0:
            self.empty_since = self.services.clock.monotonic()
            self.services.forget(self)

    @property
    def idle(self) -> bool:
        """Nothing runs for it (unwatched, it may leave memory): over, or a solo game with its bots done."""
        if self.status in ("over", "closed"):
            return True
        return self.solo and (self.runner is None or self.runner.idle)

    def _start_grace(self, seat: int) -> None:
        """A person nobody is connected for gets the grace period before a bot stands in."""
        ts = self.seats[seat]
        if self.solo or self.status != "playing" or ts.kind != "human" or ts.left or ts.away:
            return
        if seat not in self._grace and not self.connected(seat):
            self._grace[seat] = asyncio.get_running_loop().create_task(self._grace_over(seat))

    def _cancel_graces(self) -> None:
        for t in self._grace.values():
            t.cancel()
        self._grace.clear()

    async def _grace_over(self, seat: int) -> None:
        await self.services.clock.sleep(self.services.grace)
        self._grace.pop(seat, None)
        if self.connected(seat) or self.status != "playing":
            return
        async with self.lock:
            ts = self.seats[seat]
            if ts.kind != "human" or ts.left or ts.away:
                return
            ts.away = True
            await self.services.save(self)
        await self.notice("stand_in", seat)
        self.announce()
        if self.runner is not None:
            self.runner.reseat()

    # -- seats -----------------------------------------------------------------------------

    def can_start(self) -> tuple[bool, str]:
        if self.status != "waiting":
            return False, "the game has already started"
        return enough_people(self.seats, self.options)

    async def sit(self, name: object, sitter: Sitter, announce: bool = True) -> tuple[str, int]:
        """Take the first empty seat; returns (token, seat). A signed-in person's
        seat shows their nickname, a program's its bot's; a guest's the name typed."""
        async with self.lock:
            if self.solo:
                raise Refusal("table_full", "every seat at this table is taken")
            if self.status == "closed":
                raise Refusal("no_table", "this table is closed")
            if self.status != "waiting":
                raise Refusal("already_started", "the game has started; you may watch")
            free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
            if not free:
                raise Refusal("table_full", "every seat at this table is taken")
            account, nickname = sitter.account, sitter.nickname
            if self.options.ranked:
                check_ranked_sitter(self.seats, sitter)
            seat = free[0]
            token = await self.services.add_token(self, seat, sitter.ticket)  # refused: nothing changed
            # An account's nickname, whatever name the page sent (a guest's: as typed).
            label = nickname or clean_name(name, "Player")
            self.seats[seat] = TableSeat(
                "human", label, None, account, nickname, sitter.player, sitter.program, sitter.owner
            )
            if self.host is None:
                self.host = seat
            await self.services.save(self)
        if announce:
            self.announce()
        return token, seat

    async def leave(self, seat: int) -> None:
        """Leave for good: before the game the seat is free again; during it a bot finishes it."""
        async with self.lock:
            ts = self.seats[seat]
            if self.solo or ts.kind != "human" or ts.left:
                raise Refusal("not_seated", "you do not sit at this table")
            await self.services.drop_token(self, seat)
            if self.status == "playing" and self.runner is not None:
                async with self.runner.lock:
                    ts.left = True
                    ts.away = False
                    self.runner.game.seats[seat] = Seat("bot", ts.name, STAND_IN_LEVEL)
                    await self.services.save(self)
            else:
                self.seats[seat] = TableSeat()
                if self.host == seat:
                    self.host = next((i for i, s in enumerate(self.seats) if s.kind == "human"), None)
                if self.host is None and self.status == "waiting":
                    self.status = "closed"
                await self.services.save(self)
            if (task := self._grace.pop(seat, None)) is not None:
                task.cancel()
            self.hub.reseat(self.code, {seat: None})
        await self.notice("left", seat)
        self.announce()
        if self.runner is not None and self.status == "playing":
            self.runner.reseat()
            self.runner.announce()
        if self.status == "closed":
            self.services.forget(self)

    async def expire(self) -> None:
        """Nobody came to this waiting table for long: it closes (its code then
        leads to no table, and it leaves the lobby and memory)."""
        async with self.lock:
            if self.status != "waiting":
                return
            self.status = "closed"
            await self.services.save(self)
        self.announce()
        self.services.forget(self)

    # -- games ---------------------------------------------------------------------------

    async def start(self, seat: int | None, now: bool = False, tell: bool = True) -> None:
        """The host starts the game (a solo table when made; a quick match's ``now``, bots filling)."""
        async with self.lock:
            if not (self.solo or now):
                if self.host != seat:
                    raise Refusal("not_host", "only the host starts the game")
                ok, reason = self.can_start()
                if not ok:
                    raise Refusal("cannot_start", reason)
            await self._new_game()
        await self._begin(tell)

    async def rematch(self, seat: int, game: str | None) -> None:
        async with self.lock:
            if self.solo or self.seats[seat].kind != "human" or self.seats[seat].left:
                raise Refusal("not_seated", "you do not sit at this table")
            finished = self.runner is not None and self.runner.game.over
            if game != self.game_id or not finished:
                raise Refusal("stale_rematch", "this rematch is for a game that is not the last one finished")
            if self.status == "playing" and self.runner is not None:
                # The last card is out and its results are on their way: finish them first.
                await self.game_over()
            for i, s in enumerate(self.seats):
                if s.left or s.kind == "bot":
                    if s.left:
                        await self.services.drop_token(self, i)
                    self.seats[i] = TableSeat()
                s.away = False
            if self.host is None or self.seats[self.host].kind != "human":
                self.host = seat
            self.status = "waiting"
            if not self.can_start()[0]:
                # Someone left and no bots may fill: wait for people again.
                old, self.runner = self.runner, None
                await self.services.save(self)
                if old is not None:
                    await old.stop()
            else:
                await self._new_game()
        if self.runner is not None and self.status == "playing":
            await self._begin()
        else:
            self.announce()

    async def _settle_players(self) -> None:
        """``players: "auto"`` at the start: a seat for each person at the table
        (``MIN_PLAYERS`` at least, bots filling), in the order they sat, and the
        rules of that count from now on (lock held)."""
        seats = len(self.seats)
        people = [i for i, s in enumerate(self.seats) if s.kind == "human"]
        n = max(MIN_PLAYERS, len(people))
        kept = (people + [i for i, s in enumerate(self.seats) if s.kind != "human"])[:n]
        moves = {old: new for new, old in enumerate(kept)}
        self._cancel_graces()  # they count in seats that move; ``_begin`` starts them again
        self.seats = [self.seats[old] for old in kept]
        self.host = None if self.host is None else moves.get(self.host)
        self.options = replace(self.options, rules=self.options.rules | {"players": n}, auto_players=False)
        self.rules = Rules.from_json(self.options.rules)
        await self.services.move_tokens(self, moves)
        self.hub.reseat(self.code, {old: moves.get(old) for old in range(seats)})  # the rest watch
        for conn in self.hub.connections(self.code):
            conn.mutes = {moves[m] for m in conn.mutes if m in moves}

    async def _new_game(self) -> None:
        """Fill the empty seats with bots and start a game (lock held)."""
        if self.options.auto_players:
            await self._settle_players()
        bots = iter(BOT_NAMES)
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                self.seats[i] = TableSeat("bot", next(bots), self.options.level)
        old = self.runner
        self.runner = await self.services.new_game(self)
        if old is not None:
            await old.stop()
        self.game_id = self.runner.id
        self.games.append(self.runner.id)
        self.status = "playing"
        await self.services.save(self)

    async def _begin(self, tell: bool = True) -> None:
        self.announce()
        assert self.runner is not None
        await self.runner.start()
        self.runner.reseat()
        for i in range(len(self.seats)):  # those not connected now: from the start
            self._start_grace(i)
        if tell:  # each account seated hears ``gameStart`` (a challenge tells its own)
            await self.services.game_started(self)

    async def resume(self) -> None:
        """Rebuild the game after a restart (or on another process) from its stored events."""
        self.runner = await self.services.load_game(self)
        if self.status == "playing":
            await self.runner.start()
            self.runner.reseat()
            for i in range(len(self.seats)):
                self._start_grace(i)

    async def game_over(self) -> None:
        """The game's end is stored: results and ratings, once; then the table waits
        (for a rematch) or, for a solo game, is done. Shielded: a closing
        connection does not leave a finished game unrated."""
        runner = self.runner
        if runner is None:
            return
        await asyncio.shield(self._finish(runner))

    async def _finish(self, runner: Runner) -> None:
        if runner is not self.runner:
            return
        await self.services.record_result(self, runner.id, runner.game)
        if self.status == "playing":
            self.status = "over"
            self._cancel_graces()
            await self.services.save(self)

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self) -> None:
        self._cancel_graces()
        if self.runner is not None:
            await self.runner.stop()
        for task in list(self._background):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


__all__ = ["Services", "Table"]
