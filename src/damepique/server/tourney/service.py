"""Duplicate tournaments for clubs (``docs/tournaments.md``).

A director creates a tournament (its rules, a number of deals and of tables,
bots allowed or not, a start time if any); the server draws its deal secret
once. Players join with its code; the director starts it, seating them (or
the server at random) at tables of kind ``tourney`` that all play the same
deals in the same seat positions: every table's game is dealt from the
tournament's secret (``tables.kinds.GameKind``), a fixed number of deals
(``play.fixed.FixedGame``). A tournament is one JSON document
(``storage.tourneys``), its tables are tables (they survive a restart the
same way); its results are ``tourney.results``.

With several processes (``docs/deploy.md``) every process serves every
tournament from the database, each change made under the row's lock
(``TourneyStore.change``), and one process at a time *drives* each
tournament: the one holding its lease (``tourney:CODE``, renewed as the
tables' are). The driver starts it when its start time comes, makes its
tables (a table at a time, each written down as soon as it is made, so a
driver killed half-way is followed by another that makes the rest), and runs
its tables that nobody runs any more. Every process looks each second for
the tournaments nobody drives (``storage.tourneys.due``) and takes them
over. The end of a tournament is heard by every process over the broker
(and read again each second), so no table anywhere plays on after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from damepique.engine import Rules
from damepique.engine.fairness import commitment, new_secret
from damepique.wire import changed_event

from ..errors import Refusal
from ..play.fixed import FixedGame
from ..play.game import Game, Seat
from ..protocol import Json
from ..storage.games import GameStore
from ..storage.tourneys import TourneyStore
from ..tables.codes import new_code, new_token, normalize_code
from ..tables.registry import Tables
from ..tables.seats import TableOptions, TableSeat, clean_name
from ..tables.session import TableMoved
from ..tables.table import Table
from . import movement
from .making import hash_token, made_of

log = logging.getLogger("damepique.server")

KIND = "tourney"
LEASE = "tourney:"
"""The prefix of a tournament's lease: held by the process that drives it."""
CHANNEL = "damepique:tourneys"
"""Where the end of a tournament is told to every process."""
CHANGES = "tourney-changes:"  # with a tournament's code: the broker channel of its changes

NEVER = 1e12
"""``withheld_until`` of a tournament's games: their records stay with the
tournament, whose results show what may be seen (``results.py``)."""


class Tourneys:
    def __init__(self, store: TourneyStore, tables: Tables, games: GameStore) -> None:
        self.store = store
        self.tables = tables
        self.games = games
        self.node = tables.node
        self._ended: set[str] = set()
        """Tournaments over: their tables' games play no more (read by their games)."""
        self._watched: set[str] = set()
        """Tournaments whose games this process made and that are not over yet:
        their status is read again each second (an end told while the broker was away)."""
        self._table_of: dict[str, str] = {}
        """Table code -> tournament code, between a table's making and its game's."""
        self._driving: dict[str, asyncio.Lock] = {}
        tables.kinds[KIND] = self
        self.node.on_call("tourney_drive", self._drive_call)
        self.node.subscribe(CHANNEL, self._heard)
        self.node.every_tick(self._tick)

    async def start(self) -> None:
        """At start-up: the tournaments already over (their tables may be loaded before them)."""
        self._ended = set(await self.store.codes_with("over"))

    @property
    def now(self) -> float:
        return self.tables.settings.clock.time()

    @staticmethod
    def _key(code: object) -> str | None:
        return normalize_code(code) if isinstance(code, str) and len(code) < 40 else None

    async def get(self, code: object) -> Json:
        """The tournament as stored (started first if its start time has come); ``no_tourney`` (404) else."""
        key = self._key(code)
        doc = await self.store.load(key) if key else None
        if doc is None:
            raise Refusal("no_tourney", "no tournament with this code")
        if doc["status"] == "open" and doc["start"] is not None and self.now >= doc["start"]:
            # Its time has come and nobody has started it yet: its driver does, now
            # (a driver that does not answer does at its next second, or its successor).
            with contextlib.suppress(Refusal):
                await self._drive_now(doc["code"])
            doc = await self.store.load(doc["code"]) or doc
        return doc

    async def _change(self, code: str, edit: Any) -> tuple[Json, Any]:
        changed = await self.store.change(code, edit)  # its page hears of each (GET .../changes)
        await self.node.publish(CHANGES + code, dict(changed_event()))
        return changed

    # -- the director ------------------------------------------------------------------------

    async def create(self, body: Json) -> Json:
        made = made_of(body)  # refused before a code is drawn
        code = new_code()
        while await self.store.exists(code) or await self.tables.store.exists(code):
            code = new_code()
        director, secret = new_token(), new_secret()
        doc = made | {
            "code": code,
            "created": self.now,
            "secret": secret.hex(),
            "director": hash_token(director),
        }
        await self.store.add(doc)
        return {"code": code, "director": director, "commitment": commitment(secret)}

    def _check_director(self, doc: Json, token: object) -> None:
        if not isinstance(token, str) or not secrets.compare_digest(hash_token(token), doc["director"]):
            raise Refusal("not_director", "only the tournament's director may do this")

    async def begin(self, code: object, director: object, seating: object) -> None:
        doc = await self.get(code)
        self._check_director(doc, director)
        await self._begin(doc["code"], seating)
        # Its tables, made by its driver before the answer (else at the driver's next second).
        with contextlib.suppress(Refusal):
            await self._drive_now(doc["code"])

    def _seating(self, doc: Json, seating: object) -> list[list[str | None]]:
        """Who sits where: the director's lists of player ids, one a table, or at random."""
        players = Rules.from_json(doc["rules"]).players
        ids = [p["id"] for p in doc["players"]]
        if seating is None or seating == "random":
            order = list(ids)
            secrets.SystemRandom().shuffle(order)
            # Round-robin, so that the people spread over the tables and the bots too.
            seats: list[list[str | None]] = [[] for _ in range(doc["tables"])]
            for i, pid in enumerate(order):
                seats[i % doc["tables"]].append(pid)
        else:
            if not isinstance(seating, list) or len(seating) != doc["tables"]:
                raise Refusal(
                    "bad_seating", f"seating is one list of player ids for each of the {doc['tables']} tables"
                )
            seats = []
            for row in seating:
                if not isinstance(row, list) or len(row) > players:
                    raise Refusal("bad_seating", f"a table seats {players} at most")
                seats.append([p if isinstance(p, str) else None for p in row])
            named = [p for row in seats for p in row if p is not None]
            names = {p["id"]: p["name"] for p in doc["players"]}
            for pid in named:
                if pid not in names:
                    raise Refusal("bad_seating", f"{pid!r} is not the id of a player of this tournament")
                if named.count(pid) > 1:
                    raise Refusal("bad_seating", f"{names[pid]} is seated twice: one seat per player")
        out = [row + [None] * (players - len(row)) for row in seats]
        if not doc["bots"] and any(p is None for row in out for p in row):
            raise Refusal(
                "not_enough_players", "every seat of every table needs a player when no bot may fill"
            )
        return out

    async def _begin(self, code: str, seating: object) -> None:
        """Open -> playing with its seating, once (row locked): its driver makes the tables."""

        def edit(doc: Json) -> None:
            if doc["status"] != "open":
                raise Refusal("tourney_started", "this tournament has started")
            if len(doc["players"]) > doc["tables"] * Rules.from_json(doc["rules"]).players:
                raise Refusal("tourney_full", "more players than seats")
            doc["seating"] = self._seating(doc, seating)
            doc["status"] = "playing"
            doc["table_codes"] = []
            doc["game_ids"] = []

        await self._change(code, edit)

    async def _make_tables(self, doc: Json) -> Json:
        """Make the tables not made yet, each written down as soon as it plays (the driver's)."""
        code = doc["code"]
        while doc["status"] == "playing" and len(doc["table_codes"]) < len(doc["seating"]):
            i = len(doc["table_codes"])
            row = doc["seating"][i]
            by_id = {p["id"]: p for p in doc["players"]}
            seats = [
                # A guest's games are their browser's (its statistics), as at any table.
                TableSeat(
                    "human",
                    by_id[p]["name"],
                    None,
                    by_id[p].get("account"),
                    player=by_id[p].get("device") or p,
                )
                if p
                else TableSeat()
                for p in row
            ]
            options = TableOptions(
                doc["rules"],
                fill=doc["bots"],
                level=doc["level"],
                speed=doc["speed"],
                spectators=False,
                training=False,
            )
            table = await self.tables.create(KIND, options, seats)
            self._table_of[table.code] = code
            given = {pid: (s, await self.tables.add_token(table, s)) for s, pid in enumerate(row) if pid}
            await table.start(None, now=True)
            made = (table.code, table.game_id)

            def edit(d: Json, i: int = i, made: tuple[str, str | None] = made, given: Any = given) -> bool:
                if d["status"] != "playing" or len(d["table_codes"]) != i:
                    return False  # another process made this table meanwhile (this one is left unused)
                d["table_codes"].append(made[0])
                d["game_ids"].append(made[1])
                for p in d["players"]:
                    if p["id"] in given:
                        s, token = given[p["id"]]
                        p["seat"] = {"table": made[0], "seat": s, "token": token}
                return True

            doc, recorded = await self._change(code, edit)
            if not recorded:
                log.warning("tournament %s: table %d was made twice; %s left unused", code, i + 1, made[0])
        return doc

    async def end(self, code: object, director: object) -> None:
        """The director ends the round: what is unfinished stays so (scored as ``results`` says)."""
        doc = await self.get(code)
        self._check_director(doc, director)

        def edit(d: Json) -> None:
            if d["status"] != "playing":
                raise Refusal("tourney_not_playing", "the tournament is not being played")
            d["status"] = "over"

        await self._change(doc["code"], edit)
        await self._ended_now(doc["code"])

    async def _ended_now(self, code: str) -> None:
        """The tournament is over: its tables everywhere stop (this process's at once)."""
        await self._heard({"op": "over", "code": code})
        await self.node.publish(CHANNEL, {"op": "over", "code": code})

    async def _heard(self, m: Json) -> None:
        if m.get("op") != "over" or not isinstance(m.get("code"), str):
            return
        code = m["code"]
        if code in self._ended:
            return
        self._ended.add(code)
        self._watched.discard(code)
        doc = await self.store.load(code)
        for table_code in (doc or {}).get("table_codes", []):
            table = self.tables.tables.get(table_code)
            if table is not None and table.runner is not None:
                table.runner.announce()

    # -- players -------------------------------------------------------------------------------

    async def join(
        self, code: object, name: object, account: str | None = None, device: str | None = None
    ) -> Json:
        key = self._key(code) or ""
        token, pid = new_token(), secrets.token_hex(4)
        chosen = clean_name(name, "Player")

        def edit(doc: Json) -> None:
            if doc["status"] != "open":
                raise Refusal("tourney_started", "this tournament has started")
            if len(doc["players"]) >= doc["tables"] * Rules.from_json(doc["rules"]).players:
                raise Refusal("tourney_full", "every seat of this tournament is taken")
            # Two players of one name could not be told apart (the director's seating, the results).
            if any(p["name"].casefold() == chosen.casefold() for p in doc["players"]):
                raise Refusal(
                    "name_taken",
                    f"a player of this tournament is called {chosen} already: choose another name",
                    params={"name": chosen},
                )
            # A signed-in person's (or bot's) account: its event stream hears of each table's game.
            doc["players"].append(
                {
                    "id": pid,
                    "name": chosen,
                    "token": hash_token(token),
                    "account": account,
                    # Never sent: a guest's games count in this browser's statistics.
                    "device": device,
                }
            )

        doc, _ = await self._change(key, edit)
        return {"code": doc["code"], "id": pid, "player": token}

    async def me(self, code: object, token: object) -> Json:
        """A player's place: their table's code, seat and seat token once seated."""
        doc = await self.get(code)
        found = next(
            (
                p
                for p in doc["players"]
                if isinstance(token, str) and secrets.compare_digest(p["token"], hash_token(token))
            ),
            None,
        )
        if found is None:
            raise Refusal("bad_player", "no player of this tournament with this token")
        return {
            "id": found["id"],
            "name": found["name"],
            "status": doc["status"],
            "round": doc.get("round", 0),
            "seat": found.get("seat"),
        }

    # -- the driver ----------------------------------------------------------------------------

    async def _drive_now(self, code: str) -> None:
        """Have the tournament's driver drive it now (this process when nobody does)."""
        name = LEASE + code

        async def runnable() -> bool:
            return True

        owner = await self.node.owner_for(name, runnable)
        if owner == self.node.pid:
            await self._drive(code)
        else:
            await self.node.call(owner, "tourney_drive", code=code)

    async def _drive_call(self, code: str) -> None:
        if LEASE + code not in self.node.owned:
            raise Refusal("unavailable", "this process does not drive this tournament; try again")
        await self._drive(code)

    async def _drive(self, code: str) -> None:
        """One round of the driver's work on one tournament (the lease holder's)."""
        async with self._driving.setdefault(code, asyncio.Lock()):
            doc = await self.store.load(code)
            due = doc is not None and doc["status"] == "open" and doc["start"] is not None
            if doc is not None and due and self.now >= doc["start"]:
                # Seated at random. One that cannot start (too few players
                # and no bots) stays open for its director, driven no more
                # (tried again on a visit): ``storage.tourneys.due``.
                try:
                    await self._begin(code, None)
                except Refusal:
                    await self._change(code, lambda d: d.update(start_failed=True))
                doc = await self.store.load(code)
            if doc is not None and doc["status"] == "open" and doc.get("start_failed"):
                self.node.released(LEASE + code)
                self._driving.pop(code, None)
            if doc is not None and doc["status"] == "playing":
                doc = await self._make_tables(doc)
                await self._run_tables(doc)
                doc = await self._maybe_over(doc)
                doc = await self._make_tables(doc)  # the next round's, when that one ended
            if doc is None or doc["status"] == "over":
                self.node.released(LEASE + code)
                self._driving.pop(code, None)

    async def _run_tables(self, doc: Json) -> None:
        """Run here the tables of the tournament that nobody runs (their process died)."""
        codes = [c for c in doc["table_codes"] if c not in self.tables.tables]
        if not codes:
            return
        held = await self.node.leases.holders(codes)
        for table_code in codes:
            if table_code in held:
                continue
            data = await self.tables.store.load(table_code)
            if data is None or data.get("status") != "playing":
                continue
            log.info("tournament %s: taking over its table %s", doc["code"], table_code)
            with contextlib.suppress(TableMoved):
                await self.tables.get(table_code)

    async def _tick(self) -> None:
        """Each second: drive what this process drives, take over what nobody
        drives, and hear again of the ends of the tournaments played here."""
        for name in await self.node.leases.unheld(self.store.to_drive(self.now, LEASE)):
            await self.node.claim(name)
        for name in [n for n in self.node.owned if n.startswith(LEASE)]:
            await self._drive(name.removeprefix(LEASE))
        if self._watched:
            for code, status in (await self.store.statuses(sorted(self._watched))).items():
                if status == "over":
                    await self._heard({"op": "over", "code": code})

    # -- the games of its tables (``tables.kinds.GameKind``) -----------------------------------

    async def new_secret(self, table: Table) -> tuple[bytes, Json]:
        if table.games:
            raise Refusal("no_rematch", "a tournament's table plays its deals once")
        code = self._table_of.pop(table.code, None)
        if code is None:
            raise Refusal("no_tourney", "this table belongs to no tournament")
        doc = await self.get(code)
        r = doc.get("round", 0)
        options = {"tourney": code, "deals": doc["deals"], "round": r, "withheld_until": NEVER}
        return movement.round_secret(bytes.fromhex(doc["secret"]), r), options

    def game(
        self, rules: Rules, seats: Sequence[Seat], secret: bytes, options: Json, events: Sequence[Json]
    ) -> Game:
        code = str(options["tourney"])
        if code not in self._ended:
            self._watched.add(code)

        def ended() -> bool:
            return code in self._ended

        refusal = Refusal("round_over", "the director ended the round")
        made = FixedGame(
            rules,
            seats,
            secret,
            deals=int(options["deals"]),
            closed=ended,
            revealed=lambda: False,
            refusal=refusal,
        )
        return made.replayed(events)

    async def finished(self, table: Table, game_id: str, game: Game) -> None:
        """A table finished every deal: once every table has, the tournament is over."""
        row = await self.games.get_game(game_id)
        code = None if row is None else row.options.get("tourney")
        if code is not None:
            doc = await self.store.load(str(code))
            if doc is not None:
                before = doc.get("round", 0)
                doc = await self._maybe_over(doc)
                if doc.get("round", 0) != before:
                    self.node.spawn(self._drive_now(doc["code"]))  # the next round's tables

    async def _maybe_over(self, doc: Json) -> Json:
        """Once every table of the round is made and has finished: the next round
        (its seating by the movement; its driver makes its tables), or over after
        the last. Any process may find it (row locked: once)."""
        if doc["status"] != "playing" or len(doc.get("game_ids", [])) < len(doc["seating"]):
            return doc
        for gid in doc["game_ids"]:
            row = await self.games.get_game(gid)
            if row is None or row.finished is None:
                return doc
        r = doc.get("round", 0)

        def edit(d: Json) -> str | None:
            if d["status"] != "playing" or d.get("round", 0) != r:
                return None
            if r + 1 >= d.get("rounds", 1):
                d["status"] = "over"
                return "over"
            d["past"].append({k: d[k] for k in ("seating", "table_codes", "game_ids")})
            d["round"] = r + 1
            d["seating"] = movement.movement_of(d).seating(d["past"][0]["seating"], r + 1)
            d["table_codes"], d["game_ids"] = [], []
            for p in d["players"]:
                p.pop("seat", None)
            return "next"

        doc, changed = await self._change(doc["code"], edit)
        if changed == "over":
            await self._ended_now(doc["code"])
        return doc


__all__ = ["CHANNEL", "KIND", "LEASE", "Tourneys"]
