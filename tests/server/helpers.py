"""Shared helpers for the protocol tests: a solo game driven over the WebSocket."""

from __future__ import annotations

import json
import random
from typing import Any

MALFORMED: list[tuple[str, str]] = [
    ("{oops", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"card": "QS"}', "bad_message"),
    ('{"type": "shuffle"}', "unknown_type"),
    ('{"type": "play", "v": 7}', "bad_version"),
    (json.dumps({"type": "play", "card": "x" * 100_000}), "too_large"),
]
"""Messages a game's socket (solo or table) refuses before it looks at the game, and their codes."""


def new_game(client: Any, **body: Any) -> dict[str, Any]:
    body.setdefault("speed", "fast")
    body.setdefault("level", "beginner")
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def my_turn(state: dict[str, Any]) -> str | None:
    """'pass' or 'play' when the seat must act in this state, else None."""
    view = state.get("view")
    if not view or state.get("over"):
        return None
    if view["to_act"] != state["seat"]:
        return None
    return "pass" if view["phase"] == "pass" else "play"


def recv_state(ws: Any, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next state message (errors raise)."""
    while True:
        msg = json.loads(ws.receive_text())
        if log is not None:
            log.append(msg)
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["type"] == "state":
            return msg


def play_out(
    ws: Any,
    state: dict[str, Any],
    rng: random.Random,
    log: list[dict[str, Any]] | None = None,
    stop: Any = None,
) -> dict[str, Any]:
    """Play random legal cards (and passes) until the game is over or ``stop(state)``."""
    n = 0
    while not state["over"]:
        if stop is not None and stop(state):
            return state
        turn = my_turn(state)
        n += 1
        if turn == "pass":
            cards = rng.sample(state["view"]["hand"], state["rules"].get("pass_count", 3))
            ws.send_text(json.dumps({"type": "pass", "cards": cards, "id": n}))
        elif turn == "play":
            ws.send_text(json.dumps({"type": "play", "card": rng.choice(state["view"]["legal"]), "id": n}))
        else:
            state = recv_state(ws, log)
            continue
        # States already on their way still show the old position: wait for the ack.
        state = recv_state(ws, log)
        while state.get("ack") != n:
            state = recv_state(ws, log)
    return state


# -- a runner with nothing around it: only its messages are built ------------------------


class QuietSeating:
    """A solo game's seating with no table behind it (``play.seating.Seating``): people at every seat."""

    def plan(self, game: Any) -> Any:
        from damepique.server.play.seating import SeatPlan

        return SeatPlan("normal", 0, (None,) * len(game.seats), "solo")

    def readers(self) -> list[int]:
        return []

    async def game_over(self, game_id: str, game: Any) -> None:
        return None

    async def after_game(self, game: Any) -> None:
        return None

    async def notice(self, kind: str, seat: int) -> None:
        return None


def runner_for(rules: Any, seed: int) -> Any:
    """A runner of a game of people at every seat, with a fixed secret (the same deals every run)."""
    from damepique.server.clock import ManualClock
    from damepique.server.play.game import Game, Seat
    from damepique.server.play.hub import Hub
    from damepique.server.play.pace import Pace
    from damepique.server.play.runner import Runner
    from damepique.server.storage.games import GameRow

    seats = [Seat("human", f"P{i}") for i in range(rules.players)]
    secret = seed.to_bytes(32, "big")
    row = GameRow(id="g", owner=None, rules=rules.to_json(), seats=[], secret=secret.hex(), options={})
    game = Game(rules, seats, secret)
    return Runner(  # type: ignore[arg-type]
        row, game, "T", None, Hub(), None, QuietSeating(), Pace(), clock=ManualClock()
    )


def update_after(
    runner: Any, events: list[dict[str, Any]], ack_seat: int | None = None, ack: Any = None
) -> Any:
    """The update the runner would broadcast after ``events`` (numbered after its last one)."""
    return runner.next_update(events, ack_seat, ack)
