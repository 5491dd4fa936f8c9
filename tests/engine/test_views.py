"""Per-seat views: a seat sees its hand, what it passed and received, and
what is public, nothing else; ``View.world`` rebuilds the position."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from damepique.engine import PRESETS, Deal, IllegalAction, Rules, cards_of, view_of


def replay_deal(
    rules: Rules, number: int, dealt: list[int], kitty: int, passes: list[int | None], plays: list[int]
) -> Deal:
    """A deal rebuilt from its dealt hands, passes and plays, all checked."""
    deal = Deal(rules, dealt, kitty, number)
    for seat, p in enumerate(passes):
        if p is not None and deal.phase == "pass":
            deal.pass_cards(seat, p)
    for card in plays:
        deal.play(card)
    return deal


def positions(rules: Rules, seed: int, deals: int) -> Iterator[Deal]:
    rng = random.Random(seed)
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        for seat in deal.passing_seats:
            if rng.random() < 0.2:
                yield deal.copy()  # some seats passed, not all
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
        stop = rng.randrange(rules.hand_size * rules.players + 1)
        for _ in range(stop):
            deal.play(rng.choice(deal.legal_cards()))
        yield deal


def hidden_swaps(deal: Deal, seat: int, rng: random.Random, tries: int = 12) -> Iterator[Deal]:
    """Deals that differ from ``deal`` only in cards ``seat`` cannot know, with
    the same public history: two unplayed cards dealt to two other seats (or
    to the hidden kitty), neither of them passed, change places. Replaying
    the same passes and plays, checked, proves the public history the same."""
    n = deal.players
    played = 0
    for c in deal.plays:
        played |= 1 << c
    passed = 0
    for p in deal.passes:
        passed |= p or 0
    if deal.lead_card is not None:
        # Who is to lead the first trick is public once play begins: the
        # holder of the lowest club shows himself. Keep the low clubs put.
        passed |= (2 << deal.lead_card) - 1
    kitty_hidden = deal.kitty & ~passed if not deal.tricks_played else 0
    owners = [s for s in range(n) if s != seat]
    pools = {s: deal.dealt[s] & ~played & ~passed for s in owners}
    if kitty_hidden:
        pools[-1] = kitty_hidden
    keys = [k for k in pools if pools[k]]
    for _ in range(tries):
        if len(keys) < 2:
            return
        a, b = rng.sample(keys, 2)
        x = rng.choice(cards_of(pools[a]))
        y = rng.choice(cards_of(pools[b]))
        dealt = list(deal.dealt)
        kitty = deal.kitty
        for owner, give, take in ((a, x, y), (b, y, x)):
            if owner == -1:
                kitty = kitty & ~(1 << give) | 1 << take
            else:
                dealt[owner] = dealt[owner] & ~(1 << give) | 1 << take
        try:
            other = replay_deal(deal.rules, deal.number, dealt, kitty, list(deal.passes), deal.plays)
        except IllegalAction:
            continue  # the swap would make a past play illegal: not the same history
        yield other


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_views_hide_what_a_seat_cannot_know(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    compared = differed = 0
    for deal in positions(rules, len(name), deals=8):
        for seat in range(rules.players):
            mine = view_of(deal, seat)
            for other in hidden_swaps(deal, seat, rng, tries=3):
                assert view_of(other, seat) == mine
                assert view_of(other, seat).to_json() == mine.to_json()
                compared += 1
                # The test has teeth: some other seat sees the difference.
                differed += any(
                    view_of(other, s) != view_of(deal, s) for s in range(rules.players) if s != seat
                )
    assert compared > 20 and differed == compared


def test_a_view_shows_the_seats_own_passes_and_nothing_of_the_others() -> None:
    rules = Rules()
    deal = Deal.shuffled(rules, random.Random(1), 0)
    hands = list(deal.hands)
    deal.pass_cards(0, cards_of(hands[0])[:3])
    deal.pass_cards(1, cards_of(hands[1])[:3])
    # Seat 2 has not passed: seat 1's pass is hidden from it; another pass by
    # seat 1 gives the same view.
    other = Deal(rules, hands, 0, 0)
    other.pass_cards(0, cards_of(hands[0])[:3])
    other.pass_cards(1, cards_of(hands[1])[-3:])
    assert view_of(deal, 2) == view_of(other, 2)
    assert view_of(deal, 1) != view_of(other, 1)
    v = view_of(deal, 0)
    assert v.passed == sum(1 << c for c in cards_of(hands[0])[:3])
    assert v.received is None and v.hand == hands[0] & ~v.passed and v.to_act is None
    assert view_of(deal, 3).to_act == 3 and v.passed_seats == (True, True, False, False)
    deal.pass_cards(2, cards_of(hands[2])[:3])
    deal.pass_cards(3, cards_of(hands[3])[:3])
    v = view_of(deal, 1)
    assert v.received == sum(1 << c for c in cards_of(hands[0])[:3])
    assert v.known_cards == {2: sum(1 << c for c in cards_of(hands[1])[:3])}


def test_view_legal_mask_matches_the_deal() -> None:
    for name, rules in PRESETS.items():
        for deal in positions(rules, 5, deals=4):
            for seat in range(rules.players):
                view = view_of(deal, seat)
                expected = deal.legal_mask() if deal.phase == "play" and deal.to_act == seat else 0
                assert view.legal_mask() == expected, name


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_world_reproduces_the_position(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(7)
    checked = 0
    for deal in positions(rules, 9, deals=10):
        if deal.phase != "play":
            continue
        seat = deal.to_act
        view = view_of(deal, seat)
        world = view.world(list(deal.hands), deal.kitty)
        assert world.hands == deal.hands
        assert (world.to_act, world.trick, world.tricks, world.hearts_broken) == (
            deal.to_act,
            deal.trick,
            deal.tricks,
            deal.hearts_broken,
        )
        assert (world.taken_points, world.voids, world.jack_seat) == (
            deal.taken_points,
            deal.voids,
            deal.jack_seat,
        )
        assert world.legal_mask() == deal.legal_mask()
        assert view_of(world, seat).hand == view.hand
        # Both finish alike under the same plays.
        while deal.phase == "play":
            card = rng.choice(deal.legal_cards())
            deal.play(card)
            world.play(card)
        assert world.result() == deal.result()
        checked += 1
    assert checked >= 5
