"""Training mode: the expert's advice on the decision in front of a seat, and
its review of a finished deal. Both run the expert's search off the loop
(``Thinker``) and only ever hand it the seat's own view."""

from __future__ import annotations

from damepique.engine import CARD_NAMES, DONE, PASS, Deal, view_of

from ..errors import Refusal
from ..protocol import VERSION, Json
from .game import Game
from .thinking import Thinker, resolve_level


async def advice(game: Game, seat: int, thinker: Thinker) -> Json:
    if seat not in game.waiting_on():
        raise Refusal("not_your_turn", "advice is given when it is your turn")
    deal = game.deal
    assert deal is not None
    options = await thinker.advise(game.view(seat))
    return {
        "v": VERSION,
        "type": "advice",
        "deal": deal.number,
        "phase": deal.phase,
        "play": len(deal.plays),
        "options": options,
    }


async def review(game: Game, seat: int, number: int, thinker: Thinker) -> Json:
    """The plays of ``seat`` in deal ``number`` that differ from the expert's choice."""
    deals = game.match.deals
    if not 0 <= number < len(deals):
        raise Refusal("bad_deal", "no such deal")
    done = deals[number]
    if done.phase != DONE:
        raise Refusal("bad_deal", "the deal is not finished")
    rules = game.rules
    deal = Deal(rules, done.dealt, done.kitty, done.number)
    if deal.phase == PASS:
        for s, p in enumerate(done.passes):
            assert p is not None
            deal.pass_cards(s, p)
    totals = game.totals_before(done)
    items = []
    for i, (who, card) in enumerate(zip(done.seats, done.plays, strict=True)):
        if who == seat:
            options = await thinker.advise(view_of(deal, seat, totals))
            best = next((a for a in options if a["best"]), None)
            if best is not None and len(best["cards"]) == 1 and best["cards"][0] != CARD_NAMES[card]:
                scores = {tuple(a["cards"]): a["score"] for a in options}
                mine, theirs = scores.get((CARD_NAMES[card],)), best["score"]
                cost = None if mine is None or theirs is None else round(mine - theirs, 2)
                items.append(
                    {
                        "trick": i // rules.players,
                        "play": i,
                        "played": CARD_NAMES[card],
                        "expert": best["cards"][0],
                        "cost": cost,
                        "trick_cards": [CARD_NAMES[c] for c in done.tricks[i // rules.players][1]],
                    }
                )
        deal.play(card)
    return {"v": VERSION, "type": "review", "deal": number, "expert": resolve_level("expert"), "items": items}


__all__ = ["advice", "review"]
