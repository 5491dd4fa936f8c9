"""The one interface every computer player implements.

A bot receives a seat's ``View`` (never a hidden card: it is never handed
one) and a seeded ``random.Random``, and returns a pass or a play. For a given
view and generator state the choice is always the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from damepique.engine import View


@dataclass(frozen=True)
class Advice:
    """One option's estimate, for the training mode.

    ``cards`` is one card (a play) or the cards of a pass; ``score`` the
    expected points for this seat (lower is better) or payoff where stated;
    ``stderr`` its standard error; ``reason`` a short code the UI translates
    (e.g. ``"ducks"``, ``"keeps_queen_guarded"``, ``"voids_diamonds"``,
    ``"stops_moon"``); ``mistake`` when clearly worse than the best and
    costly; ``cost`` what it loses against the best, in expected payoff
    (0 for the best); ``outcomes`` what the play-outs say happens with it
    (``queen``, ``hearts``, ``moon_by_self``, ``moon_by_other``: see
    ``bots.advice``).
    """

    cards: tuple[int, ...]
    score: float
    stderr: float
    reason: str
    mistake: bool = False
    best: bool = False
    extra: dict[str, float] = field(default_factory=dict)
    outcomes: dict[str, float] = field(default_factory=dict)
    cost: float = 0.0


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        """The cards to pass (``view.rules.pass_count`` of them) from ``view.hand``."""
        ...

    def choose_play(self, view: View, rng: random.Random) -> int:
        """One card of ``view.legal_mask()``."""
        ...
