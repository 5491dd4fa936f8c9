"""State updates as patches (docs/protocol.md, docs/multiplayer.md): a connection that
asked for them gets, after one whole state, only what changed; anything that
could leave it out of step (no patches asked, a whole state sent outside a
broadcast, a new seat, a broadcast without numbers) gets it the whole state
again; what it holds after every update is exactly the whole state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damepique.engine import PRESETS, parse_card
from damepique.server.app import create_app
from damepique.server.errors import Refusal
from damepique.server.play.hub import Hub
from damepique.server.protocol import apply_patch

from ..multiplayer.mp_helpers import Patched
from .helpers import new_game, play_out, recv_state, runner_for, update_after


class Page:
    """A connection that keeps its state the way the page does (``Connection.post``)."""

    def __init__(self, patches: bool, plays: bool = False) -> None:
        self.patches = patches
        self.plays = plays
        self.state: dict[str, Any] | None = None
        self.kinds: list[str] = []

    def post(self, data: str) -> None:
        msg = json.loads(data)
        if "base" in msg:
            assert self.state is not None
            assert self.plays or "plays" not in msg, "a play patch to a connection that did not ask for them"
            self.state = apply_patch(self.state, msg)
            self.kinds.append("plays" if msg.get("plays") else "patch")
        else:
            self.state = msg
            self.kinds.append("whole")


def play_one(runner: Any, rng: random.Random) -> tuple[list[dict[str, Any]], int | None]:
    """The next events: a random pass or card, or the next deal when one ended."""
    game = runner.game
    if not game.waiting_on():
        return game.deal_next(), None
    seat = game.waiting_on()[0]
    view = runner.state(seat)["view"]
    if game.deal is not None and game.deal.phase == "pass":
        return [game.pass_cards(seat, [parse_card(c) for c in rng.sample(view["hand"], 3)])], seat
    return [game.play(seat, parse_card(rng.choice(view["legal"])))], seat


def broadcast(
    hub: Hub, runner: Any, events: list[dict[str, Any]], seat: int | None = None, ack: Any = None
) -> Any:
    update = update_after(runner, events, seat, ack)
    hub.broadcast("T", update)
    return update


def test_patches_only_where_asked_and_in_step() -> None:
    runner = runner_for(PRESETS["standard"], 5)
    rng = random.Random(5)
    fast, plain, watcher = Page(True), Page(False), Page(True)
    hub = Hub()
    for conn, seat in ((fast, 0), (plain, 1), (watcher, None)):
        hub.attach("T", conn, seat)  # type: ignore[arg-type]
    broadcast(hub, runner, runner.game.deal_next())
    for _ in range(80):  # the pass, a whole deal, the next deal
        events, seat = play_one(runner, rng)
        update = broadcast(hub, runner, events, seat, {"id": 3})
        for conn, s in ((fast, 0), (plain, 1), (watcher, -1)):
            assert conn.state == update.message(s)
    assert fast.kinds[0] == "whole" and set(fast.kinds[1:]) == {"patch"}
    assert set(plain.kinds) == {"whole"} and set(watcher.kinds) == {"whole"}  # spectators: whole states


def test_play_patches_only_while_every_connection_with_patches_lays_them() -> None:
    """A table where one seated connection asked for patches but not play patches
    gets plain patches everywhere; once it leaves, the others get play patches (a
    visitor who asked for patches only does not stand in the way: it gets whole
    states). Each holds the whole state after every update, over deals' ends and
    new deals."""
    runner = runner_for(PRESETS["standard"], 4)
    rng = random.Random(4)
    lays, old, plain, watcher = Page(True, plays=True), Page(True), Page(False), Page(True)
    hub = Hub()
    for conn, seat in ((lays, 0), (old, 1), (plain, 2), (watcher, None)):  # the visitor: whole states
        hub.attach("T", conn, seat)  # type: ignore[arg-type]

    def step(events: list[dict[str, Any]], seat: int | None = None) -> Any:
        update = runner.next_update(events, seat, True, hub.take_plays("T"))
        hub.broadcast("T", update)
        return update

    step(runner.game.deal_next())
    for _ in range(30):
        step(*play_one(runner, rng))
    assert "plays" not in lays.kinds and "patch" in lays.kinds and "patch" in old.kinds
    hub.detach("T", old)  # type: ignore[arg-type]
    for _ in range(100):  # the rest of the deal, the next deal's pass and cards
        update = step(*play_one(runner, rng))
        for conn, s in ((lays, 0), (plain, 2), (watcher, -1)):
            assert conn.state == update.message(s)
    assert lays.kinds.count("plays") > 50
    assert set(plain.kinds) == {"whole"} and set(watcher.kinds) == {"whole"}  # spectators: whole states


def test_out_of_step_connections_get_the_whole_state() -> None:
    runner = runner_for(PRESETS["standard"], 9)
    rng = random.Random(9)
    a, b = Page(True), Page(True)
    hub = Hub()
    hub.attach("T", a, 0)  # type: ignore[arg-type]
    hub.attach("T", b, 1)  # type: ignore[arg-type]
    broadcast(hub, runner, runner.game.deal_next())
    broadcast(hub, runner, *play_one(runner, rng))
    assert a.kinds == b.kinds == ["whole", "patch"]
    # A whole state sent to ``a`` alone (its hello): its next update is whole.
    hub.send(a, runner.state(0), key="T")  # type: ignore[arg-type]
    broadcast(hub, runner, *play_one(runner, rng))
    assert a.kinds[-1] == "whole" and b.kinds[-1] == "patch"
    # ``b`` now sits elsewhere (it was a spectator who sat down): whole.
    hub.attach("T", b, 2)  # type: ignore[arg-type]
    broadcast(hub, runner, *play_one(runner, rng))
    assert a.kinds[-1] == "patch" and b.kinds[-1] == "whole"
    # A newcomer gets a whole state, then patches.
    c = Page(True)
    hub.attach("T", c, 3)  # type: ignore[arg-type]
    for _ in range(2):
        broadcast(hub, runner, *play_one(runner, rng))
    assert c.kinds == ["whole", "patch"]
    for conn, seat in ((a, 0), (b, 2), (c, 3)):
        assert conn.state is not None and conn.state["view"] == runner.state(seat)["view"]


def test_an_update_nobody_got_is_no_base() -> None:
    runner = runner_for(PRESETS["standard"], 2)
    rng = random.Random(2)
    a = Page(True)
    hub = Hub()
    hub.attach("T", a, 0)  # type: ignore[arg-type]
    broadcast(hub, runner, runner.game.deal_next())
    unsent = update_after(runner, *play_one(runner, rng))  # built, never broadcast: nobody has it
    update = update_after(runner, *play_one(runner, rng))
    assert unsent.n + 1 == update.n and update.base is None and update.patch(0) is None
    hub.broadcast("T", update)
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
            a.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            first = recv_state(a)
            b.send_text(json.dumps({"type": "hello", "token": g["token"]}))
            recv_state(b)
            seen: list[dict[str, Any]] = []
            final = play_out(a, first, random.Random(4), seen)
            states = [m for m in seen if m["type"] == "state"]  # (b's hello told a of b: a table message)
            whole = [recv_state(b) for _ in states]
    assert final["over"] and states == whole
    assert a.states > 20 and a.patches >= a.states - 3  # whole only after join and at the start


def test_only_a_true_patches_asks_for_patches(tmp_path: Path) -> None:
    """``"patches": "yes"`` (or 1) is not ``true``: whole states, as for a client that never asked."""
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}")
    with TestClient(app) as client:
        g = new_game(client, preset="short")
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": g["token"], "patches": "yes"}))
            seen: list[dict[str, Any]] = []
            play_out(ws, recv_state(ws), random.Random(8), seen, stop=lambda _s: len(seen) >= 30)
    assert len(seen) >= 30 and not [m for m in seen if "base" in m]


def test_a_patch_out_of_step_is_refused_with_a_reason() -> None:
    last = {"type": "state", "n": 4, "view": {"to_act": 1}}
    for state in (None, last, {**last, "n": None}):
        with pytest.raises(Refusal) as e:
            apply_patch(state, {"type": "state", "n": 6, "base": 5, "view": {"to_act": 2}})
        assert e.value.code == "out_of_step"
    assert last == {"type": "state", "n": 4, "view": {"to_act": 1}}  # left as it was
