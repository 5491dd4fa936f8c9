"""A table in a fixed position, for browser tests that look at one moment of
a game: the page is the real one (served by the real test server), but its
socket ``/ws`` is answered here (Playwright's ``route_web_socket``), so a test
says which states the page receives and reads what it sends. With the page's
clock installed (``page.clock``) the test moves time itself: nothing waits.

``state(...)`` builds a whole ``state`` message as docs/protocol.md describes
it, ``view(...)`` its ``view``; unnamed fields get a plain standard game's
values.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from playwright.async_api import Page, WebSocketRoute

RULES: dict[str, Any] = {
    "players": 4, "target": 100, "passing": True, "pass_cycle": "standard", "no_points_first_trick": True,
    "must_break_hearts": True, "moon": "others", "jack_of_diamonds": False, "leftover": "remove",
    "queen_points": 13, "first_lead": "two_of_clubs", "hearts_broken_by": "any", "first_trick_discard": "any",
    "tie": "play_on",
}  # fmt: skip
NAMES = ["Me", "West", "North", "East", "South-East", "South-West"]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
T0 = 1_800_000_000_000  # the page's clock, in ms since 1970, when a test installs it


def view(n: int = 4, **kw: Any) -> dict[str, Any]:
    """A seat's view (seat 0) in the play phase; ``kw`` overrides any field."""
    out: dict[str, Any] = {
        "seat": 0, "deal": 0, "phase": "play", "to_act": 0, "hand": [], "legal": [], "claim": False,
        "pass_direction": "none", "pass_to": None, "passed": None, "received": None, "passed_seats": [],
        "trick": [], "trick_leader": 0, "tricks": [], "hearts_broken": False, "taken_points": [0] * n,
        "hand_sizes": [0] * n, "voids": [[] for _ in range(n)], "kitty": [], "totals": [0] * n,
        "result": None,
    }  # fmt: skip
    out.update(kw)
    return out


def state(n: int = 4, rules: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """A whole ``state`` message for seat 0 of a solo game; ``kw`` overrides any field."""
    seats = [
        {"name": NAMES[i], "kind": "human" if i == 0 else "bot", "level": None if i == 0 else "beginner"}
        for i in range(n)
    ]
    out: dict[str, Any] = {
        "v": 2, "type": "state", "game": "fixedgame0000001", "seats": seats,
        "rules": {**RULES, "players": n, **(rules or {})}, "speed": "normal", "level": "beginner",
        "view": view(n), "results": [], "totals": [0] * n, "over": False, "winner": None, "winners": [],
        "fairness": None, "timer": None, "summary": None, "mode": "solo", "seat": 0, "spectator": False,
        "event": None, "events": [],
    }  # fmt: skip
    out.update(kw)
    if out["events"] and out["event"] is None:
        out["event"] = out["events"][-1]
    return out


def tricks_of(
    hands_played: list[list[str]], leaders: list[int], winners: list[int], points: list[int]
) -> list[dict[str, Any]]:
    """Finished tricks from their cards, leaders, winners and points."""
    return [
        {"leader": lead, "cards": cards, "winner": win, "points": pts}
        for cards, lead, win, pts in zip(hands_played, leaders, winners, points, strict=True)
    ]


class FakeServer:
    """The answers of ``/ws`` for one page: the first state after each hello, then
    whatever the test sends; ``received`` holds what the page sent (parsed)."""

    def __init__(self, first: dict[str, Any], before: list[dict[str, Any]] | None = None) -> None:
        self.first = first
        self.before = before or []  # sent before the first state (a table's `table` message)
        self.received: list[dict[str, Any]] = []
        self.sockets: list[WebSocketRoute] = []
        self.refuse = False  # while true, every new connection is closed at once
        # Answers by message type: what the "server" sends back to a message (None: nothing).
        self.answers: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {}
        self._waiters: list[asyncio.Future[None]] = []  # ``until``s, woken by each message and connection

    async def install(self, page: Page) -> None:
        await page.route_web_socket("**/ws", self._connect)

    def _wake(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    def _connect(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)
        self._wake()
        if self.refuse:
            # Accepted, then closed by the "server" before it says anything: a drop.
            async def drop(message: str | bytes) -> None:
                await ws.close(code=1011, reason="down")

            ws.on_message(drop)
            return

        def on_message(message: str | bytes) -> None:
            msg = json.loads(message)
            self.received.append(msg)
            self._wake()
            if msg.get("type") == "hello":
                for early in self.before:
                    ws.send(json.dumps(early))
                ws.send(json.dumps(self.first))
            elif msg.get("type") in self.answers:
                reply = self.answers[msg["type"]](msg)
                if reply is not None:
                    ws.send(json.dumps(reply))

        ws.on_message(on_message)

    def send(self, msg: dict[str, Any]) -> None:
        """To the page, on its latest connection."""
        self.sockets[-1].send(json.dumps(msg))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]

    async def until(self, done: Callable[[], object], seconds: float = 30.0) -> None:
        """Until ``done()`` holds, looked at after each message and each connection
        of the page: woken by them, never polling (``seconds``: a generous bound,
        not what a test is about)."""
        async with asyncio.timeout(seconds):
            while not done():
                waiter = asyncio.get_running_loop().create_future()
                self._waiters.append(waiter)
                await waiter

    async def wait_for(self, kind: str, seconds: float = 30.0) -> list[dict[str, Any]]:
        """Until the page has sent a message of type ``kind``."""
        await self.until(lambda: self.of_type(kind), seconds)
        return self.of_type(kind)


async def open_solo(
    page: Page, server: FakeServer, clock: bool = True, prefs: dict[str, Any] | None = None
) -> None:
    """The page at ``#/play`` on the fixed solo game of ``server``, its clock installed (paused at now)."""
    await server.install(page)
    if clock:
        # Paused: time moves only when the test moves it (run_for, fast_forward).
        await page.clock.install(time=T0)
        await page.clock.pause_at(T0 + 1000)
    current = {"game": server.first["game"], "token": "fixed-token", "code": "FIXED000", "over": False}
    script = f"localStorage.setItem('damepique.current', {json.dumps(json.dumps(current))});"
    if prefs is not None:
        script += f"localStorage.setItem('damepique.prefs', {json.dumps(json.dumps(prefs))});"
    await page.add_init_script(script)
    await page.goto("/#/play")


def table_message(
    seats: list[dict[str, Any]], status: str = "playing", you: int | None = 0
) -> dict[str, Any]:
    """A table's ``table`` message (docs/protocol.md) for the code CODE;
    ``seats`` override each seat's fields."""
    full = [
        {"kind": "human", "name": f"P{i}", "nickname": None, "level": None, "program": False,
         "connected": True, "away": False, "left": False, **seat}
        for i, seat in enumerate(seats)
    ]  # fmt: skip
    options = {
        "timer": 0,
        "fill": True,
        "level": "beginner",
        "public": False,
        "ranked": False,
        "spectators": True,
    }
    return {
        "v": 2, "type": "table", "you": you,
        "table": {"code": CODE, "display": "K7QM-4XPA", "kind": "table", "status": status, "host": 0,
                  "game": "fixedgame0000001" if status != "waiting" else None,
                  "options": {**options, "speed": "normal"},
                  "rules": {**RULES, "players": len(seats)}, "seats": full, "spectators": 0,
                  "can_start": False},
    }  # fmt: skip


CODE = "K7QM4XPA"


async def open_table(page: Page, server: FakeServer, clock: bool = True) -> None:
    """The page at ``#/t/CODE`` seated at seat 0 of the fixed table of ``server``."""
    await server.install(page)
    if clock:
        await page.clock.install(time=T0)
        await page.clock.pause_at(T0 + 1000)
    tokens = json.dumps(json.dumps({CODE: "fixed-token"}))
    await page.add_init_script(f"localStorage.setItem('damepique.tables', {tokens});")
    await page.goto(f"/#/t/{CODE}")
