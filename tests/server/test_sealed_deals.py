"""Sealed deals in the server: every game has its own 256-bit secret, deals come
from it, the seats hear its commitment at the start and the secret at the end,
and games begun before the upgrade keep playing."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from damepique.cli import referee_data
from damepique.engine import CARD_NAMES, Deal, Rules
from damepique.engine.fairness import SCHEME, deal_cards
from damepique.server.app import create_app
from damepique.server.storage.database import alembic_config

from .helpers import new_game, play_out, recv_state


def stored(path: Path, game_id: str) -> tuple[Any, list[dict[str, Any]]]:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT seed, secret FROM games WHERE id = ?", (game_id,)).fetchone()
        events = [
            json.loads(b)
            for (b,) in db.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        ]
    return row, events


def test_each_game_deals_from_its_own_secret_and_reveals_it_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with TestClient(create_app(f"sqlite+aiosqlite:///{path}")) as client:
        games = [new_game(client, rules={"target": 30}, level="random") for _ in range(3)]
        rows = [stored(path, g["game"]) for g in games]
        secrets_seen = {secret for (seed, secret), _ in rows}
        assert len(secrets_seen) == 3  # two games never share a stream
        for (seed, secret), events in rows:
            assert seed is None and len(bytes.fromhex(secret)) == 32
            hands, _ = deal_cards(Rules(target=30), bytes.fromhex(secret), 0)
            assert events[0]["hands"] == [[CARD_NAMES[c] for c in sorted(h)] for h in hands]
        g = games[0]
        (_, secret), _ = rows[0]
        log: list[dict[str, Any]] = []
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            state = recv_state(ws, log)
            assert state["fairness"] == {
                "scheme": SCHEME,
                "commitment": hashlib.sha256(bytes.fromhex(secret)).hexdigest(),
            }
            final = play_out(ws, state, random.Random(2), log)
        assert final["over"] and final["fairness"]["secret"] == secret
        assert all(secret not in json.dumps(m) for m in log if not m.get("over"))
        record = client.get(f"/api/games/{g['game']}/record").json()
        assert record["fairness"] == final["fairness"]
        assert referee_data(json.dumps(record).encode(), "verify") == (
            0,
            {"verified": True, "deals": len(record["deals"])},
        )


def test_a_game_begun_before_the_upgrade_resumes_with_a_fresh_secret(tmp_path: Path) -> None:
    """A database at revision 0003 with a solo game in progress (a 31-bit seed,
    one deal stored): after the upgrade the game resumes where it was, says
    nothing of fairness (no commitment was announced at its start), and its
    later deals come from a secret drawn by the upgrade, not from the seed."""
    path = tmp_path / "old.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    from alembic import command

    command.upgrade(alembic_config(url), "0003")
    rules = Rules(target=30, passing=False)
    old_deal = Deal.shuffled(rules, random.Random("12345:0"))
    hands = [[CARD_NAMES[c] for c in sorted(_cards(h))] for h in old_deal.dealt]
    seats = [{"kind": "human", "name": "You", "level": None, "player": None}] + [
        {"kind": "bot", "name": n, "level": "random", "player": None} for n in ("West", "North", "East")
    ]
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, owner, rules, seats, seed, options, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            ("oldgame", None, json.dumps(rules.to_json()), json.dumps(seats), 12345,
             json.dumps({"level": "random", "speed": "fast", "kind": "solo"}), time.time()),
        )  # fmt: skip
        db.execute(
            "INSERT INTO seat_tokens (token, game_id, seat) VALUES (?, ?, ?)",
            ("old-token-0001", "oldgame", 0),
        )
        event = {"type": "deal", "number": 0, "hands": hands, "kitty": [], "at": time.time()}
        db.execute(
            "INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)", ("oldgame", 0, json.dumps(event))
        )
    with TestClient(create_app(url)) as client:
        (seed, secret), _ = stored(path, "oldgame")
        assert seed == 12345 and len(bytes.fromhex(secret)) == 32
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "old-token-0001"}))
            state = recv_state(ws)
            assert state["view"]["deal"] == 0 and sorted(state["view"]["hand"]) == sorted(hands[0])
            assert state["fairness"] is None
            state = play_out(ws, state, random.Random(3), stop=lambda s: s["view"]["deal"] >= 1)
        _, events = stored(path, "oldgame")
        second = next(e for e in events if e["type"] == "deal" and e["number"] == 1)
        fresh, _ = deal_cards(rules, bytes.fromhex(secret), 1)
        assert second["hands"] == [[CARD_NAMES[c] for c in sorted(h)] for h in fresh]
        legacy = Deal.shuffled(rules, random.Random("12345:1"), 1)
        assert second["hands"][0] != [CARD_NAMES[c] for c in sorted(_cards(legacy.dealt[0]))]


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]
