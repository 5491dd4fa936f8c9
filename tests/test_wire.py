"""The one wire (issue 29): ``damepique.wire`` spells every client message
once (``encode``) and reads it back the same (``parse``); the bot API client
answers through it; the server's ``error`` is the wire's shape."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

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


SENDERS = ("server", "botapi")
"""The packages that send messages: to a page or a program (the server), to a
program from an arena (``botapi.remote_seat``)."""
ASGI = ("http.", "websocket.", "lifespan.")
"""The ``type`` of ASGI's own messages (``server.asgi``, ``server.shield``): not the protocol's."""
MESSAGE_KEYS = ("type", "v")


def bare_messages(source: str) -> list[tuple[int, str]]:
    """Where ``source`` builds a message itself instead of through ``wire``:
    a dict display or ``dict(...)`` call with a ``type`` or ``v`` key, a
    ``["type"]`` or ``["v"]`` assigned, or JSON text with one of those keys
    (docstrings aside: they show messages, they send none)."""
    tree = ast.parse(source)
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    text_key = re.compile(r'"(?:type|v)"\s*:')
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in MESSAGE_KEYS:
                    asgi = isinstance(value, ast.Constant) and str(value.value).startswith(ASGI)
                    if not asgi:
                        found.append((node.lineno, f"a dict with {key.value!r}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            found += [(node.lineno, f"dict({k.arg}=...)") for k in node.keywords if k.arg in MESSAGE_KEYS]
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if (
                    isinstance(t, ast.Subscript)
                    and isinstance(t.slice, ast.Constant)
                    and t.slice.value in MESSAGE_KEYS
                ):
                    found.append((node.lineno, f"[{t.slice.value!r}] assigned"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and text_key.search(node.value)
        ):
            found.append((node.lineno, "JSON text with a message's key"))
    return found


def test_no_module_that_sends_builds_a_message_as_a_bare_dict() -> None:
    """Issue 29: every message the server (and the arena's remote seat) sends
    is a type of ``wire`` built by its functions; none is spelled again as a
    dict or as text elsewhere."""
    src = Path(wire.__file__).parents[1]
    found = [
        f"{path.relative_to(src)}:{line}: {what}"
        for package in SENDERS
        for path in sorted((src / package).rglob("*.py"))
        for line, what in bare_messages(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_bare_message_check_sees_each_way_of_building_one() -> None:
    probe = '''
"""A docstring may show {"type": "state"}."""
a = {"type": "claim", "seat": 1}
b = {"v": 2, "type": kind}
c = dict(type="hint")
msg["type"] = "state"
d = f'{{"v":{VERSION},"type":"state"'
e = '"type": "pong"'
f = {"type": "websocket.accept"}
g = {"op": "quick_unclaim"}
'''
    assert sorted({line for line, _ in bare_messages(probe)}) == [3, 4, 5, 6, 7, 8]


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


async def test_every_frame_of_a_table_is_one_of_the_messages_the_wire_types(tmp_path: Path) -> None:
    """The registry side of the check above: at a table with a guest, a page
    that asks for patches and a spectator, a whole deal with quick messages,
    a mute, a ping, a refusal and an acknowledged decision, every frame any
    page gets is one of ``wire.SENT``, with no key its type lacks."""
    import asyncio

    from .harness import Harness, Page, play

    async with Harness.open(tmp_path) as h:
        table, host, token = await h.table(preset="short")
        guest, _ = await h.sit(table, "Bob")
        patched = Page(h)
        await patched.send(type="hello", table=table.code, token=token, patches=True)
        spectator = await h.join(table.code)
        await host.send(type="start")
        await guest.send(type="chat", message="hello")
        await host.send(type="mute", seat=1)
        await guest.send(type="ping", id=3)
        await guest.send(type="play", card="QS", id="x")  # a refusal: cards are passed first
        first = await host.next(
            "state", lambda m: m["view"] is not None and m["view"]["decision"] is not None
        )
        decision = first["view"]["decision"]
        pass_ = {"type": "pass", "cards": first["view"]["hand"][:3], "decision": decision}
        await host.send(**pass_)
        await host.send(**pass_)  # the same answer again: acknowledged
        # A whole deal, to its summary; then both read it and the next deal comes.
        read = await asyncio.gather(
            *(play(p, i, lambda s: s["summary"]) for i, p in enumerate((host, guest)))
        )
        for page, state in zip((host, guest), read, strict=True):
            await page.send(type="continue", deal=state["summary"]["deal"])
        await host.next("state", lambda m: m["view"] is not None and m["view"]["deal"] == 1)
        pages = (host, guest, patched, spectator)
        frames = [m for p in pages for m in p.messages]
        assert {m["type"] for m in frames} >= {
            "table",
            "state",
            "seated",
            "chat",
            "muted",
            "pong",
            "error",
            "ack",
        }
        assert any("base" in m for m in frames)  # patches were sent, and checked as patches
        assert [(m["type"], misfit) for m in frames if (misfit := wire.misfit(m))] == []
