"""Deterministic for a view and a seed; blind to the cards the seat cannot know."""

from __future__ import annotations

import random

import pytest

from damepique.bots.knowledge import Knowledge, sample_world
from damepique.bots.registry import get_bot
from damepique.engine import PASS, PRESETS, Deal, Rules, view_of

LEVELS = ["random", "beginner", "intermediate", "expert:playouts=60"]


def _choose(bot, view, seed):
    rng = random.Random(seed)
    if view.phase == PASS:
        return tuple(sorted(bot.choose_pass(view, rng)))
    return bot.choose_play(view, rng)


@pytest.mark.parametrize("name", LEVELS)
def test_same_view_same_seed_same_choice(name, make_positions):
    bot = get_bot(name)
    for deal, seat in make_positions(Rules(), 3, 12):
        view = view_of(deal, seat)
        assert _choose(bot, view, 7) == _choose(get_bot(name), view_of(deal.copy(), seat), 7)


def _other_world(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A deal with the same view for ``seat`` and other hidden cards."""
    view = view_of(deal, seat)
    hands, kitty = sample_world(view, Knowledge.of(view), rng)
    return view.world(hands, kitty)


@pytest.mark.parametrize("name", LEVELS)
@pytest.mark.parametrize(
    "preset", ["old_rules", "three_players_kitty", "five_players", "black_maria", "deck_36"]
)
def test_choice_ignores_hidden_cards(name, preset, make_positions):
    rules = PRESETS[preset].replace(passing=False)
    bot = get_bot(name)
    rng = random.Random(1)
    checked = 0
    for deal, seat in make_positions(rules, 17, 10):
        view = view_of(deal, seat)
        for _ in range(2):
            other = _other_world(deal, seat, rng)
            assert view_of(other, seat) == view  # the construction is sound
            assert _choose(bot, view_of(other, seat), 5) == _choose(bot, view, 5)
            checked += 1
    assert checked == 20


@pytest.mark.parametrize("name", LEVELS)
def test_pass_ignores_other_hands(name):
    rules = Rules()
    bot = get_bot(name)
    for k in range(4):
        deal = Deal.shuffled(rules, random.Random(k), 0)
        # Shuffle the other seats' cards among themselves.
        others = [deal.hands[s] for s in (1, 2, 3)]
        pool = []
        for h in others:
            pool += [c for c in range(52) if h >> c & 1]
        random.Random(k + 100).shuffle(pool)
        hands = [deal.hands[0]] + [sum(1 << c for c in pool[i * 13 : (i + 1) * 13]) for i in range(3)]
        other = Deal(rules, hands, 0, 0)
        assert view_of(other, 0) == view_of(deal, 0)
        assert _choose(bot, view_of(other, 0), 3) == _choose(bot, view_of(deal, 0), 3)


def _swap_world(deal: Deal, seat: int, rng: random.Random) -> Deal | None:
    """With passing: swap two unplayed, never-passed cards of one suit and one
    point value between two other seats, and replay the deal."""
    rules = deal.rules
    n = rules.players
    passed = 0
    for p in deal.passes:
        passed |= p or 0
    others = [s for s in range(n) if s != seat]
    rng.shuffle(others)
    x, y = others[0], others[1]
    pts = rules.card_points
    lead = 0 if deal.tricks_played or deal.trick else 1
    for a in range(52):
        if not deal.hands[x] >> a & 1 or passed >> a & 1 or (lead and a // 13 == 0):
            continue
        for b in range(a // 13 * 13, a // 13 * 13 + 13):
            if deal.hands[y] >> b & 1 and not passed >> b & 1 and pts[a] == pts[b]:
                dealt = list(deal.dealt)
                dealt[x] ^= (1 << a) | (1 << b)
                dealt[y] ^= (1 << a) | (1 << b)
                other = Deal(rules, dealt, deal.kitty, deal.number)
                if other.phase == PASS:
                    for s in range(n):
                        other.pass_cards(s, deal.passes[s])
                for c in deal.plays:
                    other.play(c)
                return other
    return None


@pytest.mark.parametrize("name", LEVELS)
def test_choice_ignores_hidden_cards_after_passing(name, make_positions):
    bot = get_bot(name)
    rng = random.Random(2)
    checked = 0
    for deal, seat in make_positions(Rules(), 23, 16):
        if deal.phase == PASS:
            continue
        other = _swap_world(deal, seat, rng)
        if other is None:
            continue
        assert other.hands != deal.hands
        assert view_of(other, seat) == view_of(deal, seat)
        assert _choose(bot, view_of(other, seat), 9) == _choose(bot, view_of(deal, seat), 9)
        checked += 1
    assert checked >= 6
