"""The daily deal: one sealed game a day, the same for everyone (``docs/daily.md``).

``Daily`` makes each day's secret when the day is first asked for (never
before it starts), has the experts play the day's par once, starts or
resumes a player's one try of the day (a solo table of kind ``daily``,
whose games it makes: ``tables.kinds.GameKind``), records its result when it
ends, and compares results with the field's: the leaderboard, the player's
rank, streak and history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Sequence
from concurrent.futures import Executor

from damepique.bots.par import DAILY_DEALS, DAILY_RULES, par_record, points_by_deal
from damepique.engine import Rules, replay
from damepique.engine.fairness import fairness_json, new_secret

from ..duplicate import distribution, field_averages, rank_among, versus
from ..errors import Refusal
from ..play.game import Game, Seat
from ..play.thinking import CHEAP, resolve_level, worker_pool
from ..protocol import Json
from ..storage.accounts import AccountStore
from ..storage.daily import DailyStore, Day, Entry
from ..tables.registry import Tables
from ..tables.seats import TableOptions, TableSeat, clean_name
from ..tables.table import Table
from .days import bounds, daily_game, day_of, parse_date, previous

log = logging.getLogger("damepique.server")

KIND = "daily"
BOTS = ("West", "North", "East")
"""The experts' seats, clockwise from the player (South, seat 0); the page translates them."""
BOARD = 50
"""Players shown on a day's leaderboard."""
HISTORY = 30
"""Days of a player's history compared with their field."""


def compute_par(secret: str, level: str, deals: int) -> Json:
    """The day's par game and every seat's points by deal; runs in a worker."""
    record = par_record(DAILY_RULES, deals, bytes.fromhex(secret), level)
    match = replay(record)
    points = [list(d.result().points) for d in match.deals]
    return {"record": record, "points": points}


class Daily:
    def __init__(
        self, store: DailyStore, tables: Tables, accounts: AccountStore, level: str | None = None
    ) -> None:
        self.store = store
        self.tables = tables
        self.accounts = accounts
        self.level = level or os.environ.get("DAMEPIQUE_DAILY_LEVEL", "expert")
        """The computer players of the days made from now on (each day keeps its own)."""
        self.rules: Rules = DAILY_RULES
        self.deals = DAILY_DEALS
        self._starting: dict[str, str] = {}
        """Table code -> the day its first game deals (between the table's making and its start)."""
        self._pars: dict[str, asyncio.Task[None]] = {}
        self._pool: Executor | None = None
        tables.kinds[KIND] = self

    @property
    def now(self) -> float:
        return self.tables.settings.clock.time()

    def today(self) -> str:
        return day_of(self.now)

    def over(self, date: str) -> bool:
        return self.now >= bounds(date)[1]

    # -- days ------------------------------------------------------------------------------

    async def day(self, date: object) -> Day:
        """The day's row, made now if today is asked for the first time;
        ``Refusal("daily_not_yet")`` for a day that has not begun, ``no_daily``
        for a day gone by that was never made."""
        date = parse_date(date)
        if date > self.today():
            raise Refusal("daily_not_yet", "this day has not begun: its deal does not exist yet")
        day = await self.store.day(date)
        if day is None and date < self.today():
            # Only today is made on demand: a day gone by that nobody asked for
            # stays unmade (else any visitor could have the experts play any date).
            raise Refusal("no_daily", "nobody asked for this day's deal while it lasted: it has none")
        if day is None:
            day = await self.store.make_day(date, new_secret().hex(), self.now, self.level)
        if day.par is None:
            await self._par(day)
            day = await self.store.day(date) or day
        return day

    async def _par(self, day: Day) -> None:
        """The experts play the day once: at once where they are cheap, else in
        a process of its own (about half a minute for the expert)."""
        if resolve_level(day.level) in CHEAP:
            par = await asyncio.get_running_loop().run_in_executor(
                self.tables.thinker.threads, compute_par, day.secret, day.level, self.deals
            )
            await self.store.set_par(day.date, par)
            return
        task = self._pars.get(day.date)
        if task is None or task.done():
            self._pars[day.date] = asyncio.create_task(self._par_away(day))

    async def _par_away(self, day: Day) -> None:
        if self._pool is None:
            self._pool = worker_pool(1)
        try:
            par = await asyncio.get_running_loop().run_in_executor(
                self._pool, compute_par, day.secret, day.level, self.deals
            )
            await self.store.set_par(day.date, par)
        except Exception:
            log.exception("the par of %s failed", day.date)

    async def info(self, date: object) -> Json:
        """``GET /api/daily/{date}``: the day's commitment, its secret once it is over."""
        day = await self.day(date)
        start, end = bounds(day.date)
        over = self.now >= end
        return {
            "date": day.date,
            "today": day.date == self.today(),
            "starts": start,
            "ends": end,
            "over": over,
            "rules": self.rules.to_json(),
            "deals": self.deals,
            "level": day.level,
            "fairness": fairness_json(bytes.fromhex(day.secret), revealed=over),
        }

    async def par_record(self, date: object) -> Json:
        """The day's par game (every hand): once the day is over."""
        day = await self.day(date)
        if not self.over(day.date):
            raise Refusal("withheld", "the day's cards are shown once the day is over")
        if day.par is None:
            raise Refusal("unavailable", "the experts are still playing this day's deal; try again soon")
        record: Json = day.par["record"]
        return record

    # -- a player's try ----------------------------------------------------------------------

    async def identity(self, device: str | None, account: str | None) -> tuple[str | None, str | None]:
        """Who plays (the account, else the browser) and the account's nickname;
        a browser's tries move to its owner's account on the way."""
        if account is None:
            return device, None
        acc = await self.accounts.get_account(account)
        nickname = None if acc is None else str(acc["nickname"])
        if device is not None and nickname is not None:
            await self.store.claim(device, account, nickname)
        return account, nickname

    async def start(self, device: str | None, account: str | None, name: object, speed: str) -> Json:
        """Today's game for this player: a new one, or the one begun (a new seat
        token for it); ``Refusal("daily_played")`` once it is finished."""
        if device is None and account is None:
            raise Refusal(
                "no_player", "the daily deal needs a player id (X-Player, 8 to 64 characters) or an account"
            )
        day = await self.day(self.today())
        player, nickname = await self.identity(device, account)
        assert player is not None
        entry = await self.store.entry(day.date, player)
        if entry is None:
            entry = await self._begin(day, player, device or player, account, nickname, name, speed)
        if entry.finished is not None:
            raise Refusal("daily_played", "you have played today's deal; a new one comes tomorrow")
        table = await self.tables.get(entry.code)
        if table is None:
            raise Refusal("unavailable", "today's game cannot be found; try again")
        token = await self.tables.add_token(table, 0)
        return {"date": day.date, "game": entry.game_id, "code": table.code, "token": token, "seat": 0}

    async def _begin(
        self,
        day: Day,
        player: str,
        device: str,
        account: str | None,
        nickname: str | None,
        name: object,
        speed: str,
    ) -> Entry:
        options = TableOptions(
            self.rules.to_json(), level=day.level, speed=speed, spectators=False, training=False
        )
        seats = [TableSeat("human", nickname or clean_name(name, "You"), player=device)]
        seats += [TableSeat("bot", n, day.level) for n in BOTS]
        table = await self.tables.create(KIND, options, seats)
        self._starting[table.code] = day.date
        await table.start(None)
        assert table.game_id is not None
        new = Entry(day.date, player, device, account, nickname, table.code, table.game_id, self.now)
        # Two pages of one player starting at once: the first entry stands, the other table is never joined.
        return await self.store.add_entry(new)

    # -- the games of its tables (``tables.kinds.GameKind``) -----------------------------------

    async def new_secret(self, table: Table) -> tuple[bytes, Json]:
        date = self._starting.pop(table.code, None) or self.today()
        day = await self.day(date)
        return bytes.fromhex(day.secret), {
            "daily": date,
            "deals": self.deals,
            "withheld_until": bounds(date)[1],
        }

    def game(
        self, rules: Rules, seats: Sequence[Seat], secret: bytes, options: Json, events: Sequence[Json]
    ) -> Game:
        ends = bounds(options["daily"])[1]
        deals = int(options.get("deals", self.deals))
        made = daily_game(rules, seats, secret, deals=deals, ends=ends, clock=self.tables.settings.clock)
        return made.replayed(events)

    async def finished(self, table: Table, game_id: str, game: Game) -> None:
        if game.over:
            await self.store.finish(game_id, self.now, points_by_deal(game.match, 0))

    # -- results -------------------------------------------------------------------------------

    async def results(self, date: object, device: str | None, account: str | None) -> Json:
        """A day's field, leaderboard and this player's result (``docs/daily.md``)."""
        date = parse_date(date)
        if date > self.today():
            raise Refusal("daily_not_yet", "this day has not begun: its deal does not exist yet")
        player, _ = await self.identity(device, account)
        day = await self.store.day(date)
        entries = await self.store.finished_entries(date)
        mine = await self.store.entry(date, player) if player is not None else None
        over = self.over(date)
        scores = [e.points or [] for e in entries]
        field = field_averages(scores)
        totals = [float(e.total or 0) for e in entries]
        par = [p[0] for p in day.par["points"]] if day is not None and day.par is not None else None
        shown = over or (mine is not None and mine.finished is not None)
        board: list[Json] = []
        for e in entries:
            if e.nickname is not None and len(board) < BOARD:
                board.append(
                    {
                        "rank": rank_among(float(e.total or 0), totals),
                        "nickname": e.nickname,
                        "total": e.total,
                        "vs_field": versus(e.points or [], field),
                    }
                )
        out: Json = {
            "date": date,
            "over": over,
            "deals": self.deals,
            "played": len(entries),
            "leaderboard": board,
            "you": None,
            "field": None,
            "par": par if shown else None,
        }
        if mine is not None:
            out["you"] = {"finished": mine.finished is not None, "ranked": mine.nickname is not None}
            if mine.finished is not None and mine.points is not None:
                out["you"] |= {
                    "points": mine.points,
                    "total": mine.total,
                    "vs_field": versus(mine.points, field),
                    "vs_par": None if par is None else versus(mine.points, par),
                    "rank": rank_among(float(mine.total or 0), totals),
                    "game": mine.game_id,
                }
        if shown:
            out["field"] = [
                {
                    "deal": k,
                    "average": field[k],
                    "par": None if par is None else par[k],
                    "distribution": [[p, n] for p, n in distribution(scores, k).items()],
                }
                for k in range(len(field))
            ]
        return out

    async def history(self, device: str | None, account: str | None) -> Json:
        """This player's days: today's state, the streak and each result against its field."""
        player, nickname = await self.identity(device, account)
        today = self.today()
        entries = await self.store.entries_of(player) if player is not None else []
        played = {e.date for e in entries if e.finished is not None}
        streak, d = 0, today if today in played else previous(today)
        while d in played:
            streak, d = streak + 1, previous(d)
        days = []
        for e in [e for e in entries if e.finished is not None][:HISTORY]:
            field_entries = await self.store.finished_entries(e.date)
            scores = [f.points or [] for f in field_entries]
            totals = [float(f.total or 0) for f in field_entries]
            days.append(
                {
                    "date": e.date,
                    "total": e.total,
                    "vs_field": versus(e.points or [], field_averages(scores)),
                    "rank": rank_among(float(e.total or 0), totals),
                    "played": len(field_entries),
                }
            )
        now = next((e for e in entries if e.date == today), None)
        state = "none" if now is None else "finished" if now.finished is not None else "playing"
        return {"today": today, "status": state, "nickname": nickname, "streak": streak, "days": days}

    def close(self) -> None:
        for task in self._pars.values():
            task.cancel()
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["KIND", "Daily", "compute_par"]
