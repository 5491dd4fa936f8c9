"""The match: deal after deal until someone reaches the target.

The dealer of deal ``k`` is seat ``(k - 1) % n``; the pass direction follows
the rules' cycle; totals add each finished deal's points (moon and J♦ rules
applied). The game ends after a deal in which someone reaches the target, as
soon as one player alone has the lowest total; ties go on.

>>> import random
>>> match = Match(Rules(target=50), random.Random(7))
>>> deal = match.next_deal()
>>> deal.number, match.dealer(0)
(0, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .deal import DONE, CardsLike, Deal
from .errors import DealError
from .rules import Rules


def winner_of(totals: Sequence[int], target: int) -> tuple[bool, int | None]:
    """``(over, winner)`` for totals after a complete deal: over once someone
    reached ``target`` and one player alone has the lowest total."""
    if max(totals) < target:
        return False, None
    low = min(totals)
    lowest = [s for s, t in enumerate(totals) if t == low]
    if len(lowest) == 1:
        return True, lowest[0]
    return False, None


class Match:
    """A game of Hearts: a list of deals and the running totals."""

    def __init__(self, rules: Rules | None = None, rng: random.Random | None = None) -> None:
        self.rules = rules or Rules()
        self.rng = rng
        self.deals: list[Deal] = []

    @property
    def players(self) -> int:
        return self.rules.players

    def dealer(self, number: int) -> int:
        return (number - 1) % self.rules.players

    @property
    def deal(self) -> Deal | None:
        """The deal in progress or the last one."""
        return self.deals[-1] if self.deals else None

    @property
    def completed(self) -> list[Deal]:
        return [d for d in self.deals if d.phase == DONE]

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.rules.players
        for d in self.deals:
            if d.phase == DONE:
                for seat, p in enumerate(d.result().points):
                    totals[seat] += p
        return totals

    def _state(self) -> tuple[bool, int | None]:
        last = self.deal
        if last is None or last.phase != DONE:
            return False, None
        return winner_of(self.totals, self.rules.target)

    @property
    def over(self) -> bool:
        return self._state()[0]

    @property
    def winner(self) -> int | None:
        return self._state()[1]

    def next_deal(self, hands: Sequence[CardsLike] | None = None, kitty: CardsLike = 0) -> Deal:
        """Start the next deal, from ``hands`` or shuffled by the match's generator."""
        if self.deals and self.deals[-1].phase != DONE:
            raise DealError(f"deal {len(self.deals) - 1} is not finished")
        if self.over:
            raise DealError("the game is over")
        number = len(self.deals)
        if hands is None:
            if self.rng is None:
                raise DealError("no hands given and no random generator to shuffle with")
            deal = Deal.shuffled(self.rules, self.rng, number)
        else:
            deal = Deal(self.rules, hands, kitty, number)
        self.deals.append(deal)
        return deal
