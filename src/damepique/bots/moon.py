"""A moon in the making: who may be shooting, and hands that could.

The expert's search plays its worlds out with a fast policy in which nobody
runs for the moon unless told to, so a moon it does not expect is a moon it
does not defend against. This module says, from a seat's view, which other
seat may be on course for one and in what share of the worlds to let it run
(``suspects``), and, in a sampled world, whether that seat's hand could make
it (``can_run``): the search then sees what a moon would cost and gives up a
point of its own to break it when that costs less.

The evidence, strongest first:

- one seat alone has taken point cards: with a quarter of the moon's points
  or more (``tactics.moon_threat``) it runs in every world, as the expert
  always did; with fewer, in ``EARLY_SHARE`` of the worlds where its hand
  could make it;
- nobody has taken a point yet, but the seat that passed to this one kept its
  high cards (it gave three low cards, no heavy card), or one seat has won
  the last three tricks: that seat runs in ``HINT_SHARE`` of the worlds where
  its hand could make it;
- (off by default, ``HAND_SHARE`` 0) nobody has taken a point yet and
  nothing points to anyone: each other seat runs in ``HAND_SHARE`` of the
  worlds where its hand, as drawn, could make it.

A hand "could make it" (``can_run``) when it holds the highest heart still
out (apart from the searching seat's own) and at least a third of its cards
(two at least) are the highest card of their suit still out or a queen, king
or ace.

>>> from damepique.engine import Deal, Rules, view_of
>>> import random
>>> suspects(view_of(Deal.shuffled(Rules(passing=False), random.Random(1)), 0))
()
"""

from __future__ import annotations

from damepique.engine import HEARTS_MASK, SUIT_MASKS, View, cards_of

from .tactics import big_cards, moon_threat

EARLY_SHARE = 0.5
"""Share of the (capable) worlds where a seat that alone took a few points,
fewer than ``moon_threat`` asks, runs for the moon in the play-outs."""

HINT_SHARE = 0.3
"""Share of the (capable) worlds where a seat runs for the moon on the
evidence of its pass or of the tricks it won, before anyone took a point."""

HAND_SHARE = 0.0
"""Share of the worlds where a seat whose sampled hand could make a moon runs
for it, with no other evidence, before anyone took a point. Off: at 0.5 it
cost the expert against three intermediates in a first look (−0.62 payoff
[−1.26, +0.03] over 20 paired deals), where intermediates never try."""

FAIR_CHANCE = 0.35
"""The shooter attempts a moon when its play-outs make it in at least this
share of the worlds (``ExpertOptions.bold``)."""

LOW_PASS_RANK = 8
"""A card passed below this rank (ten; 0 is a two) counts as low."""


def point_takers(view: View) -> list[int]:
    """The seats that have taken a card worth positive points, in seat order."""
    pts = view.rules.card_points
    seats: set[int] = set()
    for _leader, cards, winner, points in view.tricks:
        if points > 0 or any(pts[c] > 0 for c in cards):
            seats.add(winner)
    return sorted(seats)


def suspects(view: View) -> tuple[tuple[int, float, str], ...]:
    """``(seat, share, kind)`` for each other seat that may be on course for
    a moon, the likeliest first. ``kind`` is ``"sure"`` (a clear threat: it
    runs in every world, drawn so that its hand could make it where a few
    draws allow), ``"evidence"`` (it runs in ``share`` of the worlds, drawn so
    that its hand could make it) or ``"hand"`` (no evidence: it runs in
    ``share`` of the worlds where its hand, as drawn, could make it)."""
    rules = view.rules
    if not rules.has_moon or rules.moon_points <= 0:
        return ()
    me = view.seat
    takers = point_takers(view)
    if len(takers) > 1 or me in takers:
        return ()
    if takers:
        shooter = takers[0]
        if moon_threat(view) == shooter:
            return ((shooter, 1.0, "sure"),)
        return ((shooter, EARLY_SHARE, "evidence"),)
    out: list[tuple[int, float, str]] = []
    received = view.received
    if received and view.phase != "pass":
        src = view.pass_source
        if src != me and _low_pass(view, received):
            out.append((src, HINT_SHARE, "evidence"))
    winners = [w for _l, _c, w, _p in view.tricks][-3:]
    leader = winners[0] if len(winners) == 3 and len(set(winners)) == 1 else me
    if leader != me and all(x[0] != leader for x in out):
        out.append((leader, HINT_SHARE, "evidence"))
    if not out and HAND_SHARE > 0:
        n = rules.players
        out = [((me + k) % n, HAND_SHARE, "hand") for k in range(1, n)]
    return tuple(out)


def _low_pass(view: View, received: int) -> bool:
    """The pass kept the passer's high cards: every card below a ten, none heavy."""
    if received & big_cards(view.rules):
        return False
    return all(c % 13 < LOW_PASS_RANK for c in cards_of(received))


def can_run(hands: list[int] | tuple[int, ...], seat: int, me: int = -1) -> bool:
    """In a world (every seat's current hand), whether ``seat``'s hand could
    take every trick that matters: it holds the highest heart in play outside
    the hand of ``me`` (the seat searching: the hearts it holds it may still
    throw away; none left outside it counts as held) and at least a third of
    its cards (two at least) are masters (the highest card of their suit
    still in play) or a queen, king or ace."""
    hand = hands[seat]
    if not hand:
        return False
    live = 0
    for h in hands:
        live |= h
    mine = hands[me] if me >= 0 else 0
    hearts = live & HEARTS_MASK & ~mine
    if hearts & ~hand and not hand >> (hearts.bit_length() - 1) & 1:
        return False
    strong = 0
    for s in range(4):
        mine = hand & SUIT_MASKS[s]
        if not mine:
            continue
        top_live = (live & SUIT_MASKS[s]).bit_length() - 1
        for c in cards_of(mine):
            if c == top_live or c % 13 >= 10:
                strong += 1
    return strong >= max(2, (hand.bit_count() + 2) // 3)


def bold_could_shoot(view: View) -> bool:
    """For the shooter, worth simulating its own moon run: nobody else has
    taken a point, and it took points already or holds three queens, kings
    or aces (two with the ace of hearts). The expert asks more
    (``montecarlo.moon_hopeful``)."""
    rules = view.rules
    if not rules.has_moon or rules.moon_points <= 0:
        return False
    me = view.seat
    if any(s != me for s in point_takers(view)):
        return False
    if view.taken_points[me] > 0:
        return True
    hand = view.hand
    high = sum(1 for c in cards_of(hand) if c % 13 >= 10)
    return high >= 3 or (high >= 2 and bool(hand >> (26 + 12) & 1))


def moon_passes(view: View) -> list[tuple[int, ...]]:
    """Passes that keep a moon hand's winners: its lowest cards (ties: the
    shorter suit first), the same without hearts, its lowest hearts first."""
    rules = view.rules
    count = rules.pass_count
    hand = view.hand
    big = big_cards(rules)
    cards = [c for c in cards_of(hand) if not big >> c & 1 and rules.card_points[c] >= 0]

    def key(c: int) -> tuple[int, int]:
        return (c % 13, (hand & SUIT_MASKS[c // 13]).bit_count())

    out: list[tuple[int, ...]] = []
    lowest = sorted(cards, key=key)[:count]
    plain = sorted((c for c in cards if not HEARTS_MASK >> c & 1), key=key)[:count]
    hearts_first = sorted(cards, key=lambda c: (not HEARTS_MASK >> c & 1, *key(c)))[:count]
    for cs in (lowest, plain, hearts_first):
        if len(cs) == count:
            t = tuple(sorted(cs))
            if t not in out:
                out.append(t)
    return out
