"""Decision ids (issue 29): every state that asks a seat to act names the
decision (``view.decision``), the same until it is made; a pass or play that
names a decision already made is acknowledged (``ack``) and changes nothing; one
naming a decision never asked is refused (``bad_decision``), nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import DONE, PLAY, Rules, cards_of
from damepique.server.app import create_app
from damepique.server.play.game import Game, Seat

from .helpers import new_game, recv_state

SEATS = [Seat("human", f"P{i}") for i in range(4)]


def test_a_game_names_each_decision_once_and_knows_which_are_made() -> None:
    game = Game(Rules(target=30), SEATS, bytes(range(32)))
    seen: set[str] = set()
    while not game.over:
        game.deal_next()
        deal = game.deal
        assert deal is not None
        while deal.phase != DONE:
            asked = {s: game.decision_of(s) for s in range(4)}
            for seat, decision in asked.items():
                assert decision == game.view(seat).decision  # the state's and the game's agree
            if deal.phase != PLAY:
                for seat in range(4):
                    decision = asked[seat]
                    if decision is None:
                        continue
                    assert not game.answered(decision) and decision not in seen
                    game.pass_cards(seat, sorted(cards_of(game.view(seat).hand))[:3])
                    assert game.answered(decision) and game.decision_of(seat) is None
                    seen.add(decision)
                continue
            seat = deal.to_act
            assert seat is not None
            decision = asked[seat]
            assert decision is not None and not game.answered(decision) and decision not in seen
            assert [s for s, d in asked.items() if d is not None] == [seat]
            game.play(seat, game.view(seat).legal_cards()[0])
            assert game.answered(decision)
            seen.add(decision)
    assert all(game.answered(d) for d in seen)
    for never in ("99:play:0", f"0:play:{60}", "0:pass:7", "nonsense"):
        assert not game.answered(never)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}")
    with TestClient(app) as c:
        yield c


def recv(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.receive_text()))


def test_an_answer_sent_twice_is_acknowledged_and_a_bad_decision_refused(client: TestClient) -> None:
    game = new_game(client, rules={"target": 50}, speed="normal")
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        state = recv_state(ws)
        view = state["view"]
        assert state["rules"]["pass_count"] == 3  # every rules key on the wire (issue 29)
        decision = view["decision"]
        assert decision == "0:pass:0" and view["to_act"] == 0
        cards = view["hand"][-3:]

        # Not a decision of this game: refused, nothing changed.
        for bad in ("5:play:3", "0:play:0", "0:pass:oops", 7):
            ws.send_text(json.dumps({"type": "pass", "cards": cards, "decision": bad, "id": 9}))
            error = recv(ws)
            assert (error["type"], error["code"]) == ("error", "bad_decision"), error

        ws.send_text(json.dumps({"type": "pass", "cards": cards, "decision": decision, "id": 1}))
        after = recv_state(ws)
        while after.get("ack") != 1:
            after = recv_state(ws)
        hand_after = after["view"]["hand"]
        assert not set(cards) & set(hand_after) or after["view"]["phase"] == "play"

        # The same answer again (a program that lost the state): acknowledged, nothing changed.
        ws.send_text(json.dumps({"type": "pass", "cards": cards, "decision": decision, "id": 2}))
        msg = recv(ws)
        while msg["type"] == "state":
            msg = recv(ws)
        assert msg == {"v": 2, "type": "ack", "decision": decision, "ref": 2}
        ws.send_text(json.dumps({"type": "hello", "token": game["token"]}))
        again = recv_state(ws)
        assert again["view"]["hand"] == hand_after
        assert again["view"]["passed"] == after["view"]["passed"]
        assert again["view"]["decision"] != decision
