"""The match: deal after deal until someone reaches the target.

The dealer of deal ``k`` is seat ``(k - 1) % n``; the pass direction follows
the rules' cycle; totals add each finished deal's points (moon and J♦ rules
applied). The game ends after a deal in which someone reaches the target, as
soon as one player alone has the lowest total; ties go on (with ``tie:
"share"`` it ends all the same, and every seat tied for the lowest total wins).

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


def winners_of(totals: Sequence[int], target: int, tie: str = "play_on") -> tuple[int, ...]:
    """The winning seats for totals after a complete deal, or ``()`` while the
    game goes on: once someone reached ``target``, the seat alone with the
    lowest total; a tie for it plays on (``tie="play_on"``) or wins together
    (``"share"``).

    >>> winners_of([40, 40, 60, 100], 100), winners_of([40, 40, 60, 100], 100, "share")
    ((), (0, 1))
    """
    if max(totals) < target:
        return ()
    low = min(totals)
    lowest = tuple(s for s, t in enumerate(totals) if t == low)
    if len(lowest) == 1 or tie == "share":
        return lowest
    return ()


def winner_of(totals: Sequence[int], target: int, tie: str = "play_on") -> tuple[bool, int | None]:
    """``(over, winner)`` for totals after a complete deal (see ``winners_of``);
    ``winner`` is None while the game goes on and when several seats share the win."""
    winners = winners_of(totals, target, tie)
    return bool(winners), winners[0] if len(winners) == 1 else None


class Match:
    """A game of Hearts: a list of deals and the running totals.

    ``deals``: the deals played so far (each finished but perhaps the last),
    checked as ``next_deal`` would. Two matches are equal when their rules and
    deals are; the ``repr`` pastes back (without the generator, whose state a
    repr cannot write):

    >>> from damepique.engine import cards_of
    >>> match = Match(Rules(target=50), random.Random(7))
    >>> deal = match.next_deal()
    >>> _ = deal.pass_cards(0, cards_of(deal.hands[0])[:3])
    >>> eval(repr(match)) == match, repr(match)[:30]
    (True, 'Match(Rules(target=50), deals=')
    """

    def __init__(
        self, rules: Rules | None = None, rng: random.Random | None = None, *, deals: Sequence[Deal] = ()
    ) -> None:
        self.rules = rules or Rules()
        self.rng = rng
        self.deals: list[Deal] = []
        for deal in deals:
            self._check_next()
            if deal.rules != self.rules or deal.number != len(self.deals):
                raise DealError(f"deal {len(self.deals)} is not the next deal of this match")
            self.deals.append(deal)

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
        return [d for d in self.deals if d.phase is DONE]

    @property
    def totals(self) -> list[int]:
        totals = [0] * self.rules.players
        for d in self.deals:
            if d.phase is DONE:
                for seat, p in enumerate(d.result().points):
                    totals[seat] += p
        return totals

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several only with ``tie:
        "share"``), else ``()``."""
        last = self.deal
        if last is None or last.phase is not DONE:
            return ()
        return winners_of(self.totals, self.rules.target, self.rules.tie)

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def winner(self) -> int | None:
        """The one winning seat once the game is over; None before, and when the win is shared."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def next_deal(self, hands: Sequence[CardsLike] | None = None, kitty: CardsLike = 0) -> Deal:
        """Start the next deal, from ``hands`` or shuffled by the match's generator."""
        self._check_next()
        number = len(self.deals)
        if hands is None:
            if self.rng is None:
                raise DealError("no hands given and no random generator to shuffle with")
            deal = Deal.shuffled(self.rules, self.rng, number)
        else:
            deal = Deal(self.rules, hands, kitty, number)
        self.deals.append(deal)
        return deal

    def _check_next(self) -> None:
        if self.deals and self.deals[-1].phase is not DONE:
            raise DealError(f"deal {len(self.deals) - 1} is not finished")
        if self.over:
            raise DealError("the game is over")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.rules == other.rules and self.deals == other.deals

    __hash__ = None  # type: ignore[assignment]  # a match changes as it is played

    def __repr__(self) -> str:
        """``Match(rules, deals=[...])``: evaluated (with ``Match``, ``Deal`` and
        ``Rules`` in scope), an equal match."""
        if not self.deals:
            return f"Match({self.rules!r})"
        return f"Match({self.rules!r}, deals=[{', '.join(repr(d) for d in self.deals)}])"
