"""Rule-based levels: ``intermediate`` (sound play) and ``beginner``.

The intermediate player passes for voids and for the queen's safety, ducks,
dumps the queen and high hearts when void, leads low spades to smoke the
queen out, and defends against a moon. The beginner follows simpler rules and
makes the mistakes people make: it passes its highest cards whatever they
are, leads its lowest card, and now and then plays without thinking.

Both decide from the view alone, in well under a millisecond.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(), random.Random(3))
>>> bot = IntermediateBot()
>>> cards = bot.choose_pass(view_of(deal, 0), random.Random(0))
>>> len(cards)
3
"""

from __future__ import annotations

import random

from damepique.engine import HEARTS_MASK, QS, SUIT_MASKS, Rules, View, cards_of

from .tactics import big_cards, highest, highest_rank, lowest, lowest_rank, moon_threat, trick_state

SPADES_MASK = SUIT_MASKS[3]


# -- passing -------------------------------------------------------------------


def intermediate_pass(view: View) -> tuple[int, ...]:
    """Pass the queen when short of spades, the high spades that would catch
    it, then void a short side suit, then the most dangerous high cards."""
    return pass_from_hand(view.rules, view.hand)


def pass_from_hand(rules: Rules, hand: int) -> tuple[int, ...]:
    count = rules.pass_count
    scores = danger_scores(rules, hand)
    chosen = 0
    # Mandatory: cards with an overwhelming reason to go.
    for c in sorted(scores, key=lambda c: -scores[c]):
        if scores[c] >= 80 and chosen.bit_count() < count:
            chosen |= 1 << c
    left = count - chosen.bit_count()
    if left:
        # Void the shortest side suit (no points in it) that fits in the slots left.
        best_suit = None
        best_len = 99
        big = big_cards(rules)
        for s in range(4):
            part = hand & SUIT_MASKS[s] & ~chosen
            if not part or part & rules.point_mask or s == 2:
                continue
            if SUIT_MASKS[s] & big:
                continue
            length = part.bit_count()
            if length <= left and length < best_len:
                # Keeping the lowest club of the suit that leads the first trick
                # is no reason not to void it: it goes too.
                best_suit, best_len = s, length
        if best_suit is not None:
            chosen |= hand & SUIT_MASKS[best_suit]
    for c in sorted(scores, key=lambda c: (-scores[c], c)):
        if chosen.bit_count() >= count:
            break
        chosen |= 1 << c
    return cards_of(chosen)


def danger_scores(rules: Rules, hand: int) -> dict[int, float]:
    """A score per card: how badly it wants to leave the hand."""
    pts = rules.card_points
    big = big_cards(rules)
    out: dict[int, float] = {}
    low_rank = 0 if rules.deck == 52 else 4
    for s in range(4):
        suit = hand & SUIT_MASKS[s]
        length = suit.bit_count()
        big_in_suit = big & SUIT_MASKS[s]
        for c in cards_of(suit):
            r = c - 13 * s - low_rank  # 0 for the lowest card of the deck
            score = float(r)
            if pts[c] < 0:
                score = -50.0  # the J♦: keep it
            elif big >> c & 1:
                # A heavy card: keep it only with enough low guards in its suit.
                guards = (suit & ((1 << c) - 1)).bit_count()
                score = 100.0 + pts[c] if guards < 4 else 5.0
            elif big_in_suit and c > lowest(big_in_suit):
                # Above a heavy card (AS, KS over the queen): dangerous unless we
                # hold the heavy card ourselves with guards, or the suit is long.
                if hand & big_in_suit:
                    score = 20.0 + r
                elif length >= 5:
                    score = 15.0 + r
                else:
                    score = 90.0 + r
            elif s == 2 or pts[c] > 0:
                score = 25.0 + 2 * r if r >= 7 else float(r)
            else:
                score = float(r) + (12.0 if length <= 2 else 0.0)
            out[c] = score
    return out


# -- playing -------------------------------------------------------------------


def intermediate_play(view: View) -> int:
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:
        return lowest(legal)
    if not view.trick:
        return _lead(view, legal)
    return _follow(view, legal)


def _lead(view: View, legal: int) -> int:
    rules = view.rules
    unseen = view.unseen
    hand = view.hand
    big = big_cards(rules)
    threat = moon_threat(view)
    if threat is not None and threat != view.seat:
        hearts = legal & HEARTS_MASK
        if hearts:
            return highest(hearts)  # take a heart ourselves or make the shooter win a cheap trick
    # Smoke out a heavy card: lead spades below it when we hold none above it.
    for s in range(4):
        big_out = unseen & big & SUIT_MASKS[s]
        if not big_out:
            continue
        low_big = lowest(big_out)
        ours = legal & SUIT_MASKS[s]
        below = ours & ((1 << low_big) - 1)
        above = hand & SUIT_MASKS[s] & ~((1 << low_big) - 1)
        if below and not above and below.bit_count() >= 1:
            return highest(below)
    # Otherwise lead the card most likely to be beaten, from a suit where
    # a heavy card cannot fall on us.
    best = -1
    best_score = 1e9
    for s in range(4):
        ours = legal & SUIT_MASKS[s]
        if not ours:
            continue
        c = lowest(ours)
        out = unseen & SUIT_MASKS[s]
        lower = (out & ((1 << c) - 1)).bit_count()
        higher = (out & ~((1 << (c + 1)) - 1)).bit_count()
        score = lower * 3.0 - higher
        if not higher:
            score += 50  # we would win it for sure
        if hand & big & SUIT_MASKS[s]:
            score += 40  # leading the suit of our own heavy card invites trouble
        elif big & SUIT_MASKS[s] & unseen and c > lowest(big & SUIT_MASKS[s] & unseen):
            score += 60
        if s == 2:
            score += 4  # hearts: fine when low, but not first choice
        if rules.card_points[c] > 0:
            score += rules.card_points[c]
        if score < best_score:
            best, best_score = c, score
    return best if best >= 0 else lowest_rank(legal)


def _follow(view: View, legal: int) -> int:
    rules = view.rules
    pts = rules.card_points
    point_mask = rules.point_mask
    big = big_cards(rules)
    led, win_card, win_seat, trick_pts = trick_state(view)
    n = rules.players
    last = len(view.trick) == n - 1
    threat = moon_threat(view)
    follow = legal & led
    unseen = view.unseen
    if follow:
        below = follow & ((1 << win_card) - 1)
        above = follow & ~below
        if threat is not None and threat != view.seat and win_seat == threat and above:
            pool = above & ~big or above
            if trick_pts > 0 or not below:
                return highest(pool)
        first_safe = view.first_trick and rules.no_points_first_trick and rules.kitty_size == 0
        if first_safe and trick_pts <= 0:
            safe = follow & ~point_mask
            if safe:
                return highest(safe)
        if last and trick_pts <= 0:
            safe = follow & ~point_mask
            if safe:
                return highest(safe)
        if trick_pts < 0 and above:
            # The J♦ is on the trick: win it if that costs no points.
            safe = above & ~point_mask
            if safe and (last or not unseen & led & ~((1 << highest(safe)) - 1)):
                return highest(safe)
        if below:
            return highest(below)
        if last:
            safe = follow & ~point_mask
            return highest(safe) if safe else lowest(follow)
        # We have to go over; heavy cards of this suit still out may fall on us.
        if big & led & unseen:
            return lowest(follow & ~big) if follow & ~big else lowest(follow)
        safe = follow & ~big
        return highest(safe) if safe else lowest(follow)
    # Void in the led suit: discard.
    if threat is not None and threat != view.seat and win_seat == threat:
        plain = legal & ~point_mask
        if plain:
            return highest_rank(plain)
    heavy = legal & big
    if heavy:
        return max(cards_of(heavy), key=lambda c: (pts[c], c))
    for s in range(4):
        danger = legal & SUIT_MASKS[s] & ~big
        big_out = big & SUIT_MASKS[s] & unseen
        if danger and big_out:
            above = danger & ~((1 << lowest(big_out)) - 1)
            if above:
                return highest(above)
    hearts = legal & point_mask & ~big
    if hearts:
        return max(cards_of(hearts), key=lambda c: (pts[c], c))
    keep = legal & ~_negative_mask(view)
    pool = keep or legal
    # The highest card, from the shortest suit on ties, to make a void.
    best = -1
    best_key: tuple[int, int] = (-1, 0)
    for s in range(4):
        part = pool & SUIT_MASKS[s]
        if part:
            c = highest(part)
            key = (c - 13 * s, -(view.hand & SUIT_MASKS[s]).bit_count())
            if key > best_key:
                best, best_key = c, key
    return best


def _negative_mask(view: View) -> int:
    pts = view.rules.card_points
    m = 0
    for c in range(52):
        if pts[c] < 0:
            m |= 1 << c
    return m


class IntermediateBot:
    """Sound rule-based play; deterministic (it does not use the generator)."""

    name = "intermediate"

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        return intermediate_pass(view)

    def choose_play(self, view: View, rng: random.Random) -> int:
        return intermediate_play(view)


# -- beginner ------------------------------------------------------------------


class BeginnerBot:
    """Simple rules and human mistakes.

    Passes its three highest cards whatever the suit; leads its lowest card;
    follows as low as it can; when void, throws its highest card. One time in
    ``slip`` it plays a card at random among the legal ones, and it keeps the
    queen of spades when void one time in three (people hang on to her).
    """

    name = "beginner"

    def __init__(self, slip: float = 0.15) -> None:
        self.slip = slip

    def choose_pass(self, view: View, rng: random.Random) -> tuple[int, ...]:
        hand = cards_of(view.hand)
        ranked = sorted(hand, key=lambda c: (c % 13, c), reverse=True)
        return tuple(sorted(ranked[: view.rules.pass_count]))

    def choose_play(self, view: View, rng: random.Random) -> int:
        legal = view.legal_mask()
        cards = cards_of(legal)
        if len(cards) == 1:
            return cards[0]
        if rng.random() < self.slip:
            return cards[rng.randrange(len(cards))]
        if not view.trick:
            return lowest_rank(legal, avoid=HEARTS_MASK)
        led, win_card, _, _ = trick_state(view)
        follow = legal & led
        if follow:
            below = follow & ((1 << win_card) - 1)
            if below:
                return highest(below) if rng.random() < 0.5 else lowest(below)
            return lowest(follow)
        if legal >> QS & 1 and rng.random() < 0.67:
            return QS
        return highest_rank(legal & ~(1 << QS) or legal)
