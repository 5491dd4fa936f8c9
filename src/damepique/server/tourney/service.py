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
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections.abc import Sequence

from damepique.engine import Rules
from damepique.engine.fairness import commitment, new_secret

from ..errors import Refusal
from ..http import rules_from_body
from ..play.fixed import FixedGame
from ..play.game import Game, Seat
from ..play.runner import SPEEDS
from ..play.thinking import CHOICES
from ..protocol import Json
from ..storage.games import GameStore
from ..storage.tourneys import TourneyStore
from ..tables.codes import new_code, new_token, normalize_code
from ..tables.registry import Tables
from ..tables.seats import TableOptions, TableSeat, clean_name
from ..tables.table import Table

KIND = "tourney"
MAX_DEALS, MAX_TABLES = 26, 20
NEVER = 1e12
"""``withheld_until`` of a tournament's games: their records stay with the
tournament, whose results show what may be seen (``results.py``)."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _int(body: Json, key: str, low: int, high: int, default: int) -> int:
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refusal(f"bad_{key}", f"{key} is a whole number from {low} to {high}")
    return value


class Tourneys:
    def __init__(self, store: TourneyStore, tables: Tables, games: GameStore) -> None:
        self.store = store
        self.tables = tables
        self.games = games
        self._docs: dict[str, Json] = {}
        self._ended: set[str] = set()
        """Tournaments over: their tables' games play no more (read by their games)."""
        self._table_of: dict[str, str] = {}
        """Table code -> tournament code, between a table's making and its game's."""
        tables.kinds[KIND] = self

    async def start(self) -> None:
        """At start-up: the tournaments already over (their tables may be loaded before them)."""
        self._ended = set(await self.store.codes_with("over"))

    @property
    def now(self) -> float:
        return self.tables.settings.clock.time()

    async def get(self, code: object) -> Json:
        """The tournament (started if its start time has come); ``no_tourney`` (404) else."""
        key = normalize_code(code) if isinstance(code, str) and len(code) < 40 else None
        doc = self._docs.get(key or "") or (await self.store.load(key) if key else None)
        if doc is None:
            raise Refusal("no_tourney", "no tournament with this code")
        self._docs[doc["code"]] = doc
        if doc["status"] == "open" and doc["start"] is not None and self.now >= doc["start"]:
            # Its time has come: seated at random. One that cannot start (too few
            # players without bots) stays open for its director.
            with contextlib.suppress(Refusal):
                await self._begin(doc, None)
        return doc

    async def _save(self, doc: Json) -> None:
        await self.store.save(doc, doc["created"])
        self._docs[doc["code"]] = doc

    # -- the director ------------------------------------------------------------------------

    async def create(self, body: Json) -> Json:
        name = clean_name(body.get("name"), "")
        if not name:
            raise Refusal("bad_name", "a tournament needs a name")
        rules = rules_from_body(body)
        deals = _int(body, "deals", 1, MAX_DEALS, 8)
        count = _int(body, "tables", 1, MAX_TABLES, 2)
        level = body.get("level", "intermediate")
        if level not in CHOICES:
            raise Refusal("bad_level", f"level must be one of {', '.join(CHOICES)}")
        speed = body.get("speed", "normal")
        if speed not in SPEEDS:
            raise Refusal("bad_speed", "speed must be normal or fast")
        start = body.get("start")
        if start is not None and (not isinstance(start, (int, float)) or isinstance(start, bool)):
            raise Refusal("bad_start", "start is a time in seconds since the epoch, or null")
        code = new_code()
        while await self.store.exists(code) or await self.tables.store.exists(code):
            code = new_code()
        director, secret = new_token(), new_secret()
        doc: Json = {
            "code": code,
            "name": name,
            "rules": rules.to_json(),
            "deals": deals,
            "tables": count,
            "bots": bool(body.get("bots", True)),
            "level": level,
            "speed": speed,
            "start": None if start is None else float(start),
            "created": self.now,
            "status": "open",
            "secret": secret.hex(),
            "director": _hash(director),
            "players": [],
            "seating": [],
        }
        await self._save(doc)
        return {"code": code, "director": director, "commitment": commitment(secret)}

    def _check_director(self, doc: Json, token: object) -> None:
        if not isinstance(token, str) or not secrets.compare_digest(_hash(token), doc["director"]):
            raise Refusal("not_director", "only the tournament's director may do this")

    async def begin(self, code: object, director: object, seating: object) -> None:
        doc = await self.get(code)
        self._check_director(doc, director)
        await self._begin(doc, seating)

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
            if sorted(named) != sorted(set(named)) or not set(named) <= set(ids):
                raise Refusal("bad_seating", "every seated id is a player of this tournament, once")
        out = [row + [None] * (players - len(row)) for row in seats]
        if not doc["bots"] and any(p is None for row in out for p in row):
            raise Refusal(
                "not_enough_players", "every seat of every table needs a player when no bot may fill"
            )
        return out

    async def _begin(self, doc: Json, seating: object) -> None:
        if doc["status"] != "open":
            raise Refusal("tourney_started", "this tournament has started")
        if len(doc["players"]) > doc["tables"] * Rules.from_json(doc["rules"]).players:
            raise Refusal("tourney_full", "more players than seats")
        plan = self._seating(doc, seating)
        by_id = {p["id"]: p for p in doc["players"]}
        doc["status"] = "playing"
        doc["seating"] = plan
        doc["table_codes"] = []
        doc["game_ids"] = []
        await self._save(doc)  # a second start is refused from here on
        for row in plan:
            seats = [TableSeat("human", by_id[p]["name"], player=p) if p else TableSeat() for p in row]
            options = TableOptions(
                doc["rules"],
                fill=doc["bots"],
                level=doc["level"],
                speed=doc["speed"],
                spectators=False,
                training=False,
            )
            table = await self.tables.create(KIND, options, seats)
            self._table_of[table.code] = doc["code"]
            for s, pid in enumerate(row):
                if pid is not None:
                    by_id[pid]["seat"] = {
                        "table": table.code,
                        "seat": s,
                        "token": await self.tables.add_token(table, s),
                    }
            await table.start(None, now=True)
            doc["table_codes"].append(table.code)
            doc["game_ids"].append(table.game_id)
        await self._save(doc)
        await self._maybe_over(doc)

    async def end(self, code: object, director: object) -> None:
        """The director ends the round: what is unfinished stays so (scored as ``results`` says)."""
        doc = await self.get(code)
        self._check_director(doc, director)
        if doc["status"] != "playing":
            raise Refusal("tourney_not_playing", "the tournament is not being played")
        await self._over(doc)

    async def _over(self, doc: Json) -> None:
        doc["status"] = "over"
        self._ended.add(doc["code"])
        await self._save(doc)
        for code in doc.get("table_codes", []):
            table = self.tables.tables.get(code)
            if table is not None and table.runner is not None:
                table.runner.announce()

    # -- players -------------------------------------------------------------------------------

    async def join(self, code: object, name: object) -> Json:
        doc = await self.get(code)
        if doc["status"] != "open":
            raise Refusal("tourney_started", "this tournament has started")
        if len(doc["players"]) >= doc["tables"] * Rules.from_json(doc["rules"]).players:
            raise Refusal("tourney_full", "every seat of this tournament is taken")
        token, pid = new_token(), secrets.token_hex(4)
        doc["players"].append({"id": pid, "name": clean_name(name, "Player"), "token": _hash(token)})
        await self._save(doc)
        return {"code": doc["code"], "id": pid, "player": token}

    async def me(self, code: object, token: object) -> Json:
        """A player's place: their table's code, seat and seat token once seated."""
        doc = await self.get(code)
        found = next(
            (
                p
                for p in doc["players"]
                if isinstance(token, str) and secrets.compare_digest(p["token"], _hash(token))
            ),
            None,
        )
        if found is None:
            raise Refusal("bad_player", "no player of this tournament with this token")
        return {"id": found["id"], "name": found["name"], "status": doc["status"], "seat": found.get("seat")}

    # -- the games of its tables (``tables.kinds.GameKind``) -----------------------------------

    async def new_secret(self, table: Table) -> tuple[bytes, Json]:
        if table.games:
            raise Refusal("no_rematch", "a tournament's table plays its deals once")
        code = self._table_of.pop(table.code, None)
        if code is None:
            raise Refusal("no_tourney", "this table belongs to no tournament")
        doc = await self.get(code)
        return bytes.fromhex(doc["secret"]), {"tourney": code, "deals": doc["deals"], "withheld_until": NEVER}

    def game(
        self, rules: Rules, seats: Sequence[Seat], secret: bytes, options: Json, events: Sequence[Json]
    ) -> Game:
        code = str(options["tourney"])

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
            await self._maybe_over(await self.get(code))

    async def _maybe_over(self, doc: Json) -> None:
        # Every table made (a quick one may finish while the next is being made) and finished.
        if doc["status"] != "playing" or len(doc.get("game_ids", [])) < doc["tables"]:
            return
        for gid in doc["game_ids"]:
            row = await self.games.get_game(gid)
            if row is None or row.finished is None:
                return
        await self._over(doc)


__all__ = ["KIND", "Tourneys"]
