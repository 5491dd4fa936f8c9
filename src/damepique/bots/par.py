"""Games of a fixed number of deals, and the par: bots at every seat.

The daily deal (``docs/daily.md``) and a club's duplicate tournament play a
fixed number of deals, not a game to a target: everybody plays every deal,
so results compare deal by deal. ``FixedMatch`` is a ``Match`` that is over
once its ``deals`` are played (its target never ends it sooner), won by the
fewest points.

The *par* of a set of sealed deals is what the computer players make of
them with a bot in every seat: ``play_par`` plays them, each bot's choice
seeded from the deals' secret (``derived_seed``, apart from the deals'
streams), so anyone with the secret gets the same game move for move
(``damepique daily``).

>>> from damepique.engine import Rules
>>> secret = bytes(range(32))
>>> match = play_par(Rules(), 2, secret, "intermediate")
>>> len(match.deals), match.over, sum(match.totals)
(2, True, 52)
>>> play_par(Rules(), 2, secret, "intermediate") == match
True
"""

from __future__ import annotations

import random
from typing import Any

from damepique.engine import DONE, PASS, Match, Rules, dump_match, view_of
from damepique.engine.fairness import derived_seed, fairness_json, sealed_deal

from .registry import get_bot

DAILY_RULES = Rules()
"""The daily deal's rules: the standard game (a target of 100 cannot be
reached before the fourth deal ends: 26 points a deal at most)."""
DAILY_DEALS = 4
"""Deals in the daily game."""


class FixedMatch(Match):
    """A match of exactly ``deals`` deals: over when the last is played,
    whatever the totals; the winners are the seats with the fewest points.

    >>> m = FixedMatch(Rules(), 1)
    >>> m.over, m.limit
    (False, 1)
    """

    def __init__(self, rules: Rules, deals: int) -> None:
        if deals < 1:
            raise ValueError("a fixed match has one deal at least")
        super().__init__(rules)
        self.limit = deals

    @property
    def winners(self) -> tuple[int, ...]:
        last = self.deal
        if last is None or last.phase is not DONE or len(self.deals) < self.limit:
            return ()
        totals = self.totals
        low = min(totals)
        return tuple(s for s, t in enumerate(totals) if t == low)


def par_seed(secret: bytes, deal: int, step: int, seat: int) -> int:
    """The seed of the par bot in ``seat`` at its ``step``-th decision of ``deal``."""
    return derived_seed(secret, f"par:{deal}:{step}:{seat}") & 0xFFFFFFFF


def play_par(rules: Rules, deals: int, secret: bytes, level: str = "expert") -> FixedMatch:
    """The ``deals`` sealed deals of ``secret`` played by ``level`` at every seat."""
    bot = get_bot(level)
    match = FixedMatch(rules, deals)
    for number in range(deals):
        dealt = sealed_deal(rules, secret, number)
        deal = match.next_deal(dealt.dealt, dealt.kitty)
        step = 0
        if deal.phase == PASS:
            totals = match.totals
            choices = []
            for seat in deal.passing_seats:
                view = view_of(deal, seat, totals)
                choices.append(
                    (seat, bot.choose_pass(view, random.Random(par_seed(secret, number, 0, seat))))
                )
            for seat, cards in choices:
                deal.pass_cards(seat, list(cards))
            step = 1
        totals = match.totals  # the finished deals only: the totals before this one
        while deal.phase is not DONE:
            seat = deal.to_act
            view = view_of(deal, seat, totals)
            card = bot.choose_play(view, random.Random(par_seed(secret, number, step, seat)))
            deal.play(card, seat)
            step += 1
    return match


NAMES = {3: ["South", "West", "East"], 4: ["South", "West", "North", "East"]}


def par_record(rules: Rules, deals: int, secret: bytes, level: str = "expert") -> dict[str, Any]:
    """The par game's ``damepique-game/1`` record, its secret revealed: what
    ``damepique verify`` checks the day after."""
    match = play_par(rules, deals, secret, level)
    names = NAMES.get(rules.players, [f"{level} {s + 1}" for s in range(rules.players)])
    record = dump_match(match, [f"{n} ({level})" for n in names])
    record["fairness"] = fairness_json(secret, revealed=True)
    return record


def points_by_deal(match: Match, seat: int) -> list[int]:
    """The points ``seat`` took in each finished deal."""
    return [d.result().points[seat] for d in match.deals if d.phase is DONE]


__all__ = [
    "DAILY_DEALS",
    "DAILY_RULES",
    "FixedMatch",
    "par_record",
    "par_seed",
    "play_par",
    "points_by_deal",
]
