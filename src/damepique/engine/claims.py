"""Claiming the rest: when a seat's cards must take every remaining trick,
whatever the others hold and however they play, the deal can end at once.

The proof is read from the claiming seat's view alone (its hand, the cards
played, the voids shown, the hidden kitty), so offering a claim tells the
seat nothing it did not know. It is deliberately a sufficient condition, not
a search: a claim it cannot prove is never offered.

- On the claimer's turn, any card it holds of a suit must beat every card of
  that suit it has not seen (cards in other hands or a hidden kitty), unless
  every other seat has shown void in that suit (then nobody can follow).
- In a trick someone else led, the claimer must also win that trick: it plays
  its highest card of the suit led, which must beat the trick's best so far
  and, unless the seats still to play have all shown void in the suit, every
  card of the suit it has not seen.
- Its leads, in the order of the plan (the other suits first, hearts last,
  each suit from the top), must be legal even if nobody breaks hearts
  meanwhile.

Such cards win every trick: each lead is the best card left in its suit, and
nobody else can trump in Hearts. ``plan_for`` (read from a view by
``View.claim_plan``) gives the claimer's cards in the order it plays them, or
``None``; ``finish_claim`` plays the rest of a
real deal with that plan (the others playing any legal card: no choice of
theirs changes who wins a trick).

>>> from damepique.engine.deal import to_mask
>>> from .rules import Rules
>>> rules = Rules()
>>> hand = to_mask("AS KS AH")  # every higher card of spades and hearts is gone
>>> unseen = to_mask("2S 3H 5H 9C")
>>> [CARD_NAMES[c] for c in plan_for(rules, hand, unseen, (), (), (0, 0, 0), True) or ()]
['AS', 'KS', 'AH']
>>> plan_for(rules, to_mask("AS QS"), to_mask("KS 2H"), (), (), (0, 0, 0), True) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

from .cards import CARD_NAMES, HEARTS, SUIT_MASKS, cards_of, suit_of
from .deal import DONE, PLAY, Deal, legal_mask_for
from .events import Played
from .rules import Rules

T = TypeVar("T")


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _beats_every(card: int, unseen: int) -> bool:
    """``card`` is higher than every card of its suit in ``unseen``."""
    others = unseen & SUIT_MASKS[suit_of(card)]
    return not others or card > _highest(others)


def plan_for(
    rules: Rules,
    hand: int,
    unseen: int,
    trick: Sequence[int],
    later: Sequence[int],
    others: Sequence[int],
    hearts_broken: bool,
    *,
    first_trick: bool = False,
    lead_card: int | None = None,
) -> tuple[int, ...] | None:
    """The claimer's cards in the order it plays them to take every trick, or
    None when that is not certain. ``unseen``: the cards it has not seen;
    ``later``: the voids shown by each seat still to play in the current trick;
    ``others``: the voids shown by every other seat."""
    plan: list[int] = []
    if trick:
        led = SUIT_MASKS[suit_of(trick[0])]
        mine = hand & led
        if not mine:
            return None  # it cannot follow: the trick goes to someone else
        card = _highest(mine)
        if card < max(c for c in trick if 1 << c & led):
            return None
        nobody_follows = all(v & led for v in later)
        if not nobody_follows and not _beats_every(card, unseen):
            return None
        if not legal_mask_for(rules, hand, trick, first_trick, lead_card, hearts_broken) >> card & 1:
            return None
        plan.append(card)
        hand &= ~(1 << card)
        first_trick, lead_card = False, None
    leads: list[int] = []
    for suit in (*(s for s in range(4) if s != HEARTS), HEARTS):
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        if not all(v & SUIT_MASKS[suit] for v in others) and not _beats_every(_lowest(mine), unseen):
            return None
        leads.extend(sorted(cards_of(mine), reverse=True))
    # Each lead must be legal in the worst case: hearts unbroken unless they are.
    left = hand
    for card in leads:
        if not legal_mask_for(rules, left, (), first_trick, lead_card, hearts_broken) >> card & 1:
            return None
        left &= ~(1 << card)
        first_trick, lead_card = False, None
        hearts_broken = hearts_broken or suit_of(card) == HEARTS
    return (*plan, *leads)


def claim_plan_of(deal: Deal, seat: int) -> tuple[int, ...] | None:
    """``view_of(deal, seat).claim_plan()`` read from the deal's own fields,
    without building the view (a server asks it of the seat to act after every
    card). Only what ``seat`` may know goes in: the cards it has not seen are
    the other hands and a kitty still hidden, the voids are those shown."""
    if deal.phase != PLAY or deal.to_act != seat or not deal.hands[seat]:
        return None
    n = deal.players
    hands = deal.hands
    unseen = deal.kitty if not deal.tricks_played else 0
    for s in range(n):
        if s != seat:
            unseen |= hands[s]
    trick = deal.trick
    voids = deal.voids
    leader = deal.trick_leader
    later = [voids[(leader + i) % n] for i in range(len(trick) + 1, n)] if trick else []
    return plan_for(
        deal.rules,
        hands[seat],
        unseen,
        trick,
        later,
        [voids[s] for s in range(n) if s != seat],
        deal.hearts_broken,
        first_trick=not deal.tricks_played,
        lead_card=deal.lead_card,
    )


def claim_moves(deal: Deal, plan: Sequence[int]) -> Iterator[tuple[int, int]]:
    """The rest of ``deal`` as ``(seat, card)``, one at a time, each to be played
    before the next is asked for: the claimer (the seat to act now) plays
    ``plan`` in order, every other seat its lowest legal card (no choice of
    theirs changes who takes a trick). Raises ``ValueError`` when the plan runs
    out before the deal ends."""
    seat = deal.to_act
    if seat is None:
        raise ValueError("nobody is to play")
    todo = list(plan)
    while deal.phase != DONE:
        if deal.to_act == seat:
            if not todo:
                raise ValueError("the plan ran out before the deal ended")
            yield seat, todo.pop(0)
        else:
            yield deal.to_act, _lowest(deal.legal_mask())


@overload
def finish_claim(deal: Deal, plan: Sequence[int]) -> list[Played]: ...


@overload
def finish_claim(deal: Deal, plan: Sequence[int], play: Callable[[int, int], T]) -> list[T]: ...


def finish_claim(deal: Deal, plan: Sequence[int], play: Callable[[int, int], Any] | None = None) -> list[Any]:
    """Play the rest of ``deal`` by ``claim_moves``; what each card's play
    returned (``Deal.play``'s events, or those of ``play(seat, card)``: a game
    that logs its moves plays them through its own door). Raises ``ValueError``
    if the claimer loses a trick (a plan not from ``View.claim_plan`` of that
    seat); to change nothing then, try it first on ``deal.copy()``."""
    claimer = deal.to_act
    out: list[Any] = []
    for seat, card in claim_moves(deal, plan):
        before = deal.tricks_played
        out.append(deal.play(card, seat) if play is None else play(seat, card))
        if deal.tricks_played != before and (winner := deal.tricks[-1][2]) != claimer:
            raise ValueError(f"the claim lost a trick to seat {winner} ({CARD_NAMES[card]})")
    return out
