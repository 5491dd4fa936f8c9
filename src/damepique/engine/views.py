"""What one seat may know, and nothing else.

A ``View`` holds the seat's own hand, the cards it passed and to whom, the
cards it received, and everything public: plays with who played them, tricks
and their winners, hearts broken, points taken so far, voids shown by failing
to follow, hand sizes, the kitty once the first trick has taken it. Two deals
that differ only in cards this seat cannot know give equal views.

Bots receive a View and nothing more; ``View.world`` rebuilds a full deal
from hands *they* sampled, for search.

>>> import random
>>> deal = Deal.shuffled(Rules(), random.Random(2))
>>> view = view_of(deal, 0)
>>> view.hand == deal.hands[0], view.phase
(True, 'pass')

A server sending every seat its view after each card builds the public part
once (``public_json``) and adds each seat's own fields (``seat_json``):

>>> {**public_json(deal), **seat_json(deal, 0)} == view.to_json()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_NAMES, SUIT_MASKS, cards_of
from .deal import DONE, PASS, PLAY, Deal, Phase, legal_mask_for
from .events import DealResult
from .rules import Rules

Trick = tuple[int, tuple[int, ...], int, int]


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a deal (and of the match totals before it)."""

    rules: Rules
    seat: int
    number: int
    phase: Phase
    to_act: int | None
    """The seat whose turn it is to play; in the pass phase, this seat while it
    has not passed yet, else None."""
    hand: int
    dealt: int
    pass_offset: int
    passed: int | None
    received: int | None
    passed_seats: tuple[bool, ...]
    plays: tuple[tuple[int, int], ...]
    """(seat, card) of every card played, in order."""
    trick: tuple[int, ...]
    trick_leader: int
    tricks: tuple[Trick, ...]
    hearts_broken: bool
    taken_points: tuple[int, ...]
    jack_seat: int | None
    voids: tuple[int, ...]
    """Per seat, a mask of the suits (whole suit masks) it has shown void in."""
    hand_sizes: tuple[int, ...]
    kitty: int
    """The kitty's cards once the first trick has taken them, else 0."""
    lead_card: int | None
    totals: tuple[int, ...] = field(default=())
    result: DealResult | None = None

    # -- derived -----------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def pass_target(self) -> int:
        return (self.seat + self.pass_offset) % self.rules.players

    @property
    def pass_source(self) -> int:
        return (self.seat - self.pass_offset) % self.rules.players

    @property
    def first_trick(self) -> bool:
        return not self.tricks

    @property
    def played_mask(self) -> int:
        m = 0
        for _, c in self.plays:
            m |= 1 << c
        return m

    def played_by(self, seat: int) -> int:
        m = 0
        for s, c in self.plays:
            if s == seat:
                m |= 1 << c
        return m

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands or the hidden kitty."""
        known = self.hand | self.played_mask | self.kitty
        return self.rules.deck_cards & ~known

    @property
    def known_cards(self) -> dict[int, int]:
        """Cards this seat knows to be in another hand: those it passed, not yet played."""
        out: dict[int, int] = {}
        if self.passed is not None and self.received is not None and self.pass_offset:
            target = self.pass_target
            out[target] = self.passed & ~self.played_by(target)
        return out

    def legal_mask(self) -> int:
        """The cards this seat may play now (0 when it is not its turn to play)."""
        if self.phase != PLAY or self.to_act != self.seat:
            return 0
        return legal_mask_for(
            self.rules, self.hand, self.trick, not self.tricks, self.lead_card, self.hearts_broken
        )

    def legal_cards(self) -> tuple[int, ...]:
        return cards_of(self.legal_mask())

    def world(self, hands: Sequence[int], kitty: int = 0) -> Deal:
        """A full deal at this point, from every seat's current hand (masks) and
        the hidden kitty, as sampled by a bot; for search."""
        rules = self.rules
        if self.phase == PASS:
            deal = Deal(rules, hands, kitty or self.kitty, self.number)
            return deal
        original = list(hands)
        for s, c in self.plays:
            original[s] |= 1 << c
        deal = Deal(rules, original, kitty or self.kitty, self.number, skip_pass=True)
        for _, c in self.plays:
            deal.play_unchecked(c)
        return deal

    def to_json(self) -> dict[str, Any]:
        """The view with cards as the record's strings, for the wire."""

        def names(mask: int | None) -> list[str] | None:
            return None if mask is None else [CARD_NAMES[c] for c in cards_of(mask)]

        return {
            "seat": self.seat,
            "deal": self.number,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": names(self.hand),
            "legal": names(self.legal_mask()),
            "pass_direction": direction_name(self.pass_offset, self.rules.players),
            "pass_to": self.pass_target if self.pass_offset else None,
            "passed": names(self.passed),
            "received": names(self.received),
            "passed_seats": list(self.passed_seats),
            "trick": [CARD_NAMES[c] for c in self.trick],
            "trick_leader": self.trick_leader,
            "tricks": [
                {"leader": ld, "cards": [CARD_NAMES[c] for c in cs], "winner": w, "points": p}
                for ld, cs, w, p in self.tricks
            ],
            "hearts_broken": self.hearts_broken,
            "taken_points": list(self.taken_points),
            "hand_sizes": list(self.hand_sizes),
            "voids": [[s for s in range(4) if v & SUIT_MASKS[s]] for v in self.voids],
            "kitty": names(self.kitty),
            "totals": list(self.totals),
            "result": None
            if self.result is None
            else {"points": list(self.result.points), "moon": self.result.moon},
        }


def direction_name(offset: int, players: int) -> str:
    o = offset % players
    if o == 0:
        return "none"
    if o == 1:
        return "left"
    if o == players - 1:
        return "right"
    return "across"


def view_of(deal: Deal, seat: int, totals: Sequence[int] = ()) -> View:
    """What ``seat`` knows of ``deal``."""
    n = deal.players
    exchanged = deal.phase != PASS
    passed = deal.passes[seat]
    source = deal.pass_source(seat)
    received = None
    if exchanged and deal.pass_offset % n:
        received = deal.passes[source]
    if deal.phase == PASS:
        to_act: int | None = seat if passed is None else None
    elif deal.phase == PLAY:
        to_act = deal.to_act
    else:
        to_act = None
    played_count = [0] * n
    for s in deal.seats:
        played_count[s] += 1
    hand_sizes = tuple(deal.rules.hand_size - played_count[s] for s in range(n))
    return View(
        rules=deal.rules,
        seat=seat,
        number=deal.number,
        phase=deal.phase,
        to_act=to_act,
        # Before the exchange the passed cards are set aside, no longer in hand.
        hand=deal.hands[seat] if exchanged or passed is None else deal.hands[seat] & ~passed,
        dealt=deal.dealt[seat],
        pass_offset=deal.pass_offset % n,
        passed=passed,
        received=received,
        passed_seats=tuple(p is not None for p in deal.passes) if deal.pass_offset % n else (),
        plays=tuple(zip(deal.seats, deal.plays, strict=True)),
        trick=tuple(deal.trick),
        trick_leader=deal.trick_leader if deal.trick else (deal.to_act if deal.phase == PLAY else -1),
        tricks=tuple(deal.tricks),
        hearts_broken=deal.hearts_broken,
        taken_points=tuple(deal.taken_points),
        jack_seat=deal.jack_seat,
        voids=tuple(deal.voids),
        hand_sizes=hand_sizes,
        kitty=deal.kitty if deal.tricks_played else 0,
        lead_card=deal.lead_card,
        totals=tuple(totals),
        result=deal.result() if deal.phase == DONE else None,
    )


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def public_json(
    deal: Deal, totals: Sequence[int] = (), before: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``view_of(deal, seat, totals).to_json()`` without anything private: what a
    spectator may see (no seat, no hand, no legal cards, no passed or received
    cards; ``to_act`` only in the play phase). The same for every seat, so a
    server builds it once per update, without a ``View``.

    ``before``: what this function returned for the same deal at an earlier
    position of its play phase (the deal was ``before["deal"]`` and is still
    being played), or None. Then only the fields that change while cards are
    played are written again, the others and the tricks already finished are
    ``before``'s very objects (``totals`` is not read: a deal's totals do not
    change while it is played), which is cheaper, and cheaper still to
    compare with ``before``. Never change what it returns: it may be shared.
    """
    phase = deal.phase
    if before is not None and phase == PLAY and before["phase"] == PLAY and before["deal"] == deal.number:
        out = dict(before)
        out.update(_play_json(deal, before["tricks"]))
        if deal.tricks_played and not before["kitty"] and deal.kitty:
            out["kitty"] = _names(deal.kitty)  # taken with the first trick
        return out
    n = deal.players
    offset = deal.pass_offset % n
    result = deal.result() if phase == DONE else None
    play = _play_json(deal, [])
    return {  # in the order of View.to_json
        "seat": None,
        "deal": deal.number,
        "phase": phase,
        "to_act": play["to_act"],
        "hand": [],
        "legal": [],
        "pass_direction": direction_name(offset, n),
        "pass_to": None,
        "passed": None,
        "received": None,
        "passed_seats": [p is not None for p in deal.passes] if offset else [],
        "trick": play["trick"],
        "trick_leader": play["trick_leader"],
        "tricks": play["tricks"],
        "hearts_broken": play["hearts_broken"],
        "taken_points": play["taken_points"],
        "hand_sizes": play["hand_sizes"],
        "voids": play["voids"],
        "kitty": _names(deal.kitty if deal.tricks_played else 0),
        "totals": list(totals),
        "result": None if result is None else {"points": list(result.points), "moon": result.moon},
    }


def _play_json(deal: Deal, written: list[dict[str, Any]]) -> dict[str, Any]:
    """The public fields that change as cards are played. ``written``: the
    deal's first tricks as written before (a prefix of its tricks), kept as
    they are when no trick was finished since."""
    n = deal.players
    phase = deal.phase
    trick = deal.trick
    tricks = deal.tricks
    leader = deal.trick_leader
    done = deal.tricks_played
    if len(written) != len(tricks):
        written = written + [
            {"leader": ld, "cards": [CARD_NAMES[c] for c in cs], "winner": w, "points": p}
            for ld, cs, w, p in tricks[len(written) :]
        ]
    # Every seat plays one card to each trick: the hand sizes follow from the trick count.
    in_trick = len(trick)
    size = deal.rules.hand_size - done
    return {
        "to_act": deal.to_act if phase == PLAY else None,
        "trick": [CARD_NAMES[c] for c in trick],
        "trick_leader": leader if trick else (deal.to_act if phase == PLAY else -1),
        "tricks": written,
        "hearts_broken": deal.hearts_broken,
        "taken_points": list(deal.taken_points),
        "hand_sizes": [size - (1 if (s - leader) % n < in_trick else 0) for s in range(n)],
        "voids": [[s for s in range(4) if v & SUIT_MASKS[s]] for v in deal.voids],
    }


PLAY_FIELDS = frozenset(
    (
        "to_act",
        "trick",
        "trick_leader",
        "tricks",
        "hearts_broken",
        "taken_points",
        "hand_sizes",
        "voids",
        "kitty",
    )
)
"""The keys of ``public_json`` that may change while a deal is played (the
others stay as they were when its play began)."""


SEAT_FIELDS = frozenset({"seat", "to_act", "hand", "legal", "pass_to", "passed", "received"})
"""The keys of ``seat_json``: those of a seat's view that ``public_json`` holds
only as blanks (a server writing the view as text leaves them out of the public part)."""


SeatFields = tuple[int | None, int, int, int | None, int | None, int | None]
"""``seat_json``'s fields as numbers: ``to_act``, then the cards of ``hand``
and ``legal`` as masks, ``pass_to``, and ``passed`` and ``received`` as masks
(None: not passed, not received)."""

SEAT_FIELD_KEYS = ("to_act", "hand", "legal", "pass_to", "passed", "received")
"""The keys of ``SeatFields``, in its order."""
SEAT_FIELD_CARDS = (False, True, True, False, True, True)
"""For each of ``SeatFields``: whether it is a set of cards (a mask, written as names)."""


def seat_fields(deal: Deal, seat: int) -> SeatFields:
    """What ``seat_json`` writes, as numbers and card masks (``SeatFields``):
    cheap to build and to compare, for a server that writes only what changed."""
    n = deal.players
    offset = deal.pass_offset % n
    phase = deal.phase
    passed = deal.passes[seat]
    hand = deal.hands[seat]
    received = None
    legal = 0
    if phase == PASS:
        to_act: int | None = seat if passed is None else None
        if passed is not None:
            hand &= ~passed  # set aside, no longer in hand
    else:
        to_act = deal.to_act if phase == PLAY else None
        if offset:
            received = deal.passes[deal.pass_source(seat)]
        if to_act == seat:
            legal = legal_mask_for(
                deal.rules, hand, deal.trick, not deal.tricks, deal.lead_card, deal.hearts_broken
            )
    return (to_act, hand, legal, (seat + offset) % n if offset else None, passed, received)


def seat_json(deal: Deal, seat: int, names: Callable[[int], list[str]] = _names) -> dict[str, Any]:
    """The fields of ``view_of(deal, seat).to_json()`` that only ``seat`` may see
    (and ``to_act``, which differs by seat while passing); laid over
    ``public_json(deal)`` they give the seat's whole view. ``names`` writes a
    set of cards as a list of names (a server may pass one that remembers its
    lists, so that an unchanged hand is the very same list, cheap to compare)."""
    return seat_fields_json(seat, seat_fields(deal, seat), names)


def seat_fields_json(
    seat: int, fields: SeatFields, names: Callable[[int], list[str]] = _names
) -> dict[str, Any]:
    """``seat_json`` from ``seat_fields``."""
    to_act, hand, legal, pass_to, passed, received = fields
    return {
        "seat": seat,
        "to_act": to_act,
        "hand": names(hand),
        "legal": names(legal),
        "pass_to": pass_to,
        "passed": None if passed is None else names(passed),
        "received": None if received is None else names(received),
    }
