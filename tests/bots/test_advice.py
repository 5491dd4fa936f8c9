"""Advice: every legal card, a documented reason, mistakes only when clear."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest

from damepique.bots.advice import REASONS, advise, reason_for_pass, reason_for_play
from damepique.engine import PASS, PRESETS, QS, Deal, Rules, cards_of, parse_cards, view_of

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
            if a.mistake:
                gap = a.extra["utility"] - best.extra["utility"]
                combined = math.hypot(a.extra["utility_stderr"], best.extra["utility_stderr"])
                assert gap > 1.5 * combined - 1e-3
                assert not a.best


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
