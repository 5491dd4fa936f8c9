"""How much a card must cost a Hearts server at the least: the bare relay of
``ws_floor.py`` plus only what any server of the issue's kind has to do with
a card, measured side by side with that relay (issue 30's "server CPU per card
at most 2 × the bare relay").

The same uvicorn (settings as ``damepique serve``), the same load client
(``server_multiplayer.Socket`` on uvloop), N tables of four connections, one
card always in flight per table (``--think 0``). Per card the server:

- parses the seat's JSON (orjson, as the app does);
- plays the card on the engine's ``Deal`` (whose turn, legal, the trick),
  refusing an illegal one;
- stores it before anyone hears of it: one ``INSERT`` into SQLite (stdlib
  ``sqlite3``, WAL, ``synchronous=NORMAL``), committed once per turn of the
  event loop for every card that arrived in it (group commit), the sends
  waiting for that commit;
- writes what the seats may know: one text for the three that only see the
  card (who played it, who acts next), one for the seat to act with its legal
  cards; at a new deal each seat gets its own hand.

Nothing else: no views, no patches, no sessions, no timers, no bots, no
reviews. It is not a server one could ship (no reconnection, no spectators,
no hidden-state checks beyond the engine's); it is a floor: what the
per-card work costs when done as cheaply as Python allows.

    python benchmarks/ws_game_floor.py --tables 200 --rounds 3

Each round measures the relay (``ws_floor.level``) and then the game floor at
the same tables, and prints both and their ratio. Bounded like ``ws_floor``:
at most 120 s a level and 2,000 tables, 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ws_floor
from server_multiplayer import Socket, free_port, loads

# -- the server ------------------------------------------------------------------------------


def game_app(db_path: str, pad: int = 0) -> Any:
    """An ASGI app: ``/t/{table}/{seat}``. ``{"n": 0}`` deals the table in;
    ``{"n": k, "card": "QS"}`` plays card k of the table's game. ``pad``:
    characters added to every text (to weigh what bytes cost)."""
    import random
    import sqlite3

    import orjson

    from damepique.engine import CARD_NAMES, DONE, Deal, HeartsError, Rules

    db = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS cards (tbl TEXT, n INTEGER, seat INTEGER, card TEXT)")
    rules = Rules(passing=False)
    padding = {"pad": "x" * pad} if pad else {}
    pending: list[asyncio.Future[None]] = []

    def commit() -> None:
        db.execute("COMMIT")
        waiting = pending[:]
        pending.clear()
        for f in waiting:
            f.set_result(None)

    async def stored(row: tuple[str, int, int, str]) -> None:
        if not pending:
            db.execute("BEGIN")
            asyncio.get_running_loop().call_soon(commit)
        db.execute("INSERT INTO cards VALUES (?, ?, ?, ?)", row)
        f = asyncio.get_running_loop().create_future()
        pending.append(f)
        await f

    class Table:
        def __init__(self, name: str) -> None:
            self.name = name
            self.seats: list[Any] = [None] * 4
            self.number = 0
            self.deal = self.new_deal()

        def new_deal(self) -> Deal:
            self.number += 1
            return Deal.shuffled(rules, random.Random(f"{self.name}:{self.number}"), self.number)

        async def tell(self, n: int, seat: int | None, card: str | None, hands: bool) -> None:
            deal = self.deal
            to_act = deal.to_act
            common: dict[str, Any] = {"n": n, "seat": seat, "card": card, "to_act": to_act, **padding}
            seen = {"type": "websocket.send", "text": orjson.dumps(common).decode()}
            for s, send in enumerate(self.seats):
                if send is None:
                    continue
                if s == to_act or hands:
                    own = dict(common)
                    if hands:
                        own["hand"] = [CARD_NAMES[c] for c in range(52) if deal.hands[s] >> c & 1]
                    if s == to_act:
                        own["legal"] = [CARD_NAMES[c] for c in deal.legal_cards()]
                    await send({"type": "websocket.send", "text": orjson.dumps(own).decode()})
                else:
                    await send(seen)

        async def receive(self, seat: int, text: str) -> None:
            msg = orjson.loads(text)
            n = msg["n"]
            if n == 0:
                await self.tell(0, None, None, hands=True)
                return
            card = msg["card"]
            try:
                self.deal.play(card, seat)
            except HeartsError as e:
                await self.seats[seat](
                    {"type": "websocket.send", "text": orjson.dumps({"error": str(e)}).decode()}
                )
                return
            await stored((self.name, n, seat, card))
            fresh = self.deal.phase == DONE
            if fresh:
                self.deal = self.new_deal()
            await self.tell(n, seat, card, hands=fresh)

    tables: dict[str, Table] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if (where := await ws_floor.accepted(scope, receive, send)) is None:
            return
        name, seat = where
        table = tables.get(name) or tables.setdefault(name, Table(name))
        table.seats[seat] = send
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return
            await table.receive(seat, message["text"])

    return app


def serve(port: int, db_path: str, pad: int) -> None:
    ws_floor.run(game_app(db_path, pad), port)


# -- the clients ------------------------------------------------------------------------------


class GameTable:
    """``{"n": 0}`` from seat 0 deals the table in; then each card is the first
    legal card of the seat to act (its copy says which), sent once all four
    seats have the card before it."""

    def __init__(self, meter: ws_floor.Meter) -> None:
        self.meter = meter
        self.n = 0
        self.seen = 0
        self.sent_at = 0.0
        self.sockets: list[Socket] = []
        self.next: tuple[int, str] | None = None

    def start(self) -> None:
        self.sockets[0].send('{"n":0}')

    def play(self) -> None:
        assert self.next is not None
        seat, card = self.next
        self.n += 1
        self.seen = 0
        self.next = None
        self.sent_at = time.monotonic()
        self.sockets[seat].send(f'{{"n":{self.n},"card":"{card}"}}')

    def on_message(self, raw: bytes) -> None:
        msg = loads(raw)
        if "error" in msg:
            self.meter.errors += 1
            return
        if msg["n"] != self.n:
            return
        self.seen += 1
        if "legal" in msg:
            self.next = (msg["to_act"], msg["legal"][0])
        if self.seen == 4:
            if self.meter.measuring and self.n:
                self.meter.latencies.append(time.monotonic() - self.sent_at)
            self.play()


def client(port: int, tables: range, seconds: float, warm: float, out: Any) -> None:
    out.put(ws_floor.drive(port, tables, seconds, warm, GameTable))


def level(tables: int, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            __file__,
            "--serve",
            str(port),
            "--db",
            f"{tmp}/cards.sqlite3",
            "--pad",
            str(args.pad),
        ]
        row = ws_floor.measure(command, port, "the game floor server", tables, args, client)
    if row["errors"]:
        raise SystemExit(f"the game floor refused {row['errors']} cards: the client played an illegal card")
    return row


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3, help="relay then game floor, this many times")
    p.add_argument("--seconds", type=float, default=15.0, help="seconds measured per level")
    p.add_argument("--warm", type=float, default=3.0, help="seconds not measured at the start")
    p.add_argument("--size", type=int, default=1450, help="bytes of each of the relay's four copies")
    p.add_argument("--client-procs", type=int, default=1, help="client processes")
    p.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    p.add_argument("--pad", type=int, default=0, help="characters added to each of the game floor's texts")
    p.add_argument("--db", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve(args.serve, args.db, args.pad)
        return
    args.seconds = min(args.seconds, ws_floor.MAX_SECONDS)
    args.starlette = False
    tables = min(args.tables, ws_floor.MAX_TABLES)
    for r in range(args.rounds):
        relay = ws_floor.level(tables, args)
        game = level(tables, args)
        ratio = game["server_ms_per_card"] / relay["server_ms_per_card"]
        print(
            json.dumps(
                {"round": r + 1, "relay": relay, "game_floor": game, "floor_over_relay": round(ratio, 2)}
            )
        )


if __name__ == "__main__":
    main()
