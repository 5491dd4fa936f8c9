"""The expert's options for play against a particular field: its objective
(``payoff`` or ``points``), whether it counts on the others to stop a moon
(``allies``), and the guess that a low card passed to it came from a suit
the passer emptied (``pass_voids``)."""

from __future__ import annotations

import random
import re

import pytest

from damepique.bots import get_bot
from damepique.bots.knowledge import PASS_VOID_RANK, Knowledge, passed_voids, sample_world
from damepique.bots.montecarlo import ExpertBot, evaluate_play, utility
from damepique.engine import (
    DONE,
    PASS,
    PRESETS,
    SUIT_MASKS,
    Deal,
    Rules,
    cards_of,
    parse_card,
    parse_cards,
    view_of,
)

RULES = Rules(passing=False, must_break_hearts=False)

HANDS = [
    "QS AS 3H 4H 5H 6H 7H 8H 2S 3S 4S 10S 2D",
    "KS 2H 9H 10H JH QH KH AH AD 6S 7S 8S 9S",
    "2C 3C 4C 4D 5S 8C 9C 10C JC 5D 6D 7D 8D",
    "7C 3D JS 5C 6C QC KC AC 9D 10D JD QD KD",
]

# Eleven tricks (each in playing order): seat 1 takes every heart but the 2;
# seats 2 and 3 show voids in hearts and spades; seat 0 wins the eleventh
# trick and leads the twelfth holding the Q and A of spades, while seat 1
# holds the K of spades and the last heart.
PLAYS = (
    "2C 7C 2S 6S  3D 2D AD 4D"
    "  9H 5S JS 3H  10H 8C 5C 4H  JH 9C QC 5H  QH 10C KC 6H  KH JC AC 7H  AH 5D 9D 8H"
    "  7S 6D 10D 3S  8S 7D JD 4S  9S 8D QD 10S"
)


def _moon_position() -> Deal:
    hands = [sum(1 << c for c in parse_cards(h.split())) for h in HANDS]
    deal = Deal(RULES, hands, 0, 0)
    for text in PLAYS.split():
        deal.play(parse_card(text))
    return deal


def test_the_position_is_what_the_test_says():
    deal = _moon_position()
    view = view_of(deal, 0)
    assert deal.to_act == 0
    assert view.taken_points == (0, 12, 0, 0)
    assert view.legal_mask() == (1 << parse_card("QS")) | (1 << parse_card("AS"))


def test_objective_points_stops_a_moon_the_payoff_would_concede():
    """Leading the Q of spades lets seat 1 take it and the last heart (a moon:
    26 points for seat 0); leading the ace makes seat 0 take 14 points itself.
    The payoff prefers the moon (26 - 52/3 = 8.7 against 14 - 12/3 = 10);
    counting its own points (26 against 14), the expert stops the moon."""
    view = view_of(_moon_position(), 0)
    qs, as_ = parse_card("QS"), parse_card("AS")
    assert utility(view, (26, 0, 26, 26)) < utility(view, (14, 12, 0, 0))
    assert utility(view, (26, 0, 26, 26), "points") > utility(view, (14, 12, 0, 0), "points")
    assert get_bot("expert:playouts=60").choose_play(view, random.Random(0)) == qs
    assert get_bot("expert:playouts=60,objective=points").choose_play(view, random.Random(0)) == as_
    # "cautious": the payoff, but the conceded moon counts as 26 points taken
    # (26 - 0 against 10): it stops the moon too.
    assert utility(view, (26, 0, 26, 26), "cautious", moon=1) == 26
    assert utility(view, (14, 12, 0, 0), "cautious") == utility(view, (14, 12, 0, 0))
    assert get_bot("expert:playouts=60,objective=cautious").choose_play(view, random.Random(0)) == as_
    stats, _groups, _mode = evaluate_play(view, random.Random(0), 60, objective="points")
    assert stats[as_].mean == 14 and stats[qs].mean == 26 and stats[qs].conceded == len(stats[qs].utility)


def test_cautious_objective_keeps_the_value_of_its_own_moon():
    """Unlike ``points``, ``cautious`` values its own moon as the payoff does."""
    view = view_of(_moon_position(), 1)
    own_moon = (26, 0, 26, 26)
    assert utility(view, own_moon, "cautious", moon=1) == utility(view, own_moon) == -26
    assert utility(view, own_moon, "points", moon=1) == 0


def test_objective_option_parsing():
    assert get_bot("expert").objective == "payoff"
    bot = get_bot("expert:objective=points,playouts=50")
    assert isinstance(bot, ExpertBot) and bot.objective == "points" and bot.playouts == 50
    with pytest.raises(
        ValueError, match=re.escape("objective takes one of payoff, points, cautious, not 'rank'")
    ):
        get_bot("expert:objective=rank")
    with pytest.raises(
        ValueError, match=re.escape("objective takes one of payoff, points, cautious, not 'moon'")
    ):
        ExpertBot(objective="moon")


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(
    "options", ["objective=points", "objective=cautious,allies=0,pass_voids=0.5"], ids=["points", "combined"]
)
def test_options_pass_and_play_every_variant(preset, options, make_positions):
    bot = get_bot("expert:playouts=30," + options)
    for deal, seat in make_positions(PRESETS[preset], 3, 8):
        view = view_of(deal, seat)
        if view.phase == PASS:
            chosen = bot.choose_pass(view, random.Random(1))
            assert len(set(chosen)) == view.rules.pass_count and all(view.hand >> c & 1 for c in chosen)
        else:
            assert view.legal_mask() >> bot.choose_play(view, random.Random(1)) & 1


def test_without_allies_only_this_seat_stops_a_moon_in_the_playouts(make_positions):
    """``allies=False``: in the play-outs the other seats no longer take a
    point from a seat running for the moon, so more moons get through, and the
    play-out policy leaves the defence to the seat named ``defender``."""
    from damepique.bots.tactics import moon_threat

    views = []
    for deal, seat in make_positions(Rules(), 64, 600):
        view = view_of(deal, seat)
        if view.phase == PASS or view.legal_mask().bit_count() < 2:
            continue
        threat = moon_threat(view)
        if threat is not None and threat != seat:
            views.append(view)
        if len(views) >= 6:
            break
    assert views
    conceded = {True: 0, False: 0}
    for view in views:
        for allies in (True, False):
            stats, _g, _m = evaluate_play(view, random.Random(5), playouts=120, allies=allies)
            conceded[allies] += sum(st.conceded for st in stats.values())
    assert conceded[False] > conceded[True]
    bot = get_bot("expert:allies=0,objective=points")
    assert isinstance(bot, ExpertBot) and not bot.allies and get_bot("expert").allies


def _after_pass(seed: int):
    """A deal of four intermediates after a pass to the left, at seat 0's first
    choice between two cards or more, where seat 3 passed it a low card."""
    inter = get_bot("intermediate")
    for k in range(seed, seed + 500):
        deal = Deal.shuffled(Rules(), random.Random(k), 0)
        for s in range(4):
            deal.pass_cards(s, inter.choose_pass(view_of(deal, s), random.Random(0)))
        while deal.phase != DONE and (deal.to_act != 0 or deal.legal_mask().bit_count() < 2):
            deal.play(inter.choose_play(view_of(deal, deal.to_act), random.Random(0)))
        if deal.phase == DONE:
            continue
        view = view_of(deal, 0)
        src, suits = passed_voids(view)
        if suits:
            return deal, view, src, suits
    raise AssertionError("no void-making pass found")


def test_passed_voids_reads_a_low_card_pass_as_a_void():
    deal, view, src, suits = _after_pass(0)
    assert src == 3 and view.received
    low = [c for c in cards_of(view.received) if SUIT_MASKS[c // 13] & suits]
    assert low and min(c % 13 for c in low) < PASS_VOID_RANK
    know = Knowledge.of(view, pass_voids=True)
    assert know.forbidden[src] & suits & view.unseen == suits & view.unseen
    for k in range(30):
        hands, _ = sample_world(view, know, random.Random(k))
        assert not hands[src] & suits
        assert hands[0] == view.hand
    # Once that seat follows in the suit, the guess is dropped.
    for _ in range(52):
        if deal.phase == DONE or view_of(deal, 0).played_by(src) & suits:
            break
        deal.play_unchecked(deal.legal_mask().bit_length() - 1)
    if deal.phase != DONE:
        assert passed_voids(view_of(deal, 0))[1] & view_of(deal, 0).played_by(src) == 0


def test_pass_voids_share_of_worlds(monkeypatch):
    """``pass_voids=S``: that share of the worlds (spread over the sequence)
    is sampled with the guess; 0 samples exactly as before."""
    from damepique.bots import montecarlo

    _deal, view, src, suits = _after_pass(0)
    used: list[bool] = []

    def spy(v, know, rng):
        used.append(bool(know.forbidden[src] & suits & v.unseen))
        return sample_world(v, know, rng)

    monkeypatch.setattr(montecarlo, "sample_world", spy)
    for share in (0.0, 0.25, 0.5, 1.0):
        used.clear()
        evaluate_play(view, random.Random(2), playouts=200, race=False, pass_voids=share)
        assert len(used) >= 8
        assert sum(used) == int(len(used) * share)
        if share == 0.5:
            assert used[:4] == [False, True, False, True]
    monkeypatch.undo()
    plain = evaluate_play(view, random.Random(2), playouts=200, race=False)[0]
    zero = evaluate_play(view, random.Random(2), playouts=200, race=False, pass_voids=0.0)[0]
    assert {c: st.utility for c, st in plain.items()} == {c: st.utility for c, st in zero.items()}
    bot = get_bot("expert:pass_voids=0.5,playouts=40")
    assert isinstance(bot, ExpertBot) and bot.pass_voids == 0.5
    assert view.legal_mask() >> bot.choose_play(view, random.Random(0)) & 1
    with pytest.raises(ValueError, match=re.escape("pass_voids takes a share from 0 to 1, not '2'")):
        get_bot("expert:pass_voids=2")


def test_explore_plays_random_cards_in_the_playouts():
    """``explore=E``: that share of the play-outs' choices is a uniformly random
    legal card (drawn from the decision's generator, so still deterministic);
    0 plays exactly the policy."""
    from damepique.bots.playout import Policy, playout

    rules = Rules(passing=False)
    pol = Policy.of(rules)
    base = Deal.shuffled(rules, random.Random(11))
    plain = base.copy()
    playout(plain, pol)
    zero = base.copy()
    playout(zero, pol, rng=random.Random(5), explore=0.0)
    assert zero.plays == plain.plays
    outcomes = set()
    for seed in range(8):
        a, b = base.copy(), base.copy()
        playout(a, pol, rng=random.Random(seed), explore=0.5)
        playout(b, pol, rng=random.Random(seed), explore=0.5)
        assert a.plays == b.plays and a.phase == "done"
        outcomes.add(tuple(a.plays))
    assert len(outcomes) > 1 and tuple(plain.plays) not in outcomes
    _deal, view, _src, _suits = _after_pass(0)
    bot = get_bot("expert:explore=0.3,playouts=40")
    assert isinstance(bot, ExpertBot) and bot.explore == 0.3
    card = bot.choose_play(view, random.Random(0))
    assert view.legal_mask() >> card & 1
    assert card == get_bot("expert:explore=0.3,playouts=40").choose_play(view, random.Random(0))
    with pytest.raises(ValueError, match=re.escape("explore takes a share from 0 to 1, not '1.5'")):
        get_bot("expert:explore=1.5")


def test_plays_likelihood_favours_the_real_deal_against_the_policy_s_kind_of_player():
    """``trust``: worlds are weighted by how likely the others' plays so far
    are in them. Against intermediates (whose play the play-out policy
    resembles) the real deal is more likely than almost every world drawn
    from what the seat knows (95% of them at these seeds; the margin is wide)."""
    from damepique.bots.montecarlo import plays_likelihood
    from damepique.bots.playout import Policy

    rules = Rules()
    pol = Policy.of(rules)
    inter = get_bot("intermediate")
    shares = []
    for seed in range(20):
        deal = Deal.shuffled(rules, random.Random(seed))
        for s in range(4):
            deal.pass_cards(s, inter.choose_pass(view_of(deal, s), random.Random(0)))
        for _ in range(random.Random(seed).randrange(12, 40)):
            deal.play(inter.choose_play(view_of(deal, deal.to_act), random.Random(0)))
        view = view_of(deal, deal.to_act)
        know = Knowledge.of(view, soft=True)
        real = plays_likelihood(view, list(deal.hands), deal.kitty, pol, 0.3)
        drawn = [
            plays_likelihood(view, *sample_world(view, know, random.Random(k)), pol, 0.3) for k in range(30)
        ]
        shares.append(sum(x < real for x in drawn) / len(drawn))
    assert sum(shares) / len(shares) > 0.8
    fresh = view_of(Deal.shuffled(Rules(passing=False), random.Random(3)), 0)
    assert plays_likelihood(fresh, [0, 0, 0, 0], 0, pol, 0.3) == 1.0  # nothing played yet


def test_trust_option(monkeypatch):
    from damepique.bots import montecarlo

    inter = get_bot("intermediate")
    deal = Deal.shuffled(Rules(passing=False), random.Random(5))
    for _ in range(9):
        deal.play(inter.choose_play(view_of(deal, deal.to_act), random.Random(0)))
    view = view_of(deal, deal.to_act)
    calls = []
    real = montecarlo.plays_likelihood

    def spy(*args):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(montecarlo, "plays_likelihood", spy)
    bot = get_bot("expert:trust=0.2,playouts=40")
    assert isinstance(bot, ExpertBot) and bot.trust == 0.2
    card = bot.choose_play(view, random.Random(0))
    assert view.legal_mask() >> card & 1
    assert card == get_bot("expert:trust=0.2,playouts=40").choose_play(view, random.Random(0))
    assert len(calls) >= 4 * 8  # at least 8 worlds kept, four drawn for each
    calls.clear()
    get_bot("expert:playouts=40").choose_play(view, random.Random(0))
    assert not calls
    with pytest.raises(ValueError, match=re.escape("trust takes a share from 0 to below 1, not '1'")):
        get_bot("expert:trust=1")
