"""Helpers for the bot tests: deals played part-way by mixed bots."""

from __future__ import annotations

import random

from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, PRESETS, Deal, Rules, view_of

SMALL_EXPERT = "expert:playouts=40"
"""A tiny search budget: the same code paths as the default, fast enough for tests."""


def positions(rules: Rules, seed: int, count: int):
    """``count`` random positions (deal, seat to act) of ``rules``: deals
    played by random bots and cut at random points, passes included."""
    rng = random.Random(seed)
    rnd = get_bot("random")
    out = []
    while len(out) < count:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), rng.randrange(4))
        stop = rng.randrange(rules.deck // rules.players * rules.players + 1)
        if deal.phase == PASS:
            if rng.random() < 0.25:
                out.append((deal.copy(), rng.randrange(rules.players)))
                continue
            for s in range(rules.players):
                deal.pass_cards(s, rnd.choose_pass(view_of(deal, s), rng))
        for _ in range(stop):
            if deal.phase == DONE:
                break
            deal.play_unchecked(rnd.choose_play(view_of(deal, deal.to_act), rng))
        if deal.phase != DONE:
            out.append((deal, deal.to_act))
    return out


__all__ = ["PRESETS", "SMALL_EXPERT", "positions"]


import pytest  # noqa: E402


@pytest.fixture
def make_positions():
    return positions
