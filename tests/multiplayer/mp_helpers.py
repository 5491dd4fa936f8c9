"""Helpers for the multiplayer protocol tests: players that play random legal
cards on their own thread, each recording every frame its connection got."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

from tests.clocks import WITHIN
from tests.secrets_check import secret_kept_until_the_end
from websockets.sync.client import connect

from damepique.engine import Rules
from damepique.server.protocol import apply_patch
from damepique.wire import misfit

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


def create_table(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("speed", "fast")
    body.setdefault("level", "beginner")
    body.setdefault("name", "Host")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


class Log(list[dict[str, Any]]):
    """The messages a player's thread reads, which another thread may wait on."""

    def __init__(self) -> None:
        super().__init__()
        self._changed = threading.Condition()

    def append(self, message: dict[str, Any]) -> None:
        with self._changed:
            super().append(message)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], within: float = WITHIN) -> dict[str, Any]:
        """The first message ``predicate`` holds for, once there is one (``within``
        seconds only stops a hang)."""
        with self._changed:
            ok = self._changed.wait_for(lambda: any(predicate(m) for m in self), within)
            assert ok, "no such message"
            return next(m for m in self if predicate(m))


def recv(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    msg = json.loads(ws.receive_text())
    if log is not None:
        log.append(msg)
    return msg


def recv_type(ws: Any, kind: str, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        msg = recv(ws, log)
        if msg["type"] == kind:
            return msg


def next_error(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return recv_type(ws, "error", log)


def hello(
    ws: Any, code: str, token: str | None = None, log: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello", "table": code}
    if token is not None:
        msg["token"] = token
    ws.send_text(json.dumps(msg))
    return recv_type(ws, "table", log)


class Patched:
    """A connection that asks for patches and play patches (its ``hello`` or ``join``
    says so) and lays each over its last state as the page does, so that its reader
    sees whole states; ``states`` counts the states it received, ``patches`` those
    that were patches, ``plays`` those that were play patches."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.states = 0
        self.patches = 0
        self.plays = 0

    def send_text(self, text: str) -> None:
        msg = json.loads(text)
        if msg.get("type") in ("hello", "join"):
            text = json.dumps({**msg, "patches": True, "plays": True})
        self.ws.send_text(text)

    def receive_text(self) -> str:
        msg = json.loads(self.ws.receive_text())
        if msg.get("type") == "state":
            self.states += 1
            assert misfit(msg) is None, (misfit(msg), msg)  # a patch is a wire.StatePatch
            if "base" in msg:
                self.plays += bool(msg.get("plays"))
                msg = apply_patch(self.state, msg)  # raises when out of step
                self.patches += 1
            self.state = msg
        return json.dumps(msg)

    def close(self) -> None:
        self.ws.close()


def sit(ws: Any, name: str, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "sit", "name": name}))
    while True:
        msg = recv(ws, log)
        if msg["type"] == "seated":
            return msg
        if msg["type"] == "error":
            raise AssertionError(msg)


def decision_key(state: dict[str, Any]) -> tuple[Any, ...] | None:
    """The position a seat must act in, or None when it need not act."""
    view = state.get("view")
    if not view or state.get("over") or state.get("seat") is None:
        return None
    if view["to_act"] != state["seat"]:
        return None
    if view["phase"] == "pass":
        return (view["deal"], "pass")
    if view["phase"] != "play":
        return None
    return (view["deal"], len(view["tricks"]), len(view["trick"]))


def read_summary(ws: Any, state: dict[str, Any], continued: set[int]) -> None:
    """Press "Continue" once on a deal's summary this seat is asked to read (at a
    table the next deal waits for it, or 15 s)."""
    summary = state.get("summary")
    if summary and state.get("seat") in summary["waiting"] and summary["deal"] not in continued:
        continued.add(summary["deal"])
        ws.send_text(json.dumps({"type": "continue", "deal": summary["deal"]}))


class Player(threading.Thread):
    """Plays its seat with random legal cards until the game is over (or ``stop``)."""

    def __init__(
        self,
        ws: Any,
        seed: int,
        log: list[dict[str, Any]] | None = None,
        idle: bool = False,
        first: dict[str, Any] | None = None,
        actions: int | None = None,
        until_summary: bool = False,
        after: str | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.ws = ws
        self.rng = random.Random(seed)
        self.log = log if log is not None else []
        self.idle = idle
        self.done_key: Any = None
        self.final: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.failure: BaseException | None = None
        self.first = first
        self.actions = actions
        self.continued: set[int] = set()
        self.last: dict[str, Any] | None = None
        self.after = after
        """A finished game whose late states (still on their way) are not this player's business."""
        self.until_summary = until_summary
        """Stop at the first deal summary this seat is asked to read (without reading it)."""
        self.summary: dict[str, Any] | None = None

    def run(self) -> None:
        try:
            # No time limit of its own: whoever started it joins it with one
            # (a stuck player fails there), and each read has the socket's.
            while True:
                if self.actions is not None and self.actions <= 0:
                    return
                msg, self.first = (self.first, None) if self.first else (recv(self.ws, self.log), None)
                if msg["type"] == "error" and msg.get("code") == "rate_limited" and self.last is not None:
                    # Faster than a person may go: act again on the position it refused
                    # (refusals cost nothing; the allowance comes back with time).
                    msg, self.done_key = self.last, None
                elif msg["type"] == "error":
                    self.errors.append(msg)
                    continue
                if msg["type"] != "state" or msg.get("game") == self.after:
                    continue
                if msg["over"]:
                    self.final = msg
                    return
                if self.until_summary and msg.get("summary"):
                    self.summary = msg
                    return
                self.last = msg
                read_summary(self.ws, msg, self.continued)
                key = decision_key(msg)
                if key is None or key == self.done_key or self.idle:
                    continue
                self.done_key = key
                if self.actions is not None:
                    self.actions -= 1
                view = msg["view"]
                if view["phase"] == "pass":
                    cards = self.rng.sample(view["hand"], msg["rules"].get("pass_count", 3))
                    self.ws.send_text(json.dumps({"type": "pass", "cards": cards}))
                else:
                    self.ws.send_text(json.dumps({"type": "play", "card": self.rng.choice(view["legal"])}))
        except BaseException as e:
            self.failure = e


class Socket:
    """The test client's socket methods on a real WebSocket (``headers``: the
    upgrade's, such as a bot's ``Authorization``)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        # Unbounded, as a browser's: the client reads the socket whether the test reads
        # its messages or not (with a bound it stops reading, and its close then
        # waits 10 s for the server's close frame, behind the messages left unread).
        self.ws = connect(url, max_size=None, max_queue=None, additional_headers=headers)

    def receive_text(self) -> str:
        return str(self.ws.recv(timeout=60))

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def send_bytes(self, data: bytes) -> None:
        self.ws.send(data)

    def close(self) -> None:
        self.ws.close()


def cards_in(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        if CARD.match(obj):
            yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from cards_in(v)


def knowable(
    record: dict[str, Any], rules: Rules, seat: int | None, deal: int, plays: int, exchanged: bool
) -> set[str]:
    d = record["deals"][deal]
    known = set(d["plays"][:plays])
    if plays >= rules.players:
        known |= set(d["kitty"])
    if seat is None:
        return known
    known |= set(d["hands"][seat])
    offset = rules.pass_offset(deal) % rules.players
    if exchanged and offset:
        known |= set(d["passes"][(seat - offset) % rules.players])
    return known


def check_frames(record: dict[str, Any], rules: Rules, seat: int | None, frames: list[dict[str, Any]]) -> int:
    """Every card in every frame is one ``seat`` (None: a spectator) may know
    then, and the deal secret only once the game is over; every frame is one
    of the messages ``wire`` types (``wire.misfit``)."""
    secret_kept_until_the_end(record, frames)
    checked = 0
    for msg in frames:
        assert misfit(msg) is None, (misfit(msg), msg)
        if msg["type"] != "state" or msg.get("view") is None:
            assert list(cards_in(msg)) == [], msg
            continue
        v = msg["view"]
        assert msg["seat"] == seat and msg["spectator"] == (seat is None)
        if v["phase"] == "pass":
            assert v["received"] is None  # nobody sees received cards before every seat passed
        plays = sum(len(t["cards"]) for t in v["tricks"]) + len(v["trick"])
        known = knowable(record, rules, seat, v["deal"], plays, v["phase"] != "pass")
        if seat is None:
            assert v["hand"] == [] and v["passed"] is None and v["received"] is None
        for c in cards_in(msg):
            assert c in known, (seat, c, msg.get("event"))
            checked += 1
    return checked
