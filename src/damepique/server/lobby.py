"""The registry of tables: create, find by code or token, reload after a
restart, the live lobby of public tables, and each finished game's results
and ratings.

>>> from damepique.server.lobby import Multiplayer
>>> Multiplayer.__name__
'Multiplayer'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from damepique.engine import Rules

from .cluster import Cluster
from .codes import new_code
from .games import LEVELS, SPEEDS, Pace
from .mpstore import MpStore
from .multiplayer import QS, MpSeat, MpSettings, MultiTable, TableOptions
from .protocol import VERSION, dumps
from .ratelimit import UnknownCodes
from .ratings import DEFAULT_RATING, update_ratings
from .table import CommandError
from .table_session import MOVED, TableMoved
from .tablegame import MultiRunner

log = logging.getLogger("damepique.server")


class Multiplayer:
    """The registry of tables: create, find by code, load all after a restart, the lobby."""

    def __init__(
        self, games: Any, store: MpStore, settings: MpSettings | None = None, cluster: Cluster | None = None
    ) -> None:
        self.games = games
        self.store = store
        self.settings = settings or MpSettings()
        self.unknown_codes = UnknownCodes(self.settings)
        """Codes that led to no table, per client address (HTTP and WebSocket alike)."""
        self.cluster = cluster or Cluster()
        """The other server processes (none with the default ``memory://`` broker)."""
        self.cluster.mp = self
        self.tables: dict[str, MultiTable] = {}
        self.lobby_conns: set[Any] = set()
        self._lobby_task: asyncio.Task[None] | None = None
        self.accounts: Any = None
        self._loading = asyncio.Lock()
        self._lobby_everywhere = False

    @property
    def pace(self) -> Pace:
        return self.games.pace  # type: ignore[no-any-return]

    async def start(self) -> None:
        """Load every table that was open when the server stopped; their games go on.

        With other processes (a broker), this process loads only the tables
        nobody runs, and goes on looking for such tables every second."""
        await self.store.init()
        if self.accounts is not None:
            await self.accounts.start()
        if not self.cluster.single:
            await self.cluster.start(self, self.store.engine, self.store.lock)
            return
        for data in await self.store.active_tables():
            mt = MultiTable.from_data(self, data)
            self.tables[mt.code] = mt
            if mt.game_id is not None and mt.status in ("playing", "over"):
                try:
                    await mt.load_game()
                except Exception:
                    log.exception("could not reload table %s", mt.code)

    async def close(self) -> None:
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        for mt in list(self.tables.values()):
            await mt.close()
        await self.cluster.stop()

    def forget(self, mt: MultiTable) -> None:
        if self.tables.get(mt.code) is mt:
            del self.tables[mt.code]
            self.cluster.released(mt.code)

    async def drop(self, code: str) -> None:
        """Another process runs this table now: stop it here and send its pages
        there (they reconnect)."""
        mt = self.tables.pop(code, None)
        if mt is None:
            return
        mt.moved = True
        await mt.close()
        for conn in list(mt.conns):
            await conn.end(MOVED, "this table moved to another server; reconnect")
        mt.conns.clear()

    async def nickname_of(self, key: str | None) -> str | None:
        if key is None:
            return None
        acc = await self.store.get_account(key)
        return None if acc is None else str(acc["nickname"])

    async def get(self, code: str) -> MultiTable | None:
        """The table with this code, loaded from the store if it was set aside.

        Raises ``TableMoved`` when another process runs it."""
        mt = self.tables.get(code)
        if mt is not None:
            return mt
        async with self._loading:
            mt = self.tables.get(code)
            if mt is not None:
                return mt
            data = await self.store.load_table(code)
            if data is None or data.get("status") == "closed":
                return None
            if not await self.cluster.claim(code):
                raise TableMoved(code)
            mt = MultiTable.from_data(self, data)
            if mt.game_id is not None and mt.status in ("playing", "over"):
                await mt.load_game()
            self.tables[code] = mt
            return mt

    async def create(
        self,
        *,
        rules: Rules,
        timer: int,
        fill: bool,
        level: str,
        public: bool,
        ranked: bool,
        spectators: bool,
        speed: str,
        name: object,
        account: str | None,
        nickname: str | None,
        player: str | None,
    ) -> tuple[MultiTable, str, int]:
        if timer not in self.settings.timer_choices:
            raise CommandError("bad_timer", f"time per turn must be one of {self.settings.timer_choices}")
        if level not in LEVELS:
            raise CommandError("bad_level", f"level must be one of {', '.join(LEVELS)}")
        if speed not in SPEEDS:
            raise CommandError("bad_speed", "speed must be normal or fast")
        if ranked and account is None:
            raise CommandError("account_needed", "ranked tables need an account: sign in first")
        code = new_code()
        while (
            code in self.tables
            or await self.store.load_table(code) is not None
            or not await self.cluster.claim(code)
        ):
            code = new_code()
        options = TableOptions(rules.to_json(), timer, fill, level, public, ranked, spectators, speed)
        mt = MultiTable(self, code, options, [MpSeat() for _ in range(rules.players)])
        mt.host = None
        self.tables[code] = mt
        await mt.save()
        token, seat = await mt.sit(name, account, nickname, player)
        return mt, token, seat

    async def by_token(self, token: object) -> tuple[MultiTable, int] | None:
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        found = await self.store.find_token(token)
        if found is None:
            return None
        mt = await self.get(found[0])
        return None if mt is None else (mt, found[1])

    # -- the lobby --------------------------------------------------------------------------------

    def local_lobby(self) -> list[dict[str, Any]]:
        """The public tables this process runs."""
        return [
            mt.lobby_entry()
            for mt in self.tables.values()
            if mt.options.public and mt.status in ("waiting", "playing")
        ]

    def lobby(self) -> list[dict[str, Any]]:
        """Every public table, including those other processes run."""
        rows = self.local_lobby()
        here = {r["code"] for r in rows}
        # A table that just moved here may still be in its old process's last word.
        rows += [r for r in self.cluster.lobby_entries() if r["code"] not in here]
        rows.sort(key=lambda r: (r["status"] != "waiting", -r["taken"], r["code"]))
        return rows[:200]

    def lobby_changed(self) -> None:
        """Tell the lobby soon (here and at the other processes); changes close
        together go out as one message."""
        self.push_lobby(everywhere=True)

    def push_lobby(self, everywhere: bool = False) -> None:
        if not everywhere and not self.lobby_conns:
            return
        if self._lobby_task is not None and not self._lobby_task.done():
            self._lobby_everywhere = self._lobby_everywhere or everywhere
            return
        self._lobby_everywhere = everywhere
        self._lobby_task = asyncio.get_running_loop().create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        await asyncio.sleep(0.1)
        if self._lobby_everywhere:
            self.cluster.lobby_changed()
        if not self.lobby_conns:
            return
        text = dumps({"v": VERSION, "type": "lobby", "tables": self.lobby()})
        for conn in list(self.lobby_conns):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.send_text(text), 5.0)

    # -- results and ratings ------------------------------------------------------------------------

    async def record_result(self, mt: MultiTable, runner: MultiRunner) -> None:
        match = runner.table.match
        totals = match.totals
        humans = {i: s for i, s in enumerate(mt.seats) if s.kind == "human" and s.account}
        if not humans or await self.store.result_of(runner.id) is not None:
            return
        # A bot finished the game for a player who left for good, or who dropped
        # and stayed away past the grace period: a loss for Elo, never a win.
        gone = {seat for seat, ms in humans.items() if ms.left or ms.away}
        stats: dict[str, dict[str, int]] = {}
        for seat, ms in humans.items():
            assert ms.account is not None
            won = match.winner == seat and seat not in gone
            st = {"games": 1, "ranked": 1 if mt.options.ranked else 0, "wins": int(won)}
            st["deals"] = len(match.deals)
            st["points"] = totals[seat]
            st["moons"] = sum(1 for d in match.deals if d.result().moon == seat)
            st["queens"] = sum(
                1 for d in match.deals for (_, cards, w, _) in d.tricks if w == seat and QS in cards
            )
            stats[ms.account] = st
        ratings: dict[str, float] = {}
        if mt.options.ranked and len(humans) >= 2:
            before = {}
            for ms in humans.values():
                assert ms.account is not None
                acc = await self.store.get_account(ms.account)
                before[ms.account] = acc["rating"] if acc else DEFAULT_RATING
            ratings = update_ratings(
                before,
                {ms.account: totals[i] for i, ms in humans.items()},  # type: ignore[misc]
                left=[ms.account for seat, ms in humans.items() if seat in gone],  # type: ignore[misc]
            )
        data = {"code": mt.code, "ranked": mt.options.ranked, "totals": totals, "ratings": ratings}
        await self.store.record_result(runner.id, data, ratings, stats)


__all__ = ["Multiplayer"]
