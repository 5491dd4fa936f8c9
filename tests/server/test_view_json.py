"""The wire view built in two parts (``public_json`` once, ``seat_json`` per
seat) is exactly ``view_of(deal, seat).to_json()``, and the public part
carries nothing private."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from damepique.engine import PRESETS, Deal, Rules, cards_of, view_of
from damepique.server.patches import SEAT_FIELDS, seat_json
from damepique.server.public_view import PLAY_FIELDS, public_json


def every_position(rules: Rules, seed: int, deals: int) -> Iterator[Deal]:
    rng = random.Random(seed)
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        yield deal
        for seat in list(deal.passing_seats):
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
            yield deal
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
            yield deal


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_public_and_seat_parts_make_the_view(name: str) -> None:
    rules = PRESETS[name]
    seen = 0
    for deal in every_position(rules, 7, 3):
        totals = list(range(rules.players))
        public = public_json(deal, totals)
        for seat in range(rules.players):
            assert {**public, **seat_json(deal, seat)} == view_of(deal, seat, totals).to_json()
            seen += 1
        # What a spectator gets: seat 0's view stripped of everything private.
        spectator = view_of(deal, 0, totals).to_json()
        spectator.update(
            seat=None,
            decision=None,
            hand=[],
            legal=[],
            claim=False,
            passed=None,
            received=None,
            pass_to=None,
            to_act=deal.to_act if deal.phase == "play" else None,
        )
        assert public == spectator
    assert seen > 100


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_view_carried_forward_is_the_view_built_afresh(name: str) -> None:
    """``public_json(..., before=)`` (each position's view from the last one, as a
    server builds them card after card) is exactly the view built from nothing,
    at every position of every deal, kitty and moon included; what cards do not
    change is the last view's very object."""
    rules = PRESETS[name]
    carried = None
    derived = 0
    for deal in every_position(rules, 11, 4):
        totals = [3 * s for s in range(rules.players)]
        before = carried
        carried = public_json(deal, totals, before)
        assert carried == public_json(deal, totals)
        if before is not None and before["deal"] == deal.number and before["phase"] == deal.phase == "play":
            derived += 1
            for key in carried.keys() - PLAY_FIELDS:
                assert carried[key] is before[key], key
            if len(carried["tricks"]) == len(before["tricks"]):
                assert carried["tricks"] is before["tricks"]
    assert derived > 100


def test_key_order_is_the_views() -> None:
    deal = Deal.shuffled(PRESETS["standard"], random.Random(3))
    merged = {**public_json(deal), **seat_json(deal, 2)}
    assert list(merged) == list(view_of(deal, 2).to_json())


def test_seat_fields_name_the_seat_part() -> None:
    """A server writes the public part without ``SEAT_FIELDS`` and the seat's part
    beside it: a key in both would be written twice."""
    deal = Deal.shuffled(PRESETS["standard"], random.Random(4))
    assert set(seat_json(deal, 1)) == SEAT_FIELDS
    assert set(public_json(deal)) >= SEAT_FIELDS
