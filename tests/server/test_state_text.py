"""A runner writes each seat's state message as text from a part shared by all
seats and the seat's own fields: the text must say exactly what the whole
message says (``Update.message``), for every preset and position, with the
private events (a pass's cards) only in their own seat's text. A patch laid
over the previous update's message, as a client does it, must give exactly
the whole message too."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from damepique.engine import PRESETS, parse_card
from damepique.server.protocol import apply_patch

from .helpers import runner_for, update_after


class Seen:
    """What each seat's client holds: its last message, and how many patches it applied."""

    def __init__(self) -> None:
        self.last: dict[int, dict[str, Any]] = {}
        self.patches = 0


def same_messages(
    runner: Any, events: list[dict[str, Any]], ack_seat: int | None, seen: Seen | None = None
) -> int:
    """Each seat's text is its whole message (a spectator's too); with ``seen``
    (each seat's previous message, updated here), each seat's patch over it gives it too."""
    update = update_after(runner, events, ack_seat, {"id": 7})
    players = runner.game.rules.players
    for seat in [*range(players), -1]:
        whole = update.message(seat)
        assert whole["n"] == update.n and ("ack" in whole) == (seat == ack_seat and seat >= 0)
        assert json.loads(update.text(seat)) == whole
        if seat < 0:
            assert update.patch(seat) is None and whole["seat"] is None and whole["spectator"]
            continue
        patch = update.patch(seat) if seen is not None and seat in seen.last else None
        if seen is not None and patch is not None:
            seen.patches += 1
            assert apply_patch(seen.last[seat], json.loads(patch)) == whole
            assert len(patch) < len(update.text(seat))
        if seen is not None:
            seen.last[seat] = whole
    return players


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_seats_text_is_its_whole_message(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    runner = runner_for(rules, rng.randrange(1 << 30))
    game = runner.game
    seen = Seen()
    checked = same_messages(runner, [], None, seen)  # before the first deal: no view
    for _ in range(2):  # two deals: a pass and a hold hand at least under most presets
        events = game.deal_next()
        checked += same_messages(runner, events, None, seen)
        while game.deal is not None and not game.over:
            waiting = game.waiting_on()
            if not waiting:
                break
            seat = waiting[0]
            deal = game.deal
            if deal.phase == "pass":
                hand = runner.state(seat)["view"]["hand"]
                event = game.pass_cards(seat, [parse_card(c) for c in rng.sample(hand, rules.pass_count)])
            else:
                event = game.play(seat, parse_card(rng.choice(runner.state(seat)["view"]["legal"])))
            checked += same_messages(runner, [event], seat, seen)
            if deal.phase == "done":
                break
    assert checked > 100
    assert seen.patches > checked // 2  # nearly every update after the first deal


def test_a_pass_is_private_in_the_text() -> None:
    rules = PRESETS["standard"]
    runner = runner_for(rules, 11)
    runner.game.deal_next()
    hand = runner.state(1)["view"]["hand"]
    event = runner.game.pass_cards(1, [parse_card(c) for c in hand[:3]])
    update = update_after(runner, [event], 1, None)
    mine = json.loads(update.text(1))
    assert mine["event"]["cards"] == hand[:3] and mine["events"][0]["cards"] == hand[:3]
    for other in (0, 2, 3, -1):
        text = update.text(other)
        # Not in its event, not anywhere: a card of seat 1's hand is named nowhere else.
        assert not [card for card in hand[:3] if f'"{card}"' in text]
        msg = json.loads(text)
        assert "cards" not in msg["event"] and msg["view"]["passed"] is None
