"""The one wire (issue 29): ``damepique.wire`` spells every client message
once (``encode``) and reads it back the same (``parse``); the bot API client
answers through it; the server's ``error`` is the wire's shape."""

from __future__ import annotations

import json

import pytest

from damepique import wire
from damepique.botapi.wire import answer, error
from damepique.engine import Deal, Rules, view_of
from damepique.server.errors import Refusal
from damepique.server.protocol import error as server_error

MESSAGES: list[wire.Message] = [
    wire.Hello(1, "tok", "K7QM4XPA", True),
    wire.Hello(None, None, "K7QM4XPA", False),
    wire.Sit("s", "Léa"),
    wire.Start(None),
    wire.Pass(3, (0, 12, 49), "0:pass:2"),
    wire.Pass(None, (5, 6, 7), None),
    wire.Play("x", 49, "3:play:17"),
    wire.Play(None, 0, None),
    wire.Claim(4),
    wire.Advice(None),
    wire.Hint(None),
    wire.Review(5, 2),
    wire.Leave(None),
    wire.Rematch(6, "g1"),
    wire.Rematch(None, None),
    wire.Chat(None, "well_played"),
    wire.Mute(7, 2, True),
    wire.Mute(None, 1, False),
    wire.Continue(None, 3),
    wire.Ping(8),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_client_message_reads_back_as_it_was_written(msg: wire.Message) -> None:
    text = json.dumps(wire.encode(msg))
    assert wire.parse(text) == msg
    assert wire.encode(msg)["type"] in wire.TYPES


def test_every_message_type_has_a_spelling() -> None:
    spelled = {wire.encode(m)["type"] for m in MESSAGES}
    assert spelled == set(wire.TYPES)


def test_the_bot_api_answers_through_the_wire() -> None:
    import random

    deal = Deal.shuffled(Rules(), random.Random(4))
    view = view_of(deal, 1)
    msg = answer(view, (0, 1, 2))
    assert msg == wire.encode(wire.Pass(None, (0, 1, 2), view.decision))
    parsed = wire.parse(json.dumps(msg))
    assert isinstance(parsed, wire.Pass) and parsed.decision == "0:pass:1"


def test_one_error_shape_for_the_server_and_the_bot_api() -> None:
    refusal = Refusal("illegal_play", "must follow clubs", seat=2, card="QH", params={"suit": "C"})
    assert server_error(refusal, 9) == wire.error_message(
        "illegal_play", "must follow clubs", ref=9, params={"suit": "C"}, seat=2, card="QH"
    )
    assert error("bad_card", "not a card", 3, card="QX") == {
        "v": 2,
        "type": "error",
        "code": "bad_card",
        "reason": "not a card",
        "card": "QX",
        "ref": 3,
    }


def test_a_bad_decision_id_is_refused_as_the_wire_says() -> None:
    for bad in ("3:play", "x:play:1", "1:deal:0", 5, "1:play:1:2"):
        with pytest.raises(wire.WireError) as refused:
            wire.parse(json.dumps({"type": "play", "card": "QS", "decision": bad}))
        assert refused.value.code == "bad_decision"


UNTYPED = {
    # The game socket's hot path (server/play, the patches of a state, and the
    # arena's copy of a state), rewritten elsewhere: typed with it.
    ("botapi/remote_seat.py", "state"),
    ("server/patches.py", "state"),
    ("server/play/game.py", "claim"),
    ("server/play/game.py", "hint"),
    ("server/play/training.py", "review"),
    # The score sheet's own live channel (docs/scorer.md), not the game protocol.
    ("server/sheets/routes.py", "sheet"),
}
"""The messages still built as dict literals outside ``wire.py``, and why."""


def test_messages_are_built_by_the_wire_not_as_dicts_elsewhere() -> None:
    """Issue 29: the quick match's (``/ws/match``), the event stream's and the
    arena's messages come from ``wire``'s builders, typed; engine events and
    ASGI's own messages are not the protocol's."""
    import ast
    from pathlib import Path

    src = Path(wire.__file__).parent
    found = set()
    for path in src.rglob("*.py"):
        rel = path.relative_to(src).as_posix()
        if rel == "wire.py" or rel.startswith("engine/") or rel in ("server/asgi.py", "server/shield.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                    ):
                        found.add((rel, value.value))
    assert found == UNTYPED


def test_the_event_streams_game_events_carry_an_id_a_client_drops_repeats_by() -> None:
    start = wire.game_start_event({"table": "K7QM4XPA", "seat": 1, "game": "g1", "token": "t"})
    assert start == {"type": "gameStart", "id": "gameStart:g1:1", "game": start["game"]}
    finish = wire.game_finish_event(
        {"table": "K7QM4XPA", "game": "g1", "seat": 1, "totals": [1, 2, 3], "winner": 0}
    )
    assert finish["id"] == "gameFinish:g1:1" != start["id"]
    assert wire.quick_message("matched", "t1", code="K7QM4XPA", token="x", seat=2, link="/#/t/K7QM4XPA") == {
        "v": wire.VERSION,
        "type": "quick",
        "status": "matched",
        "ticket": "t1",
        "code": "K7QM4XPA",
        "token": "x",
        "seat": 2,
        "link": "/#/t/K7QM4XPA",
    }
