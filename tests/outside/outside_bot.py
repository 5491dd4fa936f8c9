"""A bot program written only from ``docs/bot-api.md`` and ``docs/protocol.md``,
as somebody outside the project would: the standard library, ``httpx`` and
``websockets``, and no ``damepique`` module (``test_outside_bot.py`` checks).

It sits at a table with its bot account's token, keeps one socket, answers
every decision a state names (``view.decision``) once, naming it, and returns
the finished game's last state. Its choices are plain: the ``rules.pass_count``
highest cards to pass, the first legal card to play.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


@dataclass
class OutsideBot:
    base: str
    """The server's address, e.g. ``http://127.0.0.1:8000``."""
    token: str
    """The bot account's token (``dpb_…``)."""
    answered: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    """Every decision answered, by game and decision id (unique within a game), and its answer."""
    frames: list[dict[str, Any]] = field(default_factory=list)
    seat_token: str | None = None
    code: str | None = None
    ws: ClientConnection | None = None
    resent: list[str] = field(default_factory=list)
    """Decisions answered again after a reconnection (the answer may have been lost)."""
    _ids: int = 0
    _fresh: bool = False

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def sit(self, code: str) -> int:
        """Take a seat at the table ``code`` (``POST /api/tables/{code}/seats``)."""
        r = httpx.post(f"{self.base}/api/tables/{code}/seats", json={}, headers=self.headers, timeout=15)
        assert r.status_code == 201, r.text
        self.code, self.seat_token = code, r.json()["token"]
        return int(r.json()["seat"])

    def join(self, game: dict[str, Any]) -> None:
        """The seat a ``gameStart`` event gives (``game``: its ``table``, ``seat``, ``token``)."""
        self.code, self.seat_token = game["table"], game["token"]

    def connect(self) -> None:
        """Open the socket with the token and say ``hello`` with the seat's token."""
        url = self.base.replace("http://", "ws://") + "/ws"
        self.ws = connect(url, additional_headers=self.headers, open_timeout=15)
        self.send({"type": "hello", "table": self.code, "token": self.seat_token})
        self._fresh = True

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def receive(self) -> dict[str, Any]:
        assert self.ws is not None
        msg = json.loads(self.ws.recv(timeout=60))
        self.frames.append(msg)
        return dict(msg)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        """The answer to the decision ``state`` names."""
        view = state["view"]
        if view["phase"] == "pass":
            count = state["rules"]["pass_count"]  # on the wire always
            cards = sorted(view["hand"], key=rank)[-count:]
            return {"type": "pass", "cards": cards, "decision": view["decision"]}
        return {"type": "play", "card": view["legal"][0], "decision": view["decision"]}

    def answer(self, state: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        msg = {**self.choose(state), "id": self._ids}
        self.answered[state["game"], state["view"]["decision"]] = msg
        self.send(msg)
        return msg

    def play_until(self, stop: Any) -> dict[str, Any]:
        """Handle every message until ``stop(msg)`` is true for one: that one is
        returned, not handled (the caller may ``handle`` it)."""
        while True:
            msg = self.receive()
            if stop(msg):
                return msg
            self.handle(msg)

    def handle(self, msg: dict[str, Any]) -> None:
        """Answer a state's new decision; read a summary when the table waits for it."""
        if msg["type"] == "error":
            raise AssertionError(f"refused: {msg}")
        if msg["type"] != "state" or msg["over"]:
            return
        if msg["summary"] and msg["seat"] in msg["summary"]["waiting"]:
            self.send({"type": "continue", "deal": msg["summary"]["deal"]})
        if msg["view"] is None:
            return  # a state before the first deal (a hello just after the start): nothing asked
        decision = msg["view"]["decision"]
        if decision is not None and (msg["game"], decision) not in self.answered:
            self.answer(msg)
        elif decision is not None and self._fresh:
            # Asked again after a reconnection: the answer may never have
            # arrived. Naming the decision makes sending it again safe.
            self.resent.append(decision)
            self.send(self.answered[msg["game"], decision])
        self._fresh = False


class EventStream:
    """An account's event stream (``GET /api/stream/event``, one JSON object a
    line), read by a thread into a queue. ``headers`` or ``cookies`` prove the account."""

    def __init__(self, base: str, headers: dict[str, str] | None = None, cookies: Any = None) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: set[str] = set()
        """The ids of the events taken: delivery is at least once (docs/bot-api.md), so a
        ``gameStart`` or ``gameFinish`` sent again with the same id is dropped."""
        self.opened = threading.Event()
        self._client = httpx.Client(base_url=base, headers=headers, cookies=cookies, timeout=None)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self.opened.wait(15), "the event stream did not open"

    def _read(self) -> None:
        try:
            with self._client.stream("GET", "/api/stream/event") as r:
                assert r.status_code == 200, r.read()
                for line in r.iter_lines():
                    self.opened.set()  # the first line (empty): subscribed, no event missed from here
                    if line.strip():  # an empty line keeps the stream open
                        self.events.put(json.loads(line))
        except (httpx.HTTPError, RuntimeError):
            pass  # closed

    def next(self, kind: str, timeout: float = 30) -> dict[str, Any]:
        """The next event of type ``kind`` (others before it are skipped)."""
        while True:
            event = self.events.get(timeout=timeout)
            if "id" in event and event["type"] in ("gameStart", "gameFinish"):
                if event["id"] in self.seen:
                    continue
                self.seen.add(event["id"])
            if event["type"] == kind:
                return event

    def ended(self, within: float = 30) -> bool:
        """Whether the server ended the stream (``within`` seconds only stop a hang)."""
        self._thread.join(within)
        return not self._thread.is_alive()

    def close(self) -> None:
        self._client.close()
