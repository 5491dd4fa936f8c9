"""A program outside the project plays through the public bot API (issue 29).

``outside_bot.py`` is written from the docs alone and imports no ``damepique``
module, nor does this test: the server is a real process started by its
command line. The bot sits at a person's table with its token, plays a whole
game, reconnects once mid-game and picks up where it was, and answers one
decision twice: the second answer is acknowledged (``ack``) and changes
nothing. At the end, the cards its seat played are exactly its answers, once
each, in order.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

from ..conftest import bot_token, person
from .outside_bot import OutsideBot

HERE = Path(__file__).parent


def test_the_outside_bot_and_its_test_import_no_damepique_module() -> None:
    for path in (HERE / "outside_bot.py", Path(__file__)):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level]
        assert not [n for n in names if n.split(".")[0] == "damepique"], path.name
    assert "damepique" not in str(sys.modules.get(OutsideBot.__module__))


def seat_of_each_card(tricks: list[dict[str, Any]], players: int) -> list[tuple[int, str]]:
    return [((t["leader"] + i) % players, card) for t in tricks for i, card in enumerate(t["cards"])]


def test_an_outside_bot_plays_a_whole_game_reconnects_and_answers_a_decision_twice(server: str) -> None:
    from websockets.sync.client import connect

    ann = person(server, "ann_outside")
    bot = OutsideBot(server, bot_token(ann, "ann_outsider"))
    r = ann.post(
        "/api/tables", json={"rules": {"target": 1}, "speed": "fast", "level": "beginner", "name": "Ann"}
    )
    assert r.status_code == 201, r.text
    table = r.json()
    seat = bot.sit(table["code"])

    # The host starts the game (the empty seats go to the server's bots), then
    # leaves it to a bot of the server: the program plays with bots only.
    # It reads nothing after the start: unbounded, its client keeps reading the socket
    # (with a bound the client stops reading, and its close waits 10 s for the server's).
    host = connect(server.replace("http://", "ws://") + "/ws", open_timeout=15, max_queue=None)
    host.send(json.dumps({"type": "hello", "table": table["code"], "token": table["token"]}))
    while not ((m := json.loads(host.recv(timeout=30)))["type"] == "table" and m["table"]["can_start"]):
        pass
    host.send(json.dumps({"type": "start"}))
    host.send(json.dumps({"type": "leave"}))

    bot.connect()

    # The first decision, answered twice: the second is acknowledged and changes nothing.
    def asked(msg: dict[str, Any]) -> bool:
        return msg["type"] == "state" and msg["view"] is not None and msg["view"]["decision"] is not None

    first = bot.play_until(asked)
    assert first["rules"]["pass_count"] == 3 and set(first["rules"]) >= {"deck", "black_maria"}
    answer = bot.answer(first)
    bot.send({**answer, "id": "again"})
    ack = bot.play_until(lambda m: m["type"] == "ack")
    assert ack == {"v": 2, "type": "ack", "decision": first["view"]["decision"], "ref": "again"}

    # A few cards into the deal, the connection drops; the program comes back.
    bot.play_until(lambda m: m["type"] == "state" and len(m["view"]["tricks"]) >= 3)
    bot.close()
    bot.connect()
    back = bot.play_until(lambda m: m["type"] == "state")
    assert back["seat"] == seat and len(back["view"]["tricks"]) >= 3
    bot.handle(back)

    try:
        final = bot.play_until(lambda m: m["type"] == "state" and m["over"])
    except TimeoutError:
        tail = [
            (f["type"], (f.get("view") or {}).get("decision"), f.get("ack"), f.get("ref"))
            for f in bot.frames[-12:]
        ]
        raise AssertionError(f"the game stalled: {tail} {list(bot.answered)[-3:]}") from None
    bot.close()
    host.close()

    assert final["winner"] is not None and len(final["totals"]) == 4
    # The last deal (a tie for the lowest total plays another): the cards this
    # seat played are its answers, each once, nothing else.
    last = final["view"]["deal"]
    mine = [card for s, card in seat_of_each_card(final["view"]["tricks"], 4) if s == seat]
    of_last = {d: m for (_game, d), m in bot.answered.items() if d.startswith(f"{last}:")}
    answered = [m["card"] for m in of_last.values() if m["type"] == "play"]
    assert mine == answered and len(mine) == 13
    passes = [m for m in of_last.values() if m["type"] == "pass"]
    if final["view"]["passed"] is not None:
        assert len(passes) == 1 and final["view"]["passed"] == sorted(passes[0]["cards"], key=_order)
    assert len(bot.answered) == 14 * (last + 1) - sum(1 for d in range(last + 1) if d % 4 == 3)
    assert not [f for f in bot.frames if f["type"] == "error"]


def _order(card: str) -> tuple[int, int]:
    return "CDHS".index(card[1]), "23456789TJQKA".index(card[0])
