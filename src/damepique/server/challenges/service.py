"""Challenges: any account (a person or a bot) asks one or more accounts to a
game with given rules; each accepts or declines with a reason; when all have
accepted, the server makes the table, seats everybody, starts the game (bots
in the empty seats when the challenger said ``fill``) and tells each account
``gameStart`` on its event stream, with the table's code, its seat and the
seat's token (``docs/bot-api.md``).

Challenges are kept by the process that received them, for ``EXPIRY_S``
seconds of the app's clock; the events go through the broker, so an event
stream on any process hears them.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field, replace

from damepique.engine import Rules

from ..accounts.nicknames import nickname_key
from ..clock import Clock
from ..cluster.broker import Broker
from ..cluster.events import tell
from ..errors import Refusal
from ..protocol import Json
from ..storage.accounts import AccountStore
from ..tables.registry import Tables
from ..tables.seats import Sitter, TableOptions, TableSeat
from ..tables.table import Table

REASONS = ("generic", "later", "rules", "timer", "too_many", "no_bots", "only_bots")
"""Why an account declines (``decline``'s ``reason``); the pages have words for each."""
EXPIRY_S = 600.0
"""A challenge nobody answered in ten minutes is dropped."""
MAX_PENDING = 20
"""Challenges an account may have made and not seen answered."""


@dataclass
class Answer:
    account: str
    nickname: str
    answer: str | None = None  # None (not yet), "accept", "decline"
    reason: str | None = None
    bot: bool = False

    def to_json(self) -> Json:
        return {"nickname": self.nickname, "answer": self.answer, "reason": self.reason}


@dataclass
class Challenge:
    id: str
    challenger: str
    nickname: str
    to: list[Answer]
    options: TableOptions
    created: float
    status: str = "pending"  # pending, started, declined, canceled, expired
    table: str | None = None
    seats: dict[str, Json] = field(default_factory=dict)
    """Once started: each account's ``{code, display, seat, token}``."""

    def accounts(self) -> list[str]:
        return [self.challenger, *(a.account for a in self.to)]

    def to_json(self) -> Json:
        return {
            "id": self.id,
            "from": self.nickname,
            "to": [a.to_json() for a in self.to],
            "rules": self.options.rules,
            "options": {
                "fill": self.options.fill,
                "timer": self.options.timer,
                "speed": self.options.speed,
                "level": self.options.level,
                "ranked": self.options.ladder,
            },
            "status": self.status,
            "table": self.table,
        }


class Challenges:
    def __init__(self, tables: Tables, store: AccountStore, broker: Broker, clock: Clock) -> None:
        self.tables = tables
        self.store = store
        self.broker = broker
        self.clock = clock
        self.open: dict[str, Challenge] = {}
        self.started: dict[str, list[Json]] = {}
        """Each account's ``gameStart`` of the challenges' games, until they are over."""
        self.lock = asyncio.Lock()

    # -- reading ---------------------------------------------------------------------------

    def _expire(self) -> None:
        now = self.clock.time()
        for cid, c in list(self.open.items()):
            if c.status != "pending" or now - c.created > EXPIRY_S:
                del self.open[cid]

    def of(self, account: str) -> list[Challenge]:
        """The pending challenges ``account`` made or received, oldest first."""
        self._expire()
        return [c for c in self.open.values() if account in c.accounts()]

    def received(self, account: str) -> list[Challenge]:
        """The pending challenges ``account`` has not answered yet."""
        return [c for c in self.of(account) if any(a.account == account and a.answer is None for a in c.to)]

    async def playing(self, account: str) -> list[Json]:
        """The ``gameStart`` of each game a challenge started for ``account`` that
        is still being played (told again when its event stream opens)."""
        still = []
        for game in self.started.get(account, []):
            data = await self.tables.store.load(game["table"])
            if data is not None and data.get("status") == "playing" and data.get("game") == game["game"]:
                still.append(game)
        if still:
            self.started[account] = still
        else:
            self.started.pop(account, None)
        return still

    def _get(self, cid: str) -> Challenge:
        self._expire()
        found = self.open.get(cid)
        if found is None:
            raise Refusal("no_challenge", "no pending challenge with this id (answered, canceled or expired)")
        return found

    # -- changing --------------------------------------------------------------------------

    async def create(self, challenger: str, body: Json, options: TableOptions) -> Challenge:
        """A challenge from ``challenger`` to the nicknames of ``body["to"]``; each is told."""
        me = await self.store.get_account(challenger)
        if me is None:
            raise Refusal("account_needed", "sign in, or send a bot's token, to challenge")
        if options.auto_players:
            raise Refusal("bad_challenge", "a challenge names its number of players")
        raw = body.get("to")
        if not isinstance(raw, list) or not raw or not all(isinstance(n, str) for n in raw):
            raise Refusal("bad_challenge", "'to' is a list of nicknames")
        players = Rules.from_json(options.rules).players
        if len(raw) > players - 1:
            raise Refusal("bad_challenge", f"{len(raw)} challenged for {players - 1} other seats")
        if len(raw) < players - 1 and not options.fill:
            raise Refusal("bad_challenge", "empty seats need 'fill': true (the server's bots sit there)")
        answers: list[Answer] = []
        for name in raw:
            key = nickname_key(name)
            acc = await self.store.get_account(key) if key else None
            if acc is None:
                raise Refusal("not_found", f"no player with the nickname {name[:32]!r}")
            if acc["key"] == challenger or any(a.account == acc["key"] for a in answers):
                raise Refusal("bad_challenge", f"{acc['nickname']} is named twice (or is the challenger)")
            answers.append(Answer(acc["key"], str(acc["nickname"]), bot=acc["kind"] == "bot"))
        if options.ranked:
            # Ranked challenges are the bots' ladder: bots only, every seat a program.
            if me["kind"] != "bot" or not all(a.bot for a in answers):
                raise Refusal("bad_challenge", "a ranked challenge is between bots only (the bots' ladder)")
            if len(answers) != players - 1:
                raise Refusal("bad_challenge", "a ranked challenge fills every seat with a challenged bot")
            options = replace(options, ranked=False, ladder=True, fill=False)
        async with self.lock:
            mine = [c for c in self.of(challenger) if c.challenger == challenger]
            if len(mine) >= MAX_PENDING:
                raise Refusal(
                    "too_many_challenges", f"{MAX_PENDING} challenges are waiting for answers already"
                )
            challenge = Challenge(
                secrets.token_hex(6), challenger, str(me["nickname"]), answers, options, self.clock.time()
            )
            self.open[challenge.id] = challenge
        for a in answers:
            await tell(self.broker, a.account, {"type": "challenge", "challenge": challenge.to_json()})
        return challenge

    async def accept(self, account: str, cid: str) -> Challenge:
        """``account`` accepts; the last acceptance starts the game."""
        async with self.lock:
            challenge = self._get(cid)
            answer = self._answer_of(challenge, account)
            answer.answer, answer.reason = "accept", None
            if any(a.answer != "accept" for a in challenge.to):
                return challenge
            challenge.status = "started"  # from here nobody else changes it
        try:
            table = await self._start(challenge)
        except Refusal:
            challenge.status = "canceled"
            await self._tell_all(challenge, "challengeCanceled")
            raise
        challenge.table = table.code
        for key in challenge.accounts():
            self.started.setdefault(key, []).append(challenge.seats[key])
            await tell(self.broker, key, {"type": "gameStart", "game": challenge.seats[key]})
        return challenge

    async def decline(self, account: str, cid: str, reason: object) -> Challenge:
        if reason is None:
            reason = "generic"
        if reason not in REASONS:
            raise Refusal("bad_reason", f"a reason is one of {', '.join(REASONS)}")
        async with self.lock:
            challenge = self._get(cid)
            answer = self._answer_of(challenge, account)
            answer.answer, answer.reason = "decline", str(reason)
            challenge.status = "declined"
            del self.open[cid]
        await self._tell_all(challenge, "challengeDeclined", but=account)
        return challenge

    async def cancel(self, account: str, cid: str) -> Challenge:
        async with self.lock:
            challenge = self._get(cid)
            if challenge.challenger != account:
                raise Refusal("not_challenged", "only the challenger cancels a challenge")
            challenge.status = "canceled"
            del self.open[cid]
        await self._tell_all(challenge, "challengeCanceled", but=account)
        return challenge

    # -- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _answer_of(challenge: Challenge, account: str) -> Answer:
        for a in challenge.to:
            if a.account == account:
                if a.answer is not None:
                    raise Refusal("challenge_over", "this challenge has your answer already")
                return a
        raise Refusal("not_challenged", "this challenge is not for you")

    async def _tell_all(self, challenge: Challenge, kind: str, but: str | None = None) -> None:
        for key in challenge.accounts():
            if key != but:
                await tell(self.broker, key, {"type": kind, "challenge": challenge.to_json()})

    async def _start(self, challenge: Challenge) -> Table:
        """The table, everybody seated (the challenger first), the game started."""
        options = challenge.options
        players = Rules.from_json(options.rules).players
        table = await self.tables.create("table", options, [TableSeat() for _ in range(players)])
        for key in challenge.accounts():
            sitter: Sitter = await self.tables.sitter(key)
            token, seat = await table.sit(None, sitter, announce=False)
            challenge.seats[key] = {
                "table": table.code,
                "seat": seat,
                "token": token,
                "challenge": challenge.id,
            }
        await table.start(None, now=True)
        for given in challenge.seats.values():
            given["game"] = table.game_id
        return table


__all__ = ["EXPIRY_S", "REASONS", "Answer", "Challenge", "Challenges"]
