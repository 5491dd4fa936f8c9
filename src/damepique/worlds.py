"""Whole deals that one seat cannot tell from the real one: the cards it has
not seen drawn at random under what it knows, with a history that leads
to the same view (dealt hands, every seat's pass, the plays). What
``resample_from_infostate`` of the OpenSpiel game (``damepique.openspiel``)
replays; standard library only.

The hidden cards come from ``bots/knowledge.py``'s sampler (voids, passed
cards, the first-trick and heart-lead rules); the passes between other seats,
which no one else sees, are drawn from what their receivers hold. Every world
is checked by replaying it on a ``Deal``.

>>> import random
>>> from damepique.engine import Deal, Rules, cards_of, view_of
>>> deal = Deal.shuffled(Rules(), random.Random(3), 0)
>>> for s in range(4):
...     _ = deal.pass_cards(s, cards_of(deal.hands[s])[:3])
>>> _ = deal.play(deal.legal_cards()[0])
>>> world = sample_world_history(view_of(deal, 1), random.Random(0))
>>> view_of(world.replay(deal.rules, deal.number), 1) == view_of(deal, 1)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from damepique.bots.inference import Reader, sample_read_world
from damepique.bots.knowledge import Knowledge, sample_world
from damepique.engine import PASS, Deal, HeartsError, Rules, View, cards_of


@dataclass(frozen=True)
class World:
    """A deal's history: what was dealt, what each seat passed, the plays."""

    dealt: tuple[int, ...]
    """Each seat's cards as dealt (masks)."""
    kitty: int
    passes: tuple[int | None, ...]
    """Each seat's pass (a mask), None for a seat that has not passed."""
    pending: int
    """In the pass phase: the cards chosen so far by the seat passing now."""
    passer: int | None
    """In the pass phase: the seat passing now (seats pass in seat order)."""
    plays: tuple[int, ...]

    def replay(self, rules: Rules, number: int) -> Deal:
        """The deal at this point (``pending`` left out: a Deal takes a pass
        whole); raises the engine's error if the history is not legal."""
        deal = Deal(rules, self.dealt, self.kitty, number)
        for seat, given in enumerate(self.passes):
            if given is not None:
                deal.pass_cards(seat, given)
        for card in self.plays:
            deal.play(card)
        return deal


def sample_world_history(
    view: View,
    rng: random.Random,
    pending: int = 0,
    pass_actions: int | None = None,
    attempts: int = 200,
    reader: Reader | None = None,
) -> World:
    """A world ``view.seat`` cannot tell from the one it views (see the
    module docstring). In the pass phase, ``pending`` holds the cards this
    seat has chosen so far and ``pass_actions`` the cards given so far by
    all seats passing in seat order (default: every seat before this one
    has passed; the passes of others are hidden either way). With a
    ``reader`` (``bots.inference``), the hidden hands are drawn as the
    reading expert draws them, weighed by the others' plays and passes."""
    for _ in range(attempts):
        world = _draw_world(view, rng, pending, pass_actions, reader)
        try:
            deal = world.replay(view.rules, view.number)
        except HeartsError:
            # A constraint bots/knowledge.py does not draw (a rare corner of the
            # options) made a sampled card illegal where it was played: draw again.
            continue
        if view.phase != PASS and deal.to_act != view.to_act:
            # Before the first card under a hidden kitty, the others see who leads
            # but not with which club (it may be above one the kitty holds): a
            # world where another seat holds the lowest club dealt is drawn again.
            continue
        return world
    raise RuntimeError(f"no deal matching seat {view.seat}'s view was found in {attempts} draws")


def _draw_world(
    view: View, rng: random.Random, pending: int, pass_actions: int | None, reader: Reader | None = None
) -> World:
    rules = view.rules
    n = rules.players
    me = view.seat
    size = rules.hand_size
    offset = view.pass_offset % n
    count = rules.pass_count
    gives: list[int | None] = [None] * n
    if view.phase == PASS:
        done = me * count if pass_actions is None else pass_actions
        passer, chosen = divmod(done, count)
        unseen = list(cards_of(rules.deck_cards & ~view.dealt))
        rng.shuffle(unseen)
        dealt = [0] * n
        for s in range(n):
            if s == me:
                dealt[s] = view.dealt
                continue
            for c in unseen[:size]:
                dealt[s] |= 1 << c
            del unseen[:size]
        kitty = sum(1 << c for c in unseen)
        for s in range(passer):
            gives[s] = view.passed if s == me else _draw(dealt[s], count, rng)
        part = pending if passer == me else _draw(dealt[passer], chosen, rng)
        return World(tuple(dealt), kitty, tuple(gives), part, passer, ())
    know = Knowledge.of(view)
    if reader is not None:
        hands, kitty = sample_read_world(view, know, rng, reader)
    else:
        hands, kitty = sample_world(view, know, rng)
    if view.kitty:
        kitty = view.kitty
    held = [hands[s] | view.played_by(s) for s in range(n)]  # each hand after the exchange
    if offset:
        source = view.pass_source
        for s in range(n):
            if s == me:
                gives[s] = view.passed
            elif s == source:
                gives[s] = view.received
            else:
                # Hidden from this seat: any cards its receiver holds (or played) will do.
                gives[s] = _draw(held[(s + offset) % n], count, rng)
        got = [gives[(s - offset) % n] or 0 for s in range(n)]
        dealt = [held[s] & ~got[s] | (gives[s] or 0) for s in range(n)]
    else:
        dealt = held
    dealt[me] = view.dealt
    return World(tuple(dealt), kitty, tuple(gives), 0, None, tuple(c for _, c in view.plays))


def _draw(mask: int, k: int, rng: random.Random) -> int:
    out = 0
    for c in rng.sample(list(cards_of(mask)), k):
        out |= 1 << c
    return out
