"""Challenges: any account (a person or a bot) asks one or more accounts to a
game with given rules; each accepts or declines with a reason; when all have
accepted, the server makes the table, seats everybody, starts the game (bots
in the empty seats when the challenger said ``fill``) and tells each account
``gameStart`` on its event stream, with the table's code, its seat and the
seat's token (``docs/bot-api.md``).

Challenges are kept in the database (``storage.challenges``), each answer
made under the challenge's row lock, so a challenge made at one process is
answered at any other and started once; one nobody answered for
``EXPIRY_S`` seconds of the app's clock is dropped. The events go through
the broker, so an event stream on any process hears them.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, field, replace

from damepique.engine import Rules
from damepique.wire import ChallengeKind, GameStart, challenge_event, game_start_event

from ..accounts.nicknames import nickname_key
from ..clock import Clock
from ..cluster.broker import Broker
from ..cluster.events import tell
from ..errors import Refusal
from ..protocol import Json
from ..storage.accounts import AccountStore
from ..storage.challenges import ChallengeStore
from ..tables.registry import Tables
from ..tables.seats import Sitter, TableOptions, TableSeat
from ..tables.table import Table

REASONS = ("generic", "later", "rules", "timer", "too_many", "no_bots", "only_bots")
"""Why an account declines (``decline``'s ``reason``); the pages have words for each."""
EXPIRY_S = 600.0
"""A challenge nobody answered in ten minutes is dropped."""
MAX_PENDING = 20
"""Challenges an account may have made and not seen answered."""
PLAYING_S = 86_400.0
"""How long after its start a challenge's game is looked for, to tell its
``gameStart`` again to a stream that opens (a game lasts far less)."""
CLEAN_EVERY_S = 3600.0
"""How often a process forgets the challenges older than ``PLAYING_S`` (on a new challenge)."""


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
    seats: dict[str, GameStart] = field(default_factory=dict)
    """Once started: each account's ``{code, display, seat, token}``."""

    def accounts(self) -> list[str]:
        return [self.challenger, *(a.account for a in self.to)]

    def to_doc(self) -> Json:
        """Everything about it, as stored (``to_json`` is what accounts are shown)."""
        return asdict(self) | {"options": self.options.to_json()}

    @classmethod
    def from_doc(cls, d: Json) -> Challenge:
        return cls(
            d["id"],
            d["challenger"],
            d["nickname"],
            [Answer(**a) for a in d["to"]],
            TableOptions(**d["options"]),
            d["created"],
            d["status"],
            d["table"],
            dict(d["seats"]),
        )

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
    def __init__(
        self, store: ChallengeStore, tables: Tables, accounts: AccountStore, broker: Broker, clock: Clock
    ) -> None:
        self.store = store
        self.tables = tables
        self.accounts = accounts
        self.broker = broker
        self.clock = clock
        self._cleaned = -CLEAN_EVERY_S

    # -- reading ---------------------------------------------------------------------------

    async def of(self, account: str) -> list[Challenge]:
        """The pending challenges ``account`` made or received, oldest first."""
        docs = await self.store.of(account, "pending", self.clock.time() - EXPIRY_S)
        return [Challenge.from_doc(d) for d in docs]

    async def received(self, account: str) -> list[Challenge]:
        """The pending challenges ``account`` has not answered yet."""
        return [
            c for c in await self.of(account) if any(a.account == account and a.answer is None for a in c.to)
        ]

    async def playing(self, account: str) -> list[GameStart]:
        """The ``gameStart`` of each game a challenge started for ``account`` that
        is still being played (told again when its event stream opens)."""
        still: list[GameStart] = []
        for doc in await self.store.of(account, "started", self.clock.time() - PLAYING_S):
            game = doc["seats"].get(account)
            if game is None or "game" not in game:
                continue
            data = await self.tables.store.load(game["table"])
            if data is not None and data.get("status") == "playing" and data.get("game") == game["game"]:
                still.append(game)
        return still

    def _pending(self, doc: Json) -> Challenge:
        """The stored challenge, if still waiting for answers (``no_challenge`` else)."""
        challenge = Challenge.from_doc(doc)
        if challenge.status != "pending" or self.clock.time() - challenge.created > EXPIRY_S:
            raise Refusal("no_challenge", "no pending challenge with this id (answered, canceled or expired)")
        return challenge

    # -- changing --------------------------------------------------------------------------

    async def create(self, challenger: str, body: Json, options: TableOptions) -> Challenge:
        """A challenge from ``challenger`` to the nicknames of ``body["to"]``; each is told."""
        me = await self.accounts.get_account(challenger)
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
            acc = await self.accounts.get_account(key) if key else None
            if acc is None:
                raise Refusal(
                    "not_found", f"no player with the nickname {name[:32]!r}", params={"nickname": name[:32]}
                )
            if acc["key"] == challenger or any(a.account == acc["key"] for a in answers):
                raise Refusal(
                    "bad_challenge",
                    f"{acc['nickname']} is named twice (or is the challenger)",
                    params={"nickname": acc["nickname"]},
                )
            answers.append(Answer(acc["key"], str(acc["nickname"]), bot=acc["kind"] == "bot"))
        if options.ranked:
            # Ranked challenges are the bots' ladder: bots only, every seat a program.
            if me["kind"] != "bot" or not all(a.bot for a in answers):
                raise Refusal("bad_challenge", "a ranked challenge is between bots only (the bots' ladder)")
            if len(answers) != players - 1:
                raise Refusal("bad_challenge", "a ranked challenge fills every seat with a challenged bot")
            options = replace(options, ranked=False, ladder=True, fill=False)
        mine = [c for c in await self.of(challenger) if c.challenger == challenger]
        if len(mine) >= MAX_PENDING:
            raise Refusal("too_many_challenges", f"{MAX_PENDING} challenges are waiting for answers already")
        challenge = Challenge(
            secrets.token_hex(6), challenger, str(me["nickname"]), answers, options, self.clock.time()
        )
        if self.clock.monotonic() - self._cleaned >= CLEAN_EVERY_S:
            # Nothing reads a challenge past a day (pending ones expire in ten minutes).
            self._cleaned = self.clock.monotonic()
            await self.store.drop_before(self.clock.time() - PLAYING_S)
        await self.store.add(challenge.to_doc(), challenge.accounts())
        for a in answers:
            await tell(self.broker, a.account, challenge_event("challenge", challenge.to_json()))
        return challenge

    async def _answer(self, cid: str, account: str, answer: str, reason: str | None) -> Challenge:
        """Write down ``account``'s answer (row locked: two answers at two processes
        both count, and only the last acceptance starts the game)."""

        def edit(doc: Json) -> Challenge:
            challenge = self._pending(doc)
            mine = self._answer_of(challenge, account)
            mine.answer, mine.reason = answer, reason
            if answer == "decline":
                challenge.status = "declined"
            elif all(a.answer == "accept" for a in challenge.to):
                challenge.status = "started"  # from here nobody else changes it
            doc.update(challenge.to_doc())
            return challenge

        return (await self.store.change(cid, edit))[1]

    async def accept(self, account: str, cid: str) -> Challenge:
        """``account`` accepts; the last acceptance starts the game."""
        challenge = await self._answer(cid, account, "accept", None)
        if challenge.status != "started":
            return challenge
        try:
            table = await self._start(challenge)
        except Refusal:
            challenge.status = "canceled"
            await self.store.change(cid, lambda doc: doc.update(status="canceled"))
            await self._tell_all(challenge, "challengeCanceled")
            raise
        challenge.table = table.code
        await self.store.change(cid, lambda doc: doc.update(table=table.code, seats=challenge.seats))
        for key in challenge.accounts():
            await tell(self.broker, key, game_start_event(challenge.seats[key]))
        return challenge

    async def decline(self, account: str, cid: str, reason: object) -> Challenge:
        if reason is None:
            reason = "generic"
        if reason not in REASONS:
            raise Refusal("bad_reason", f"a reason is one of {', '.join(REASONS)}")
        challenge = await self._answer(cid, account, "decline", str(reason))
        await self._tell_all(challenge, "challengeDeclined", but=account)
        return challenge

    async def cancel(self, account: str, cid: str) -> Challenge:
        def edit(doc: Json) -> Challenge:
            challenge = self._pending(doc)
            if challenge.challenger != account:
                raise Refusal("not_challenged", "only the challenger cancels a challenge")
            challenge.status = "canceled"
            doc.update(challenge.to_doc())
            return challenge

        challenge = (await self.store.change(cid, edit))[1]
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

    async def _tell_all(self, challenge: Challenge, kind: ChallengeKind, but: str | None = None) -> None:
        for key in challenge.accounts():
            if key != but:
                await tell(self.broker, key, challenge_event(kind, challenge.to_json()))

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
        await table.start(None, now=True, tell=False)  # told here, with the challenge
        assert table.game_id is not None
        for given in challenge.seats.values():
            given["game"] = table.game_id
        return table


__all__ = ["EXPIRY_S", "REASONS", "Answer", "Challenge", "Challenges"]
