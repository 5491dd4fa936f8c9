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
from enum import StrEnum
from typing import TypeVar

from .cards import (
    CARD_NAMES,
    HEARTS_MASK,
    JD,
    SUIT_MASKS,
    SUIT_NAMES,
    CardSet,
    cards_of,
    lowest,
    mask_of,
    parse_card,
)
from .errors import CardError, DealError, IllegalPass, IllegalPlay, short_repr
from .events import DealResult, Passed, Played, passed, played
from .rules import Rules


class Phase(StrEnum):
    """The phase of a deal: cards are passed, then played, then it is done.

    Each member is its string: equal to it, hashed as it, written as it in
    JSON, and shown as it by ``repr`` (so views, logs and the server, which
    compare phases with and send them as ``"pass"``, ``"play"``, ``"done"``,
    see no difference).

    >>> Phase.PLAY == "play", Phase("done"), f"{Phase.PASS}"
    (True, 'done', 'pass')
    """

    PASS = "pass"
    PLAY = "play"
    DONE = "done"

    # A deal's phase is always one of these three objects: the engine tests it
    # with ``is``, cheaper than comparing strings (a str subclass is not
    # compared by the interpreter's fast path for str).

    def __repr__(self) -> str:
        return repr(self.value)


PASS, PLAY, DONE = Phase.PASS, Phase.PLAY, Phase.DONE

CLUBS_MASK = SUIT_MASKS[0]
_BITS = tuple(1 << c for c in range(52))
_SUIT_MASK_OF = tuple(SUIT_MASKS[c // 13] for c in range(52))
_JD_BIT = 1 << JD
# The next seat clockwise, by number of players.
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in (3, 4, 5)}
# The seats in playing order from each leader, by number of players.
_ORDER = {n: tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n)) for n in (3, 4, 5)}

CardsLike = int | CardSet | Iterable[int] | Iterable[str]
T = TypeVar("T")


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
    ``passes`` (what each seat gives, seat by seat from seat 0, as in the
    record) and ``plays`` (the cards played, in order) are applied, checked,
    as if made one by one.

    Two deals are equal when they are the same deal at the same point (the
    rules, number, cards dealt, passes and plays), and the ``repr`` pastes back:

    >>> deal = Deal.shuffled(Rules(passing=False), random.Random(8))
    >>> _ = deal.play("2C")
    >>> text = repr(deal)
    >>> text[:29], text[-11:]
    ("Deal(Rules(passing=False), ['", "plays='2C')")
    >>> eval(repr(deal)) == deal, deal.play_count
    (True, 1)
    """

    __slots__ = (
        "_breaks",
        "_discard_breaks",
        "_next",
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
        "rules",
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
    phase: Phase
    to_act: int
    lead_card: int | None
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
    _breaks: int
    _discard_breaks: int
    _next: tuple[int, ...]
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
        passes: Sequence[CardsLike | None] = (),
        plays: Iterable[int] | Iterable[str] | str = (),
    ) -> None:
        masks = [to_mask(h) for h in hands]
        kitty_mask = to_mask(kitty)
        _check_hands(rules, masks, kitty_mask)
        self._setup(rules, masks, kitty_mask, number, skip_pass)
        for seat, cards in enumerate(passes):
            if cards is not None:
                self.pass_cards(seat, cards)
        for card in plays.replace(",", " ").split() if isinstance(plays, str) else plays:
            self.play(card)

    def _setup(self, rules: Rules, masks: list[int], kitty: int, number: int, skip_pass: bool) -> None:
        n = rules.players
        self.rules = rules
        self.number = number
        self.players = n
        self.pass_offset = 0 if skip_pass else rules.pass_offset(number)
        self.dealt = tuple(masks)
        self.kitty = kitty
        self.hands = masks
        self.passes = [None] * n
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
        self._points = rules.positive_points
        self._breaks = rules.breaks_mask
        self._discard_breaks = rules.discard_breaks_mask
        self._next = _NEXT[n]
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
        # Shuffle the cards' bits rather than the cards: a hand's mask is then
        # the sum of its slice. A shuffle of distinct cards is a valid deal.
        deck = list(rules.deck_bits)
        shuffle(deck, rng)
        size = rules.hand_size
        n = rules.players
        hands = [sum(deck[i * size : (i + 1) * size]) for i in range(n)]
        deal = cls.__new__(cls)
        deal._setup(rules, hands, sum(deck[n * size :]), number, False)
        return deal

    # -- reading the state ----------------------------------------------------

    def holder(self, card: int) -> int | None:
        """The seat holding ``card`` now, or None (played, kitty, removed)."""
        for seat, hand in enumerate(self.hands):
            if hand >> card & 1:
                return seat
        return None

    @property
    def plays(self) -> list[int]:
        """The cards played so far, in order (a new list)."""
        out: list[int] = []
        for trick in self.tricks:
            out.extend(trick[1])
        out.extend(self.trick)
        return out

    @property
    def seats(self) -> list[int]:
        """Who played each card of ``plays`` (a new list)."""
        order = _ORDER[self.players]
        out: list[int] = []
        for leader, cards, _, _ in self.tricks:
            out.extend(order[leader][: len(cards)])
        if self.trick:
            out.extend(order[self.trick_leader][: len(self.trick)])
        return out

    @property
    def play_count(self) -> int:
        """How many cards have been played: ``len(plays)``, without building the list."""
        return self.tricks_played * self.players + len(self.trick)

    @property
    def first_trick(self) -> bool:
        return self.tricks_played == 0

    @property
    def passing_seats(self) -> list[int]:
        """Seats that still have to pass, in seat order."""
        if self.phase is not PASS:
            return []
        return [s for s in range(self.players) if self.passes[s] is None]

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_offset) % self.players

    def pass_source(self, seat: int) -> int:
        return (seat - self.pass_offset) % self.players

    # -- passing ---------------------------------------------------------------

    def verify_pass(self, seat: int, cards: CardsLike) -> int:
        """Raise IllegalPass unless ``seat`` may give ``cards``; return their mask.

        ``cards`` is a mask, a CardSet, card ints or card strings (a string that
        is not a card raises CardError)."""
        n = self.players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise IllegalPass(f"there is no seat {short_repr(seat)}", None)
        if self.phase is not PASS:
            reason = "the deal is over" if self.phase is DONE else "there is no passing now"
            if self.phase is PLAY and self.pass_offset % n == 0 and not self.play_count:
                reason = "there is no passing in this deal"
            raise IllegalPass(reason, seat)
        if self.passes[seat] is not None:
            raise IllegalPass(f"seat {seat} has already passed", seat)
        hand = self.hands[seat]
        count = self.rules.pass_count
        if type(cards) is int and cards >= 0 and not cards & ~hand and cards.bit_count() == count:
            return cards  # the fast path: a mask of cards in hand
        if isinstance(cards, CardSet):
            cards = cards.mask
        if isinstance(cards, bool):
            raise IllegalPass("not a set of cards", seat)
        if isinstance(cards, int):
            if cards < 0 or cards >> 52:
                raise IllegalPass("not a set of cards", seat)
            card_list: list[object] = list(cards_of(cards))
        else:
            if isinstance(cards, str):
                cards = cards.replace(",", " ").split()
            card_list = [parse_card(c) if isinstance(c, str) else c for c in cards]
        if len(card_list) != count:
            raise IllegalPass(f"must pass {count} cards, not {len(card_list)}", seat)
        mask = 0
        for c in card_list:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
                raise IllegalPass(f"not a card: {short_repr(c)}", seat)
            if mask >> c & 1:
                raise IllegalPass(f"the same card twice: {CARD_NAMES[c]}", seat, c)
            if not hand >> c & 1:
                raise IllegalPass(f"seat {seat} does not hold {CARD_NAMES[c]}", seat, c)
            mask |= 1 << c
        return mask

    def can_pass(self, seat: int, cards: CardsLike) -> bool:
        """Whether ``seat`` may give ``cards`` now."""
        try:
            self.verify_pass(seat, cards)
        except (IllegalPass, ValueError, TypeError):
            return False
        return True

    def pass_cards(self, seat: int, cards: CardsLike) -> Passed:
        """``seat`` gives ``cards``; once every seat has passed the cards change hands."""
        mask = self.verify_pass(seat, cards)
        passes = self.passes
        passes[seat] = mask
        complete = None not in passes
        if complete:
            self._exchange()
        return passed(seat, cards_of(mask), (seat + self.pass_offset) % self.players, complete)

    def _exchange(self) -> None:
        n = self.players
        offset = self.pass_offset
        passes: list[int] = [p or 0 for p in self.passes]
        self.hands[:] = [
            hand & ~passes[seat] | passes[(seat - offset) % n] for seat, hand in enumerate(self.hands)
        ]
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        if self.rules.first_lead == "two_of_clubs":
            # The lowest club dealt to a hand (not removed, not in the kitty).
            bit = self.rules.deck_cards & ~self.kitty & CLUBS_MASK
            bit &= -bit
            self.lead_card = bit.bit_length() - 1
            for seat, hand in enumerate(self.hands):
                if hand & bit:
                    self.to_act = seat
                    break
        else:
            self.to_act = self.number % self.players

    # -- playing ---------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a mask (0 outside play).

        The one statement of the legal-play rules (``views.legal_mask_for``
        asks it too). Follow suit if you can. On the first trick no point card
        (hearts, QS) unless the hand holds nothing else, and then, with
        ``first_trick_discard: "heart"``, a heart when it holds one; the first
        lead is the lowest club (unless ``first_lead`` is ``"any"``). No heart
        lead before hearts are broken unless the hand holds only hearts.
        """
        if self.phase is not PLAY:
            return 0
        hand = self.hands[self.to_act]
        if self.trick:
            follow = hand & self.led_suit_mask
            if follow:
                return follow
            if not self.tricks_played:
                rules = self.rules
                safe = hand & ~rules.first_trick_mask
                if safe:
                    return safe
                hearts = hand & rules.first_trick_hearts
                if hearts:
                    return hearts
            return hand
        if self.lead_card is not None:
            return 1 << self.lead_card
        if not self.tricks_played:
            safe = hand & ~self.rules.first_trick_mask
            if safe:
                hand = safe
        if not self.hearts_broken:
            safe = hand & ~HEARTS_MASK
            if safe:
                return safe
        return hand

    def legal_plays(self) -> CardSet:
        """The legal cards as a readable set."""
        return CardSet(self.legal_mask())

    def legal_cards(self) -> tuple[int, ...]:
        """The legal cards, ascending."""
        return cards_of(self.legal_mask())

    def verify_play(self, card: int | str, seat: int | None = None) -> int:
        """Raise IllegalPlay unless the seat to act may play ``card``; return it."""
        if isinstance(card, str):
            card = parse_card(card)  # CardError names the text
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise IllegalPlay(f"not a card: {short_repr(card)}", seat)
        name = CARD_NAMES[card]
        if self.phase is PASS:
            raise IllegalPlay("cards are still being passed", seat, card)
        if self.phase is DONE:
            raise IllegalPlay("the deal is over", seat, card)
        to_act = self.to_act
        if seat is not None and seat != to_act:
            raise IllegalPlay(f"it is seat {to_act}'s turn, not seat {short_repr(seat)}'s", seat, card)
        hand = self.hands[to_act]
        if not hand >> card & 1:
            raise IllegalPlay(f"seat {to_act} does not hold {name}", to_act, card)
        if self.legal_mask() >> card & 1:
            return card
        raise IllegalPlay(self._refusal(card, hand), to_act, card)

    def _refusal(self, card: int, hand: int) -> str:
        rules = self.rules
        if self.trick and hand & self.led_suit_mask:
            return f"must follow {SUIT_NAMES[self.trick[0] // 13]}"
        if not self.trick and self.lead_card is not None:
            return f"the first trick is led with the {CARD_NAMES[self.lead_card]}"
        if self.tricks_played == 0 and rules.first_trick_mask >> card & 1:
            if hand & ~rules.first_trick_mask:
                return "no points on the first trick"
            if self.trick:  # nothing but points in hand: first_trick_discard "heart"
                return "a heart must be discarded on the first trick"
        if not self.trick and not self.hearts_broken and HEARTS_MASK >> card & 1:
            return "hearts are not broken"
        return f"{CARD_NAMES[card]} may not be played now"  # pragma: no cover - defensive

    def can_play(self, card: int | str) -> bool:
        """Whether the seat to act may play ``card`` now."""
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except CardError:
                return False
        return (
            isinstance(card, int)
            and not isinstance(card, bool)
            and 0 <= card < 52
            and bool(self.legal_mask() >> card & 1)
        )

    def play(self, card: int | str, seat: int | None = None) -> Played:
        """The seat to act plays ``card`` (checked); returns the event.

        ``seat``, when given, must be the seat to act."""
        if (
            type(card) is int
            and 0 <= card < 52
            and (seat is None or seat == self.to_act)
            and self.legal_mask() >> card & 1
        ):
            c = card  # legal: the refusal's reason is not needed
        else:
            c = self.verify_play(card, seat)
        player = self.to_act
        before = self.tricks_played
        self.play_unchecked(c)
        if self.tricks_played != before:
            _, _, winner, points = self.tricks[-1]
            return played(player, c, winner, points, self.phase is DONE)
        return played(player, c)

    def play_unchecked(self, card: int) -> None:
        """Play ``card`` for the seat to act without checks: the fast path for
        search, where the card comes from ``legal_mask()``."""
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        trick = self.trick
        trick.append(card)
        size = len(trick)
        if size == 1:
            self.lead_card = None
            self.trick_leader = seat
            self.led_suit_mask = _SUIT_MASK_OF[card]
            self.winning_card = card
            self.winning_seat = seat
        elif bit & self.led_suit_mask:
            if card > self.winning_card:
                self.winning_card = card
                self.winning_seat = seat
        else:
            self.voids[seat] |= self.led_suit_mask
        # Once broken, hearts stay broken: no mask to test (the common case).
        # A card of the led suit (the lead too) is not a discard.
        if not self.hearts_broken and (
            bit & self._breaks or (self._discard_breaks and bit & self._discard_breaks & ~self.led_suit_mask)
        ):
            self.hearts_broken = True
        if size < self.players:
            self.to_act = self._next[seat]
        else:
            self._end_trick(trick)

    def _end_trick(self, trick: list[int]) -> None:
        winner = self.winning_seat
        rules = self.rules
        pts = self._points
        mask = 0
        points = 0
        for c in trick:
            mask |= 1 << c
            points += pts[c]
        if self.kitty and not self.tricks_played:
            mask |= self.kitty
            for c in cards_of(self.kitty):
                points += pts[c]
        self.taken[winner] |= mask
        if mask & _JD_BIT:
            self.jack_seat = winner
        if not self.hands[winner]:
            points += rules.last_trick_points
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
        if self.phase is not DONE:
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
        other._breaks = self._breaks
        other._discard_breaks = self._discard_breaks
        other._next = self._next
        other._result = self._result
        return other

    # -- comparing and writing ---------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        # Everything else follows from these (the deal is a state machine).
        return (
            self.rules == other.rules
            and self.number == other.number
            and self.pass_offset == other.pass_offset
            and self.dealt == other.dealt
            and self.kitty == other.kitty
            and self.passes == other.passes
            and self.plays == other.plays
        )

    __hash__ = None  # type: ignore[assignment]  # a deal changes as it is played

    def __repr__(self) -> str:
        """``Deal(rules, hands as dealt, ...)`` with the passes and plays so far:
        evaluated (with ``Deal`` and ``Rules`` in scope), an equal deal."""
        hands = ", ".join(repr(str(CardSet(h))) for h in self.dealt)
        parts = [repr(self.rules), f"[{hands}]"]
        if self.kitty:
            parts.append(f"kitty={str(CardSet(self.kitty))!r}")
        if self.number:
            parts.append(f"number={self.number}")
        if self.pass_offset != self.rules.pass_offset(self.number):
            parts.append("skip_pass=True")
        if any(p is not None for p in self.passes):
            passes = ", ".join("None" if p is None else repr(str(CardSet(p))) for p in self.passes)
            parts.append(f"passes=[{passes}]")
        if self.play_count:
            parts.append(f"plays={' '.join(CARD_NAMES[c] for c in self.plays)!r}")
        return f"Deal({', '.join(parts)})"


def legal_mask_for(
    rules: Rules,
    hand: int,
    trick: Sequence[int],
    first_trick: bool,
    lead_card: int | None,
    hearts_broken: bool,
) -> int:
    """The legal cards of ``hand`` in a position given by its parts (a seat's
    view has no ``Deal``): what ``Deal.legal_mask`` answers there.

    >>> two_of_clubs = [parse_card("2C")]
    >>> CardSet(legal_mask_for(Rules(), to_mask("3C 9D QS 5H"), two_of_clubs, True, None, False))
    CardSet.parse('3C')
    >>> CardSet(legal_mask_for(Rules(), to_mask("QS 5H"), two_of_clubs, True, None, False))
    CardSet.parse('5H QS')
    >>> heart = Rules(first_trick_discard="heart")
    >>> CardSet(legal_mask_for(heart, to_mask("QS 5H"), two_of_clubs, True, None, False))
    CardSet.parse('5H')
    """
    # A deal reduced to what legal_mask reads, so that the rules are stated
    # once, where the search's hot path needs them without a call more.
    position = Deal.__new__(Deal)
    position.rules = rules
    position.phase = PLAY
    position.hands = [hand]
    position.to_act = 0
    position.trick = list(trick)
    position.led_suit_mask = _SUIT_MASK_OF[trick[0]] if trick else 0
    position.tricks_played = 0 if first_trick else 1
    position.lead_card = lead_card
    position.hearts_broken = hearts_broken
    return position.legal_mask()


def _radix_runs(n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """``n, n-1, ..., 2`` cut into runs whose product fits in 62 bits, each with
    that product and its bit length."""
    runs = []
    i = n
    while i > 1:
        product = 1
        run = []
        while i > 1 and product * i < 1 << 62:
            product *= i
            run.append(i)
            i -= 1
        runs.append((product, product.bit_length(), tuple(run)))
    return tuple(runs)


_RUNS = {n: _radix_runs(n) for n in range(53)}


def shuffle(cards: list[T], rng: random.Random) -> None:
    """Shuffle ``cards`` in place, uniformly, with ``rng``: a Fisher-Yates
    shuffle whose swaps are the digits of one uniform number per run of
    steps (drawn by rejection, so exactly uniform), about twice as fast as
    ``rng.shuffle``."""
    getrandbits = rng.getrandbits
    j = len(cards)
    for product, bits, run in _RUNS[j]:
        x = getrandbits(bits)
        while x >= product:
            x = getrandbits(bits)
        for n in run:
            x, i = divmod(x, n)
            j -= 1
            cards[i], cards[j] = cards[j], cards[i]


def _check_hands(rules: Rules, hands: list[int], kitty: int) -> None:
    n = rules.players
    if len(hands) != n:
        raise DealError(f"{n} hands are needed for {n} players, not {len(hands)}")
    size = rules.hand_size
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0 or hand >> 52:
            raise DealError(f"hand {seat} is not a set of cards", seat)
        count = hand.bit_count()
        if count != size:
            raise DealError(f"hand {seat} has {count} cards, a hand of this deal has {size}", seat)
        dup = seen & hand
        if dup:
            raise DealError(f"{CARD_NAMES[lowest(dup)]} is dealt twice", seat, lowest(dup))
        seen |= hand
    if not isinstance(kitty, int) or isinstance(kitty, bool) or kitty < 0 or kitty >> 52:
        raise DealError("the kitty is not a set of cards")
    if kitty.bit_count() != rules.kitty_size:
        found, wanted = kitty.bit_count(), rules.kitty_size
        if wanted == 0:
            raise DealError(f"there is no kitty with these rules, but {_cards(found)} lie there")
        raise DealError(f"the kitty has {_cards(found)}, it should have {wanted}")
    dup = seen & kitty
    if dup:
        raise DealError(f"{CARD_NAMES[lowest(dup)]} is dealt twice", None, lowest(dup))
    seen |= kitty
    extra = seen & ~rules.deck_cards
    if extra:
        card = lowest(extra)
        reason = "removed from the deck" if rules.removed_mask >> card & 1 else "not in this deck"
        raise DealError(f"{CARD_NAMES[card]} is {reason}", _seat_of(hands, card), card)
    missing = rules.deck_cards & ~seen
    if missing:
        card = lowest(missing)
        raise DealError(f"{CARD_NAMES[card]} is missing", None, card)


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _seat_of(hands: list[int], card: int) -> int | None:
    for seat, hand in enumerate(hands):
        if hand >> card & 1:
            return seat
    return None
