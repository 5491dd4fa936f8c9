"""Worlds weighed by what the other seats did: the likelihood, under the model
of play (``bots/reading.py``), of every card they played (and, with
``read_pass``, of the pass this seat received) in each world the expert
samples.

A world's weight is the product, over those actions, of

    (1 - FLOOR) * n * p(action | the seat's hand in that world) + FLOOR

where ``n`` is the number of choices the seat had in that world: the model's
probability against a seat that picks at random. A model that says nothing
(every choice as likely) gives every world the weight 1, so the sampling stays
uniform over the worlds that agree with the rules; the floor keeps every
world the rules allow possible, however unlikely the model finds its plays.

The score of a card depends on the public position only, so for each play
the strengths of all cards are computed once per decision, and a world only
changes which of them the seat could have played (its hand at that time: the
cards the world gives it now and those it played since). A seat's factor is
remembered by its hand, as worlds repeat hands late in a deal.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> from damepique.bots.knowledge import Knowledge
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
>>> for _ in range(5):
...     _ = deal.play(deal.legal_cards()[-1])
>>> view = view_of(deal, deal.to_act)
>>> hands, kitty = sample_read_world(view, Knowledge.of(view), random.Random(0), Reader.of(view))
>>> hands[view.seat] == view.hand
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from damepique.engine import PASS, View, cards_of

from .knowledge import Knowledge, sample_world
from .reading import Model, Position, default_model, legal_in, pass_strengths, play_strengths, positions

FLOOR = 0.1
"""The share of each action's likelihood that stays uniform whatever the
model says: a seat may always have played any legal card."""

READ_PASS = False
"""Whether the pass this seat received is read as well. Off: the pass model
scores a card alone, while whether a seat keeps the queen depends on the
rest of its hand (its spades), and on held-out deals of expert play reading
the pass made the worlds predict the queen's holder worse (log-loss 0.743
against 0.719 for the uniform sampler; benchmarks/log.md, issue 31)."""

PROPOSALS = 4
"""Worlds drawn for each world kept (kept in proportion to their weights:
sampling-importance resampling, one world at a time)."""

SHARPNESS = 2.0
"""The model's scores are multiplied by this before the softmax: above 1 the
reading trusts the model's preferences more than it was trained to (a
temperature below 1), at 0 it reads nothing. 2 predicted the queen's holder
best on held-out deals of expert and of IS-MCTS play (benchmarks/log.md,
issue 31, second session): the model is fitted to every decision, most of
them between low cards it cannot tell apart, which flattens the few it can."""


def _strength_list(strength: dict[int, float], sharpness: float = 1.0) -> list[float]:
    out = [0.0] * 52
    for c, s in strength.items():
        out[c] = s if sharpness == 1.0 else s**sharpness
    return out


class Reader:
    """The weight of a world for one view (see the module docstring)."""

    def __init__(
        self,
        view: View,
        model: Model,
        floor: float = FLOOR,
        read_pass: bool = READ_PASS,
        sharpness: float = SHARPNESS,
    ) -> None:
        rules = view.rules
        self.rules = rules
        self.floor = floor
        self.keep = 1.0 - floor
        me = view.seat
        n = rules.players
        unseen = view.unseen
        # Per seat: (card, strengths, cards it played from then on, position).
        self.plays: list[list[tuple[int, list[float], int, Position]]] = [[] for _ in range(n)]
        later = [0] * n
        items = list(positions(rules, view.plays))
        for at, c in reversed(items):
            s = at.seat
            later[s] |= 1 << c
            if s == me or at.forced:
                continue
            cands = (unseen | later[s]) & ~at.played
            self.plays[s].append(
                (c, _strength_list(play_strengths(model, rules, at, cands), sharpness), later[s], at)
            )
        self.source = -1
        self.received = 0
        self.source_played = 0
        self.pass_strength: list[float] = []
        if read_pass and view.phase != PASS and view.received and view.pass_offset % n:
            self.source = view.pass_source
            self.received = view.received
            self.source_played = view.played_by(self.source)
            self.pass_strength = _strength_list(pass_strengths(model, rules, rules.deck_mask), sharpness)
        self.seats = [s for s in range(n) if s != me and (self.plays[s] or s == self.source)]
        self._memo: list[dict[int, float]] = [{} for _ in range(n)]

    @classmethod
    def of(
        cls,
        view: View,
        model: Model | None = None,
        floor: float = FLOOR,
        read_pass: bool = READ_PASS,
        sharpness: float = SHARPNESS,
    ) -> Reader:
        return cls(view, model or default_model(), floor, read_pass, sharpness)

    @property
    def reads(self) -> bool:
        """Whether there is anything to read (plays by others, a pass received)."""
        return bool(self.seats)

    def weight(self, hands: Sequence[int]) -> float:
        """The weight of the world where each seat holds ``hands[seat]`` now."""
        w = 1.0
        for s in self.seats:
            memo = self._memo[s]
            h = hands[s]
            f = memo.get(h)
            if f is None:
                f = self._seat_factor(s, h)
                memo[h] = f
            w *= f
        return w

    def _seat_factor(self, s: int, hidden: int) -> float:
        rules = self.rules
        keep = self.keep
        floor = self.floor
        f = 1.0
        for c, strength, later, at in self.plays[s]:
            legal = legal_in(rules, at, hidden | later)
            if not legal & (legal - 1):
                continue
            z, k = _sum_and_count(strength, legal)
            f *= keep * k * strength[c] / z + floor
        if s == self.source:
            # The pass this seat received, card by card (each taken from what
            # was left), from the hand the source held then: approximated by
            # what it holds and played and the cards it gave, which also
            # counts the cards it received (nobody here knows which they were).
            rem = hidden | self.source_played | self.received
            strength = self.pass_strength
            for c in cards_of(self.received):
                z, k = _sum_and_count(strength, rem)
                f *= keep * k * strength[c] / z + floor
                rem &= ~(1 << c)
        return f


def _sum_and_count(strength: Sequence[float], cards: int) -> tuple[float, int]:
    """The strengths of the cards of a mask added up, and how many there are:
    a card's probability is its strength over that sum (a softmax's)."""
    z = 0.0
    k = 0
    while cards:
        b = cards & -cards
        z += strength[b.bit_length() - 1]
        k += 1
        cards ^= b
    return z, k


def sample_read_world(
    view: View, know: Knowledge, rng: random.Random, reader: Reader, proposals: int = PROPOSALS
) -> tuple[list[int], int]:
    """A world drawn as ``knowledge.sample_world`` draws one, then kept among
    ``proposals`` such draws in proportion to its weight under ``reader``."""
    first = sample_world(view, know, rng)
    if not reader.reads or proposals <= 1:
        return first
    drawn = [first]
    for _ in range(proposals - 1):
        drawn.append(sample_world(view, know, rng))
    weights = [reader.weight(h) for h, _ in drawn]
    return rng.choices(drawn, weights)[0]
