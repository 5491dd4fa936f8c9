"""Claiming the rest (``engine/claims.py``): a claim is offered only when the
seat's cards must take every remaining trick, or none with no points left,
whatever the others hold and however they play, and the deal it ends comes to
the score any play-out would have."""

from __future__ import annotations

import random

import pytest

from damepique.bots.knowledge import Knowledge, sample_world
from damepique.engine import (
    PRESETS,
    ClaimError,
    ClaimPlan,
    Deal,
    DealResult,
    Rules,
    claim_plan_of,
    view_of,
)
from damepique.engine.cards import CARD_NAMES, cards_of, parse_card
from damepique.engine.claims import ALL, NONE, claim_for, finish_claim, loss_plan_for, plan_for
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
def test_every_claim_offered_comes_to_its_score_in_every_world_and_every_play(preset: str) -> None:
    """Over random deals of the preset: wherever a claim is offered (its seat to
    play, each position of the deal), the seat's plan takes every trick left,
    or none, and the deal's score is the plan's, in 12 worlds drawn from what
    it has seen (the real one among them), the others playing at random."""
    rules = PRESETS[preset]
    rng = random.Random(f"claims-{preset}")
    offered = {ALL: 0, NONE: 0}
    for _ in range(40):
        deal = _in_play(rules, rng)
        while deal.phase == PLAY:
            seat = deal.to_act
            assert seat is not None
            view = view_of(deal, seat)
            plan = view.claim_plan()
            if plan is not None:
                offered[plan.tricks] += 1
                assert plan.seat == seat
                assert sorted(plan.cards) == sorted(cards_of(deal.hands[seat]))
                know = Knowledge.of(view)
                worlds = [deal.copy()] + [view.world(*sample_world(view, know, rng)) for _ in range(11)]
                for world in worlds:
                    # Every world the seat cannot tell from the real one offers the same
                    # claim: offering it tells nothing of the others' cards.
                    assert claim_plan_of(world, seat) == plan, (preset, plan)
                    while world.phase != DONE:
                        if world.to_act == seat:
                            card = plan.card_now(world.legal_mask())
                        else:
                            card = rng.choice(list(world.legal_cards()))
                        event = world.play(card)
                        if event.trick_winner is not None:
                            assert (event.trick_winner == seat) == (plan.tricks == ALL), (preset, plan)
                    assert world.result() == plan.result, (preset, plan)
            deal.play(rng.choice(list(deal.legal_cards())))
    assert offered[ALL] >= 5, f"{preset}: only {offered} claims offered in 40 deals"
    # A claim to lose every trick needs the points settled: never with points for the last trick.
    if rules.last_trick_points:
        assert offered[NONE] == 0
    else:
        assert offered[NONE] >= 3, f"{preset}: only {offered} claims offered in 40 deals"


def test_a_claim_of_none_on_constructed_endings() -> None:
    rules = Rules()
    # Every point is gone; its clubs and diamonds lie under every unseen one: none of the tricks.
    unseen = to_mask("9C TC 8D 5S 6S")
    assert names(loss_plan_for(rules, to_mask("2C 3C 4D"), unseen, (), True)) == ["2C", "3C", "4D"]
    # All losers but a heart is left somewhere: whoever takes it is not settled.
    assert loss_plan_for(rules, to_mask("2C 3C"), to_mask("9C TC 2H"), (), True) is None
    assert loss_plan_for(rules, to_mask("2C 2H"), to_mask("9C TC 8D"), (), True) is None
    # Looks losing, is not: the 9♦ is under the 8♦? No: over it, and the 8♦ may be led.
    assert loss_plan_for(rules, to_mask("2C 9D"), to_mask("9C TC 8D JD"), (), True) is None
    # On the lead with a card no unseen card of its suit is under: it may win.
    assert loss_plan_for(rules, to_mask("TC 2D"), to_mask("9C 8D"), (), True) is None
    # The only unseen spade could be in the kitty on the first trick: nobody may follow.
    three = Rules(players=3, leftover="kitty", first_lead="any")
    assert loss_plan_for(three, to_mask("2S"), to_mask("3S"), (), True, first_trick=True) is None
    # Following: under the trick's best, or unable to follow.
    trick = (parse_card("TD"),)
    assert names(loss_plan_for(rules, to_mask("3D 2C"), to_mask("9C 5D"), trick, True)) == ["3D", "2C"]
    assert names(loss_plan_for(rules, to_mask("2C 3C"), to_mask("9C TC 5D"), trick, True)) == ["2C", "3C"]
    assert loss_plan_for(rules, to_mask("JD 2C"), to_mask("9C 5D"), trick, True) is None
    # Omnibus: the J♦ left to take settles nothing; a last-trick bonus neither.
    omnibus = PRESETS["omnibus"]
    assert loss_plan_for(omnibus, to_mask("2C 3C"), to_mask("9C TC JD"), (), True) is None
    assert loss_plan_for(rules.replace(last_trick_points=1), to_mask("2C"), to_mask("9C"), (), True) is None
    # Black Maria: the K♠ and A♠ carry points too.
    maria = PRESETS["black_maria"]
    assert loss_plan_for(maria, to_mask("2C 3C"), to_mask("9C TC KS"), (), True) is None


def test_claim_for_says_the_score_the_deal_comes_to() -> None:
    rules = Rules()
    # Every trick: the 2♥ and Q♠ unseen, and the claimer's A♥, all go to seat 0.
    taken = (0, 10, 0, 1)
    plan = claim_for(rules, 0, to_mask("AS AH"), to_mask("2H QS"), (), (), NO_VOIDS, True, taken, None,
                     first_trick=False, lead_card=None)  # fmt: skip
    assert plan is not None and plan.tricks == ALL
    assert plan.result.taken == (15, 10, 0, 1) and plan.result.points == (15, 10, 0, 1)
    # None: what was taken is the score, a moon included.
    taken = (26, 0, 0, 0)
    plan = claim_for(rules, 1, to_mask("2C"), to_mask("9C TC 8C"), (), (), NO_VOIDS, True, taken, None,
                     first_trick=False, lead_card=None)  # fmt: skip
    assert plan is not None and plan.tricks == NONE
    assert plan.result.moon == 0 and plan.result.points == (0, 26, 26, 26)


def test_finish_claim_ends_the_deal_with_every_point_left_to_the_claimer() -> None:
    rng = random.Random(7)
    for _ in range(200):
        deal = _in_play(Rules(), rng)
        while deal.phase == PLAY:
            seat = deal.to_act
            assert seat is not None
            plan = view_of(deal, seat).claim_plan()
            if plan is not None and plan.tricks == ALL:
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


def test_finish_claim_refuses_a_plan_that_goes_against_it() -> None:
    deal = _in_play(Rules(), random.Random(3))
    seat = deal.to_act
    assert seat is not None
    lowest_first = tuple(sorted(_cards(deal, seat)))  # the 2♣ first: a higher club takes it
    result = DealResult((0, 0, 0, 0), None, (0, 0, 0, 0))
    with pytest.raises(ClaimError, match="lost a trick") as failed:
        finish_claim(deal.copy(), ClaimPlan(seat, ALL, lowest_first, result))
    assert failed.value.seat == seat and failed.value.kind == "bad_claim" and failed.value.card is not None
    # Its highest first to lose every trick: some trick goes to it, or the score is not nothing.
    highest_first = tuple(sorted(_cards(deal, seat), reverse=True))
    with pytest.raises(ClaimError) as failed:
        finish_claim(deal.copy(), ClaimPlan(seat, NONE, highest_first, result))
    assert failed.value.seat == seat
    # Another seat's claim: refused before any card.
    before = deal.copy()
    with pytest.raises(ClaimError, match="not the claimer's turn"):
        finish_claim(deal, ClaimPlan((seat + 1) % 4, ALL, lowest_first, result))
    assert deal == before
