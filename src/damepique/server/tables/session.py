"""One connection's messages: hello, sit, start, pass, play, advice, chat...

A ``Session`` reads the frames of one connection, one at a time, and acts
for the seat its token proved, never for a seat number the client names.
The same session serves a socket this process holds and one relayed from
another process (``cluster.relay``). The protocol is in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import replace
from typing import Protocol

from damepique.wire import TrainingMessage, ack_message, chat_message, muted_message, seated_message

from ..asgi import Connection
from ..clock import Clock
from ..cluster.relay import MOVED
from ..errors import Refusal
from ..play import training
from ..play.runner import Runner
from ..protocol import (
    Advice,
    Chat,
    Claim,
    Continue,
    Hello,
    Hint,
    Leave,
    Message,
    Mute,
    Pass,
    Ping,
    Play,
    Ref,
    Rematch,
    Review,
    Sit,
    Start,
    dumps,
    error,
    parse,
    pong,
)
from .codes import normalize_code
from .limits import TOO_MANY_CODES, UnknownCodes, too_many_codes
from .seats import Sitter
from .table import Table

QUICK_MESSAGES = ("hello", "well_played", "thanks", "oops", "sorry", "nice_try", "good_game", "bye")


class TableMoved(Exception):
    """The table is run by another process now; the client should reconnect."""


class Registry(Protocol):
    """What a session needs of the tables' registry (``tables.registry.Tables``)."""

    unknown_codes: UnknownCodes
    clock: Clock

    @property
    def chat_interval(self) -> float: ...

    async def by_token(self, token: str) -> tuple[Table, int] | None: ...
    async def get(self, code: str) -> Table | None: ...
    async def reload(self, table: Table) -> Runner: ...
    async def sitter(self, account: str | None) -> Sitter: ...


class Session:
    def __init__(self, tables: Registry, conn: Connection, relayed: bool = False) -> None:
        self.tables = tables
        self.conn = conn
        self.relayed = relayed
        """A connection held by another process: that one counts its address's
        unknown codes (it knows the address, and refuses there when it is over)."""
        self.table: Table | None = None
        self.seat: int | None = None

    def close(self) -> None:
        self.conn.cancel_work()
        if self.table is not None:
            self.table.detach(self.conn)
            self.table = None

    async def on_text(self, text: str | bytes | None) -> None:
        """Handle one frame; every fault is answered with an error naming it."""
        ref = None
        try:
            msg = parse(text)
            ref = msg.ref
            await self._handle(msg)
        except Refusal as e:
            self.conn.post(dumps(error(e, ref)))
        except TableMoved:
            self.close()
            await self.conn.end(MOVED, "the table moved to another server; reconnect")

    async def _handle(self, msg: Message) -> None:
        conn = self.conn
        if isinstance(msg, Ping):
            conn.post(dumps(pong(msg.ref)))
            return
        if isinstance(msg, Hello):
            joined, seat = await self._hello(msg)
            conn.patches, conn.plays = msg.patches, msg.plays
            if self.table is not None:
                self.table.detach(conn)
            self.table, self.seat = joined, seat
            await joined.attach(conn, seat)
            await joined.send_state(conn, seat, msg.ref)
            return
        table = self.table
        if table is None:
            raise Refusal("not_joined", "send hello with your seat token or a table code first")
        if table.moved:
            raise TableMoved  # this process gave the table up (its lease ran out)
        if self.seat is not None:
            # The hub's word: None when the seat was given up (left for good),
            # another number when the seats were renumbered (players "auto").
            self.seat = table.hub.seat_of(table.code, conn)
        if isinstance(msg, Sit):
            await self._sit(table, msg)
        elif isinstance(msg, Mute):
            self._mute(table, msg)
        elif self.seat is None:
            raise Refusal("not_seated", "take a seat first; spectators only watch")
        elif isinstance(msg, (Pass, Play, Claim)):
            runner = table.runner
            if runner is None or table.status != "playing":
                raise Refusal("no_game", "no game in progress at this table")
            if runner.broken:
                runner = await self.tables.reload(table)
            made = await runner.command(self.seat, msg)
            if made is not None:  # answered already: acknowledged, nothing changed
                conn.post(dumps(ack_message(made, msg.ref)))
        elif isinstance(msg, (Advice, Review, Hint)):
            self._training(table, self.seat, msg)
        elif isinstance(msg, Start):
            await table.start(self.seat)
        elif isinstance(msg, Leave):
            await table.leave(self.seat)
            self.seat = None
        elif isinstance(msg, Rematch):
            await table.rematch(self.seat, msg.game)
        elif isinstance(msg, Chat):
            await self._chat(table, msg.message)
        elif isinstance(msg, Continue) and table.runner is not None:
            table.runner.read_summary(self.seat, msg.deal)

    async def _hello(self, msg: Hello) -> tuple[Table, int | None]:
        raw = msg.table
        code = normalize_code(raw) if raw is not None and len(raw) < 40 else None
        if msg.token is not None:
            found = await self.tables.by_token(msg.token)
            if found is None:
                raise Refusal("bad_token", "this seat token is not valid (any more)")
            if raw is not None and found[0].code != code:
                raise Refusal("bad_token", "this seat token is for another table")
            return found
        # Over the limit, every code is refused, known or not: the answer tells nothing.
        limit = None if self.relayed else self.tables.unknown_codes
        if limit is not None and (wait := limit.wait(self.conn.host)):
            raise Refusal(TOO_MANY_CODES, too_many_codes(wait), params={"seconds": round(wait)})
        table = None if code is None else await self.tables.get(code)
        if table is None or table.status == "closed" or table.solo:
            if limit is not None:
                limit.miss(self.conn.host)
            if code is None:
                raise Refusal("bad_code", "a table code has 8 letters and digits")
            raise Refusal("no_table", "no table with this code")
        return table, None

    async def _sit(self, table: Table, msg: Sit) -> None:
        if self.seat is not None:
            raise Refusal("already_seated", "you already sit at this table")
        sitter = replace(await self.tables.sitter(self.conn.account), player=msg.player)
        token, seat = await table.sit(msg.name, sitter, announce=False)
        self.seat = seat
        table.hub.attach(table.code, self.conn, seat)
        table.hub.send(self.conn, seated_message(table.code, token, seat, msg.ref))
        table.announce()

    def _mute(self, table: Table, msg: Mute) -> None:
        if not 0 <= msg.seat < len(table.seats):
            raise Refusal("bad_seat", "no such seat")
        if msg.on:
            self.conn.mutes.add(msg.seat)
        else:
            self.conn.mutes.discard(msg.seat)
        table.hub.send(self.conn, muted_message(sorted(self.conn.mutes), msg.ref))

    def _training(self, table: Table, seat: int, msg: Advice | Review | Hint) -> None:
        """Advice, hints and reviews run beside the connection: the player's own
        cards are never held up behind the expert's search. The training mode's
        advice and reviews are for solo games; a hint, once a trick, for any
        game that is not ranked."""
        runner = table.runner
        if not table.options.training:
            raise Refusal("no_advice", "no advice, hint or review in this game")
        if isinstance(msg, Hint):
            if table.options.ranked:
                raise Refusal("no_hints", "hints are not given in ranked games")
        elif not table.solo:
            raise Refusal("no_training", "training advice is for solo games")
        if runner is None:
            raise Refusal("no_game", "no game in progress at this table")
        if isinstance(msg, Hint):
            self.conn.background("hint", self._answer("hint", runner.hint(seat), msg.ref))
        elif isinstance(msg, Advice):
            answer = training.advice(runner.game, seat, runner.reviews)
            self.conn.background("advice", self._answer("advice", answer, msg.ref))
        else:
            review = training.review(runner.game, seat, msg.deal, runner.reviews)
            self.conn.background("review", self._answer("review", review, msg.ref))

    async def _answer(self, what: str, work: Awaitable[TrainingMessage], ref: Ref) -> None:
        try:
            answer = await work
        except Refusal as e:
            self.conn.post(dumps(error(e, ref)))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bot that failed: say so, keep the connection
            self.conn.post(dumps(error(Refusal("unavailable", f"no {what} now: {type(e).__name__}"), ref)))
        else:
            answer["ref"] = ref
            self.conn.post(dumps(answer))

    async def _chat(self, table: Table, message: str) -> None:
        if message not in QUICK_MESSAGES:
            raise Refusal("bad_chat", "only the preset quick messages can be sent")
        now = self.tables.clock.monotonic()
        if now - self.conn.last_chat < self.tables.chat_interval:
            raise Refusal("rate_limited", "one message a second at most")
        self.conn.last_chat = now
        text = dumps(chat_message(self.seat, message))
        for conn in table.hub.connections(table.code):
            if self.seat not in conn.mutes:
                conn.post(text)


__all__ = ["QUICK_MESSAGES", "Session", "TableMoved"]
