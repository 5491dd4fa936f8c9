"""Every bot level plays the house rules of issue 17 legally: what breaks
hearts, the first-trick discard of a hand of only points, the older rules,
in positions random play reaches and in deals with a hand of only point
cards (where those rules bite), and whole deals refereed by the engine."""

from __future__ import annotations

import random

import pytest

from damepique.bots.arena import play_deal
from damepique.bots.registry import get_bot
from damepique.engine import DONE, PRESETS, Deal, Rules, view_of

HOUSE_RULES = {
    "hearts_broken_by_discard": Rules(hearts_broken_by="discard"),
    "first_trick_discard_heart": Rules(first_trick_discard="heart"),
    "first_trick_discard_heart_black_maria": Rules(black_maria=True, first_trick_discard="heart"),
    "all_three_five_kitty": Rules(
        players=5, leftover="kitty", hearts_broken_by="discard", first_trick_discard="heart", tie="share"
    ),
    "old_rules": PRESETS["old_rules"],
    "hearts_any_time": PRESETS["hearts_any_time"],
}
LEVELS = ["random", "beginner", "intermediate", "expert:playouts=30"]


def deal_with_a_hand_of_points(rules: Rules, rng: random.Random, number: int) -> Deal:
    """One seat holds only cards barred from the first trick (hearts, QS, and
    KS, AS with black_maria) as far as there are enough of them."""
    barred = [c for c in rules.deck_list if rules.first_trick_mask >> c & 1 or c // 13 == 2]
    mine = rng.sample(barred, min(rules.hand_size, len(barred)))
    rest = [c for c in rules.deck_list if c not in mine]
    rng.shuffle(rest)
    fill = rules.hand_size - len(mine)
    mine, rest = mine + rest[:fill], rest[fill:]
    size = rules.hand_size
    hands = [sum(1 << c for c in rest[i * size : (i + 1) * size]) for i in range(rules.players - 1)]
    hands.insert(rng.randrange(rules.players), sum(1 << c for c in mine))
    kitty = sum(1 << c for c in rest[(rules.players - 1) * size :])
    return Deal(rules, hands, kitty, number)


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_chooses_legal_cards(name: str, level: str) -> None:
    rules = HOUSE_RULES[name]
    bot = get_bot(level)
    rng = random.Random(f"{name}:{level}")
    for k in range(2 if level.startswith("expert") else 8):
        deal = deal_with_a_hand_of_points(rules, rng, k)
        for seat in deal.passing_seats:
            deal.pass_cards(seat, bot.choose_pass(view_of(deal, seat), rng))
        while deal.phase != DONE:
            view = view_of(deal, deal.to_act)
            card = bot.choose_play(view, rng)
            assert view.legal_mask() >> card & 1, (level, name, deal, card)
            deal.play(card)  # the engine referees it too


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_whole_deals_between_all_levels(name: str) -> None:
    rules = HOUSE_RULES[name]
    n = rules.players
    bots = [
        get_bot(x) for x in ["expert:playouts=20", "intermediate", "beginner", "random", "intermediate"][:n]
    ]
    for k in range(2):
        deal = Deal.shuffled(rules, random.Random(k), k)
        play_deal(deal, bots, [random.Random(f"{k}:{s}") for s in range(n)], totals=[0] * n)
        assert deal.phase == DONE
