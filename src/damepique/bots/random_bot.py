"""The ``random`` level: uniformly random legal choices."""

from __future__ import annotations

import random

from damepique.engine import View, cards_of


class RandomBot:
    name = "random"

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        hand = list(cards_of(view.hand))
        return tuple(sorted(rng.sample(hand, view.rules.pass_count)))

    def choose_play(self, view: View, rng: random.Random) -> int:
        legal = cards_of(view.legal_mask())
        return legal[rng.randrange(len(legal))]
