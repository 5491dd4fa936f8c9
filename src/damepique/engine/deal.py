"""One deal as an explicit state machine: pass, play, done.

Every action has three faces, as in pokerkit: ``verify_*`` raises with a
reason a person understands, ``can_*`` answers yes or no, and the action
itself (``pass_cards``, ``play``) applies it and returns a frozen event. An
illegal action changes nothing. ``play_unchecked`` is the fast path for
search, for callers that chose the card from ``legal_mask()``.

>>> import random
>>> deal = Deal.shuffled(Rules(passing=False), random.Random(1))
>>> deal.phase, deal.to_act == deal.holder(0)  # the 2C leads
('play', True)
>>> deal.legal_plays()
CardSet.parse('2C')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import (
    CARD_NAMES,
    HEARTS_MASK,
    JD,
    QS,
    SUIT_MASKS,
    SUIT_NAMES,
    CardSet,
    cards_of,
    lowest,
    mask_of,
    parse_card,
)
from .errors import DealError, IllegalPass, IllegalPlay
from .events import DealResult, Passed, Played
from .rules import Rules

PASS, PLAY, DONE = "pass", "play", "done"

CLUBS_MASK = SUIT_MASKS[0]

CardsLike = int | CardSet | Iterable[int] | Iterable[str]


def to_mask(cards: CardsLike) -> int:
    """A mask from a mask, a CardSet, card ints or card strings."""
    if isinstance(cards, int):
        return cards
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return mask_of(parse_card(c) if isinstance(c, str) else c for c in cards)


class Deal:
    """One deal of Hearts for ``rules.players`` seats.

    Seats are ``0..n-1``, play goes to ``(seat + 1) % n``. ``hands`` are the
    cards as dealt (masks or card lists), ``kitty`` the face-down leftover.
    """

    __slots__ = (
        "_points",
        "_result",
        "dealt",
        "hands",
        "hearts_broken",
        "jack_seat",
        "kitty",
        "lead_card",
        "led_suit_mask",
        "number",
        "pass_offset",
        "passes",
        "phase",
        "players",
        "plays",
        "rules",
        "seats",
        "taken",
        "taken_points",
        "to_act",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_played",
        "voids",
        "winning_card",
        "winning_seat",
    )

    rules: Rules
    number: int
    players: int
    pass_offset: int
    dealt: tuple[int, ...]
    kitty: int
    hands: list[int]
    passes: list[int | None]
    phase: str
    to_act: int
    lead_card: int | None
    plays: list[int]
    seats: list[int]
    trick: list[int]
    trick_leader: int
    led_suit_mask: int
    winning_card: int
    winning_seat: int
    tricks: list[tuple[int, tuple[int, ...], int, int]]
    """(leader, cards, winner, points) of each finished trick."""
    tricks_played: int
    taken: list[int]
    taken_points: list[int]
    jack_seat: int | None
    hearts_broken: bool
    voids: list[int]
    _points: tuple[int, ...]
    _result: DealResult | None

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[CardsLike],
        kitty: CardsLike = 0,
        number: int = 0,
        *,
        skip_pass: bool = False,
    ) -> None:
        n = rules.players
        masks = [to_mask(h) for h in hands]
        kitty_mask = to_mask(kitty)
        _check_hands(rules, masks, kitty_mask)
        self.rules = rules
        self.number = number
        self.players = n
        self.pass_offset = 0 if skip_pass else rules.pass_offset(number)
        self.dealt = tuple(masks)
        self.kitty = kitty_mask
        self.hands = list(masks)
        self.passes = [None] * n
        self.plays = []
        self.seats = []
        self.trick = []
        self.trick_leader = 0
        self.led_suit_mask = 0
        self.winning_card = -1
        self.winning_seat = 0
        self.tricks = []
        self.tricks_played = 0
        self.taken = [0] * n
        self.taken_points = [0] * n
        self.jack_seat = None
        self.hearts_broken = not rules.must_break_hearts
        self.voids = [0] * n
        self._points = tuple(max(p, 0) for p in rules.card_points)
        self._result = None
        self.lead_card = None
        self.to_act = 0
        if self.pass_offset % n == 0:
            self._start_play()
        else:
            self.phase = PASS

    @classmethod
    def shuffled(cls, rules: Rules, rng: random.Random, number: int = 0) -> Deal:
        """A deal from a shuffle by ``rng`` (the caller's seeded generator)."""
        deck = list(cards_of(rules.deck_cards))
        rng.shuffle(deck)
        size = rules.hand_size
        n = rules.players
        hands = [deck[i * size : (i + 1) * size] for i in range(n)]
        return cls(rules, hands, deck[n * size :], number)

    # -- reading the state ----------------------------------------------------

    def holder(self, card: int) -> int | None:
        """The seat holding ``card`` now, or None (played, kitty, removed)."""
        for seat, hand in enumerate(self.hands):
            if hand >> card & 1:
                return seat
        return None

    @property
    def first_trick(self) -> bool:
        return self.tricks_played == 0

    @property
    def passing_seats(self) -> list[int]:
        """Seats that still have to pass, in seat order."""
        if self.phase != PASS:
            return []
        return [s for s in range(self.players) if self.passes[s] is None]

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_offset) % self.players

    def pass_source(self, seat: int) -> int:
        return (seat - self.pass_offset) % self.players

    # -- passing ---------------------------------------------------------------

    def verify_pass(self, seat: int, cards: CardsLike) -> int:
        """Raise IllegalPass unless ``seat`` may give ``cards``; return their mask."""
        n = self.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalPass(f"there is no seat {seat!r}", seat)
        if self.phase != PASS:
            reason = "the deal is over" if self.phase == DONE else "there is no passing now"
            if self.phase == PLAY and self.pass_offset % n == 0 and not self.plays:
                reason = "there is no passing in this deal"
            raise IllegalPass(reason, seat)
        if self.passes[seat] is not None:
            raise IllegalPass(f"seat {seat} has already passed", seat)
        if isinstance(cards, (int, CardSet)):
            card_list = list(cards_of(to_mask(cards)))
        else:
            if isinstance(cards, str):
                cards = cards.replace(",", " ").split()
            card_list = [parse_card(c) if isinstance(c, str) else c for c in cards]
        count = self.rules.pass_count
        if len(card_list) != count:
            raise IllegalPass(f"must pass {count} cards, not {len(card_list)}", seat)
        mask = 0
        for c in card_list:
            if not isinstance(c, int) or not 0 <= c < 52:
                raise IllegalPass(f"not a card: {c!r}", seat)
            if mask >> c & 1:
                raise IllegalPass(f"the same card twice: {CARD_NAMES[c]}", seat, c)
            if not self.hands[seat] >> c & 1:
                raise IllegalPass(f"seat {seat} does not hold {CARD_NAMES[c]}", seat, c)
            mask |= 1 << c
        return mask

    def can_pass(self, seat: int, cards: CardsLike) -> bool:
        try:
            self.verify_pass(seat, cards)
        except (IllegalPass, ValueError):
            return False
        return True

    def pass_cards(self, seat: int, cards: CardsLike) -> Passed:
        """``seat`` gives ``cards``; once every seat has passed the cards change hands."""
        mask = self.verify_pass(seat, cards)
        self.passes[seat] = mask
        complete = all(p is not None for p in self.passes)
        if complete:
            self._exchange()
        return Passed(seat, cards_of(mask), self.pass_target(seat), complete)

    def _exchange(self) -> None:
        n = self.players
        hands = self.hands
        for seat in range(n):
            passed = self.passes[seat]
            assert passed is not None
            hands[seat] &= ~passed
        for seat in range(n):
            passed = self.passes[seat]
            assert passed is not None
            hands[(seat + self.pass_offset) % n] |= passed
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        if self.rules.first_lead == "two_of_clubs":
            in_hands = 0
            for hand in self.hands:
                in_hands |= hand
            self.lead_card = lowest(in_hands & CLUBS_MASK)
            holder = self.holder(self.lead_card)
            assert holder is not None
            self.to_act = holder
        else:
            self.to_act = self.number % self.players

    # -- playing ---------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a mask (0 outside play)."""
        if self.phase != PLAY:
            return 0
        hand = self.hands[self.to_act]
        rules = self.rules
        if self.trick:
            follow = hand & self.led_suit_mask
            if follow:
                return follow
            if self.tricks_played == 0 and rules.no_points_first_trick:
                safe = hand & ~rules.point_mask
                if safe:
                    return safe
            return hand
        if self.lead_card is not None:
            return 1 << self.lead_card
        if self.tricks_played == 0 and rules.no_points_first_trick:
            safe = hand & ~rules.point_mask
            if safe:
                return safe
        if not self.hearts_broken:
            safe = hand & ~HEARTS_MASK
            if safe:
                return safe
        return hand

    def legal_plays(self) -> CardSet:
        """The legal cards as a readable set."""
        return CardSet(self.legal_mask())

    def legal_cards(self) -> tuple[int, ...]:
        return cards_of(self.legal_mask())

    def verify_play(self, card: int | str, seat: int | None = None) -> int:
        """Raise IllegalPlay unless the seat to act may play ``card``; return it."""
        if isinstance(card, str):
            card = parse_card(card)
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise IllegalPlay(f"not a card: {card!r}", seat)
        name = CARD_NAMES[card]
        if self.phase == PASS:
            raise IllegalPlay("cards are still being passed", seat, card)
        if self.phase == DONE:
            raise IllegalPlay("the deal is over", seat, card)
        to_act = self.to_act
        if seat is not None and seat != to_act:
            raise IllegalPlay(f"it is seat {to_act}'s turn, not seat {seat}'s", seat, card)
        hand = self.hands[to_act]
        if not hand >> card & 1:
            raise IllegalPlay(f"seat {to_act} does not hold {name}", to_act, card)
        if self.legal_mask() >> card & 1:
            return card
        raise IllegalPlay(self._refusal(card, hand), to_act, card)

    def _refusal(self, card: int, hand: int) -> str:
        rules = self.rules
        if self.trick and hand & self.led_suit_mask:
            suit = self.trick[0] // 13
            return f"must follow {SUIT_NAMES[suit]}"
        if not self.trick and self.lead_card is not None:
            return f"the first trick is led with the {CARD_NAMES[self.lead_card]}"
        if self.tricks_played == 0 and rules.no_points_first_trick and rules.point_mask >> card & 1:
            return "no points on the first trick"
        if not self.trick and not self.hearts_broken and HEARTS_MASK >> card & 1:
            return "hearts are not broken"
        return f"{CARD_NAMES[card]} may not be played now"  # pragma: no cover - defensive

    def can_play(self, card: int | str) -> bool:
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except ValueError:
                return False
        return isinstance(card, int) and 0 <= card < 52 and bool(self.legal_mask() >> card & 1)

    def play(self, card: int | str, seat: int | None = None) -> Played:
        """The seat to act plays ``card`` (checked); returns the event."""
        c = self.verify_play(card, seat)
        player = self.to_act
        before = self.tricks_played
        self.play_unchecked(c)
        if self.tricks_played != before:
            _, _, winner, points = self.tricks[-1]
            return Played(player, c, winner, points, self.phase == DONE)
        return Played(player, c)

    def play_unchecked(self, card: int) -> None:
        """Play ``card`` for the seat to act without checks: the fast path for
        search, where the card comes from ``legal_mask()``."""
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.plays.append(card)
        self.seats.append(seat)
        trick = self.trick
        if trick:
            if bit & self.led_suit_mask:
                if card > self.winning_card:
                    self.winning_card = card
                    self.winning_seat = seat
            else:
                self.voids[seat] |= self.led_suit_mask
        else:
            self.lead_card = None
            self.trick_leader = seat
            self.led_suit_mask = SUIT_MASKS[card // 13]
            self.winning_card = card
            self.winning_seat = seat
        trick.append(card)
        if bit & HEARTS_MASK or (card == QS and self.rules.queen_breaks_hearts):
            self.hearts_broken = True
        if len(trick) < self.players:
            self.to_act = (seat + 1) % self.players
            return
        # The trick is complete.
        winner = self.winning_seat
        pts = self._points
        points = 0
        mask = 0
        for c in trick:
            points += pts[c]
            mask |= 1 << c
        if self.tricks_played == 0 and self.kitty:
            mask |= self.kitty
            for c in cards_of(self.kitty):
                points += pts[c]
        self.taken[winner] |= mask
        if mask >> JD & 1:
            self.jack_seat = winner
        if not self.hands[winner]:
            points += self.rules.last_trick_points
            self.phase = DONE
        self.taken_points[winner] += points
        self.tricks.append((self.trick_leader, tuple(trick), winner, points))
        self.tricks_played += 1
        self.trick = []
        self.to_act = winner

    # -- scoring -----------------------------------------------------------------

    def result(self) -> DealResult:
        """The deal's points: final once done, the points so far before that."""
        if self._result is not None:
            return self._result
        taken = list(self.taken_points)
        if self.phase != DONE:
            jack = [0] * self.players
            if self.jack_seat is not None and self.rules.jack_of_diamonds:
                jack[self.jack_seat] = -10
            so_far = tuple(t + j for t, j in zip(taken, jack, strict=True))
            return DealResult(so_far, None, tuple(taken), False)
        points, moon = self.rules.score(taken, self.jack_seat)
        self._result = DealResult(tuple(points), moon, tuple(taken), True)
        return self._result

    # -- copying -------------------------------------------------------------------

    def copy(self) -> Deal:
        """A cheap independent copy, for search."""
        other = Deal.__new__(Deal)
        other.rules = self.rules
        other.number = self.number
        other.players = self.players
        other.pass_offset = self.pass_offset
        other.dealt = self.dealt
        other.kitty = self.kitty
        other.hands = self.hands[:]
        other.passes = self.passes[:]
        other.phase = self.phase
        other.to_act = self.to_act
        other.lead_card = self.lead_card
        other.plays = self.plays[:]
        other.seats = self.seats[:]
        other.trick = self.trick[:]
        other.trick_leader = self.trick_leader
        other.led_suit_mask = self.led_suit_mask
        other.winning_card = self.winning_card
        other.winning_seat = self.winning_seat
        other.tricks = self.tricks[:]
        other.tricks_played = self.tricks_played
        other.taken = self.taken[:]
        other.taken_points = self.taken_points[:]
        other.jack_seat = self.jack_seat
        other.hearts_broken = self.hearts_broken
        other.voids = self.voids[:]
        other._points = self._points
        other._result = self._result
        return other

    def __repr__(self) -> str:
        hands = ", ".join(repr(str(CardSet(h))) for h in self.hands)
        return f"<Deal {self.number} {self.phase} to_act={self.to_act} hands=[{hands}]>"


def _check_hands(rules: Rules, hands: list[int], kitty: int) -> None:
    n = rules.players
    if len(hands) != n:
        raise DealError(f"{n} hands are needed for {n} players, not {len(hands)}")
    size = rules.hand_size
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, int) or hand < 0 or hand >> 52:
            raise DealError(f"hand {seat} is not a set of cards")
        count = hand.bit_count()
        if count != size:
            raise DealError(f"hand {seat} has {count} cards, a hand of this deal has {size}")
        dup = seen & hand
        if dup:
            raise DealError(f"{CARD_NAMES[lowest(dup)]} is dealt twice")
        seen |= hand
    if kitty.bit_count() != rules.kitty_size:
        raise DealError(f"the kitty has {kitty.bit_count()} cards, it should have {rules.kitty_size}")
    dup = seen & kitty
    if dup:
        raise DealError(f"{CARD_NAMES[lowest(dup)]} is dealt twice")
    seen |= kitty
    extra = seen & ~rules.deck_cards
    if extra:
        reason = "removed from the deck" if rules.removed_mask >> lowest(extra) & 1 else "not in this deck"
        raise DealError(f"{CARD_NAMES[lowest(extra)]} is {reason}")
    missing = rules.deck_cards & ~seen
    if missing:
        raise DealError(f"{CARD_NAMES[lowest(missing)]} is missing")
