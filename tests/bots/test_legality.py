"""Every bot, every preset: only legal passes and plays, in many situations."""

from __future__ import annotations

import random

import pytest

from damepique.bots.arena import play_deal
from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, PRESETS, Deal, cards_of, view_of

HEURISTIC = ["random", "beginner", "intermediate"]


def _check_choice(bot, deal, seat, rng):
    view = view_of(deal, seat)
    if deal.phase == PASS:
        cards = bot.choose_pass(view, rng)
        assert len(cards) == deal.rules.pass_count
        assert len(set(cards)) == len(cards)
        assert all(view.hand >> c & 1 for c in cards)
        return
    card = bot.choose_play(view, rng)
    assert view.legal_mask() >> card & 1, (bot.name, deal, card)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", HEURISTIC)
def test_rule_bots_only_choose_legal_cards(preset, name, make_positions):
    rules = PRESETS[preset]
    bot = get_bot(name)
    rng = random.Random(11)
    for deal, seat in make_positions(rules, hash((preset, name)) & 0xFFFF, 150):
        _check_choice(bot, deal, seat, rng)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_full_deals_between_all_levels(preset):
    """Whole deals (the engine referees every card) with every level seated."""
    rules = PRESETS[preset]
    n = rules.players
    names = ["expert:playouts=30", "intermediate", "beginner", "random", "intermediate"][:n]
    bots = [get_bot(x) for x in names]
    for k in range(3):
        deal = Deal.shuffled(rules, random.Random(k), k)
        rngs = [random.Random(f"{k}:{s}") for s in range(n)]
        play_deal(deal, bots, rngs, totals=[0] * n)
        assert deal.phase == DONE
        taken = 0
        for t in deal.taken:
            taken |= t
        assert taken == rules.deck_cards


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_expert_only_chooses_legal_cards(preset, make_positions):
    rules = PRESETS[preset]
    bot = get_bot("expert:playouts=40")
    rng = random.Random(5)
    for deal, seat in make_positions(rules, 99, 12):
        _check_choice(bot, deal, seat, rng)


def test_expert_in_game_mode_uses_totals():
    rules = PRESETS["short"]
    deal = Deal.shuffled(rules, random.Random(2), 0)
    bot = get_bot("expert:playouts=40")
    for s in range(4):
        deal.pass_cards(s, bot.choose_pass(view_of(deal, s, (45, 10, 20, 30)), random.Random(s)))
    while deal.phase != DONE:
        view = view_of(deal, deal.to_act, (45, 10, 20, 30))
        deal.play(bot.choose_play(view, random.Random(1)))
    assert len(cards_of(deal.taken[0] | deal.taken[1] | deal.taken[2] | deal.taken[3])) == 52
