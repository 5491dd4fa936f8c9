"""Advice: every legal card, a documented reason, mistakes only when clear."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest

from damepique.bots.advice import REASONS, advise, reason_for_pass, reason_for_play
from damepique.bots.base import Advice
from damepique.engine import HEARTS_MASK, PASS, PRESETS, QS, Deal, Rules, cards_of, parse_cards, view_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def test_every_reason_code_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    missing = set(REASONS) - documented
    assert not missing, f"reason codes missing from docs/bots.md: {sorted(missing)}"


@pytest.mark.parametrize("preset", ["standard", "omnibus", "five_players_kitty", "black_maria"])
def test_advice_covers_every_legal_card(preset, make_positions):
    rules = PRESETS[preset]
    for deal, seat in make_positions(rules, 8, 8):
        view = view_of(deal, seat)
        advice = advise(view, random.Random(1), playouts=120)
        if view.phase == PASS:
            assert 1 <= len(advice) <= 3
            for a in advice:
                assert len(a.cards) == rules.pass_count
                assert all(view.hand >> c & 1 for c in a.cards)
                assert a.reason in REASONS
            continue
        assert sorted(a.cards[0] for a in advice) == list(cards_of(view.legal_mask()))
        assert advice[0].best
        best = advice[0]
        for a in advice:
            assert a.reason in REASONS
            assert a.stderr >= 0
            gap = a.extra["utility"] - best.extra["utility"]
            combined = math.hypot(a.extra["utility_stderr"], best.extra["utility_stderr"])
            assert a.cost == pytest.approx(max(0.0, gap), abs=2e-3)
            # A mistake is clearly worse and costly, in payoff and in the
            # expected points the page shows; a clearly worse option that
            # costs less than half a point in either is not one.
            points = a.score - best.score
            clear = gap > 1.5 * combined + 1e-3 and a.cost >= 0.5 + 1e-3 and points >= 0.5 + 1e-3
            if a.mistake:
                assert gap > 1.5 * combined - 1e-3 and a.cost >= 0.5 - 1e-3
                assert points >= 0.5 - 2e-3, (a, best)
                assert not a.best
            elif clear:
                raise AssertionError(("a clear, costly loss not called a mistake", a, best))


def test_advice_is_deterministic():
    deal = Deal.shuffled(Rules(passing=False), random.Random(12))
    deal.play(deal.legal_cards()[0])
    view = view_of(deal, deal.to_act)
    assert advise(view, random.Random(3), playouts=100) == advise(view, random.Random(3), playouts=100)


def _deal_with(hands_text, rules=None):
    rules = rules or Rules(passing=False)
    return Deal(rules, [parse_cards(h) for h in hands_text])


def test_queen_dump_is_advised_when_void(make_positions):
    """Void in the led suit, the queen in hand, another seat winning a trick
    after the first, nobody near a moon: advice ranks dropping the queen best
    (or tied for best) in most such positions. Not in all: keeping a well
    guarded queen and voiding a suit first can be as good."""
    from damepique.bots.tactics import moon_threat, trick_state

    found = agree = 0
    for deal, seat in make_positions(Rules(), 77, 3000):
        view = view_of(deal, seat)
        if view.phase == PASS or not view.trick or view.first_trick:
            continue
        if not view.legal_mask() >> QS & 1 or view.legal_mask() & view.rules.point_mask == view.legal_mask():
            continue
        led, _, _winner, _ = trick_state(view)
        if view.hand & led or moon_threat(view) is not None or any(view.taken_points):
            continue
        found += 1
        advice = advise(view, random.Random(0), playouts=300)
        queen = next(a for a in advice if a.cards == (QS,))
        assert queen.reason == "dumps_queen"
        agree += queen.extra["utility"] <= advice[0].extra["utility"] + 1e-9
        if found == 12:
            break
    assert found >= 6
    assert agree > found // 2


def test_reason_codes_for_plain_situations():
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
        "9C TC JC QC KC AC 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    deal = _deal_with(hands)
    for c in ("2C", "KC", "2H" if False else None, None):
        if c is None:
            deal.play(deal.legal_cards()[0])
        else:
            deal.play(c)
    # Trick 2: seat 1 won with KC and leads.
    assert deal.to_act == 1
    view = view_of(deal, 1)
    assert reason_for_play(view, parse_cards("AC")[0]) in {"leads_high", "leads_low"}
    view0 = view_of(Deal.shuffled(Rules(), random.Random(1)), 0)
    hand = list(cards_of(view0.hand))
    assert reason_for_pass(view0, tuple(hand[:3])) in REASONS


def test_advise_is_offered_by_the_bots_package():
    import damepique.bots
    from damepique.bots import advise as from_package
    from damepique.bots.advice import advise as from_module

    assert from_package is from_module
    assert "advise" in damepique.bots.__all__


# -- outcomes, comparisons, hints, reviews ---------------------------------------------


def test_advice_outcomes_add_up(make_positions):
    from damepique.bots.tactics import big_cards

    checked = 0
    for preset in ("standard", "black_maria", "five_players_kitty", "omnibus"):
        rules = PRESETS[preset]
        hearts = sum(1 for c in range(26, 39) if rules.deck_mask >> c & 1)
        heavy = big_cards(rules)
        for deal, seat in make_positions(rules, 31, 10):
            view = view_of(deal, seat)
            advice = advise(view, random.Random(2), playouts=150)
            taken_heavy = deal.taken[seat] & heavy
            for a in advice:
                o = a.outcomes
                assert set(o) == {"queen", "hearts", "moon_by_self", "moon_by_other"}
                for k in ("queen", "moon_by_self", "moon_by_other"):
                    assert 0.0 <= o[k] <= 1.0
                assert o["moon_by_self"] + o["moon_by_other"] <= 1.0 + 1e-9
                assert 0.0 <= o["hearts"] <= hearts
                assert o["hearts"] >= (deal.taken[seat] & HEARTS_MASK).bit_count() - 1e-9
                if taken_heavy:
                    assert o["queen"] == 1.0  # it took one already
                positive = {
                    s for s, t in enumerate(deal.taken) if any(rules.card_points[c] > 0 for c in cards_of(t))
                }
                if len(positive) >= 2 or not rules.has_moon:
                    assert o["moon_by_self"] == o["moon_by_other"] == 0.0
                checked += 1
    assert checked > 100


def test_the_queen_given_away_now_is_never_taken(make_positions):
    """Standard rules: a card that drops the queen on another seat's trick has
    ``queen`` 0 for this seat."""
    from damepique.bots.tactics import trick_state

    found = 0
    for deal, seat in make_positions(Rules(), 91, 4000):
        view = view_of(deal, seat)
        if view.phase == PASS or not view.trick or not view.legal_mask() >> QS & 1:
            continue
        led = trick_state(view)[0]
        if view.hand & led:
            continue
        advice = advise(view, random.Random(0), playouts=100)
        queen = next(a for a in advice if a.cards == (QS,))
        assert queen.outcomes["queen"] == 0.0
        found += 1
        if found == 8:
            break
    assert found >= 4


def test_compare_and_sentence_say_the_numbers():
    from damepique.bots.advice import Comparison, compare, sentence

    def outcomes(queen, hearts, moon_other=0.0):
        return {"queen": queen, "hearts": hearts, "moon_by_self": 0.0, "moon_by_other": moon_other}

    a = Advice((parse_cards("8S")[0],), 4.0, 0.2, "follows_high", outcomes=outcomes(0.23, 2.0))
    b = Advice((parse_cards("2S")[0],), 1.5, 0.2, "ducks", outcomes=outcomes(0.04, 1.9))
    c = compare(a, b, Rules())
    assert c == Comparison(a.cards, b.cards, "queen", 0.23, 0.04)
    assert (
        sentence(c) == "With 8♠ you take the queen of spades in 23% of the deals played out; with 2♠, in 4%."
    )
    assert sentence(c, "fr") == (
        "Avec 8♠, vous prenez la dame de pique dans 23\u202f% des donnes jouées\u202f;"
        " avec 2♠, dans 4\u202f%."
    )
    # A moon weighs more than a few hearts; nothing that weighs: the expected points.
    m = Advice(a.cards, 4.0, 0.2, "x", outcomes=outcomes(0.1, 3.0, 0.2))
    n = Advice(b.cards, 3.0, 0.2, "x", outcomes=outcomes(0.1, 1.0, 0.0))
    assert compare(m, n, Rules()).key == "moon_by_other"
    same = Advice(b.cards, 2.0, 0.2, "x", outcomes=outcomes(0.1, 1.0))
    c = compare(same, n, Rules())
    assert (c.key, c.value, c.other_value) == ("expected_points", 2.0, 3.0)
    assert "2.0" in sentence(c) and "2,0" in sentence(c, "fr")
    bm = sentence(Comparison(a.cards, b.cards, "queen", 0.5, 0.1), "en", PRESETS["black_maria"])
    assert "heavy spade" in bm


def test_hint_is_the_experts_card():
    from damepique.bots.advice import hint
    from damepique.bots.montecarlo import ExpertBot

    checked = 0
    for seed in range(6):
        deal = Deal.shuffled(Rules(passing=False), random.Random(seed))
        for _ in range(5 + seed):
            deal.play(deal.legal_cards()[-1])
        view = view_of(deal, deal.to_act)
        if view.legal_mask().bit_count() < 2:
            continue
        h = hint(view, random.Random(4), playouts=200)
        assert h.advice.cards == (ExpertBot(playouts=200).choose_play(view, random.Random(4)),)
        assert h.advice.best and h.comparison is not None
        assert h.comparison.other == h.advice.cards
        from damepique.bots.advice import hint_json

        wire = hint_json(h)
        assert wire["advice"]["best"] and wire["comparison"]["other"] == wire["advice"]["cards"]
        checked += 1
    assert checked >= 3


def test_review_lists_the_costliest_choices():
    from damepique.bots.advice import review
    from damepique.bots.arena import play_deal
    from damepique.bots.registry import get_bot

    deal = Deal.shuffled(Rules(), random.Random(6))
    play_deal(
        deal, [get_bot("beginner")] + [get_bot("intermediate")] * 3, [random.Random(s) for s in range(4)]
    )
    every = review(deal, 0, playouts=100, top=None)
    plays = [i for i, s in enumerate(deal.seats) if s == 0]
    assert [it.play for it in every if it.play is not None] == plays
    for it in every:
        if it.play is not None:
            assert it.chosen.cards == (deal.plays[it.play],)
            assert it.view.seat == 0 and it.trick == it.play // 4
        assert it.cost >= 0 and it.best.best
    top = review(deal, 0, playouts=100)
    assert len(top) <= 3 and all(it.cost > 0 for it in top)
    wire = top[0].to_json()
    assert wire["chosen"]["cards"] != wire["best"]["cards"] and wire["cost"] == round(top[0].cost, 2)
    assert wire["play"] == top[0].play
    if top[0].play is not None:
        assert len(wire["trick_cards"]) == top[0].play % 4
    assert [it.cost for it in top] == sorted((it.cost for it in top), reverse=True)
    assert top[0].cost == max(it.cost for it in every)


def test_a_review_taken_decision_by_decision_as_the_deal_is_played_is_the_whole_review():
    """The server reviews each decision as soon as it is made (``review_next``
    on the deal so far), carrying the search's generator from one to the
    next: the items are exactly those of reviewing the finished deal."""
    from damepique.bots.advice import review, review_next, review_rest, review_start
    from damepique.bots.arena import play_deal
    from damepique.bots.registry import get_bot

    deal = Deal.shuffled(Rules(), random.Random(6))
    play_deal(
        deal, [get_bot("beginner")] + [get_bot("intermediate")] * 3, [random.Random(s) for s in range(4)]
    )
    totals = (5, 0, 13, 8)
    so_far = review_start(0, totals, playouts=60)
    # The deal as it stood after each card (and before any), reviewed as far as it went.
    position = Deal(deal.rules, list(deal.dealt), deal.kitty, deal.number)
    assert review_next(position, so_far) is None  # nothing decided yet
    for s, p in enumerate(deal.passes):
        position.pass_cards(s, p)
        while (further := review_next(position.copy(), so_far)) is not None:
            so_far = further
    assert so_far.passed
    for i, card in enumerate(deal.plays):
        position.play(card)
        while (further := review_next(position.copy(), so_far)) is not None:
            assert further.next_play == i + 1  # the card just played, never one to come
            so_far = further
    assert position == deal and review_next(deal, so_far) is None
    whole = review(deal, 0, totals, playouts=60)
    assert [it.to_json() for it in review_rest(deal, so_far)] == [it.to_json() for it in whole]
    assert [it.cost for it in whole] == [it.cost for it in review_rest(deal, so_far)]
    # Half of it prepared, the rest done when asked: the same again.
    half = review_start(0, totals, playouts=60)
    for _ in range(6):
        half = review_next(deal, half) or half
    assert [it.to_json() for it in review_rest(deal, half)] == [it.to_json() for it in whole]
    every = review(deal, 0, totals, playouts=60, top=None)
    assert [it.to_json() for it in every] == [it.to_json() for it in so_far.items]


def _twin_seat_0_cannot_tell(deal: Deal) -> Deal:
    """The finished ``deal`` (its first, passing left) as it might have been
    for all seat 0 can know: seat 1 was dealt, in place of a card it passed,
    a card that seat 2 held and kept (and passed that instead). The hands
    after the pass, and so every card played, are the same; only what seat 1
    gave seat 2 differs, which seat 0 never sees."""
    assert deal.rules.pass_offset(deal.number) % deal.rules.players == 1
    p1, p2 = deal.passes[1], deal.passes[2]
    assert p1 is not None and p2 is not None
    c = (p1 & -p1).bit_length() - 1
    kept = deal.dealt[2] & ~p2
    d = (kept & -kept).bit_length() - 1
    dealt = list(deal.dealt)
    dealt[1] = dealt[1] & ~(1 << c) | 1 << d
    dealt[2] = dealt[2] & ~(1 << d) | 1 << c
    twin = Deal(deal.rules, dealt, deal.kitty, deal.number)
    for s, p in enumerate(deal.passes):
        assert p is not None
        twin.pass_cards(s, p & ~(1 << c) | 1 << d if s == 1 else p)
    for card in deal.plays:
        twin.play(card)
    assert twin.dealt != deal.dealt and twin.passes != deal.passes
    return twin


def test_a_review_says_the_same_of_two_deals_its_seat_cannot_tell_apart():
    """What a seat is told about its deal depends only on what it saw: the
    review of two deals that differ only in a pass between two other seats
    is the same, item for item (a review searching the real hands, or seeded
    from them, would differ). The protocol's leak check cannot see this: once
    a deal is over, every card in it has been played in front of the seat."""
    from damepique.bots.advice import review
    from damepique.bots.arena import play_deal
    from damepique.bots.registry import get_bot

    deal = Deal.shuffled(Rules(), random.Random(6))
    play_deal(
        deal, [get_bot("beginner")] + [get_bot("intermediate")] * 3, [random.Random(s) for s in range(4)]
    )
    twin = _twin_seat_0_cannot_tell(deal)
    assert twin.result() == deal.result()
    seen = Deal(deal.rules, list(deal.dealt), deal.kitty, deal.number)
    seen_twin = Deal(twin.rules, list(twin.dealt), twin.kitty, twin.number)
    assert view_of(seen, 0) == view_of(seen_twin, 0)
    for s in range(4):
        seen.pass_cards(s, deal.passes[s])
        seen_twin.pass_cards(s, twin.passes[s])
    for card in deal.plays:
        assert view_of(seen, 0) == view_of(seen_twin, 0)
        seen.play(card)
        seen_twin.play(card)
    review_of = [
        [it.to_json() for it in review(d, 0, (3, 9, 0, 14), playouts=60, top=None)] for d in (deal, twin)
    ]
    assert review_of[0] == review_of[1] and len(review_of[0]) >= 13
