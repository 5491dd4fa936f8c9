"""A reason is true as a player reads it (issue 25, player item 7): "discards
a high card" is never said of the lowest card of a suit the seat holds when
it holds higher ones (2♠ with 9♠ in hand, every other spade played: no unseen
spade to be measured against), and a comparison whose two numbers read the
same says that the two are about equal instead of "2.7; with K♣, 2.7"."""

from __future__ import annotations

import dataclasses
import random

from damepique.bots.advice import Comparison, sentence
from damepique.bots.reasons import reason_for_play
from damepique.engine import Deal, Rules, view_of
from damepique.engine.cards import parse_card
from damepique.engine.deal import to_mask


def _no_spade_unseen(hand: str, trick: str = "5D"):  # type: ignore[no-untyped-def]
    """Seat to act after the first trick of a real deal, its hand and the trick
    replaced: every spade it does not hold has been played."""
    deal = Deal.shuffled(Rules(passing=False), random.Random(8))
    for _ in range(4):
        deal.play_unchecked(min(c for c in range(52) if deal.legal_mask() >> c & 1))
    view = view_of(deal, deal.to_act)
    mine = to_mask(hand)
    spades = [c for c in range(39, 52) if not mine >> c & 1]
    other = (view.seat + 1) % 4
    played = {c for _s, c in view.plays}
    plays = view.plays + tuple((other, c) for c in spades if c not in played)
    led = tuple(parse_card(c) for c in trick.split())
    leader = (view.seat - len(led)) % 4
    return dataclasses.replace(
        view, hand=mine, plays=plays, trick=led, trick_leader=leader, taken_points=(0, 0, 0, 0)
    )


def test_the_lowest_spade_held_is_a_low_discard_when_no_spade_is_unseen() -> None:
    view = _no_spade_unseen("2S 9S 4C")
    assert not view.unseen & to_mask("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    assert reason_for_play(view, parse_card("2S")) == "discards_low"
    assert reason_for_play(view, parse_card("9S")) == "discards_high"


def test_the_lowest_spade_held_is_a_low_lead_when_no_spade_is_unseen() -> None:
    view = _no_spade_unseen("2S 9S 4C", trick="")
    assert reason_for_play(view, parse_card("2S")) == "leads_low"
    assert reason_for_play(view, parse_card("9S")) == "leads_high"


def test_equal_numbers_are_said_to_be_about_equal() -> None:
    same = Comparison(
        (parse_card("2S"),),
        (parse_card("KC"), parse_card("6D"), parse_card("QH")),
        "expected_points",
        2.68,
        2.71,
    )
    assert (
        sentence(same)
        == "With 2♠ or K♣ 6♦ Q♥ you can expect about 2.7 points in this deal: the two are about equal."
    )
    assert sentence(same, "fr") == (
        "Avec 2♠ ou R♣ 6♦ D♥, vous pouvez attendre environ 2,7 points dans cette donne\u00a0:"
        " les deux se valent à peu près."
    )
    moon = Comparison((parse_card("2S"),), (parse_card("KC"),), "moon_by_other", 0.0148, 0.0051)
    assert sentence(moon).endswith("the two are about equal.")
    # Numbers that read differently keep the sentence that compares them.
    assert sentence(dataclasses.replace(same, value=2.6)) == (
        "With 2♠ you can expect 2.6 points in this deal; with K♣ 6♦ Q♥, 2.7."
    )
