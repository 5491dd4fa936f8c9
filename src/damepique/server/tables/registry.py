"""The registry of tables: every game is played at one.

``Tables`` makes tables (a solo game's, or one for others), finds them by
code or by seat token, loads them from the store (after a restart, or when
their process died), saves them, and lets them go when nothing runs for
them. It is what a table asks for its persistence and its games
(``table.Services``), and what the cluster's relay routes a connection's
hello by. A table is run by the process that holds its lease.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping

from damepique.engine import Rules
from damepique.engine.fairness import new_secret
from damepique.wire import GameFinish, GameStart, LobbyEntry, game_finish_event, game_start_event

from ..accounts.results import record_result
from ..accounts.summaries import mode_for, seat_summary
from ..asgi import Connection
from ..clock import Clock
from ..cluster.events import tell
from ..cluster.node import Node
from ..cluster.relay import MOVED, Relay
from ..errors import Refusal
from ..play.game import Game, Seat
from ..play.hub import Hub
from ..play.pace import Pace
from ..play.runner import Runner
from ..play.thinking import Thinker
from ..protocol import Json
from ..settings import Settings
from ..storage.accounts import AccountStore
from ..storage.games import GameRow, GameStore
from ..storage.stats import StatsStore
from ..storage.tables import TableStore
from .codes import new_code, new_token, normalize_code
from .kinds import GameKind
from .limits import Allowance, UnknownCodes, retry_after
from .lobby import Lobby
from .seating import SoloSeating, TableSeating
from .seats import STAND_IN_LEVEL, Sitter, TableOptions, TableSeat
from .session import Session, TableMoved
from .table import Table
from .tokens import SeatTokens

log = logging.getLogger("damepique.server")


EXPIRY_CHECK_S = 30.0
"""How often tables and games nobody joined are looked for."""
TAKE_OVER_BATCH = 100
"""Tables taken over a second at most (after a restart, or a process that died)."""


class Tables:
    def __init__(
        self,
        *,
        games: GameStore,
        store: TableStore,
        accounts: AccountStore,
        hub: Hub,
        thinker: Thinker,
        pace: Pace,
        settings: Settings,
        node: Node,
    ) -> None:
        self.games = games
        self.store = store
        self.accounts = accounts
        self.hub = hub
        self.thinker = thinker
        self.pace = pace
        self.settings = settings
        self.clock: Clock = settings.clock
        """The app's one clock (``Settings.clock``): timers, grace, expiry, limits."""
        self.node = node
        self.tables: dict[str, Table] = {}
        self.stats = StatsStore(games.db)
        self.kinds: dict[str, GameKind] = {}
        """Kinds of table whose games are made their own way (``kinds.GameKind``), by ``Table.kind``."""
        self.unknown_codes = UnknownCodes(settings)
        """Codes that led to no table, per client address (HTTP and WebSocket alike)."""
        self.creations = Allowance(
            lambda: settings.creations, lambda: settings.creations_window, lambda: settings.clock.monotonic()
        )
        """Tables and solo games created, per client address (``refuse_creation``)."""
        self._expired = settings.clock.monotonic()
        self.lobby = Lobby(node, self.local_lobby)
        self.relay = Relay(node, self._route, self._open, self._runnable, settings.send_queue)
        self._loading: dict[str, asyncio.Lock] = {}
        self._taken_over = False
        self.tokens = SeatTokens()
        """The seat tokens of the tables in ``tables`` (a hello finds its seat without a query)."""
        node.on_lost(self._lost)
        node.on_call("sit", self._call_sit)
        node.every_tick(self._take_over)
        node.every_tick(self._expire)

    @property
    def grace(self) -> float:
        return self.settings.grace

    @property
    def chat_interval(self) -> float:
        return self.settings.chat_interval

    # -- making tables ---------------------------------------------------------------------

    def refuse_creation(self, host: str | None) -> None:
        """Count a table or solo game ``host`` creates; ``Refusal`` when it made
        too many lately (one client cannot fill the memory and the lobby)."""
        wait = self.creations.take(host)
        if wait:
            raise Refusal(
                "too_many_created",
                f"too many games and tables created from your address; try again in {retry_after(wait)} s",
                params={"seconds": retry_after(wait)},
                retry_after=retry_after(wait),
            )

    async def create(
        self, kind: str, options: TableOptions, seats: list[TableSeat], *, host: int | None = None
    ) -> Table:
        """A new table with a fresh code, run here, saved before anyone hears of it."""
        code = new_code()
        while code in self.tables or await self.store.exists(code) or not await self.node.claim(code):
            code = new_code()
        table = Table(self, code, kind, options, seats)
        table.host = host
        self.tables[code] = table
        await self.save(table)
        return table

    async def create_solo(
        self, rules: Rules, level: str, speed: str, seats: list[TableSeat]
    ) -> tuple[Table, str]:
        """A solo game's table, its game begun: returns it and the person's seat token (seat 0)."""
        options = TableOptions(rules.to_json(), level=level, speed=speed, spectators=False)
        table = await self.create("solo", options, seats)
        token = await self.add_token(table, 0)
        await table.start(None)
        return table, token

    # -- what a table asks of its registry (``table.Services``) ---------------------------------

    async def save(self, table: Table) -> None:
        await self.store.save(
            table.code, table.kind, table.status, table.options.public, table.to_data(), joined=table.joined
        )

    async def add_token(self, table: Table, seat: int, ticket: str | None = None) -> str:
        token = new_token()
        await self.store.add_token(token, table.code, seat, ticket)
        if self.tables.get(table.code) is table:
            self.tokens.add(token, table.code, seat)
        return token

    async def drop_token(self, table: Table, seat: int) -> None:
        await self.store.drop_token(table.code, seat)
        self.tokens.drop(table.code, seat)

    async def move_tokens(self, table: Table, moves: Mapping[int, int]) -> None:
        await self.store.move_tokens(table.code, moves)
        self.tokens.move(table.code, moves)

    def _seating(self, table: Table) -> SoloSeating:
        return SoloSeating(table) if table.solo else TableSeating(table)

    async def new_game(self, table: Table) -> Runner:
        seats = [Seat(s.kind, s.name, s.level, s.player) for s in table.seats]
        owner = table.seats[0].player if table.solo else None
        kind = self.kinds.get(table.kind)
        secret, extra = await kind.new_secret(table) if kind is not None else (new_secret(), {})
        row = GameRow(
            id=secrets.token_hex(8),
            owner=owner,
            rules=table.rules.to_json(),
            seats=[s.to_json() for s in seats],
            secret=secret.hex(),
            options={
                "kind": table.kind,
                "code": table.code,
                "level": table.options.level,
                "speed": table.options.speed,
                "ranked": table.options.ranked,
            }
            | extra,
        )
        await self.games.create_game(row)
        if kind is not None:
            game = kind.game(table.rules, seats, row.secret_bytes, row.options, [])
        else:
            game = Game(table.rules, seats, row.secret_bytes, row.sealed)
        return self._runner(table, row, game)

    def _runner(self, table: Table, row: GameRow, game: Game) -> Runner:
        """The runner of ``table``'s game, new or loaded."""
        return Runner(
            row,
            game,
            table.code,
            self.games,
            self.hub,
            self.thinker,
            self._seating(table),
            self.pace,
            clock=self.clock,
        )

    async def load_game(self, table: Table) -> Runner:
        assert table.game_id is not None
        loaded = await self.games.load_game(table.game_id)
        if loaded is None:
            raise RuntimeError(f"table {table.code}: game {table.game_id} is missing")
        row, events = loaded
        seats = [Seat.from_json(s) for s in row.seats]
        for i, ts in enumerate(table.seats):
            if ts.left:
                seats[i] = Seat("bot", ts.name, STAND_IN_LEVEL)
        rules = Rules.from_json(row.rules)
        kind = self.kinds.get(table.kind)
        if kind is not None:
            game = kind.game(rules, seats, row.secret_bytes, row.options, events)
        else:
            game = Game.replay(rules, seats, row.secret_bytes, events, row.sealed)
        runner = self._runner(table, row, game)
        runner.resume_from(events)
        return runner

    async def record_result(self, table: Table, game_id: str, game: Game) -> None:
        players = {
            i: (s.account, s.left or s.away)
            for i, s in enumerate(table.seats)
            if s.kind == "human" and s.account is not None
        }
        await record_result(
            self.accounts,
            game_id,
            table.code,
            table.options.ranked,
            players,
            game.match,
            ladder=table.options.ladder,
        )
        if table.options.ranked and len(players) >= 2:  # a leave: repeated, it bars quick ranked play
            for account, gone in players.values():
                if gone:
                    await self.stats.left(account, game_id, self.settings.clock.time())
        # Who played it, guests too (by their browser's id), and their part of it: their statistics.
        who = {
            i: f"a:{s.account}" if s.account else f"g:{s.player}"
            for i, s in enumerate(table.seats)
            if s.kind == "human" and (s.account or s.player)
        }
        at, names = self.settings.clock.time(), [s.name for s in table.seats]
        mode = mode_for(table.kind, table.options.ranked)
        parts = {
            i: seat_summary(game.match, i, game=game_id, finished=at, mode=mode, players=names) for i in who
        }
        await self.stats.played(game_id, who, at, parts)
        kind = self.kinds.get(table.kind)
        if kind is not None:
            await kind.finished(table, game_id, game)
        # Each account at the table hears of the end on its event stream (docs/bot-api.md).
        # A restart between the results and the table's save finishes it again
        # and tells it again: the event's id is the same, the client drops it.
        m = game.match
        for seat, (account, _gone) in players.items():
            finish: GameFinish = {
                "table": table.code,
                "game": game_id,
                "seat": seat,
                "totals": list(m.totals),
                "winner": m.winner,
            }
            await tell(self.node.broker, account, game_finish_event(finish))

    async def game_started(self, table: Table) -> None:
        """Each account seated (a table it joined, a quick match, a tournament's
        table) hears ``gameStart`` on its event stream, with its seat's token; not
        a solo game's one person, who started it."""
        if table.solo or table.game_id is None:
            return
        for seat, s in enumerate(table.seats):
            if s.kind != "human" or s.account is None or s.left:
                continue
            start: GameStart = {"table": table.code, "seat": seat, "game": table.game_id}
            token = await self.store.token_of(table.code, seat)
            if token is not None:
                start["token"] = token
            await tell(self.node.broker, s.account, game_start_event(start))

    async def playing(self, account: str) -> list[GameStart]:
        """Each game being played with ``account`` seated, as ``gameStart`` (its stream, opening)."""
        starts: list[GameStart] = []
        for data in await self.store.playing_with(account):
            for seat, s in enumerate(data["seats"]):
                if s.get("account") == account and s.get("kind") == "human" and not s.get("left"):
                    start: GameStart = {"table": data["code"], "seat": seat, "game": data["game"]}
                    if (token := await self.store.token_of(data["code"], seat)) is not None:
                        start["token"] = token
                    starts.append(start)
        return starts

    def lobby_changed(self) -> None:
        self.lobby.changed()

    def forget(self, table: Table) -> None:
        """A table nobody watches leaves memory once nothing runs for it (its code
        still works: it is loaded again), and its lease is handed back."""
        if self.hub.count(table.code) == 0 and table.idle and self.tables.get(table.code) is table:
            del self.tables[table.code]
            self.tokens.forget(table.code)
            self._loading.pop(table.code, None)
            self.node.released(table.code)
            if table.runner is not None:
                table.spawn(table.runner.stop())

    # -- finding tables ------------------------------------------------------------------------

    async def get(self, code: str) -> Table | None:
        """The table with this code, loaded from the store if it is not in memory.
        Raises ``TableMoved`` when another process runs it."""
        table = self.tables.get(code)
        if table is not None:
            return table
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            table = self.tables.get(code)
            if table is not None:
                return table
            data = await self.store.load(code)
            if data is None or data.get("status") == "closed":
                return None
            if not await self.node.claim(code):
                raise TableMoved(code)
            table = Table.from_data(self, data)
            if table.game_id is not None and table.status in ("playing", "over"):
                await table.resume()
            self.tables[code] = table
            return table

    async def by_token(self, token: str) -> tuple[Table, int] | None:
        if not 8 <= len(token) <= 128:
            return None
        found = await self.find_token(token)
        if found is None:
            return None
        table = await self.get(found[0])
        return None if table is None else (table, found[1])

    async def find_token(self, token: str) -> tuple[str, int] | None:
        """(code, seat) of a seat token: remembered for the tables in memory here
        (``SeatTokens``), else from the store (and then remembered, when its table is here)."""
        found = self.tokens.get(token)
        if found is not None:
            return found
        found = await self.store.find_token(token)
        if found is not None and found[0] in self.tables:
            self.tokens.add(token, *found)
        return found

    async def reload(self, table: Table) -> Runner:
        """A game whose store write failed (memory and store may disagree): load it again."""
        async with table.lock:
            runner = table.runner
            if runner is None or runner.broken:
                if runner is not None:
                    await runner.stop()
                await table.resume()
            assert table.runner is not None
            return table.runner

    async def sitter(self, account: str | None) -> Sitter:
        """Who sits with this account (None: nobody signed in): a person, or a
        program with a bot account (then its owner is the person who made it)."""
        acc = await self.accounts.get_account(account) if account is not None else None
        if acc is None:
            return Sitter()
        program = acc["kind"] == "bot"
        return Sitter(account, str(acc["nickname"]), program, acc["owner"] if program else account)

    def local_lobby(self) -> list[LobbyEntry]:
        """The public tables this process runs."""
        return [
            t.lobby_entry()
            for t in self.tables.values()
            if t.options.public and t.status in ("waiting", "playing")
        ]

    # -- several processes ------------------------------------------------------------------------

    async def _route(self, hello: Json, conn: Connection) -> str | None:
        """The table a hello is for (from its token or its code), or None to answer it here."""
        token = hello.get("token")
        if token is not None:
            if not isinstance(token, str) or not 8 <= len(token) <= 128:
                return None
            found = await self.find_token(token)
            return None if found is None else found[0]
        if self.unknown_codes.wait(conn.host):
            return None  # over the limit: refused here, where the address is counted
        raw = hello.get("table")
        return normalize_code(raw) if isinstance(raw, str) and len(raw) < 40 else None

    async def _runnable(self, code: str) -> bool:
        data = await self.store.load(code)
        return data is not None and data.get("status") != "closed"

    def _open(self, conn: Connection, relayed: bool) -> Session:
        return Session(self, conn, relayed)

    async def _lost(self, code: str) -> None:
        """Another process runs this table now: stop it here and send its pages there."""
        table = self.tables.pop(code, None)
        self.tokens.forget(code)
        if table is None:
            return
        table.moved = True
        await table.close()
        for conn in self.hub.connections(code):
            self.hub.detach(code, conn)
            await conn.end(MOVED, "this table moved to another server; reconnect")

    async def _take_over(self) -> None:
        """Run the tables with others that nobody runs (their process died or stopped).
        A process alone looks once, at its start (a restart): afterwards every
        running table is in its memory, and a look each second would read every
        table's row for nothing."""
        if self._taken_over and self.node.alone:
            return
        codes = await self.node.leases.unheld(self.store.running(), TAKE_OVER_BATCH)
        self._taken_over = len(codes) < TAKE_OVER_BATCH  # a full batch: more next second
        for code in codes:
            if code in self.tables or not await self.node.claim(code):
                continue
            log.info("taking over table %s", code)
            try:
                await self.get(code)
            except Exception:
                log.exception("could not take over table %s", code)

    async def _expire(self) -> None:
        """Every ``EXPIRY_CHECK_S``: tables waiting with nobody at them for
        ``settings.unjoined`` seconds close (they leave the lobby and memory),
        and solo games nobody joined in that time go, from memory and store."""
        now = self.clock.monotonic()
        if now - self._expired < EXPIRY_CHECK_S or self.settings.unjoined <= 0:
            return
        self._expired = now
        limit = self.settings.unjoined
        for table in list(self.tables.values()):
            empty = table.empty_since is not None and now - table.empty_since > limit
            if not table.solo and table.status == "waiting" and empty and self.hub.count(table.code) == 0:
                log.info("table %s expired: nobody at it for %.0f s", table.code, limit)
                await table.expire()
        unjoined = await self.store.unjoined_solo(self.clock.time() - limit)
        holders = await self.node.leases.holders([code for code, _ in unjoined])
        for code, game_id in unjoined:
            held = self.tables.get(code)
            if held is None and holders.get(code, self.node.pid) != self.node.pid:
                continue  # another process has it in memory: it will see to it
            if held is not None:
                if held.joined or self.hub.count(code):
                    continue
                del self.tables[code]
                self.tokens.forget(code)
                self.node.released(code)
                if held.runner is not None:
                    await held.runner.stop()
            await self.store.delete(code)
            if game_id is not None:
                await self.games.delete(game_id)

    async def _call_sit(self, code: str, name: object, sitter: Json) -> Json:
        """Another process took a seat for a page (``POST /api/tables/{code}/seats``)."""
        table = await self.get(code)
        if table is None:
            raise Refusal("no_table", "no table with this code")
        token, seat = await table.sit(name, Sitter.from_json(sitter))
        return {"token": token, "seat": seat}

    async def close(self) -> None:
        await self.relay.stop()
        for table in list(self.tables.values()):
            await table.close()


__all__ = ["Tables"]
