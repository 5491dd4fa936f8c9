"""The match: dealer rotation, totals of complete deals, the end at the
target with one player alone lowest (ties go on)."""

from __future__ import annotations

import random

import pytest

from damepique.engine import DealError, Match, Rules, cards_of, winner_of


@pytest.mark.parametrize(
    ("totals", "target", "result"),
    [
        ([10, 20, 30, 40], 100, (False, None)),
        ([10, 20, 30, 100], 100, (True, 0)),
        ([10, 10, 30, 100], 100, (False, None)),
        ([10, 10, 10, 10], 10, (False, None)),
        ([50, 49, 51], 50, (True, 1)),
        ([-26, 0, 0, 120, 5], 100, (True, 0)),
        ([99, 99, 98, 99], 100, (False, None)),
    ],
)
def test_winner_of(totals: list[int], target: int, result: tuple[bool, int | None]) -> None:
    assert winner_of(totals, target) == result


def test_dealer_and_directions() -> None:
    for n in (3, 4, 5):
        match = Match(Rules(players=n))
        assert [match.dealer(k) for k in range(n + 1)] == [(k - 1) % n for k in range(n + 1)]


def test_next_deal_needs_the_last_one_finished_and_the_game_not_over() -> None:
    rules = Rules(target=26, passing=False)
    rng = random.Random(3)
    match = Match(rules, rng)
    deal = match.next_deal()
    with pytest.raises(DealError, match="deal 0 is not finished"):
        match.next_deal()
    assert match.totals == [0, 0, 0, 0] and not match.over and match.winner is None
    while not match.over:
        while deal.phase == "play":
            deal.play(rng.choice(deal.legal_cards()))
        assert match.totals == [sum(d.result().points[s] for d in match.deals) for s in range(4)]
        if not match.over:
            deal = match.next_deal()
    with pytest.raises(DealError, match="the game is over"):
        match.next_deal()
    assert match.winner == match.totals.index(min(match.totals))
    with pytest.raises(DealError, match="no random generator"):
        Match(rules).next_deal()


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list[tuple[int, ...]]:
        rng = random.Random(seed)
        match = Match(Rules(target=60), rng)
        while not match.over:
            deal = match.next_deal()
            for seat in deal.passing_seats:
                deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), 3))
            while deal.phase == "play":
                deal.play(rng.choice(deal.legal_cards()))
        return [d.dealt for d in match.deals]

    assert play(11) == play(11)
    assert play(11) != play(12)
