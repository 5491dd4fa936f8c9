"""Reprs that paste back (as python-chess's do), equality of deals and
matches, and the typed phases that keep comparing equal to their strings."""

from __future__ import annotations

import json
import random

import pytest

from damepique.engine import (
    DONE,
    PASS,
    PLAY,
    PRESETS,
    Deal,
    DealError,
    IllegalPass,
    Match,
    Phase,
    Rules,
    cards_of,
    view_of,
)

NAMESPACE = {"Deal": Deal, "Match": Match, "Rules": Rules}


def positions(rules: Rules, seed: str, deals: int = 6) -> list[Deal]:
    """Copies of a deal at random points: before, during and after passing, in play, done."""
    rng = random.Random(seed)
    out = []
    for k in range(deals):
        deal = Deal.shuffled(rules, rng, k)
        out.append(deal.copy())
        for seat in deal.passing_seats:
            if rng.random() < 0.5:
                continue  # some seats pass later: passes out of seat order
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
            out.append(deal.copy())
        for seat in deal.passing_seats:
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), rules.pass_count))
        while deal.phase == PLAY:
            deal.play(rng.choice(deal.legal_cards()))
            if rng.random() < 0.1:
                out.append(deal.copy())
        out.append(deal)
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_deal_repr_pastes_back_to_an_equal_deal(name: str) -> None:
    for deal in positions(PRESETS[name], name):
        again = eval(repr(deal), NAMESPACE)
        assert again == deal and repr(again) == repr(deal)
        # Equal deals are the same position: the same legal cards and views.
        assert (again.phase, again.to_act, again.hands, again.legal_mask()) == (
            deal.phase,
            deal.to_act,
            deal.hands,
            deal.legal_mask(),
        )
        assert view_of(again, 0) == view_of(deal, 0)


def test_deals_differ_when_anything_that_was_done_differs() -> None:
    rules = Rules(passing=False)
    deal = Deal.shuffled(rules, random.Random(1))
    same = Deal(rules, deal.dealt)
    assert same == deal and same is not deal
    other_number = Deal(rules, deal.dealt, number=1)
    deal.play(deal.legal_cards()[0])
    assert same != deal and other_number != same
    same.play(deal.plays[0])
    assert same == deal
    assert deal != "a deal" and deal != Deal(Rules(passing=False, target=50), deal.dealt, plays=deal.plays)
    with pytest.raises(TypeError):
        hash(deal)  # it changes as it is played: no hash


def test_a_view_world_is_skip_pass_and_its_repr_says_so() -> None:
    rules = Rules()
    deal = Deal.shuffled(rules, random.Random(4))
    for seat in range(4):
        deal.pass_cards(seat, cards_of(deal.hands[seat])[:3])
    deal.play(deal.legal_cards()[0])
    world = view_of(deal, 1).world(deal.hands)
    assert "skip_pass=True" in repr(world)
    assert eval(repr(world), NAMESPACE) == world


def test_the_deal_constructor_checks_the_passes_and_plays_it_is_given() -> None:
    rules = Rules()
    hands = Deal.shuffled(rules, random.Random(2)).dealt
    with pytest.raises(IllegalPass, match="must pass 3 cards, not 1"):
        Deal(rules, hands, passes=[cards_of(hands[0])[:1]])


def test_a_match_repr_pastes_back() -> None:
    rules = PRESETS["short"].replace(target=40)
    rng = random.Random(6)
    match = Match(rules, rng)
    assert eval(repr(match), NAMESPACE) == match
    while not match.over:
        deal = match.next_deal()
        for seat in deal.passing_seats:
            deal.pass_cards(seat, rng.sample(list(cards_of(deal.hands[seat])), 3))
        while deal.phase == PLAY:
            deal.play(rng.choice(deal.legal_cards()))
            if rng.random() < 0.02:
                assert eval(repr(match), NAMESPACE) == match
    again = eval(repr(match), NAMESPACE)
    assert again == match and again.over and again.winner == match.winner and again.totals == match.totals
    assert again != Match(rules, deals=match.deals[:-1])


def test_a_match_from_deals_checks_that_they_follow() -> None:
    rules = Rules(passing=False)
    first = Deal.shuffled(rules, random.Random(3), 0)
    with pytest.raises(DealError, match="deal 0 is not finished"):
        Match(rules, deals=[first, Deal.shuffled(rules, random.Random(4), 1)])
    with pytest.raises(DealError, match="deal 0 is not the next deal"):
        Match(rules, deals=[Deal.shuffled(rules, random.Random(4), 1)])
    with pytest.raises(DealError, match="not the next deal"):
        Match(Rules(), deals=[first])


def test_rules_repr_names_only_what_differs_and_pastes_back() -> None:
    assert repr(Rules()) == "Rules()"
    assert repr(PRESETS["deck_36"]) == "Rules(queen_points=5, deck=36, last_trick_points=1)"
    for rules in PRESETS.values():
        assert eval(repr(rules), NAMESPACE) == rules


def test_phases_are_their_strings() -> None:
    assert list(Phase) == [PASS, PLAY, DONE] == ["pass", "play", "done"]
    assert Phase("play") is PLAY and isinstance(PLAY, str)
    assert {"pass": 1, "play": 2}[PLAY] == 2 and hash(DONE) == hash("done")
    assert json.dumps({"phase": PASS}) == '{"phase": "pass"}' and f"{DONE}" == "done"
    assert repr(PLAY) == "'play'"
    deal = Deal.shuffled(Rules(), random.Random(0))
    assert deal.phase is PASS and deal.phase == "pass"
    assert type(view_of(deal, 0).to_json()["phase"]) is Phase
    with pytest.raises(ValueError):
        Phase("over")
