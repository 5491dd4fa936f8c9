"""State updates as patches (docs/protocol.md, docs/multiplayer.md): a connection that
asked for them gets, after one whole state, only what changed; anything that
could leave it out of step (no patches asked, a whole state sent outside a
broadcast, a new seat, a broadcast without numbers) gets it the whole state
again; what it holds after every update is exactly the whole state."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import PRESETS
from damepique.server.app import create_app
from damepique.server.games import Runner
from damepique.server.protocol import ProtocolError, apply_patch
from damepique.server.tablegame import TableHub

from ..multiplayer.mp_helpers import Patched
from .helpers import new_game, play_out, recv_state
from .test_state_text import runner_for


class Page:
    """A connection that keeps its state the way the page does."""

    def __init__(self, patches: bool) -> None:
        self.patches = patches
        self.lock = asyncio.Lock()
        self.state: dict[str, Any] | None = None
        self.kinds: list[str] = []

    async def send_text(self, data: str) -> None:
        msg = json.loads(data)
        if "base" in msg:
            assert self.state is not None
            self.state = apply_patch(self.state, msg)
            self.kinds.append("patch")
        else:
            self.state = msg
            self.kinds.append("whole")


def play_one(runner: Runner, rng: random.Random) -> tuple[list[dict[str, Any]], int | None]:
    """The next events: a random pass or card, or the next deal when one ended."""
    table = runner.table
    if not table.waiting_on():
        return table.start(), None
    seat = table.waiting_on()[0]
    view = runner.state(seat)["view"]
    if table.deal is not None and table.deal.phase == "pass":
        return [table.pass_cards(seat, rng.sample(view["hand"], 3))], seat
    return [table.play(seat, rng.choice(view["legal"]))], seat


def whole_for(runner: Runner, seat: int | None, events: list[dict[str, Any]], ack: Any) -> dict[str, Any]:
    return runner._update(-1 if seat is None else seat, events, ack)


async def test_patches_only_where_asked_and_in_step() -> None:
    runner = runner_for(PRESETS["standard"], 5)
    rng = random.Random(5)
    fast, plain, watcher = Page(True), Page(False), Page(True)
    mt: Any = SimpleNamespace(
        conns={fast: 0, plain: 1, watcher: None}, options=SimpleNamespace(spectators=True)
    )
    hub = TableHub(mt)
    events = runner.table.start()
    await hub.broadcast("g", runner._updates(events))
    for _ in range(80):  # the pass, a whole deal, the next deal
        events, seat = play_one(runner, rng)
        await hub.broadcast("g", runner._updates(events, seat, {"id": 3}))
        for conn, s in ((fast, 0), (plain, 1)):
            assert conn.state is not None
            got = {k: v for k, v in conn.state.items() if k != "n"}
            assert got == whole_for(runner, s, events, {"id": 3} if s == seat else None)
    assert fast.kinds[0] == "whole" and set(fast.kinds[1:]) == {"patch"}
    assert set(plain.kinds) == {"whole"} and set(watcher.kinds) == {"whole"}  # spectators: whole states


async def test_out_of_step_connections_get_the_whole_state() -> None:
    runner = runner_for(PRESETS["standard"], 9)
    rng = random.Random(9)
    a, b = Page(True), Page(True)
    mt: Any = SimpleNamespace(conns={a: 0, b: 1}, options=SimpleNamespace(spectators=True))
    hub = TableHub(mt)
    await hub.broadcast("g", runner._updates(runner.table.start()))
    await hub.broadcast("g", runner._updates(*play_one(runner, rng)))
    assert a.kinds == b.kinds == ["whole", "patch"]
    # A whole state sent to ``a`` alone (its hello): its next update is whole.
    hub.forget(a)
    await hub.broadcast("g", runner._updates(*play_one(runner, rng)))
    assert a.kinds[-1] == "whole" and b.kinds[-1] == "patch"
    # ``b`` now sits elsewhere (it was a spectator who sat down): whole.
    mt.conns[b] = 2
    await hub.broadcast("g", runner._updates(*play_one(runner, rng)))
    assert a.kinds[-1] == "patch" and b.kinds[-1] == "whole"
    # A broadcast of whole states without numbers: nobody has a base after it.
    await hub.broadcast("g", lambda s: json.dumps(runner.state(s)))
    await hub.broadcast("g", runner._updates(*play_one(runner, rng)))
    assert a.kinds[-2:] == b.kinds[-2:] == ["whole", "whole"]
    # A newcomer gets a whole state, then patches.
    c = Page(True)
    mt.conns[c] = 3
    for _ in range(2):
        await hub.broadcast("g", runner._updates(*play_one(runner, rng)))
    assert c.kinds == ["whole", "patch"]
    for conn, seat in ((a, 0), (b, 2), (c, 3)):
        assert conn.state is not None and conn.state["view"] == runner.state(seat)["view"]


async def test_an_update_nobody_got_is_no_base() -> None:
    runner = runner_for(PRESETS["standard"], 2)
    rng = random.Random(2)
    a = Page(True)
    mt: Any = SimpleNamespace(conns={a: 0}, options=SimpleNamespace(spectators=True))
    hub = TableHub(mt)
    await hub.broadcast("g", runner._updates(runner.table.start()))
    unsent = runner._updates(*play_one(runner, rng))  # built, never broadcast: nobody has it
    update = runner._updates(*play_one(runner, rng))
    assert unsent.n + 1 == update.n and update.base is None and update.patch(0) is None
    await hub.broadcast("g", update)
    assert a.kinds == ["whole", "whole"]
    assert a.state is not None and a.state["view"] == runner.state(0)["view"]


def test_a_solo_game_by_patches_is_the_game_by_whole_states(tmp_path: Path) -> None:
    """Two pages on the same seat of a solo game, one asking for patches: after
    every update both hold the same state, to the end of the game."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}")
    with TestClient(app) as client:
        g = new_game(client, preset="short")
        with client.websocket_connect("/ws") as raw_a, client.websocket_connect("/ws") as b:
            a = Patched(raw_a)
            a.send_text(json.dumps({"type": "join", "token": g["token"]}))
            first = recv_state(a)
            b.send_text(json.dumps({"type": "join", "token": g["token"]}))
            recv_state(b)
            seen: list[dict[str, Any]] = []
            final = play_out(a, first, random.Random(4), seen)
            whole = [recv_state(b) for _ in seen]
    assert final["over"] and seen == whole
    assert a.states > 20 and a.patches >= a.states - 3  # whole only after join and at the start


def test_only_a_true_patches_asks_for_patches(tmp_path: Path) -> None:
    """``"patches": "yes"`` (or 1) is not ``true``: whole states, as for a client that never asked."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}")
    with TestClient(app) as client:
        g = new_game(client, preset="short")
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "token": g["token"], "patches": "yes"}))
            seen: list[dict[str, Any]] = []
            play_out(ws, recv_state(ws), random.Random(8), seen, stop=lambda _s: len(seen) >= 30)
    assert len(seen) >= 30 and not [m for m in seen if "base" in m]


def test_a_patch_out_of_step_is_refused_with_a_reason() -> None:
    last = {"type": "state", "n": 4, "view": {"to_act": 1}}
    for state in (None, last, {**last, "n": None}):
        with pytest.raises(ProtocolError) as e:
            apply_patch(state, {"type": "state", "n": 6, "base": 5, "view": {"to_act": 2}})
        assert e.value.code == "out_of_step"
    assert last == {"type": "state", "n": 4, "view": {"to_act": 1}}  # left as it was
