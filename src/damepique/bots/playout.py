"""A fast, points-aware play-out policy for search.

It plays a sampled deal to the end for every seat, in a few microseconds per
card: duck under the trick's winner, win only tricks without points when last
to play, dump heavy cards and high hearts when void, lead low from safe suits,
take a point when another seat is running for the moon; a seat marked as the
``shooter`` instead tries to take every trick. It reads the sampled deal's
state (its own hand and what lies on the table), never another seat's hand,
except to know whether a heavy card is still out.

>>> import random
>>> from damepique.engine import Deal, Rules
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(4))
>>> playout(deal, Policy.of(deal.rules))
>>> deal.phase, sum(deal.result().taken)
('done', 26)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from damepique.engine import HEARTS_MASK, PLAY, SUIT_MASKS, Deal, Rules

from .tactics import big_cards, highest_rank, lowest_rank

_S0, _S1, _S2, _S3 = SUIT_MASKS


@dataclass(frozen=True)
class Policy:
    """The rules' data the play-out needs, computed once per rules."""

    points: tuple[int, ...]
    point_mask: int
    big: int
    negative: int
    threat: int
    players: int
    smoke: bool = True
    """Lead below a heavy card still out to make it fall (on by default)."""

    @classmethod
    def of(cls, rules: Rules) -> Policy:
        p = _CACHE.get(rules)
        if p is None:
            neg = 0
            for c in range(52):
                if rules.card_points[c] < 0:
                    neg |= 1 << c
            threat = max(4, rules.moon_points // 4) if rules.has_moon and rules.moon_points > 0 else 10**9
            p = cls(rules.card_points, rules.point_mask, big_cards(rules), neg, threat, rules.players)
            _CACHE[rules] = p
        return p


_CACHE: dict[Rules, Policy] = {}


def choose(deal: Deal, legal: int, pol: Policy, shooter: int = -1, defender: int = -1) -> int:
    """The play-out policy's card for the seat to act, from ``legal`` (two or more cards).

    ``defender``: when not -1, only that seat defends against a moon (takes a
    point from a seat that took them all, leads hearts against it); the
    others play as if no moon were on."""
    seat = deal.to_act
    defends = defender < 0 or seat == defender
    trick = deal.trick
    pts = pol.points
    pm = pol.point_mask
    big = pol.big
    if trick:
        led = deal.led_suit_mask
        follow = legal & led
        wc = deal.winning_card
        tp = 0
        for c in trick:
            tp += pts[c]
        if follow:
            if seat == shooter:
                top = follow.bit_length() - 1
                if top > wc:
                    return top
                return (follow & -follow).bit_length() - 1
            below = follow & ((1 << wc) - 1)
            last = len(trick) == pol.players - 1
            if tp > 0 and defends:
                tps = deal.taken_points
                x = tps[deal.winning_seat]
                if x >= pol.threat and sum(tps) == x and deal.winning_seat != seat:
                    above = follow & ~below
                    if above:
                        pick = above & ~big or above
                        return pick.bit_length() - 1
            if last and tp <= 0:
                safe = follow & ~pm
                if safe:
                    return safe.bit_length() - 1
            if below:
                return below.bit_length() - 1
            if last:
                safe = follow & ~pm
                if safe:
                    return safe.bit_length() - 1
                return (follow & -follow).bit_length() - 1
            hand = deal.hands[seat]
            bl = big & led & ~hand
            if bl:
                live = 0
                for h in deal.hands:
                    live |= h
                if bl & live:
                    pick = follow & ~big or follow
                    return (pick & -pick).bit_length() - 1
            safe = follow & ~big
            if safe:
                return safe.bit_length() - 1
            return (follow & -follow).bit_length() - 1
        # Void: discard.
        if seat == shooter:
            return lowest_rank(legal & ~pm or legal)
        if tp >= 0 and defends:
            tps = deal.taken_points
            x = tps[deal.winning_seat]
            if x >= pol.threat and sum(tps) == x:
                plain = legal & ~pm
                if plain:
                    return highest_rank(plain)
        heavy = legal & big
        if heavy:
            if heavy & (heavy - 1):
                best = -1
                for c in range(52):
                    if heavy >> c & 1 and (best < 0 or pts[c] > pts[best]):
                        best = c
                return best
            return heavy.bit_length() - 1
        hearts = legal & pm
        if hearts:
            return hearts.bit_length() - 1
        # Dangerous cards above a heavy card still out.
        live = 0
        for h in deal.hands:
            live |= h
        out_big = big & live & ~deal.hands[seat]
        if out_big:
            low_big = (out_big & -out_big).bit_length() - 1
            danger = legal & SUIT_MASKS[low_big // 13] & ~((1 << low_big) - 1)
            if danger:
                return danger.bit_length() - 1
        return highest_rank(legal & ~pol.negative or legal)
    # Leading.
    if seat == shooter:
        return highest_rank(legal)
    tps = deal.taken_points
    total = sum(tps)
    if defends and total >= pol.threat and max(tps) == total and tps[seat] != total:
        hearts = legal & HEARTS_MASK
        if hearts:
            return hearts.bit_length() - 1
    hand = deal.hands[seat]
    live = -1
    out_big = big & ~hand if pol.smoke else 0
    if out_big:
        # Smoke out a heavy card: lead below it in its suit, holding nothing above it.
        live = 0
        for h in deal.hands:
            live |= h
        lb = out_big & live
        if lb:
            low_big = (lb & -lb).bit_length() - 1
            suit = SUIT_MASKS[low_big // 13]
            below = legal & suit & ((1 << low_big) - 1)
            if below and not hand & suit & ~((1 << low_big) - 1):
                return below.bit_length() - 1
    best = -1
    best_key = 99
    for s in (0, 1, 2, 3):
        part = legal & SUIT_MASKS[s]
        if not part:
            continue
        c = (part & -part).bit_length() - 1
        key = c - 13 * s
        sb = big & SUIT_MASKS[s]
        if sb:
            if hand & sb:
                key += 20
            else:
                if live < 0:
                    live = 0
                    for h in deal.hands:
                        live |= h
                lb = sb & live
                if lb and c > (lb & -lb).bit_length() - 1:
                    key += 30
        if s == 2:
            key += 2
        if key < best_key:
            best_key = key
            best = c
    return best


def playout(
    deal: Deal,
    pol: Policy,
    shooter: int = -1,
    defender: int = -1,
    rng: random.Random | None = None,
    explore: float = 0.0,
) -> None:
    """Play ``deal`` to its end with the policy (``shooter`` runs for the moon;
    ``defender``, when not -1, is the only seat that defends against a moon).

    ``explore``: with ``rng``, the share of choices (with two legal cards or
    more) made by a uniformly random legal card instead of the policy's."""
    if explore and rng is None:
        raise ValueError("playout: explore needs a generator (rng)")
    while deal.phase == PLAY:
        legal = deal.legal_mask()
        if legal & (legal - 1):
            if explore and rng is not None and rng.random() < explore:
                k = rng.randrange(legal.bit_count())
                for _ in range(k):
                    legal &= legal - 1
                card = (legal & -legal).bit_length() - 1
            else:
                card = choose(deal, legal, pol, shooter, defender)
        else:
            card = legal.bit_length() - 1
        deal.play_unchecked(card)
