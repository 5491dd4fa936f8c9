"""What a seat can infer about the hidden cards, and hands sampled to match.

From a ``View`` only: the unseen cards go to the other seats (at their current
hand sizes) and to the hidden kitty, subject to

- voids shown by failing to follow suit;
- the cards this seat passed, which its pass target still holds unless played;
- the lead card of the first trick, held by the seat to lead it, and (with a
  kitty) the lower clubs, which must then lie in the kitty;
- the first-trick and heart-lead rules: a seat that discarded a point card on
  the first trick held nothing else, and a seat that led a heart before hearts
  were broken (as ``hearts_broken_by`` says) held only hearts.

With ``soft=True`` it also reads what a seat chose not to do: a seat that was
void in the led suit and discarded a card lighter than a heavy card still out
(the queen of spades, say) most likely does not hold that card, since
dropping it on another seat's trick was the obvious play (unless a moon was
being stopped at the time). That is an inference about play, not a rule: it
is applied only when some deal satisfies it together with the hard
constraints, and ``soft_cards`` says which cards it moved.

``sample_world`` deals the unseen cards at random under these constraints
(most constrained card first, each to a seat drawn in proportion to its free
room; a matching repairs the rare dead end), so every sample is a deal that
could really be the one being played.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(5))
>>> view = view_of(deal, 1)
>>> hands, kitty = sample_world(view, Knowledge.of(view), random.Random(0))
>>> hands[1] == view.hand and sum(h.bit_count() for h in hands)
52
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from damepique.engine import HEARTS_MASK, PASS, SUIT_MASKS, View, cards_of

from .tactics import big_cards

_CLUBS = SUIT_MASKS[0]
_ALL = (1 << 52) - 1


@dataclass(frozen=True)
class Knowledge:
    """Constraints on the hidden cards, seat by seat (index ``players`` is the
    hidden kitty)."""

    sizes: tuple[int, ...]
    """Cards each slot holds now (0 for this seat: its hand is known)."""
    forbidden: tuple[int, ...]
    """Per slot, cards it cannot hold."""
    required: tuple[int, ...]
    """Per slot, unseen cards it must hold."""
    pool: int
    """Unseen cards not already placed by ``required``."""
    soft_cards: int = 0
    """Cards kept away from some seat by the soft inference (``soft=True``)."""

    @classmethod
    def of(cls, view: View, soft: bool = False, pass_voids: bool = False) -> Knowledge:
        rules = view.rules
        n = rules.players
        me = view.seat
        unseen = view.unseen
        slots = n + 1
        sizes = [0] * slots
        forbidden = [0] * slots
        required = [0] * slots
        kitty_hidden = rules.kitty_size if (view.kitty == 0 and rules.kitty_size) else 0
        if view.phase == PASS:
            for s in range(n):
                if s != me:
                    sizes[s] = rules.hand_size
        else:
            for s in range(n):
                if s != me:
                    sizes[s] = view.hand_sizes[s]
        sizes[n] = kitty_hidden
        if view.phase != PASS:
            for s in range(n):
                forbidden[s] |= view.voids[s]
            for s, mask in view.known_cards.items():
                required[s] |= mask & unseen
            _infer_from_plays(view, forbidden)
            lead = view.lead_card
            if lead is not None and view.to_act is not None and unseen >> lead & 1:
                required[view.to_act] |= 1 << lead
            first_lead = _first_lead(view)
            if kitty_hidden and first_lead is not None and rules.first_lead == "two_of_clubs":
                lower = unseen & _CLUBS & ((1 << first_lead) - 1)
                required[n] |= lower
                for s in range(n):
                    forbidden[s] |= _CLUBS & ((1 << first_lead) - 1)
        forbidden[me] = _ALL
        forbidden[n] &= 0  # the kitty can hold anything unseen
        placed = 0
        for m in required:
            placed |= m
        pool = unseen & ~placed
        soft_cards = 0
        if soft and view.phase != PASS:
            unlikely = _unlikely_heavy(view)
            trial = [forbidden[i] | (unlikely[i] & pool if i < n else 0) for i in range(slots)]
            if trial != forbidden and _feasible(pool, trial, sizes, required):
                for i in range(n):
                    soft_cards |= trial[i] & ~forbidden[i] & pool
                forbidden = trial
        if pass_voids and view.phase != PASS:
            src, suits = passed_voids(view)
            if suits:
                trial = list(forbidden)
                trial[src] |= suits & pool
                if trial != forbidden and _feasible(pool, trial, sizes, required):
                    soft_cards |= trial[src] & ~forbidden[src] & pool
                    forbidden = trial
        return cls(tuple(sizes), tuple(forbidden), tuple(required), pool, soft_cards)


PASS_VOID_RANK = 7
"""A passed card below this rank (2 to 8) reads as a void-making pass."""


def passed_voids(view: View) -> tuple[int, int]:
    """The seat that passed to this one, and the suits it most likely emptied
    by that pass: those it passed a low card of (nobody passes a low card but
    to void a suit), unless it has since played a card of that suit. About
    half of such seats still hold a card of the suit in play (received from
    their own passer), so this is a guess, not a rule (``evaluate_play``
    applies it to some of the worlds only)."""
    received = view.received
    if not received or not view.pass_offset:
        return view.seat, 0
    src = view.pass_source
    played = view.played_by(src)
    suits = 0
    for su in range(4):
        mask = SUIT_MASKS[su]
        got = received & mask
        if got and (got & -got).bit_length() - 1 - 13 * su < PASS_VOID_RANK and not played & mask:
            suits |= mask
    return src, suits


def _unlikely_heavy(view: View) -> list[int]:
    """Per seat, the heavy cards it most likely does not hold: it was void in
    the led suit, free to discard anything, and dropped something lighter while
    the heavy card was still out. Not inferred while one seat had taken every
    point so far (a seat may keep the queen from a would-be moon shooter), nor
    for a seat that may itself be shooting."""
    rules = view.rules
    n = rules.players
    pts = rules.card_points
    heavy = big_cards(rules)
    out = [0] * n
    taken = [0] * n
    threat = max(4, rules.moon_points // 4) if rules.has_moon and rules.moon_points > 0 else 10**9
    gone = 0
    trick: list[tuple[int, int]] = []
    led = 0
    for i, (seat, c) in enumerate(view.plays):
        pos = i % n
        trick_no = i // n
        if pos == 0:
            led = SUIT_MASKS[c // 13]
            trick = []
        elif not led >> c & 1 and not (trick_no == 0 and rules.no_points_first_trick):
            total = sum(taken)
            moon_race = rules.has_moon and total >= threat and max(taken) == total
            if not moon_race:
                out_heavy = heavy & ~gone & ~(1 << c)
                for h in cards_of(out_heavy):
                    if pts[h] > pts[c]:
                        out[seat] |= 1 << h
        trick.append((seat, c))
        gone |= 1 << c
        if len(trick) == n:
            winner, best = trick[0]
            for s2, c2 in trick[1:]:
                if led >> c2 & 1 and c2 > best:
                    winner, best = s2, c2
            taken[winner] += sum(pts[c2] for _, c2 in trick if pts[c2] > 0)
    total = sum(view.taken_points)
    if rules.has_moon and total > 0:
        for s in range(n):
            if view.taken_points[s] == total:
                out[s] = 0  # it may be shooting: it keeps its heavy cards
    return out


def _feasible(pool: int, forbidden: list[int], sizes: list[int], required: list[int]) -> bool:
    """Whether the pool's cards fit the slots' free room under ``forbidden``."""
    slots = len(sizes)
    room = [sizes[i] - required[i].bit_count() for i in range(slots)]
    cards = list(cards_of(pool))
    allowed = [[i for i in range(slots) if not forbidden[i] >> c & 1] for c in cards]
    if any(not a for a in allowed):
        return False
    # Most constrained card first, to the slot with the most free room: this
    # settles nearly every case without the matching.
    free = room[:]
    ok = True
    for k in sorted(range(len(cards)), key=lambda k: len(allowed[k])):
        best = max(allowed[k], key=lambda i: free[i])
        if free[best] <= 0:
            ok = False
            break
        free[best] -= 1
    if ok:
        return True
    try:
        _matching(cards, allowed, room, list(required), random.Random(0))
    except ValueError:
        return False
    return True


def _first_lead(view: View) -> int | None:
    """The card that leads (or led) the first trick under the two-of-clubs rule."""
    if view.plays:
        first = view.plays[0][1]
        return first if first // 13 == 0 else None
    return view.lead_card


def _infer_from_plays(view: View, forbidden: list[int]) -> None:
    """What the legal-play rules say of the hands that made each play, with
    hearts broken as the engine breaks them (``Rules.breaks_mask``,
    ``discard_breaks_mask``)."""
    rules = view.rules
    n = rules.players
    broken = not rules.must_break_hearts
    barred = rules.first_trick_mask
    led = 0
    for i, (seat, c) in enumerate(view.plays):
        pos = i % n
        trick_no = i // n
        bit = 1 << c
        if pos == 0:
            led = SUIT_MASKS[c // 13]
            if trick_no == 0 and barred & bit:
                # A card barred from the first trick led to it: nothing else in hand.
                forbidden[seat] |= ~barred & _ALL
            if HEARTS_MASK & bit and not broken:
                forbidden[seat] |= ~HEARTS_MASK & _ALL
        elif not led & bit and trick_no == 0 and barred & bit:
            # Discarded on the first trick: nothing else in hand. (Under
            # first_trick_discard "heart" such a hand holds a heart, as no hand
            # is as small as the barred cards that are not hearts: it says no more.)
            forbidden[seat] |= ~barred & _ALL
        if rules.breaks_mask & bit or (pos and not led & bit and rules.discard_breaks_mask & bit):
            broken = True


def sample_world(view: View, know: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """Every seat's current hand (this seat's own as it is) and the hidden kitty."""
    n = view.rules.players
    slots = n + 1
    hands = list(know.required)
    room = [know.sizes[i] - know.required[i].bit_count() for i in range(slots)]
    cards = list(cards_of(know.pool))
    forbidden = know.forbidden
    pool = know.pool
    if all(not forbidden[i] & pool for i in range(slots) if room[i] > 0):
        # Nothing but the hand sizes to respect (the usual case before any
        # void shows): shuffle and deal, the same distribution as below at a
        # fraction of the cost.
        rng.shuffle(cards)
        out = hands[:]
        k = 0
        for i in range(slots):
            r = room[i]
            if r > 0:
                for c in cards[k : k + r]:
                    out[i] |= 1 << c
                k += r
        out[view.seat] = view.hand
        return out[:n], out[n]
    allowed = [[i for i in range(slots) if not forbidden[i] >> c & 1] for c in cards]
    order = list(range(len(cards)))
    for _attempt in range(20):
        rng.shuffle(order)
        order.sort(key=lambda k: len(allowed[k]))
        out = hands[:]
        free = room[:]
        ok = True
        for k in order:
            opts = allowed[k]
            total = 0
            for i in opts:
                total += free[i]
            if total <= 0:
                ok = False
                break
            pick = rng.randrange(total)
            for i in opts:
                pick -= free[i]
                if pick < 0:
                    break
            out[i] |= 1 << cards[k]
            free[i] -= 1
        if ok:
            out[view.seat] = view.hand
            return out[:n], out[n]
    out = _matching(cards, allowed, room, hands, rng)
    out[view.seat] = view.hand
    return out[:n], out[n]


def _matching(
    cards: list[int], allowed: list[list[int]], room: list[int], hands: list[int], rng: random.Random
) -> list[int]:
    """Cards to slots with capacities by augmenting paths: finds a placement
    whenever one exists (the constraints of a real deal always admit one)."""
    owner: dict[tuple[int, int], int] = {}
    slots_of: list[tuple[int, int]] = [(i, j) for i in range(len(room)) for j in range(max(room[i], 0))]
    rng.shuffle(slots_of)
    assign: dict[int, tuple[int, int]] = {}

    def try_place(k: int, seen: set[tuple[int, int]]) -> bool:
        for slot in slots_of:
            if slot[0] not in allowed[k] or slot in seen:
                continue
            seen.add(slot)
            other = owner.get(slot)
            if other is None or try_place(other, seen):
                owner[slot] = k
                assign[k] = slot
                return True
        return False

    for k in range(len(cards)):
        if not try_place(k, set()):
            raise ValueError("no deal matches what this seat knows")  # pragma: no cover
    out = hands[:]
    for k, (i, _) in assign.items():
        out[i] |= 1 << cards[k]
    return out
