"""One connection to a multiplayer table: hello, sit, start, pass, play, chat...

A ``TableSession`` reads the frames of one connection, one at a time, and
acts for the seat its token proved, never for a seat number the client names.
The same session serves a WebSocket this process holds and a connection
relayed from another process (``cluster``): all it needs of its client is
``send_text``, ``end`` and a rate limit. The protocol is in
``docs/multiplayer.md``.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

from .codes import normalize_code
from .multiplayer import QUICK_MESSAGES, Client, MultiTable
from .protocol import VERSION, ProtocolError, dumps, error
from .protocol import parse as parse_message
from .ratelimit import TOO_MANY_CODES, too_many_codes
from .table import CommandError

if TYPE_CHECKING:
    from .lobby import Multiplayer

TABLE_TYPES = ("hello", "sit", "start", "pass", "play", "leave", "rematch", "chat", "mute", "unmute", "ping")
MOVED = 1012
"""WebSocket close code when a table moved to another process: reconnect."""


def parse(text: str | bytes | None) -> dict[str, Any]:
    """One table message, checked for shape only."""
    return parse_message(text, TABLE_TYPES)


class TableMoved(Exception):
    """The table is run by another process now; the client should reconnect."""


class TableSession:
    """The state of one connection: the table it said hello to and its seat."""

    def __init__(
        self, mp: Multiplayer, client: Client, rate_limit: bool = True, count_codes: bool = True
    ) -> None:
        self.mp = mp
        self.client = client
        self.rate_limit = rate_limit
        """Count each frame against the client's rate (off where the caller already did)."""
        self.count_codes = count_codes
        """Hold a ``hello`` by code to the limit of unknown codes of the client's address
        (off for a connection relayed from another process: the one holding the socket
        knows the address, refuses there when it is over, and answers unknown codes itself)."""
        self.mt: MultiTable | None = None
        self.seat: int | None = None

    def close(self) -> None:
        if self.mt is not None:
            self.mt.detach(self.client)
            self.mt = None

    async def on_text(self, text: str | bytes | None) -> None:
        """Handle one frame; every fault is answered with an error naming it."""
        client = self.client
        ref = None
        try:
            if self.rate_limit and not client.allow():
                raise ProtocolError("rate_limited", "too many messages; slow down")
            msg = parse(text)
            ref = msg.get("id") if isinstance(msg.get("id"), (str, int)) else None
            await self._handle(msg, ref)
        except (ProtocolError, CommandError) as e:
            with contextlib.suppress(Exception):  # gone meanwhile: its reader will see
                await client.send_text(dumps(error(e.code, e.reason, ref)))
        except TableMoved:
            self.close()
            await client.end(MOVED, "the table moved to another server; reconnect")

    async def _handle(self, msg: dict[str, Any], ref: Any) -> None:
        client = self.client
        kind = msg["type"]
        if kind == "ping":
            await client.send_text(dumps({"v": VERSION, "type": "pong", "ref": ref}))
            return
        if kind == "hello":
            new_mt, new_seat = await self._hello(msg)
            client.patches = msg.get("patches") is True
            if self.mt is not None:
                self.mt.detach(client)
            self.mt, self.seat = new_mt, new_seat
            await new_mt.attach(client, new_seat)
            await new_mt.send_state(client, new_seat, ref)
            return
        mt = self.mt
        if mt is None:
            raise ProtocolError("not_joined", "send hello with a table code first")
        if mt.moved:
            raise TableMoved  # this process gave the table up (its lease ran out)
        if self.seat is not None and mt.conns.get(client, None) != self.seat:
            self.seat = None  # the seat was given up (left for good)
        if kind == "sit":
            await self._sit(mt, msg, ref)
        elif kind in ("mute", "unmute"):
            await self._mute(mt, kind, msg.get("seat"), ref)
        elif self.seat is None:
            raise CommandError("not_seated", "take a seat first; spectators only watch")
        elif kind == "start":
            await mt.start(self.seat)
        elif kind in ("pass", "play"):
            runner = mt.runner
            if runner is None or mt.status != "playing":
                raise CommandError("no_game", "no game in progress at this table")
            if runner.broken:
                async with mt.lock:
                    await mt.load_game()
                runner = mt.runner
            assert runner is not None
            await runner.command(self.seat, msg)
        elif kind == "leave":
            await mt.leave(self.seat)
            self.seat = None
        elif kind == "rematch":
            await mt.rematch(self.seat, msg.get("game"))
        elif kind == "chat":
            await self._chat(mt, msg.get("message"))

    async def _hello(self, msg: dict[str, Any]) -> tuple[MultiTable, int | None]:
        raw = msg.get("table")
        code = normalize_code(raw) if isinstance(raw, str) and len(raw) < 40 else None
        token = msg.get("token")
        if token is not None:
            found = await self.mp.by_token(token)
            if found is None:
                raise ProtocolError("bad_token", "this seat token is not valid (any more)")
            if raw is not None and found[0].code != code:
                raise ProtocolError("bad_token", "this seat token is for another table")
            return found
        # Over the limit, every code is refused, known or not: the answer tells nothing.
        limit = self.mp.unknown_codes if self.count_codes else None
        if limit is not None and (wait := limit.wait(self.client.host)):
            raise ProtocolError(TOO_MANY_CODES, too_many_codes(wait))
        mt = None if code is None else await self.mp.get(code)
        if mt is None or mt.status == "closed":
            if limit is not None:
                limit.miss(self.client.host)
            if code is None:
                raise ProtocolError("bad_code", "a table code has 8 letters and digits")
            raise ProtocolError("no_table", "no table with this code")
        return mt, None

    async def _sit(self, mt: MultiTable, msg: dict[str, Any], ref: Any) -> None:
        if self.seat is not None:
            raise CommandError("already_seated", "you already sit at this table")
        account = self.client.account
        token, seat = await mt.sit(
            msg.get("name"), account, await self.mp.nickname_of(account), None, announce=False
        )
        self.seat = seat
        mt.conns[self.client] = seat
        await mt.send(
            self.client,
            {"v": VERSION, "type": "seated", "code": mt.code, "token": token, "seat": seat, "ref": ref},
        )
        await mt.announce()

    async def _mute(self, mt: MultiTable, kind: str, target: object, ref: Any) -> None:
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(mt.seats):
            raise CommandError("bad_seat", "no such seat")
        if kind == "mute":
            self.client.mutes.add(target)
        else:
            self.client.mutes.discard(target)
        await mt.send(
            self.client, {"v": VERSION, "type": "muted", "seats": sorted(self.client.mutes), "ref": ref}
        )

    async def _chat(self, mt: MultiTable, message: object) -> None:
        if message not in QUICK_MESSAGES:
            raise CommandError("bad_chat", "only the preset quick messages can be sent")
        now = time.monotonic()
        if now - self.client.last_chat < self.mp.settings.chat_interval:
            raise CommandError("rate_limited", "one message a second at most")
        self.client.last_chat = now
        text = dumps({"v": VERSION, "type": "chat", "seat": self.seat, "message": message})
        for conn in list(mt.conns):
            if self.seat not in getattr(conn, "mutes", set()):
                await mt.send_raw(conn, text)


__all__ = ["MOVED", "TABLE_TYPES", "TableMoved", "TableSession", "parse"]
