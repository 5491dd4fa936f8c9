"""Helpers for the bot tests: deals played part-way by mixed bots."""

from __future__ import annotations

import random
from collections.abc import Iterator

from damepique.bots.registry import get_bot
from damepique.engine import DONE, PASS, PRESETS, Deal, Rules, view_of

SMALL_EXPERT = "expert:playouts=40"
"""A tiny search budget: the same code paths as the default, fast enough for tests."""


def positions(rules: Rules, seed: int, count: int) -> Iterator[tuple[Deal, int]]:
    """``count`` random positions (deal, seat to act) of ``rules``: deals
    played by random bots and cut at random points, passes included. Made
    one at a time, as the caller asks for them: a test that stops at the
    first few it needs does not pay for the rest (the same positions, in
    the same order, whatever the caller takes)."""
    rng = random.Random(seed)
    rnd = get_bot("random")
    made = 0
    while made < count:
        deal = Deal.shuffled(rules, random.Random(rng.getrandbits(32)), rng.randrange(4))
        stop = rng.randrange(rules.deck // rules.players * rules.players + 1)
        if deal.phase == PASS:
            if rng.random() < 0.25:
                made += 1
                yield deal.copy(), rng.randrange(rules.players)
                continue
            for s in range(rules.players):
                deal.pass_cards(s, rnd.choose_pass(view_of(deal, s), rng))
        for _ in range(stop):
            if deal.phase == DONE:
                break
            deal.play_unchecked(rnd.choose_play(view_of(deal, deal.to_act), rng))
        if deal.phase != DONE:
            made += 1
            yield deal, deal.to_act


__all__ = ["PRESETS", "SMALL_EXPERT", "positions"]


import pytest  # noqa: E402


@pytest.fixture
def make_positions():
    return positions
