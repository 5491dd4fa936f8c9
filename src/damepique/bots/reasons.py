"""Why a card or a pass: one reason code per option, true of the position.

Each code has a definition in ``docs/bots.md`` (the table there is the
contract, and ``tests/bots/test_reasons.py`` checks every code given in
thousands of random positions of every preset against it); its words in
English and French are the page's (``reason_CODE`` in ``web/strings/en.js``
and ``fr.js``, read by ``reason_words``). The first code whose definition holds, in
the order of ``REASONS``, is the one given (``shoots_moon`` comes from the
search, not from the position: the advice gives it to the best card of a
moon attempt).

A few words used in the definitions:

- a seat is *on course for the moon* when it alone has taken points, at
  least a quarter of the moon's (``tactics.moon_threat``);
- a trick is *safe from* a seat when that seat cannot end up winning it: it
  is won by another seat, and the seat has already played to it, or no seat
  is left to play, or the winning card beats every unseen card of the led
  suit;
- a card *beats most unseen cards of its suit* when at least as many unseen
  cards of its suit are below it as above it (with none unseen: as many of
  the seat's own cards of its suit).

>>> from damepique.engine import Deal, Rules, view_of, parse_card
>>> import random
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
>>> reason_for_play(view_of(deal, deal.to_act), parse_card("2C"))
'only_card'
"""

from __future__ import annotations

from damepique.engine import HEARTS_MASK, SUIT_MASKS, SUIT_NAMES, View, cards_of
from damepique.words import has, phrase

from .tactics import big_cards, moon_threat, trick_state

REASONS = (
    "only_card",
    "shoots_moon",
    "stops_moon",
    "dumps_queen",
    "gives_points",
    "takes_jack",
    "takes_points",
    "wins_trick",
    "follows_high",
    "smokes_queen",
    "unguards_queen",
    "ducks",
    "follows_low",
    "follows_under",
    "leads_hearts",
    "voids_clubs",
    "voids_diamonds",
    "voids_hearts",
    "voids_spades",
    "leads_low",
    "leads_high",
    "discards_high",
    "discards_low",
    "passes_queen",
    "passes_high_spades",
    "keeps_queen_guarded",
    "passes_high_hearts",
    "passes_high_cards",
    "passes_low_cards",
)
"""Every reason code, in the order they are tried."""

HIGH_RANK = 8
"""Rank index of the ten (0 is the two): a heart passed from here up is high."""


def reason_words(code: str, lang: str = "en", phase: str = "play") -> str:
    """The words of a reason code: the page's ``reason_CODE`` (``web/strings``,
    read by ``damepique.words``; no copy here). A pass that voids a suit gives
    all of it and reads better in the plural: ``phase="pass"`` says
    ``reason_pass_CODE`` where the page has one.

    >>> reason_words("ducks", "fr")
    'passe sous la carte maîtresse'
    >>> reason_words("voids_clubs", "en", phase="pass")
    'empties its clubs'
    """
    if phase == "pass" and has(f"reason_pass_{code}", lang):
        return phrase(f"reason_pass_{code}", lang)
    return phrase(f"reason_{code}", lang)


def beats_most(view: View, card: int) -> bool:
    """At least as many unseen cards of its suit below ``card`` as above it;
    with no unseen card of its suit, at least as many of the seat's own cards
    of that suit below it as above it (so that the lowest of its spades is
    never called high because every other spade has been played)."""
    suit = view.unseen & SUIT_MASKS[card // 13]
    if not suit:
        suit = view.hand & SUIT_MASKS[card // 13] & ~(1 << card)
    below = (suit & ((1 << card) - 1)).bit_count()
    above = (suit >> (card + 1)).bit_count()
    return below >= above


def safe_from(view: View, trick: list[int], threat: int) -> bool:
    """The trick ``trick`` (cards in playing order from ``view.trick_leader``
    or, when leading, from this seat) cannot end up with ``threat``."""
    n = view.rules.players
    leader = view.trick_leader if view.trick else view.seat
    led = SUIT_MASKS[trick[0] // 13]
    win = trick[0]
    pos = 0
    for i, c in enumerate(trick):
        if led >> c & 1 and c > win:
            win, pos = c, i
    winner = (leader + pos) % n
    if winner == threat:
        return False
    played = {(leader + i) % n for i in range(len(trick))}
    if threat in played or len(trick) == n:
        return True
    return not view.unseen & ((led >> (win + 1)) << (win + 1))


def reason_for_play(view: View, card: int) -> str:
    """The code for what playing ``card`` does now (``docs/bots.md``)."""
    rules = view.rules
    pts = rules.card_points
    big = big_cards(rules)
    hand = view.hand
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:
        return "only_card"
    suit_mask = SUIT_MASKS[card // 13]
    suit_name = SUIT_NAMES[card // 13]
    last_of_suit = not hand & suit_mask & ~(1 << card)
    threat = moon_threat(view)
    if threat == view.seat:
        threat = None
    trick = list(view.trick)
    if threat is not None and _stops(view, trick, card, threat):
        return "stops_moon"
    if not trick:
        big_out = view.unseen & big & suit_mask
        if big_out:
            low_big = (big_out & -big_out).bit_length() - 1
            if card < low_big and not hand & suit_mask & ~((1 << low_big) - 1):
                return "smokes_queen"
        if _unguards(hand, big, card):
            return "unguards_queen"
        if HEARTS_MASK >> card & 1:
            return "leads_hearts"
        if last_of_suit:
            return f"voids_{suit_name}"
        return "leads_high" if beats_most(view, card) else "leads_low"
    led, win_card, _win_seat, trick_pts = trick_state(view)
    n = rules.players
    last = len(trick) == n - 1
    if not led >> card & 1:
        # A discard.
        if big >> card & 1:
            return "dumps_queen"
        if pts[card] > 0:
            return "gives_points"
        if last_of_suit:
            return f"voids_{suit_name}"
        return "discards_high" if beats_most(view, card) else "discards_low"
    if card > win_card:
        sure = last or not view.unseen & ((led >> (card + 1)) << (card + 1))
        total = trick_pts + pts[card]
        has_jack = any(pts[c] < 0 for c in (*trick, card))
        if sure and has_jack:
            return "takes_jack"
        if sure and any(pts[c] > 0 for c in (*trick, card)):
            return "takes_points"
        if last and total == 0:
            return "wins_trick"
        return "follows_high"
    if big >> card & 1:
        return "dumps_queen"
    if _unguards(hand, big, card):
        return "unguards_queen"
    follow = hand & led
    below = follow & ((1 << win_card) - 1)
    if card == below.bit_length() - 1:
        return "ducks"
    if card == (follow & -follow).bit_length() - 1:
        return "follows_low"
    return "follows_under"


def _stops(view: View, trick: list[int], card: int, threat: int) -> bool:
    """With ``card``, a seat other than ``threat`` surely takes points on this
    trick, where without it that was not sure."""
    pts = view.rules.card_points
    after = [*trick, card]
    if not any(pts[c] > 0 for c in after) or not safe_from(view, after, threat):
        return False
    return not (trick and any(pts[c] > 0 for c in trick) and safe_from(view, trick, threat))


def _unguards(hand: int, big: int, card: int) -> bool:
    """Plays a card of a suit whose heavy card it holds (not that card),
    leaving the heavy card with one other card of its suit or none."""
    suit = SUIT_MASKS[card // 13]
    mine = hand & big & suit
    if not mine or big >> card & 1:
        return False
    return (hand & suit & ~big & ~(1 << card)).bit_count() <= 1


def reason_for_pass(view: View, cards: tuple[int, ...]) -> str:
    """The code for what passing ``cards`` does (``docs/bots.md``)."""
    rules = view.rules
    hand = view.hand
    mask = 0
    for c in cards:
        mask |= 1 << c
    big = big_cards(rules)
    if mask & big:
        return "passes_queen"
    for s in range(4):
        if hand & SUIT_MASKS[s] and not hand & SUIT_MASKS[s] & ~mask:
            return f"voids_{SUIT_NAMES[s]}"
    spades_big = big & SUIT_MASKS[3]
    if spades_big:
        low_big = (spades_big & -spades_big).bit_length() - 1
        if mask & SUIT_MASKS[3] & ~((1 << low_big) - 1):
            return "passes_high_spades"
    kept = hand & ~mask
    for s in range(4):
        if kept & big & SUIT_MASKS[s] and (kept & SUIT_MASKS[s] & ~big).bit_count() >= 3:
            return "keeps_queen_guarded"
    if any(HEARTS_MASK >> c & 1 and c % 13 >= HIGH_RANK for c in cards):
        return "passes_high_hearts"
    if sum(c % 13 for c in cards) >= HIGH_RANK * len(cards):
        return "passes_high_cards"
    return "passes_low_cards"


__all__ = [
    "REASONS",
    "beats_most",
    "cards_of",
    "reason_for_pass",
    "reason_for_play",
    "reason_words",
    "safe_from",
]
