"""The arena's remote seats: a program outside plays a seat of ``damepique arena``.

``damepique arena --seats remote,expert,expert,expert --listen 127.0.0.1:9000``
listens on a WebSocket and waits for one program per ``remote`` seat
(``damepique bot --url ws://127.0.0.1:9000 --bot NAME``, or any client of the
bot API). Each speaks the bot API's subset of protocol 2, as with a server: it
says ``hello``; it is sent a ``table`` (whenever the seat it plays or the deal
changes) and a ``state`` for every decision asked of it, the seat's view as
``View.to_json`` writes it; it answers ``pass`` or ``play``. An answer the
rules refuse gets the server's ``error`` (``illegal_play`` with the engine's
reason, ``seat`` and ``card``; ``illegal_pass``, ``bad_card``, ``not_playing``,
``not_passing``, ``bad_json``, ``bad_message``, ``unknown_type``) and the seat
is asked again by the next answer. At the end each program gets a state with
``over`` true and the connection closes (1000).

A ``RemoteSeat`` is a ``Bot`` (``choose_pass``/``choose_play``): the arena
plays it like any other, in its own thread, while the socket is served in
the listener's.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from damepique.engine import CARD_NAMES, PASS, Deal, Rules, View, cards_of, parse_card
from damepique.engine.errors import CardError, HeartsError, IllegalAction
from damepique.wire import (
    StateCommon,
    StateMessage,
    TableMessage,
    ack_message,
    parse_decision,
    pong_message,
    seat_shown,
    state_message,
    state_seat,
    table_info,
    table_message,
)

from .wire import Message, error

if TYPE_CHECKING:
    from websockets.sync.server import Server, ServerConnection

MAX_MESSAGE = 4096
"""Bytes of one message from a program, as at a server."""
ANSWER_S = 60.0
"""Seconds a remote program has for one decision before the arena gives up."""
TABLE = "ARENA"


class RemoteSeatError(RuntimeError):
    """A remote program went away, or did not answer in time: the arena stops."""


def position(view: View) -> Deal:
    """A deal where the seat to act holds its own hand and the rest is anywhere:
    enough for the engine to check its pass or play and say why not, exactly as
    the server would (it reads nothing but that hand and the public history)."""
    rules = view.rules
    unseen = list(cards_of(view.unseen))
    kitty = view.kitty
    if not kitty and rules.kitty_size:
        # The highest cards: a low club in the kitty would move the first lead.
        kitty = sum(1 << c for c in unseen[-rules.kitty_size :])
        unseen = unseen[: -rules.kitty_size]
    hands = [0] * rules.players
    hands[view.seat] = view.hand
    for s in range(rules.players):
        if s == view.seat:
            continue
        size = rules.hand_size if view.phase == PASS else view.hand_sizes[s]
        hands[s] = sum(1 << c for c in unseen[:size])
        unseen = unseen[size:]
    return view.world(hands, kitty)


class RemoteSeat:
    """One program's seat, played over its socket (a ``Bot``)."""

    def __init__(self, name: str, rules: Rules, answer_s: float = ANSWER_S) -> None:
        self.name = name
        self.rules = rules
        self.answer_s = answer_s
        self.conn: ServerConnection | None = None
        self.connected = threading.Event()
        self.released = threading.Event()
        """Set once the arena is done with the program: its connection may close."""
        self._told: tuple[int, int] | None = None
        self._last: View | None = None

    # -- as the arena sees it -----------------------------------------------------------------

    def choose_pass(self, view: View, rng: Any) -> tuple[int, ...]:
        return tuple(self._ask(view))

    def choose_play(self, view: View, rng: Any) -> int:
        cards = self._ask(view)
        return cards[0]

    def _ask(self, view: View) -> list[int]:
        """Send the state, then read answers until one the rules take."""
        self._last = view
        if self._told != (view.seat, view.number):
            self._told = (view.seat, view.number)
            self._send(self._table(view))
        self._send(self._state(view))
        deal = position(view)
        while True:
            msg = self._receive()
            kind = msg.get("type") if isinstance(msg, dict) else None
            ref = msg.get("id") if isinstance(msg, dict) else None
            try:
                if msg is _NOT_JSON:
                    raise _Refused("bad_json", "not valid JSON")
                if msg is _TOO_LARGE:
                    raise _Refused("too_large", f"a message is at most {MAX_MESSAGE} bytes")
                if not isinstance(msg, dict) or not isinstance(kind, str):
                    raise _Refused("bad_message", "a message is a JSON object with a string type")
                if kind == "ping":
                    self._send(pong_message(ref))
                    continue
                if kind in ("hello", "continue", "chat", "mute", "unmute"):
                    continue  # nothing to do at an arena
                if kind not in ("pass", "play"):
                    raise _Refused("unknown_type", f"unknown message type {kind[:40]!r}")
                asked = msg.get("decision")
                if asked is not None and parse_decision(asked) is None:
                    raise _Refused("bad_decision", "not a decision id such as '0:play:5'")
                if asked is not None and asked != view.decision:
                    # Not the one asked now: an answer sent again (the arena keeps no history).
                    self._send(ack_message(str(asked), ref))
                    continue
                if kind == "pass":
                    if view.phase != PASS:
                        raise _Refused("not_passing", "there is no passing now")
                    cards = msg.get("cards")
                    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                        raise _Refused("bad_card", "cards is a list of card strings")
                    mask = deal.verify_pass(view.seat, [parse_card(c) for c in cards])
                    return list(cards_of(mask))
                if view.phase == PASS:
                    raise _Refused("not_playing", "cards are still being passed")
                card = msg.get("card")
                if not isinstance(card, str):
                    raise _Refused("bad_card", "card is a card string")
                return [deal.verify_play(parse_card(card), view.seat)]
            except _Refused as e:
                self._send(error(e.code, e.reason, ref))
            except CardError as e:
                self._send(error("bad_card", e.reason, ref, card=e.text[:20]))
            except IllegalAction as e:
                card_name = None if e.card is None else CARD_NAMES[e.card]
                self._send(error(e.kind, e.reason, ref, seat=e.seat, card=card_name))
            except HeartsError as e:  # pragma: no cover - every refusal of a pass or play is above
                self._send(error(e.kind, e.reason, ref))

    def finish(self, results: list[Message] | None = None) -> None:
        """The arena is over: the program hears it (a state with ``over``, and
        the arena's ``results`` if it played out), then the socket closes."""
        if self.conn is not None and self._last is not None:
            state = self._state(self._last)
            state["over"] = True
            if results is not None:
                state["arena"] = results
            with contextlib.suppress(RemoteSeatError):  # gone already: nothing to tell
                self._send(state)
        self.released.set()

    # -- messages ---------------------------------------------------------------------------------

    def _names(self, view: View) -> list[str]:
        return [self.name if s == view.seat else f"Seat {s}" for s in range(view.rules.players)]

    def _table(self, view: View) -> TableMessage:
        seats = [
            seat_shown(
                "human",
                name,
                nickname=None,
                level=None,
                program=s == view.seat,
                connected=True,
                away=False,
                left=False,
            )
            for s, name in enumerate(self._names(view))
        ]
        info = table_info(
            TABLE,
            "arena",
            "playing",
            host=None,
            game="arena",
            options={"timer": 0, "speed": "fast", "ranked": False},
            rules=view.rules.to_json(),
            seats=seats,
            spectators=0,
            can_start=False,
            display=TABLE,
        )
        return table_message(view.seat, info)

    def _state(self, view: View) -> StateMessage:
        """The seat's state, as a server's (an arena's games have no id, no fairness, no timer)."""
        common: StateCommon = {
            "game": "arena",
            "seats": [state_seat(name, "human", None) for name in self._names(view)],
            "rules": view.rules.to_json(),
            "mode": "arena",
            "speed": "fast",
            "level": None,
            "view": None,
            "results": [],
            "totals": list(view.totals),
            "over": False,
            "winner": None,
            "winners": [],
            "fairness": None,
            "timer": None,
            "summary": None,
        }
        return state_message(common, view.seat, view.to_json(), [])

    def _send(self, msg: Mapping[str, object]) -> None:
        from websockets.exceptions import ConnectionClosed

        if self.conn is None:
            raise RemoteSeatError(f"no program plays the seat {self.name}")
        try:
            self.conn.send(json.dumps(msg))
        except ConnectionClosed:
            raise RemoteSeatError(f"the program at the seat {self.name} went away") from None

    def _receive(self) -> object:
        from websockets.exceptions import ConnectionClosed

        assert self.conn is not None
        try:
            text = self.conn.recv(timeout=self.answer_s)
        except TimeoutError:
            raise RemoteSeatError(
                f"the program at the seat {self.name} did not answer in {self.answer_s:.0f} s"
            ) from None
        except ConnectionClosed:
            raise RemoteSeatError(f"the program at the seat {self.name} went away") from None
        if len(text) > MAX_MESSAGE:
            return _TOO_LARGE
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # a bytes frame that is not UTF-8 JSON too
            return _NOT_JSON


class _Refused(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


_NOT_JSON = object()
_TOO_LARGE = object()


class RemoteSeats:
    """The listening side: one ``RemoteSeat`` per program that says hello, in order."""

    def __init__(self, names: Sequence[str], rules: Rules, answer_s: float = ANSWER_S) -> None:
        self.seats = [RemoteSeat(name, rules, answer_s) for name in names]
        self._lock = threading.Lock()
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    def listen(self, host: str, port: int) -> int:
        """Start listening (in a thread of its own); the port (0: one the system chose)."""
        from websockets.sync.server import serve

        self._server = serve(self._serve, host, port, max_size=2**20)
        self._thread = threading.Thread(target=self._server.serve_forever, name="arena-remote", daemon=True)
        self._thread.start()
        return int(self._server.socket.getsockname()[1])

    def wait(self, seconds: float) -> bool:
        """Until every seat has its program (False: not in ``seconds``)."""
        deadline = time.monotonic() + seconds
        return all(seat.connected.wait(max(0.0, deadline - time.monotonic())) for seat in self.seats)

    def close(self, results: list[Message] | None = None) -> None:
        for seat in self.seats:
            seat.finish(results)
        if self._server is not None:
            self._server.shutdown()
        if self._thread is not None:
            self._thread.join(5)

    def _serve(self, conn: ServerConnection) -> None:
        """One program's connection, from its hello until the arena is done with it."""
        from websockets.exceptions import ConnectionClosed

        try:
            first = json.loads(conn.recv(timeout=30))
        except (TimeoutError, ValueError, ConnectionClosed):
            return
        if not isinstance(first, dict) or first.get("type") != "hello":
            conn.send(json.dumps(error("not_joined", "send hello first")))
            return
        with self._lock:
            seat = next((s for s in self.seats if s.conn is None), None)
            if seat is not None:
                seat.conn = conn
        if seat is None:
            conn.send(json.dumps(error("table_full", "every remote seat of this arena is taken")))
            return
        seat.connected.set()
        seat.released.wait()
        # Returning closes the connection (1000): the arena is over.


__all__ = ["ANSWER_S", "RemoteSeat", "RemoteSeatError", "RemoteSeats", "position"]
