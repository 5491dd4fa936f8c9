"""A program at a table: sits with its bot's token, plays whole games, comes back.

``play(bot, url=..., token=...)`` is ``damepique bot`` as a function: it takes
a seat at the table (``POST /api/tables/{code}/seats`` with the bot's token),
opens the game socket with the same token, says ``hello`` with the seat's
token and answers every ``state`` that asks something of the seat: a pass or
a play chosen by the bot from its ``View``, ``continue`` on a deal's summary
the table waits for, ``rematch`` after a game when more are wanted. A card
the server refuses is logged and replaced by a random legal one (a bot's bug
must not stall a table); ``rate_limited`` waits a moment and sends again.
When the server restarts or the table moves (close 1012), or the connection
drops, it reconnects as the page does, at once and then backing off (1, 2, 4
up to 30 s, with some randomness), and says hello again with its seat token.
At an arena's remote seat (a ``ws://`` address) there is no seat to take:
it says hello and answers until the arena is over.

Only the standard library and ``websockets`` (the ``bot`` extra): a program
needs nothing of the server.
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from damepique import __version__
from damepique.bots.base import Bot
from damepique.engine import PASS, View, cards_of
from damepique.wire import Continue, Hello, Rematch, encode

from .links import Target
from .wire import Message, answer, decision, view_of_state

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

MOVED = 1012
"""The table moved to another server process, or the server restarts: reconnect."""
AGAIN = frozenset({MOVED, 1001, 1006, 1011, None})
"""Close codes after which the program comes back (None: no close frame, the connection dropped)."""
RECONNECTS = 12
"""Tries in a row to reconnect before giving up (about three minutes, backing off)."""
FATAL = frozenset({"bad_token", "bad_bot_token", "no_table", "bad_code", "not_seated"})
"""Refusals of a hello or a seat after which there is nothing to play."""


class Refused(Exception):
    """The server refused, or could not be reached: ``code`` and ``reason`` say why."""

    def __init__(self, code: str, reason: str, status: int | None = None) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.status = status


def backoff(attempt: int, rng: random.Random) -> float:
    """Seconds before reconnection ``attempt`` (1, 2, ...): at a random point
    of the first second the first time, then 1, 2, 4 up to 30, each between
    half and all of it, so that a restart is not met by every program at
    once (the first try is spread too: after a restart every program's first
    try falls due together, as the page's do; docs/protocol.md).

    >>> rng = random.Random(0)
    >>> round(backoff(1, rng), 2), round(backoff(3, rng), 2), backoff(20, rng) <= 30
    (0.84, 1.76, True)
    """
    if attempt <= 1:
        return rng.uniform(0.0, 1.0)
    return float(min(30.0, 2.0 ** (attempt - 2)) * rng.uniform(0.5, 1.0))


class Client:
    """One bot at one table (or one arena seat), from its seat to its last game."""

    def __init__(
        self,
        bot: Bot,
        target: Target,
        *,
        token: str | None = None,
        games: int = 1,
        seed: int | None = None,
        transcript: IO[str] | None = None,
        log: Callable[[str], None] | None = None,
        on_result: Callable[[Message], None] | None = None,
        seat_token: str | None = None,
    ) -> None:
        """``seat_token``: the seat is taken already (a challenge's ``gameStart``
        gave it): say ``hello`` with it instead of sitting down."""
        self.bot = bot
        self.target = target
        self.token = token
        self.games = games
        self.rng = random.Random(seed)
        self._jitter = random.Random()
        self.transcript = transcript
        self.log = log or (lambda line: print(f"damepique bot: {line}", file=sys.stderr, flush=True))
        self.on_result = on_result
        self.code = target.code
        self.seat_token: str | None = seat_token
        self.seat: int | None = None
        self.results: list[Message] = []
        self.finished: set[Any] = set()
        self._done: tuple[Any, ...] | None = None
        self._pending: Message | None = None
        self._fell_back = False
        self._state: Message | None = None
        self._continued: set[tuple[Any, int]] = set()
        self._ids = 0

    @property
    def arena(self) -> bool:
        return self.target.http is None

    # -- the seat, over HTTP ---------------------------------------------------------------

    def sit(self) -> None:
        """Take a seat at the table (the first empty one), as the bot's account."""
        assert self.target.http is not None and self.code is not None
        sat = self._post(f"/api/tables/{self.code}/seats", {})
        self.code, self.seat_token, self.seat = sat["code"], sat["token"], sat["seat"]
        self.log(f"sat at table {self.code} in seat {self.seat}")

    def _headers(self) -> dict[str, str]:
        headers = {"User-Agent": f"damepique-bot/{__version__}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _post(self, path: str, body: Message) -> Message:
        assert self.target.http is not None
        request = urllib.request.Request(
            self.target.http + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={**self._headers(), "Content-Type": "application/json", "Accept": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                answer: Message = json.loads(response.read())
                return answer
        except urllib.error.HTTPError as e:
            try:
                refusal = json.loads(e.read() or b"{}")
            except ValueError:
                refusal = {}
            raise Refused(
                str(refusal.get("code") or f"http_{e.code}"), str(refusal.get("reason") or e.reason), e.code
            ) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise Refused("unreachable", f"cannot reach {self.target.http}: {reason}") from None

    # -- the game socket ------------------------------------------------------------------------

    def run(self) -> list[Message]:
        """Play until ``games`` games are over (an arena: until it ends); each
        game's result, as printed. ``Refused`` when there is nothing to play."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        if not self.arena and self.seat_token is None:
            self.sit()
        attempt = 0
        while True:
            code: int | None = None
            reason = ""
            try:
                with connect(
                    self.target.ws,
                    additional_headers=self._headers(),
                    user_agent_header=None,
                    open_timeout=15,
                    max_size=2**22,
                ) as ws:
                    self._hello(ws)
                    attempt = 0
                    if self._play(ws):
                        return self.results
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else None
                reason = e.rcvd.reason if e.rcvd is not None else "the connection dropped"
                if self.arena and code == 1000 and self.results:
                    return self.results
                if code not in AGAIN:
                    raise Refused("closed", f"the server closed the connection ({code}: {reason})") from None
            except (OSError, InvalidHandshake, TimeoutError) as e:
                reason = f"cannot connect to {self.target.ws}: {e}"
            attempt += 1
            if attempt > RECONNECTS:
                raise Refused("unreachable", reason or "the connection keeps dropping")
            wait = backoff(attempt, self._jitter)
            self.log(f"connection closed ({code}: {reason}); reconnecting in {wait:.1f} s")
            time.sleep(wait)

    def _send(self, ws: ClientConnection, msg: Message) -> None:
        ws.send(json.dumps(msg))

    def _hello(self, ws: ClientConnection) -> None:
        hello = encode(Hello(None, self.seat_token, self.code))
        self._done = None  # a play sent before the connection dropped may not have counted
        self._pending = None
        self._send(ws, hello)

    def _play(self, ws: ClientConnection) -> bool:
        """Every message until the games are over (True) or the socket closes (raises)."""
        while True:
            text = ws.recv()
            if isinstance(text, bytes):
                text = text.decode()
            if self.transcript is not None:
                self.transcript.write(text + "\n")
                self.transcript.flush()
            msg = json.loads(text)
            kind = msg.get("type")
            if kind == "state":
                if self._on_state(ws, msg):
                    return True
            elif kind == "error":
                self._on_error(ws, msg)
            elif kind == "table":
                if msg["table"].get("status") == "closed":
                    raise Refused("no_table", "the table closed")
                if self.seat is None:
                    self.seat = msg.get("you")

    def _on_state(self, ws: ClientConnection, state: Message) -> bool:
        game = state.get("game")
        if game in self.finished:
            return False  # a late state of a game already over
        hook = getattr(self.bot, "on_state", None)
        if hook is not None:
            hook(state)
        if state.get("over"):
            return self._game_over(ws, state)
        summary = state.get("summary")
        if (
            summary
            and state.get("seat") in summary["waiting"]
            and (game, summary["deal"]) not in self._continued
        ):
            # The table waits for every person (a program too) to read the summary.
            self._continued.add((game, summary["deal"]))
            self._send(ws, encode(Continue(None, summary["deal"])))
        key = decision(state)
        if key is None or (key == self._done and not self.arena):
            return False  # nothing asked, or asked again (another seat's news) and answered already
        self._done, self._state, self._fell_back = key, state, False
        view = view_of_state(state)
        try:
            if view.phase == PASS:
                msg = answer(view, tuple(self.bot.choose_pass(view, self.rng)))
            else:
                msg = answer(view, self.bot.choose_play(view, self.rng))
        except Exception as e:  # the bot failed: the table must not wait for it
            self.log(f"the bot failed ({type(e).__name__}: {e}); playing a random legal card")
            msg = self._fallback(view)
            self._fell_back = True
        self._act(ws, msg)
        return False

    def _act(self, ws: ClientConnection, msg: Message) -> None:
        self._ids += 1
        self._pending = {**msg, "id": self._ids}
        self._send(ws, self._pending)

    def _fallback(self, view: View) -> Message:
        if view.phase == PASS:
            return answer(view, tuple(self.rng.sample(cards_of(view.hand), view.rules.pass_count)))
        return answer(view, self.rng.choice(view.legal_cards()))

    def _on_error(self, ws: ClientConnection, error: Message) -> None:
        code, reason = str(error.get("code")), str(error.get("reason"))
        mine = self._pending is not None and error.get("ref") == self._pending["id"]
        if code == "rate_limited" and mine and self._pending is not None:
            time.sleep(0.25)  # faster than the table allows: the same message, a moment later
            self._send(ws, self._pending)
            return
        if code in FATAL:
            raise Refused(code, reason)
        if code == "stale_rematch":
            return  # somebody else asked for the rematch first
        self.log(f"refused: {code}: {reason}")
        if mine and code in ("illegal_play", "illegal_pass", "bad_card") and not self._fell_back:
            assert self._state is not None
            self._fell_back = True
            self._act(ws, self._fallback(view_of_state(self._state)))

    def _game_over(self, ws: ClientConnection, state: Message) -> bool:
        game = state.get("game")
        self.finished.add(game)
        seat = state.get("seat")
        totals = state.get("totals") or []
        result: Message = {
            "game": game,
            "table": self.code,
            "seat": seat,
            "totals": totals,
            "points": totals[seat] if seat is not None and seat < len(totals) else None,
            "winner": state.get("winner"),
        }
        self.results.append(result)
        hook = getattr(self.bot, "on_game_over", None)
        if hook is not None:
            hook(state)
        if self.on_result is not None:
            self.on_result(result)
        if self.arena or len(self.results) >= self.games:
            return True
        self._send(ws, encode(Rematch(None, game)))
        return False


def play(
    bot: Bot,
    *,
    url: str,
    token: str | None = None,
    table: str | None = None,
    games: int = 1,
    seed: int | None = None,
    transcript: IO[str] | None = None,
) -> list[Message]:
    """Seat ``bot`` at the table of ``url`` (its link, or the server's address
    and ``table``) with a bot account's ``token``, and play ``games`` games;
    each one's result (``game``, ``seat``, ``totals``, ``points``, ``winner``).
    A ``ws://`` address is an arena's remote seat (no token needed)."""
    return Client(
        bot, Target.parse(url, table), token=token, games=games, seed=seed, transcript=transcript
    ).run()


__all__ = ["AGAIN", "MOVED", "Client", "Refused", "backoff", "play"]
