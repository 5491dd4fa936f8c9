"""Claiming the rest (``engine/claims.py``): a claim is offered only when the
seat's cards must take every remaining trick whatever the others hold and
however they play, and the deal it ends is the one those cards come to."""

from __future__ import annotations

import random

import pytest

from damepique.bots.knowledge import Knowledge, sample_world
from damepique.engine import PRESETS, Deal, Rules, view_of
from damepique.engine.cards import CARD_NAMES, parse_card
from damepique.engine.claims import finish_claim, plan_for
from damepique.engine.deal import DONE, PLAY, to_mask

NO_VOIDS = (0, 0, 0)


def names(plan: tuple[int, ...] | None) -> list[str] | None:
    return None if plan is None else [CARD_NAMES[c] for c in plan]


def test_all_winners_on_the_lead_are_claimed_suit_by_suit_hearts_last() -> None:
    plan = plan_for(Rules(), to_mask("AH AS KS QD"), to_mask("2S 3H 5H 9C 2D"), (), (), NO_VOIDS, False)
    assert names(plan) == ["QD", "AS", "KS", "AH"]


def test_a_card_under_an_unseen_card_of_its_suit_is_no_claim() -> None:
    # A♠ wins, then Q♠ may lose to the K♠ the claimer has not seen.
    assert plan_for(Rules(), to_mask("AS QS"), to_mask("KS 2H 3H"), (), (), NO_VOIDS, True) is None


def test_a_low_card_wins_when_every_other_seat_has_shown_void() -> None:
    spades = to_mask("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    plan = plan_for(Rules(), to_mask("2S AH"), to_mask("KS 2H"), (), (), (spades,) * 3, True)
    assert names(plan) == ["2S", "AH"]
    # One seat that may still hold a spade is enough to refuse it.
    assert plan_for(Rules(), to_mask("2S AH"), to_mask("KS 2H"), (), (), (spades, spades, 0), True) is None


def test_in_a_trick_led_by_another_the_claimer_must_win_it() -> None:
    trick = (parse_card("TD"),)
    # It follows with its A♦ over the 10♦ and the unseen 9♦: then leads its masters.
    plan = plan_for(Rules(), to_mask("AD AS"), to_mask("9D 2S"), trick, (0, 0), NO_VOIDS, True)
    assert names(plan) == ["AD", "AS"]
    # Void in the suit led: the trick goes to someone else.
    assert plan_for(Rules(), to_mask("AS KS"), to_mask("9D 2S"), trick, (0, 0), NO_VOIDS, True) is None
    # Its best diamond is under the trick's best so far.
    high = (parse_card("KD"),)
    assert plan_for(Rules(), to_mask("QD AS"), to_mask("9D 2S"), high, (0, 0), NO_VOIDS, True) is None
    # A later seat may hold the unseen K♦ over its Q♦ ...
    assert plan_for(Rules(), to_mask("QD AS"), to_mask("KD 2S"), trick, (0, 0), NO_VOIDS, True) is None
    # ... unless every seat still to play has shown void in diamonds.
    diamonds = to_mask("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    later_void = (diamonds, diamonds)
    assert names(
        plan_for(Rules(), to_mask("QD AS"), to_mask("KD 2S"), trick, later_void, NO_VOIDS, True)
    ) == [
        "QD",
        "AS",
    ]


def test_a_heart_lead_that_would_be_illegal_is_no_claim() -> None:
    # Unbroken hearts, and the plan's last lead is a heart while a spade is held? No:
    # hearts come last, when only hearts are left, which every rule allows.
    plan = plan_for(Rules(), to_mask("AH KH AS"), to_mask("2S 2H"), (), (), NO_VOIDS, False)
    assert names(plan) == ["AS", "AH", "KH"]


def _in_play(rules: Rules, rng: random.Random) -> Deal:
    """A random deal whose cards have been passed (at random)."""
    deal = Deal.shuffled(rules, rng)
    for seat in deal.passing_seats:
        deal.pass_cards(seat, rng.sample(_cards(deal, seat), rules.pass_count))
    return deal


def _cards(deal: Deal, seat: int) -> list[int]:
    return [c for c in range(52) if deal.hands[seat] >> c & 1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_claim_offered_takes_every_trick_in_every_world_and_every_play(preset: str) -> None:
    """Over random deals of the preset: wherever a claim is offered, the seat's
    plan takes every remaining trick in 12 worlds drawn from what it has seen
    (the real one among them), with the others playing at random."""
    rules = PRESETS[preset]
    rng = random.Random(f"claims-{preset}")
    offered = 0
    for _ in range(40):
        deal = _in_play(rules, rng)
        while deal.phase == PLAY:
            seat = deal.to_act
            assert seat is not None
            view = view_of(deal, seat)
            plan = view.claim_plan()
            if plan is not None:
                offered += 1
                know = Knowledge.of(view)
                worlds = [deal.copy()] + [view.world(*sample_world(view, know, rng)) for _ in range(11)]
                for world in worlds:
                    todo = list(plan)
                    while world.phase != DONE:
                        if world.to_act == seat:
                            card = todo.pop(0)
                        else:
                            card = rng.choice(list(world.legal_cards()))
                        event = world.play(card)
                        assert event.trick_winner in (None, seat), (preset, names(plan))
                    assert not todo
                break  # this deal's claim is checked: the next deal
            deal.play(rng.choice(list(deal.legal_cards())))
    assert offered >= 5, f"{preset}: only {offered} claims offered in 40 deals"


def test_finish_claim_ends_the_deal_with_every_point_left_to_the_claimer() -> None:
    rng = random.Random(7)
    for _ in range(200):
        deal = _in_play(Rules(), rng)
        while deal.phase == PLAY:
            seat = deal.to_act
            assert seat is not None
            plan = view_of(deal, seat).claim_plan()
            if plan is not None:
                taken = list(deal.taken_points)
                left = 26 - sum(taken)
                events = finish_claim(deal, plan)
                assert deal.phase == DONE and events[-1].deal_over
                assert all(e.trick_winner in (None, seat) for e in events)
                others = [p for s, p in enumerate(deal.taken_points) if s != seat]
                assert others == [p for s, p in enumerate(taken) if s != seat]
                assert deal.taken_points[seat] == taken[seat] + left
                return
            deal.play(rng.choice(list(deal.legal_cards())))
    pytest.fail("no claim in 200 deals")


def test_finish_claim_refuses_a_plan_that_loses_a_trick() -> None:
    deal = _in_play(Rules(), random.Random(3))
    seat = deal.to_act
    assert seat is not None
    lowest_first = tuple(sorted(_cards(deal, seat)))  # the 2♣ first: a higher club takes it
    with pytest.raises(ValueError, match="lost a trick"):
        finish_claim(deal, lowest_first)
