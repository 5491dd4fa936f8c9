"""Claiming the rest: when a seat's cards must take every remaining trick,
or none of them with no point left to take, whatever the others hold and
however they play, the deal's score is settled and the deal can end at once.

The proof is read from the claiming seat's view alone (its hand, the cards
played, the voids shown, the hidden kitty), so offering a claim tells the
seat nothing it did not know. It is deliberately a sufficient condition, not
a search: a claim it cannot prove is never offered.

Every trick (``ALL``, ``plan_for``):

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
nobody else can trump in Hearts. The points left all go to the claimer.

No trick (``NONE``, ``loss_plan_for``): where the others take the tricks,
which of them takes which points would depend on how they play, so the claim
needs the score settled too: no card left to play (the claimer's, the
unseen ones, the trick on the table) carries points, the J♦ of Omnibus
included, and no points go to the last trick. Then the claimer must lose
every trick:

- in a trick someone else led, its lowest card of the suit led is under the
  trick's best so far (or it cannot follow: any card it throws loses);
- on its lead, a card under every unseen card of its suit, more of them
  unseen than a hidden kitty could hold: someone must follow, higher;
- every other card it holds is under every unseen card of its suit: a lead
  by another seat (an unseen card) beats it, and having lost it never leads.

``claim_for`` gives the ``ClaimPlan`` (read from a view by
``View.claim_plan``, from a deal's fields by ``claim_plan_of``), or
``None``; ``finish_claim`` plays the rest of a real deal by it (the others
playing their lowest legal card: no choice of theirs changes the score) and
checks the score it comes to is the one the plan said.

>>> from damepique.engine.deal import to_mask
>>> from .rules import Rules
>>> rules = Rules()
>>> hand = to_mask("AS KS AH")  # every higher card of spades and hearts is gone
>>> unseen = to_mask("2S 3H 5H 9C")
>>> [CARD_NAMES[c] for c in plan_for(rules, hand, unseen, (), (), (0, 0, 0), True) or ()]
['AS', 'KS', 'AH']
>>> plan_for(rules, to_mask("AS QS"), to_mask("KS 2H"), (), (), (0, 0, 0), True) is None
True
>>> lose = claim_for(rules, 0, to_mask("2C 3D"), to_mask("9C TC 8D JD QD 5S"), (), (), (0, 0, 0),
...                  True, (13, 0, 13, 0), None, first_trick=False, lead_card=None)
>>> lose.tricks, [CARD_NAMES[c] for c in lose.cards], lose.result.points
('none', ['2C', '3D'], (13, 0, 13, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload

from .cards import CARD_NAMES, HEARTS, JD, SUIT_MASKS, cards_of, suit_of
from .deal import DONE, PLAY, Deal, legal_mask_for
from .errors import ClaimError
from .events import DealResult, Played
from .rules import Rules

T = TypeVar("T")

ALL: Literal["all"] = "all"
NONE: Literal["none"] = "none"
Tricks = Literal["all", "none"]


@dataclass(frozen=True)
class ClaimPlan:
    """A claim ``seat``'s view proves: its cards take every trick left
    (``tricks`` ``"all"``) or none (``"none"``), and ``result`` is the deal's
    score once played out, whatever the others hold and however they play.

    ``cards``: the claimer's cards in the order it means to play them; at each
    of its turns it plays the first of them it still holds that the rules let
    it play (for ``"all"`` that is the next one: the plan's order is legal;
    for ``"none"`` the first card is the proved one, then any card loses)."""

    seat: int
    tricks: Tricks
    cards: tuple[int, ...]
    result: DealResult

    def card_now(self, legal: int) -> int:
        """The claimer's card now, among ``legal`` (the cards it may play)."""
        for card in self.cards:
            if legal >> card & 1:
                return card
        raise ClaimError("none of the claimed cards may be played now", self.seat)


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _beats_every(card: int, unseen: int) -> bool:
    """``card`` is higher than every card of its suit in ``unseen``."""
    others = unseen & SUIT_MASKS[suit_of(card)]
    return not others or card > _highest(others)


_LEAD_ORDER = (*(s for s in range(4) if s != HEARTS), HEARTS)
"""The suits in the order a claimer leads them: hearts last (they may not be broken)."""


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
    ``others``: the voids shown by every other seat (each void a whole suit's
    mask, as ``Deal.voids`` holds them)."""
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
    # A void is its whole suit's mask: the suits every other seat showed void in.
    void_everywhere = -1
    for v in others:
        void_everywhere &= v
    for suit in _LEAD_ORDER:
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        if not void_everywhere & SUIT_MASKS[suit] and not _beats_every(_lowest(mine), unseen):
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


def _scoring(rules: Rules) -> int:
    """The cards whose taking changes a score: the point cards, and the J♦ of Omnibus."""
    return rules.point_mask | (1 << JD if rules.jack_of_diamonds else 0)


def loss_plan_for(
    rules: Rules,
    hand: int,
    unseen: int,
    trick: Sequence[int],
    hearts_broken: bool,
    *,
    first_trick: bool = False,
    lead_card: int | None = None,
) -> tuple[int, ...] | None:
    """The claimer's cards, the one it plays now first, when they must lose
    every trick left and no trick left can carry points (the score is then
    settled); None when that is not certain. ``unseen``: the cards it has not
    seen (other hands, a hidden kitty).

    >>> from damepique.engine.deal import to_mask
    >>> rules = Rules()
    >>> [CARD_NAMES[c] for c in loss_plan_for(rules, to_mask("2C 3D"), to_mask("9C 8D 5S"), (), True) or ()]
    ['2C', '3D']
    >>> loss_plan_for(rules, to_mask("2C 9D"), to_mask("9C 8D 5S"), (), True) is None  # 9♦ may win
    True
    >>> loss_plan_for(rules, to_mask("2C 3D"), to_mask("9C 8D 5H"), (), True) is None  # a heart is left
    True
    """
    played = 0
    for c in trick:
        played |= 1 << c
    if rules.last_trick_points or (hand | unseen | played) & _scoring(rules):
        return None
    legal = legal_mask_for(rules, hand, trick, first_trick, lead_card, hearts_broken)
    if not legal:
        return None
    if trick:
        led = SUIT_MASKS[suit_of(trick[0])]
        if hand & led:
            card = _lowest(legal & led)
            if card > _highest(played & led):
                return None  # it might win this trick
        else:
            card = _lowest(legal)  # a discard never wins
    else:
        # A hidden kitty may hold some of the unseen cards: more of them than it could.
        hidden = rules.kitty_size if first_trick else 0
        card = -1
        for c in cards_of(legal):
            theirs = unseen & SUIT_MASKS[suit_of(c)]
            if theirs.bit_count() > hidden and _lowest(theirs) > c:
                card = c
                break
        if card < 0:
            return None
    rest = hand & ~(1 << card)
    for suit in SUIT_MASKS:
        mine, theirs = rest & suit, unseen & suit
        if mine and theirs and _highest(mine) > _lowest(theirs):
            return None
    return (card, *cards_of(rest))


def claim_for(
    rules: Rules,
    seat: int,
    hand: int,
    unseen: int,
    trick: Sequence[int],
    later: Sequence[int],
    others: Sequence[int],
    hearts_broken: bool,
    taken_points: Sequence[int],
    jack_seat: int | None,
    *,
    first_trick: bool,
    lead_card: int | None,
) -> ClaimPlan | None:
    """The claim ``seat`` may make now (its turn to play, ``hand`` not empty),
    from what it may know: the fields of ``plan_for`` and ``loss_plan_for``,
    and the points taken so far and who took the J♦ (public). None: no claim."""
    tricks: Tricks = ALL
    cards = plan_for(
        rules, hand, unseen, trick, later, others, hearts_broken, first_trick=first_trick, lead_card=lead_card
    )
    if cards is None:
        tricks = NONE
        cards = loss_plan_for(
            rules, hand, unseen, trick, hearts_broken, first_trick=first_trick, lead_card=lead_card
        )
        if cards is None:
            return None
    taken = list(taken_points)
    if tricks == ALL:
        left = hand | unseen
        for c in trick:
            left |= 1 << c
        points = rules.positive_points
        taken[seat] += sum(points[c] for c in cards_of(left & rules.point_mask)) + rules.last_trick_points
        if left >> JD & 1:
            jack_seat = seat
    score, moon = rules.score(taken, jack_seat)
    return ClaimPlan(seat, tricks, cards, DealResult(tuple(score), moon, tuple(taken), True))


def claim_plan_of(deal: Deal, seat: int) -> ClaimPlan | None:
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
    return claim_for(
        deal.rules,
        seat,
        hands[seat],
        unseen,
        trick,
        later,
        [voids[s] for s in range(n) if s != seat],
        deal.hearts_broken,
        deal.taken_points,
        deal.jack_seat,
        first_trick=not deal.tricks_played,
        lead_card=deal.lead_card,
    )


def claim_moves(deal: Deal, plan: ClaimPlan) -> Iterator[tuple[int, int]]:
    """The rest of ``deal`` as ``(seat, card)``, one at a time, each to be played
    before the next is asked for: the claimer plays by ``plan``
    (``ClaimPlan.card_now``), every other seat its lowest legal card (no choice
    of theirs changes the score). Raises ``ClaimError`` when the claimer is not
    the seat to play, or none of its claimed cards may be played."""
    if deal.to_act != plan.seat:
        raise ClaimError("it is not the claimer's turn to play", plan.seat)
    while deal.phase != DONE:
        legal = deal.legal_mask()
        if deal.to_act == plan.seat:
            yield plan.seat, plan.card_now(legal & deal.hands[plan.seat])
        else:
            yield deal.to_act, _lowest(legal)


@overload
def finish_claim(deal: Deal, plan: ClaimPlan) -> list[Played]: ...


@overload
def finish_claim(deal: Deal, plan: ClaimPlan, play: Callable[[int, int], T]) -> list[T]: ...


def finish_claim(deal: Deal, plan: ClaimPlan, play: Callable[[int, int], Any] | None = None) -> list[Any]:
    """Play the rest of ``deal`` by ``claim_moves``; what each card's play
    returned (``Deal.play``'s events, or those of ``play(seat, card)``: a game
    that logs its moves plays them through its own door). Raises
    ``ClaimError`` (``seat`` the claimer, ``card`` the last played) if a trick
    goes against the claim or the score is not the plan's (a plan not from
    ``claim_for``); to change nothing then, try it first on ``deal.copy()``."""
    claimer = plan.seat
    out: list[Any] = []
    for seat, card in claim_moves(deal, plan):
        before = deal.tricks_played
        out.append(deal.play(card, seat) if play is None else play(seat, card))
        if deal.tricks_played != before:
            winner = deal.tricks[-1][2]
            if plan.tricks == ALL and winner != claimer:
                raise ClaimError(
                    f"the claim lost a trick to seat {winner} ({CARD_NAMES[card]})", claimer, card
                )
            if plan.tricks == NONE and winner == claimer:
                raise ClaimError(
                    f"the claim to lose every trick took one ({CARD_NAMES[card]})", claimer, card
                )
    result = deal.result()
    if result != plan.result:
        raise ClaimError(f"the claim came to {list(result.points)}, not {list(plan.result.points)}", claimer)
    return out
