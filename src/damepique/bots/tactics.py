"""Small facts about cards and tricks shared by the rule-based and search bots.

Everything here works on masks and on the rules' data (``card_points``,
``point_mask``), never on a fixed list of penalty cards, so Black Maria, the
J♦ and the 36-card deck need no special case.

>>> from damepique.engine import Rules, parse_card
>>> rules = Rules(black_maria=True)
>>> [format_card(c) for c in cards_of(big_cards(rules))]
['QS', 'KS', 'AS']
"""

from __future__ import annotations

from damepique.engine import HEARTS_MASK, SUIT_MASKS, Rules, View, cards_of, format_card

__all__ = [
    "big_cards",
    "format_card",
    "highest",
    "highest_rank",
    "lowest",
    "lowest_rank",
    "moon_threat",
    "trick_state",
]

_BIG_CACHE: dict[Rules, int] = {}


def big_cards(rules: Rules) -> int:
    """Mask of the heavy penalty cards: worth at least 5 points (QS; KS and AS
    in Black Maria; QS at 5 points in the 36-card game)."""
    m = _BIG_CACHE.get(rules)
    if m is None:
        m = 0
        for c in range(52):
            if rules.card_points[c] >= 5 and rules.deck_mask >> c & 1:
                m |= 1 << c
        if not m:
            # A table with a light queen: treat the heaviest card as the one to fear.
            best = max(range(52), key=lambda c: rules.card_points[c])
            if rules.card_points[best] > 1:
                m = 1 << best
        _BIG_CACHE[rules] = m
    return m


def highest(mask: int) -> int:
    """The highest card of a non-empty mask (by suit, then rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest_rank(mask: int) -> int:
    """The card of highest rank in a non-empty mask, whatever its suit (ties:
    the higher suit)."""
    best = -1
    best_rank = -1
    for s in (3, 2, 1, 0):
        part = mask & SUIT_MASKS[s]
        if part:
            c = part.bit_length() - 1
            r = c - 13 * s
            if r > best_rank:
                best_rank = r
                best = c
    return best


def lowest_rank(mask: int, avoid: int = 0) -> int:
    """The card of lowest rank in a non-empty mask, preferring cards outside
    ``avoid`` (ties: the lower suit)."""
    pool = mask & ~avoid or mask
    best = -1
    best_rank = 99
    for s in (0, 1, 2, 3):
        part = pool & SUIT_MASKS[s]
        if part:
            c = (part & -part).bit_length() - 1
            r = c - 13 * s
            if r < best_rank:
                best_rank = r
                best = c
    return best


def trick_state(view: View) -> tuple[int, int, int, int]:
    """``(led_suit_mask, winning_card, winning_seat, points)`` of the trick in
    progress (points of the cards on it, J♦ counted negative)."""
    trick = view.trick
    led = SUIT_MASKS[trick[0] // 13]
    win = trick[0]
    pos = 0
    pts = view.rules.card_points
    total = pts[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        total += pts[c]
        if led >> c & 1 and c > win:
            win = c
            pos = i
    return led, win, (view.trick_leader + pos) % view.rules.players, total


def moon_threat(view: View) -> int | None:
    """The seat that may be shooting the moon: it alone took points, enough of
    them to worry, and it can still take the rest. None otherwise."""
    rules = view.rules
    if not rules.has_moon or rules.moon_points <= 0:
        return None
    taken = view.taken_points
    takers = [s for s, p in enumerate(taken) if p > 0]
    if len(takers) != 1:
        return None
    shooter = takers[0]
    if taken[shooter] < max(4, rules.moon_points // 4):
        return None
    return shooter


def hearts_of(mask: int) -> int:
    return mask & HEARTS_MASK


def names(mask: int) -> str:
    return " ".join(format_card(c) for c in cards_of(mask))
