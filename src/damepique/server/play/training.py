"""Training mode: the expert's advice on the decision in front of a seat, and
its review of a finished deal. Both run the expert's search off the loop
(``Thinker``) and only ever hand it the seat's own view; a deal's review is
prepared while it is played (``Reviews``)."""

from __future__ import annotations

from damepique.engine import DONE
from damepique.wire import (
    AdviceMessage,
    HintMessage,
    ReviewMessage,
    advice_message,
    hint_message,
    review_message,
)

from ..errors import Refusal
from .game import Game
from .reviews import Reviews
from .thinking import Thinker, resolve_level


async def advice(game: Game, seat: int, reviews: Reviews) -> AdviceMessage:
    """The expert's word on each option in front of ``seat``; from now on its
    decisions are reviewed as they are made (``Reviews.train``)."""
    if seat not in game.waiting_on():
        raise Refusal("not_your_turn", "advice is given when it is your turn")
    reviews.train(game, seat)
    deal = game.deal
    assert deal is not None
    options = await reviews.thinker.advise(game.view(seat))
    return advice_message(deal.number, deal.phase, len(deal.plays), options)


async def hint(game: Game, seat: int, thinker: Thinker) -> HintMessage:
    """The best card now and why (the runner has counted it)."""
    deal = game.deal
    assert deal is not None
    answer = await thinker.hint(game.view(seat))
    return hint_message(deal.number, deal.phase, len(deal.plays), answer["advice"], answer["comparison"])


async def review(game: Game, seat: int, number: int, reviews: Reviews) -> ReviewMessage:
    """The three costliest choices of ``seat`` in deal ``number``, each with the
    position, the better card, and what separates them (``bots.advice.review``,
    prepared while the deal was played: ``Reviews``)."""
    deals = game.match.deals
    if not 0 <= number < len(deals):
        raise Refusal("bad_deal", "no such deal")
    if deals[number].phase != DONE:
        raise Refusal("bad_deal", "the deal is not finished")
    reviews.train(game, seat)
    items = await reviews.review(game, seat, number)
    return review_message(number, resolve_level("expert"), items)


__all__ = ["advice", "hint", "review"]
