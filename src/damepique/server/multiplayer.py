"""Tables for several people: seats, host, start, timers, absence, rematch, results.

A ``MultiTable`` is the lifecycle of one table with a code: people take
seats (a seat token each), the host starts, bots fill the empty seats, and a
rematch deals a new game to the same table. Its state is one JSON document
the ``MpStore`` writes before any change is announced. The game itself is a
``MultiRunner`` (``tablegame``): the solo ``Runner`` plus turn timers and
stand-in bots for players who are away or left.

Connections belong to a table with a seat (a player) or none (a visitor or
spectator). A spectator's messages are built from a public view: no hand,
no passed or received cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from damepique.engine import Rules, parse_card
from damepique.engine.fairness import new_secret

from .codes import display_code, new_token
from .protocol import VERSION, dumps
from .ratelimit import RateLimit
from .store import GameRow
from .table import CommandError, Seat, Table
from .tablegame import STAND_IN_LEVEL, MultiRunner

if TYPE_CHECKING:
    from .lobby import Multiplayer

log = logging.getLogger("damepique.server")

QUICK_MESSAGES = ("hello", "well_played", "thanks", "oops", "sorry", "nice_try", "good_game", "bye")
QS = parse_card("QS")


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass
class MpSettings:
    """Knobs of multiplayer tables; tests shorten the grace period and timers."""

    grace: float = field(default_factory=lambda: _env_float("DAMEPIQUE_GRACE", 60.0))
    timer_choices: tuple[int, ...] = field(
        default_factory=lambda: tuple(
            int(x) for x in os.environ.get("DAMEPIQUE_TIMER_CHOICES", "0,30,60").split(",") if x.strip()
        )
    )
    chat_interval: float = 1.0
    unknown_codes: int = field(default_factory=lambda: int(_env_float("DAMEPIQUE_UNKNOWN_CODES", 30)))
    """Table codes leading to no table one client address may name at once (HTTP and
    WebSocket together); then one more every ``unknown_codes_window / unknown_codes``
    seconds. 0 turns the limit off. See ``ratelimit.UnknownCodes``."""
    unknown_codes_window: float = field(
        default_factory=lambda: _env_float("DAMEPIQUE_UNKNOWN_CODES_WINDOW", 600.0)
    )
    unknown_codes_clock: Callable[[], float] = time.monotonic
    """The clock of that limit (tests pass a fake one)."""


@dataclass
class MpSeat:
    """A chair at a table. ``kind`` is ``empty``, ``human`` or ``bot``."""

    kind: str = "empty"
    name: str = ""
    level: str | None = None
    account: str | None = None
    """The account key of a signed-in player (ranked games), never sent."""
    nickname: str | None = None
    player: str | None = None
    """The browser's player id (for its history), never sent."""
    left: bool = False
    """Left for good during the game: a bot plays the seat until the game ends."""
    away: bool = False
    """Gone longer than the grace period: a bot plays until the player is back."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MpSeat:
        known: dict[str, Any] = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        return cls(**known)


@dataclass
class TableOptions:
    rules: dict[str, Any]
    timer: int = 0
    fill: bool = True
    level: str = "intermediate"
    public: bool = False
    ranked: bool = False
    spectators: bool = True
    speed: str = "normal"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(eq=False)
class Client:
    """One connection to a table or the lobby, with sends serialised and a rate limit.

    Equal only to itself, hashed by identity (``eq=False``: object's own, in C;
    a connection is a key of every table's ``conns``, looked up for each card)."""

    ws: Any
    account: str | None = None
    limit: RateLimit = field(default_factory=lambda: RateLimit(rate=50.0, burst=100.0))
    last_chat: float = 0.0
    host: str | None = None
    """The client's address (``scope["client"]``), where unknown table codes are counted."""
    mutes: set[int] = field(default_factory=set)
    patches: bool = False
    """Said ``hello`` with ``"patches": true``: state updates may come as patches."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    """Sends go one at a time, in order. Taking a lock nobody holds does not wait,
    so a send to a socket with room completes in one step (``tablegame.start_send``)."""

    async def send_text(self, data: str) -> None:
        """Send one text after the sends before it, in order."""
        async with self.lock:
            await self.ws.send_text(data)

    async def end(self, code: int, reason: str) -> None:
        """Close the connection (the page reconnects by itself)."""
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    def allow(self) -> bool:
        return self.limit.allow()


class MultiTable:
    """One table with a code: seats, host, options and the game being played."""

    def __init__(self, mp: Multiplayer, code: str, options: TableOptions, seats: list[MpSeat]) -> None:
        self.mp = mp
        self.code = code
        self.options = options
        self.rules = Rules.from_json(options.rules)
        self.seats = seats
        self.host: int | None = 0
        self.status = "waiting"
        self.game_id: str | None = None
        self.games: list[str] = []
        self.created = time.time()
        self.conns: dict[Any, int | None] = {}
        self._info_key: Any = None
        self._info: dict[str, Any] = {}
        self.runner: MultiRunner | None = None
        self.lock = asyncio.Lock()
        self._grace: dict[int, asyncio.Task[None]] = {}
        self.moved = False
        """Another process runs this table now (this one lost its lease)."""
        self._background: set[asyncio.Task[None]] = set()

    # -- persistence --------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "options": self.options.to_json(),
            "seats": [s.to_json() for s in self.seats],
            "host": self.host,
            "status": self.status,
            "game": self.game_id,
            "games": self.games,
            "created": self.created,
        }

    @classmethod
    def from_data(cls, mp: Multiplayer, data: dict[str, Any]) -> MultiTable:
        mt = cls(
            mp, data["code"], TableOptions(**data["options"]), [MpSeat.from_json(s) for s in data["seats"]]
        )
        mt.host = data.get("host")
        mt.status = data["status"]
        mt.game_id = data.get("game")
        mt.games = list(data.get("games") or [])
        mt.created = data.get("created", time.time())
        return mt

    async def save(self) -> None:
        await self.mp.store.save_table(self.code, self.status, self.options.public, self.to_data())

    # -- what people see ------------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        return any(s == seat for s in self.conns.values())

    def info(self) -> dict[str, Any]:
        """The table as everybody may see it. Built again only when something it
        shows changed (the options and rules never do): every state message
        carries it, and an unchanged one is then the same object, which a
        patch compares at no cost. Shared: never change what it returns."""
        key = (
            self.status,
            self.host,
            self.game_id,
            tuple(self.conns.values()),
            tuple((s.kind, s.name, s.nickname, s.level, s.away, s.left) for s in self.seats),
        )
        if key != self._info_key:
            self._info = self._build_info()
            self._info_key = key
        return self._info

    def _build_info(self) -> dict[str, Any]:
        o = self.options
        present = set(self.conns.values())  # once, not a scan of every connection per seat
        return {
            "code": self.code,
            "display": display_code(self.code),
            "status": self.status,
            "host": self.host,
            "game": self.game_id,
            "options": {
                "timer": o.timer,
                "fill": o.fill,
                "level": o.level,
                "public": o.public,
                "ranked": o.ranked,
                "spectators": o.spectators,
                "speed": o.speed,
            },
            "rules": self.rules.to_json(),
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "nickname": s.nickname,
                    "level": s.level,
                    "connected": i in present,
                    "away": s.away,
                    "left": s.left,
                }
                for i, s in enumerate(self.seats)
            ],
            "spectators": sum(1 for s in self.conns.values() if s is None),
            "can_start": self.can_start()[0],
        }

    def lobby_entry(self) -> dict[str, Any]:
        info = self.info()
        humans = sum(1 for s in self.seats if s.kind == "human" and not s.left)
        return {
            "code": self.code,
            "display": info["display"],
            "status": self.status,
            "players": self.rules.players,
            "taken": humans,
            "free": sum(1 for s in self.seats if s.kind == "empty"),
            "names": [s.name for s in self.seats if s.kind == "human" and not s.left],
            "rules": info["rules"],
            "options": info["options"],
        }

    def table_message(self, seat: int | None) -> dict[str, Any]:
        return {"v": VERSION, "type": "table", "you": seat, "table": self.info()}

    async def send(self, conn: Any, msg: dict[str, Any]) -> None:
        await self.send_raw(conn, dumps(msg))

    async def send_raw(self, conn: Any, text: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.send_text(text), 10.0)

    async def announce(self, skip: Any = None) -> None:
        """Send every connection the table as it is now (its own ``you``).

        The sends go on in the background: the caller (often a connection's own
        handler, which may be closing) never waits on other people's sockets."""
        info = self.info()
        texts = [
            (c, dumps({"v": VERSION, "type": "table", "you": s, "table": info}))
            for c, s in list(self.conns.items())
            if c is not skip
        ]
        if texts:
            self._spawn(self._send_all(texts))
        if self.options.public:
            self.mp.lobby_changed()

    async def _send_all(self, texts: list[tuple[Any, str]]) -> None:
        for conn, text in texts:
            await self.send_raw(conn, text)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def notice(self, kind: str, seat: int | None, **extra: Any) -> None:
        text = dumps({"v": VERSION, "type": "notice", "kind": kind, "seat": seat, **extra})
        self._spawn(self._send_all([(c, text) for c in list(self.conns)]))

    async def send_state(self, conn: Any, seat: int | None, ref: Any = None) -> None:
        if self.runner is None:
            return
        if seat is None and not self.options.spectators:
            return
        msg = self.runner.state(-1 if seat is None else seat)
        if ref is not None:
            msg["ack"] = ref
        self.runner.table_hub.forget(conn)
        await self.send(conn, msg)

    # -- connections -------------------------------------------------------------------------

    async def attach(self, conn: Any, seat: int | None) -> None:
        self.conns[conn] = seat
        if seat is not None:
            task = self._grace.pop(seat, None)
            if task is not None:
                task.cancel()
            ms = self.seats[seat]
            if ms.away:
                async with self.lock:
                    ms.away = False
                    await self.save()
                if self.runner is not None:
                    self.runner.rearm()
                await self.notice("back", seat)
        # The newcomer hears of the table first, before any state; the others soon.
        await self.send(conn, self.table_message(seat))
        await self.announce(skip=conn)

    def detach(self, conn: Any) -> None:
        """Forget a connection; the others hear of it soon (no wait: this runs while
        a closing connection's handler is being torn down)."""
        seat = self.conns.pop(conn, "gone")
        if seat == "gone":
            return
        if isinstance(seat, int) and not self.connected(seat):
            self._start_grace(seat)
        self._spawn(self.announce())
        if not self.conns and self.status in ("over", "closed"):
            # A finished table nobody watches leaves memory; its code still works (loaded again).
            self.mp.forget(self)

    def _start_grace(self, seat: int) -> None:
        ms = self.seats[seat]
        if self.status != "playing" or ms.kind != "human" or ms.left or ms.away or seat in self._grace:
            return
        self._grace[seat] = asyncio.get_running_loop().create_task(self._grace_over(seat))

    async def _grace_over(self, seat: int) -> None:
        await asyncio.sleep(self.mp.settings.grace)
        self._grace.pop(seat, None)
        if self.connected(seat) or self.status != "playing":
            return
        async with self.lock:
            ms = self.seats[seat]
            if ms.kind != "human" or ms.left or ms.away:
                return
            ms.away = True
            await self.save()
        await self.notice("stand_in", seat)
        await self.announce()
        if self.runner is not None:
            self.runner.rearm()
            self.runner.kick()

    # -- seats -----------------------------------------------------------------------------------

    def can_start(self) -> tuple[bool, str]:
        if self.status != "waiting":
            return False, "the game has already started"
        humans = sum(1 for s in self.seats if s.kind == "human")
        if self.options.fill:
            if humans < 2:
                return False, "a second person must sit down first"
        elif humans < len(self.seats):
            return False, "every seat must be taken first"
        return True, ""

    async def sit(
        self,
        name: object,
        account: str | None,
        nickname: str | None,
        player: str | None,
        announce: bool = True,
    ) -> tuple[str, int]:
        """Take the first empty seat; returns (token, seat)."""
        async with self.lock:
            if self.status == "closed":
                raise CommandError("no_table", "this table is closed")
            if self.status != "waiting":
                raise CommandError("already_started", "the game has started; you may watch")
            free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
            if not free:
                raise CommandError("table_full", "every seat at this table is taken")
            if self.options.ranked:
                if account is None:
                    raise CommandError("account_needed", "ranked tables need an account: sign in first")
                if any(s.account == account for s in self.seats):
                    raise CommandError("already_seated", "you already sit at this table")
            seat = free[0]
            label = nickname if (self.options.ranked and nickname) else _clean_name(name)
            self.seats[seat] = MpSeat("human", label, None, account, nickname, player)
            if self.host is None:
                self.host = seat
            token = new_token()
            await self.mp.store.add_token(token, self.code, seat)
            await self.save()
        if announce:
            await self.announce()
        return token, seat

    async def leave(self, seat: int) -> None:
        """Leave for good: before the game the seat is free again; during it a bot finishes it."""
        async with self.lock:
            ms = self.seats[seat]
            if ms.kind != "human" or ms.left:
                raise CommandError("not_seated", "you do not sit at this table")
            await self.mp.store.drop_token(self.code, seat)
            if self.status == "playing" and self.runner is not None:
                async with self.runner.lock:
                    ms.left = True
                    ms.away = False
                    self.runner.table.seats[seat] = Seat("bot", ms.name, STAND_IN_LEVEL)
                    await self.save()
            else:
                self.seats[seat] = MpSeat()
                if self.host == seat:
                    self.host = next((i for i, s in enumerate(self.seats) if s.kind == "human"), None)
                if self.host is None and self.status == "waiting":
                    self.status = "closed"
                await self.save()
            task = self._grace.pop(seat, None)
            if task is not None:
                task.cancel()
            for c, s in list(self.conns.items()):
                if s == seat:
                    self.conns[c] = None
        await self.notice("left", seat)
        await self.announce()
        if self.runner is not None and self.status == "playing":
            self.runner.rearm()
            self.runner.kick()
            if self.options.spectators:
                await self.runner.hub.broadcast(self.runner.id, lambda s: dumps(self.runner.state(s)))  # type: ignore[union-attr]
        if self.status == "closed":
            self.mp.forget(self)

    # -- games ------------------------------------------------------------------------------------

    async def start(self, seat: int) -> None:
        async with self.lock:
            if self.host != seat:
                raise CommandError("not_host", "only the host starts the game")
            ok, reason = self.can_start()
            if not ok:
                raise CommandError("cannot_start", reason)
            await self._new_game()
        await self._begin()

    async def rematch(self, seat: int, game: object) -> None:
        async with self.lock:
            if self.seats[seat].kind != "human" or self.seats[seat].left:
                raise CommandError("not_seated", "you do not sit at this table")
            finished = self.runner is not None and self.runner.table.over
            if not isinstance(game, str) or game != self.game_id or not finished:
                raise CommandError(
                    "stale_rematch", "this rematch is for a game that is not the last one finished"
                )
            if self.status == "playing" and self.runner is not None:
                # The last card is out and its results are on their way: finish them first.
                await self.game_over(self.runner)
            for i, s in enumerate(self.seats):
                if s.left or s.kind == "bot":
                    if s.left:
                        await self.mp.store.drop_token(self.code, i)
                    self.seats[i] = MpSeat()
                s.away = False
            if self.host is None or self.seats[self.host].kind != "human":
                self.host = seat
            self.status = "waiting"
            ok, _ = self.can_start()
            if not ok:
                # Someone left and no bots may fill: wait for people again.
                self.status = "waiting"
                old = self.runner
                self.runner = None
                await self.save()
                if old is not None:
                    await old.stop()
            else:
                self.status = "waiting"
                await self._new_game()
        if self.runner is not None and self.status == "playing":
            await self._begin()
        else:
            await self.announce()

    async def _new_game(self) -> None:
        """Fill the empty seats with bots and create the game (lock held)."""
        bots = iter(_BOT_NAMES)
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                self.seats[i] = MpSeat("bot", next(bots), self.options.level)
        seats = [Seat(s.kind, s.name, s.level) for s in self.seats]
        game = GameRow(
            id=secrets.token_hex(8),
            owner=None,
            rules=self.rules.to_json(),
            seats=[x.to_json() for x in seats],
            secret=new_secret().hex(),
            options={
                "kind": "table",
                "code": self.code,
                "level": self.options.level,
                "speed": self.options.speed,
            },
        )
        await self.mp.games.store.create_game(game, {})
        old = self.runner
        self.runner = MultiRunner(
            game,
            Table(self.rules, seats, game.secret_bytes, game.sealed),
            self.mp.games.store,
            self,
            self.mp.games.thinker,
            self.mp.pace,
        )
        if old is not None:
            await old.stop()
        self.game_id = game.id
        self.games.append(game.id)
        self.status = "playing"
        await self.save()

    async def _begin(self) -> None:
        await self.announce()
        assert self.runner is not None
        await self.runner.start()
        self.runner.rearm()
        # Players who are not connected now get their grace period from the start.
        for i, _ in enumerate(self.seats):
            if not self.connected(i):
                self._start_grace(i)

    async def load_game(self) -> None:
        """Rebuild the game after a restart from the stored events."""
        assert self.game_id is not None
        loaded = await self.mp.games.store.load_game(self.game_id)
        if loaded is None:
            raise RuntimeError(f"table {self.code}: game {self.game_id} is missing")
        game, events = loaded
        seats = [Seat.from_json(s) for s in game.seats]
        for i, ms in enumerate(self.seats):
            if ms.left:
                seats[i] = Seat("bot", ms.name, STAND_IN_LEVEL)
        table = Table.replay(self.rules, seats, game.secret_bytes, events, game.sealed)
        self.runner = MultiRunner(game, table, self.mp.games.store, self, self.mp.games.thinker, self.mp.pace)
        if self.status == "playing":
            await self.runner.start()
            self.runner.resume_from(events)
            self.runner.rearm()
            for i, _ in enumerate(self.seats):
                self._start_grace(i)
            if table.over:
                await self.game_over(self.runner)

    async def game_over(self, runner: MultiRunner, announce: bool = True) -> None:
        """Results and ratings of the finished game, once; the table waits for a rematch.

        Runs when the game's end is stored, before anyone hears of it, and is
        shielded: a closing connection does not leave a finished game unrated."""
        if runner is not self.runner:
            return
        await asyncio.shield(self._finish(runner))
        if announce:
            await self.announce()

    async def _finish(self, runner: MultiRunner) -> None:
        await self.mp.record_result(self, runner)
        if self.status == "playing":
            self.status = "over"
            for t in self._grace.values():
                t.cancel()
            self._grace.clear()
            await self.save()

    async def close(self) -> None:
        for t in self._grace.values():
            t.cancel()
        self._grace.clear()
        if self.runner is not None:
            await self.runner.stop()


_BOT_NAMES = ("Bot Ada", "Bot Bea", "Bot Cy", "Bot Dom", "Bot Eve")


def _clean_name(name: object) -> str:
    text = name.strip() if isinstance(name, str) else ""
    text = "".join(ch for ch in text if ch.isprintable())[:24]
    return text or "Player"


__all__ = ["QUICK_MESSAGES", "Client", "MpSeat", "MpSettings", "MultiTable", "TableOptions"]
