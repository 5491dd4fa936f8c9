"""The sampler's inferences hold in the real deal, and its samples are deals
that could be the real one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from damepique.bots.knowledge import Knowledge, _infer_from_plays, sample_world
from damepique.bots.playout import Policy, playout
from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, PRESETS, Deal, Rules, parse_card, view_of


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_inferences_hold_in_the_real_deal(preset, make_positions):
    rules = PRESETS[preset]
    n = rules.players
    for deal, _seat in make_positions(rules, 41, 120):
        for me in range(n):
            view = view_of(deal, me)
            if view.phase == PASS and deal.passes[me] is not None:
                continue
            know = Knowledge.of(view)
            for s in range(n):
                if s == me:
                    continue
                actual = deal.hands[s]
                if view.phase == PASS:
                    continue
                assert actual.bit_count() == know.sizes[s]
                assert not actual & know.forbidden[s], (preset, s)
                assert know.required[s] & ~actual == 0
            if view.kitty == 0 and rules.kitty_size:
                assert know.sizes[n] == rules.kitty_size
                assert know.required[n] & ~deal.kitty == 0
                assert not deal.kitty & know.forbidden[n]


def _play_part(view):
    return dataclasses.replace(view, dealt=0, pass_offset=0, passed=None, received=None, passed_seats=())


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_samples_are_possible_deals(preset, make_positions):
    rules = PRESETS[preset]
    n = rules.players
    rng = random.Random(3)
    for deal, seat in make_positions(rules, 42, 40):
        view = view_of(deal, seat)
        if view.phase == PASS:
            continue
        know = Knowledge.of(view)
        for _ in range(3):
            hands, kitty = sample_world(view, know, rng)
            assert hands[seat] == view.hand
            union = kitty
            for s in range(n):
                assert not union & hands[s]
                union |= hands[s]
                if s != seat:
                    assert not hands[s] & know.forbidden[s]
                    assert hands[s].bit_count() == view.hand_sizes[s]
            assert union == view.unseen | view.hand
            world = view.world(hands, kitty)
            # view.world rebuilds the play, not the passing: compare the rest.
            assert _play_part(view_of(world, seat)) == _play_part(view)


def test_swapping_hands_into_a_copy_equals_replaying(make_positions):
    """The expert swaps sampled hands into one replayed world instead of
    replaying every sample: both give the same deal."""
    rng = random.Random(4)
    rules = PRESETS["three_players_kitty"]
    pol = Policy.of(rules)
    for deal, seat in make_positions(rules, 43, 30):
        view = view_of(deal, seat)
        if view.phase == PASS:
            continue
        know = Knowledge.of(view)
        template = view.world(*sample_world(view, know, rng))
        hands, kitty = sample_world(view, know, rng)
        a = view.world(hands, kitty)
        b = template.copy()
        b.hands = list(hands)
        if rules.kitty_size and not view.kitty:
            b.kitty = kitty
        assert a.legal_mask() == b.legal_mask()
        playout(a, pol)
        playout(b, pol)
        assert a.result() == b.result()
        assert a.taken == b.taken


def _intermediate_deal_views(rules, deals):
    """Every view of every seat along deals played by intermediates, with the deal."""
    from damepique.bots.registry import get_bot
    from damepique.engine import DONE, Deal

    n = rules.players
    bot = get_bot("intermediate")
    for d in range(deals):
        deal = Deal.shuffled(rules, random.Random(d), d)
        rng = random.Random(d)
        if deal.phase == PASS:
            for s in range(n):
                deal.pass_cards(s, bot.choose_pass(view_of(deal, s), rng))
        while deal.phase != DONE:
            for me in range(n):
                yield deal, view_of(deal, me)
            s = deal.to_act
            deal.play(bot.choose_play(view_of(deal, s), rng), s)


@pytest.mark.parametrize("preset", ["standard", "black_maria", "five_players"])
def test_soft_inferences_hold_against_intermediates(preset):
    """Intermediates drop a heavy card when void (unless a moon is being
    stopped), so what the soft inference keeps away from a seat is never in
    its hand; the hard constraints stay as they were."""
    rules = PRESETS[preset]
    applied = 0
    for deal, view in _intermediate_deal_views(rules, 25):
        hard = Knowledge.of(view)
        soft = Knowledge.of(view, soft=True)
        assert soft.required == hard.required and soft.sizes == hard.sizes
        for s in range(rules.players):
            assert soft.forbidden[s] & hard.forbidden[s] == hard.forbidden[s]
            if s != view.seat:
                assert not deal.hands[s] & soft.forbidden[s], (preset, s)
        if soft.soft_cards:
            applied += 1
    assert applied > 0


def test_soft_samples_are_possible_deals():
    rules = PRESETS["standard"]
    rng = random.Random(9)
    checked = 0
    for _deal, view in _intermediate_deal_views(rules, 6):
        know = Knowledge.of(view, soft=True)
        if not know.soft_cards:
            continue
        hands, _kitty = sample_world(view, know, rng)
        for s in range(rules.players):
            if s != view.seat:
                assert not hands[s] & know.forbidden[s]
                assert hands[s].bit_count() == view.hand_sizes[s]
        checked += 1
    assert checked > 0


def test_soft_inference_is_dropped_when_no_deal_satisfies_it(monkeypatch, make_positions):
    """A soft inference that no deal can satisfy (here: every unseen card kept
    from every seat) is not applied: the hard constraints alone remain."""
    from damepique.bots import knowledge

    monkeypatch.setattr(knowledge, "_unlikely_heavy", lambda view: [(1 << 52) - 1] * view.rules.players)
    rules = PRESETS["standard"]
    checked = 0
    for deal, seat in make_positions(rules, 44, 20):
        view = view_of(deal, seat)
        if view.phase == PASS or not view.unseen:
            continue
        assert Knowledge.of(view, soft=True) == Knowledge.of(view)
        checked += 1
    assert checked > 0


HOUSE_RULES = {
    "hearts_broken_by_discard": Rules(hearts_broken_by="discard"),
    "first_trick_discard_heart": Rules(first_trick_discard="heart"),
    "first_trick_discard_heart_black_maria": Rules(black_maria=True, first_trick_discard="heart"),
    "discard_queen_breaks_first_lead_any": Rules(
        hearts_broken_by="discard", queen_breaks_hearts=True, first_lead="any"
    ),
    "old_rules": PRESETS["old_rules"],
    "queen_zero": Rules(queen_points=0),
}


def _hand_of_points_positions(rules, seed, count):
    """Positions of deals in which one seat holds only cards barred from the
    first trick (hearts, QS, ...): the corners of the first-trick discard and
    of hearts led from a hand of only hearts, played by random bots."""
    rng = random.Random(seed)
    rnd = get_bot("random")
    barred = [c for c in rules.deck_list if rules.first_trick_mask >> c & 1 or c // 13 == 2]
    out = []
    while len(out) < count:
        mine = rng.sample(barred, min(rules.hand_size, len(barred)))
        rest = [c for c in rules.deck_list if c not in mine]
        rng.shuffle(rest)
        fill = rules.hand_size - len(mine)
        mine, rest = mine + rest[:fill], rest[fill:]
        hands = [sum(1 << c for c in rest[i * rules.hand_size : (i + 1) * rules.hand_size]) for i in range(3)]
        hands.insert(rng.randrange(4), sum(1 << c for c in mine))
        deal = Deal(rules, hands, number=rng.randrange(4), skip_pass=True)
        for _ in range(rng.randrange(40)):
            if deal.phase == DONE:
                break
            deal.play_unchecked(rnd.choose_play(view_of(deal, deal.to_act), rng))
        if deal.phase != DONE:
            out.append(deal)
    return out


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_inferences_hold_under_the_house_rules(name):
    rules = HOUSE_RULES[name]
    for deal in _hand_of_points_positions(rules, 43, 150):
        for me in range(rules.players):
            know = Knowledge.of(view_of(deal, me))
            for s in range(rules.players):
                if s != me:
                    assert not deal.hands[s] & know.forbidden[s], (name, s, deal)


def test_a_heart_lead_reads_as_only_hearts_while_hearts_are_not_broken():
    # The history (as the inference reads it, its hands aside): seat 3 takes a
    # club trick and leads 2H, the others follow in hearts and seat 2 takes it
    # with 5H, then leads 6H. Under hearts_broken_by "discard" no heart was
    # discarded, hearts are still not broken, so both heart leads show a hand
    # of only hearts; under "any" the 2H broke them: only the first one does.
    history = ["2C", "3C", "4C", "5C", "2H", "3H", "4H", "5H", "6H"]
    hearts = sum(1 << c for c in range(26, 39))
    for by, leaders in (("discard", {2, 3}), ("any", {3})):
        rules = Rules(passing=False, hearts_broken_by=by)
        view = view_of(Deal.shuffled(rules, random.Random(0)), 0)
        seats_of = [0, 1, 2, 3, 3, 0, 1, 2, 2]
        plays = tuple((seat, parse_card(c)) for seat, c in zip(seats_of, history, strict=True))
        forbidden = [0] * 5
        _infer_from_plays(dataclasses.replace(view, plays=plays), forbidden)
        assert {s for s in range(4) if forbidden[s] & ~hearts} == leaders, by
