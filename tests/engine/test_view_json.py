"""``View.from_json`` is the exact inverse of ``View.to_json``: a program that
gets a seat's view over the wire rebuilds the very view a bot in the server
is handed, at every position of every preset, for every seat."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from damepique.engine import PRESETS, Deal, Match, Rules, cards_of, view_of
from damepique.engine.views import View


def positions(rules: Rules, seed: int, deals: int) -> Iterator[tuple[Deal, tuple[int, ...]]]:
    """Every position of a few random deals of a match (with its totals so far):
    dealt, each pass, each card."""
    rng = random.Random(seed)
    match = Match(rules)
    for k in range(deals):
        if match.over:
            break
        deal = Deal.shuffled(rules, rng, k)
        totals = tuple(match.totals)
        match.deals.append(deal)
        yield deal, totals
        for seat in list(deal.passing_seats):
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
            yield deal, totals
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
            yield deal, totals


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_from_json_reads_back_every_view(name: str) -> None:
    rules = PRESETS[name]
    checked = 0
    for deal, totals in positions(rules, len(name), deals=5):
        for seat in range(rules.players):
            view = view_of(deal, seat, totals)
            wire = json.loads(json.dumps(view.to_json()))  # as it crosses the wire
            back = View.from_json(wire, Rules.from_json(json.loads(json.dumps(rules.to_json()))))
            assert back == view, (name, seat, deal.phase, len(deal.plays))
            assert back.to_json() == view.to_json()
            assert back.legal_mask() == view.legal_mask()
            checked += 1
    assert checked > 300


def test_the_lead_card_is_told_only_where_a_seat_can_know_it() -> None:
    """Under a hidden kitty the card that leads says which low clubs lie there:
    only its holder (the seat to lead) is told; without a kitty the rules say it."""
    for name in ("three_players_kitty", "standard"):
        rules = PRESETS[name]
        deal = Deal.shuffled(rules, random.Random(5), 0)
        for seat in list(deal.passing_seats):
            deal.pass_cards(seat, list(cards_of(deal.hands[seat]))[: rules.pass_count])
        assert deal.phase == "play" and deal.lead_card is not None
        for seat in range(rules.players):
            told = view_of(deal, seat).lead_card
            if seat == deal.to_act or not rules.kitty_size:
                assert told == deal.lead_card
            else:
                assert told is None
