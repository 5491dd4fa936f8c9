"""A runner writes each seat's state message as text from a part shared by all
seats and the seat's own fields: the text must say exactly what the whole
message says (``Runner._update``), for every preset and position, with the
private events (a pass's cards) only in their own seat's text. A patch laid
over the previous update's message, as a client does it, must give exactly
the whole message too."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from damepique.engine import PRESETS, Rules
from damepique.server.games import Pace, Runner
from damepique.server.protocol import apply_patch
from damepique.server.store import GameRow
from damepique.server.table import Seat, Table


def runner_for(rules: Rules, seed: int) -> Runner:
    seats = [Seat("human", f"P{i}") for i in range(rules.players)]
    secret = seed.to_bytes(32, "big")  # a fixed secret per test: the same deals every run
    game = GameRow(
        id="g", owner=None, rules=rules.to_json(), seats=[], secret=secret.hex(), options={"speed": "normal"}
    )
    # No store, hub or thinker: only the messages are built here.
    return Runner(game, Table(rules, seats, secret), None, None, None, Pace())  # type: ignore[arg-type]


class Seen:
    """What each seat's client holds: its last message, and how many patches it applied."""

    def __init__(self) -> None:
        self.last: dict[int, dict[str, Any]] = {}
        self.patches = 0


def same_messages(
    runner: Runner, events: list[dict[str, Any]], ack_seat: int | None, seen: Seen | None = None
) -> int:
    """Each seat's text is its whole message; with ``seen`` (each seat's
    previous message, updated here), each seat's patch over it gives it too."""
    update = runner._updates(events, ack_seat, {"id": 7})
    for seat in range(runner.table.rules.players):
        whole = runner._update(seat, events, {"id": 7} if seat == ack_seat else None)
        patch = update.patch(seat) if seen is not None and seat in seen.last else None
        text = json.loads(update(seat))
        assert text.pop("n") == update.n
        assert text == whole
        if seen is not None and patch is not None:
            seen.patches += 1
            patched = apply_patch(seen.last[seat], json.loads(patch))
            assert patched == {**whole, "n": update.n}
            assert len(patch) < len(update(seat))
        if seen is not None:
            seen.last[seat] = {**whole, "n": update.n}
    return runner.table.rules.players


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_seats_text_is_its_whole_message(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    runner = runner_for(rules, rng.randrange(1 << 30))
    table = runner.table
    seen = Seen()
    checked = same_messages(runner, [], None, seen)  # before the first deal: no view
    for _ in range(2):  # two deals: a pass and a hold hand at least under most presets
        events = table.start()
        checked += same_messages(runner, events, None, seen)
        while table.deal is not None and not table.over:
            waiting = table.waiting_on()
            if not waiting:
                break
            seat = waiting[0]
            deal = table.deal
            if deal.phase == "pass":
                hand = runner.state(seat)["view"]["hand"]
                event = table.pass_cards(seat, rng.sample(hand, rules.pass_count))
            else:
                event = table.play(seat, rng.choice(runner.state(seat)["view"]["legal"]))
            checked += same_messages(runner, [event], seat, seen)
            if deal.phase == "done":
                break
    assert checked > 100
    assert seen.patches > checked // 2  # nearly every update after the first deal


def test_a_pass_is_private_in_the_text() -> None:
    rules = PRESETS["standard"]
    runner = runner_for(rules, 11)
    runner.table.start()
    hand = runner.state(1)["view"]["hand"]
    event = runner.table.pass_cards(1, hand[:3])
    text_for = runner._updates([event], 1, None)
    mine = json.loads(text_for(1))
    assert mine["event"]["cards"] == hand[:3] and mine["events"][0]["cards"] == hand[:3]
    for other in (0, 2, 3):
        text = text_for(other)
        # Not in its event, not anywhere: a card of seat 1's hand is named nowhere else.
        assert not [card for card in hand[:3] if f'"{card}"' in text]
        msg = json.loads(text)
        assert "cards" not in msg["event"] and msg["view"]["passed"] is None
