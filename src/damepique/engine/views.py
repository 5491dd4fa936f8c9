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

The events of a game's log (``events``, as JSON) are censored the same way:
``event_for`` gives what one seat may know of each.

>>> event_for({"type": "pass", "seat": 1, "cards": ["QS", "AS", "KS"], "complete": False}, 0)
{'type': 'pass', 'seat': 1, 'complete': False}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CARD_NAMES, JD, SUIT_MASKS, cards_of, parse_card
from .claims import ClaimPlan, claim_for
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
    """The card that must lead the first trick while it must: told to the seat
    that holds it, and to every seat when no hidden kitty could hold a lower club
    (the rules then say which it is)."""
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

    @property
    def decision(self) -> str | None:
        """The id of the decision this view asks of its seat, or None: the same
        in every view until it is made, and unique within the game
        (``decision_id``). An answer that names it can be sent twice safely.

        >>> import random
        >>> view_of(Deal.shuffled(Rules(), random.Random(2)), 1).decision
        '0:pass:1'
        """
        if self.to_act != self.seat or self.result is not None:
            return None
        if self.phase == PASS:
            return decision_id(self.number, "pass", self.seat)
        if self.phase == PLAY:
            return decision_id(self.number, "play", len(self.plays))
        return None

    def claim_plan(self) -> ClaimPlan | None:
        """The claim this seat may make now: its cards take every remaining
        trick, or none with no points left, whatever the others hold
        (``claims.claim_for``); None when it is not its turn to play or that
        is not certain."""
        if self.phase != PLAY or self.to_act != self.seat or not self.hand:
            return None
        n = self.players
        later = [(self.trick_leader + i) % n for i in range(len(self.trick) + 1, n)] if self.trick else []
        others = [s for s in range(n) if s != self.seat]
        return claim_for(
            self.rules,
            self.seat,
            self.hand,
            self.unseen,
            self.trick,
            [self.voids[s] for s in later],
            [self.voids[s] for s in others],
            self.hearts_broken,
            self.taken_points,
            self.jack_seat,
            first_trick=self.first_trick,
            lead_card=self.lead_card,
        )

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
        """The view with cards as the record's strings, for the wire
        (``from_json`` reads it back)."""

        def names(mask: int | None) -> list[str] | None:
            return None if mask is None else [CARD_NAMES[c] for c in cards_of(mask)]

        return {
            "seat": self.seat,
            "deal": self.number,
            "phase": self.phase,
            "to_act": self.to_act,
            "decision": self.decision,
            "hand": names(self.hand),
            "legal": names(self.legal_mask()),
            # Whether this seat's cards must take every trick left, or none with no
            # points left: it may claim the rest.
            "claim": self.claim_plan() is not None,
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

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rules: Rules) -> View:
        """The view ``to_json`` wrote, under ``rules``: exactly the same value
        (``View.from_json(v.to_json(), v.rules) == v``), so a program that gets a
        seat's view over the wire hands its bot what a bot in the server gets.
        What the wire leaves out follows from what it holds: the hand as dealt
        (the hand, what was played from it and passed, less what was received),
        every play with its seat (from the tricks' leaders), who took the J♦
        (the trick with it, or the kitty's first trick), the card that must lead
        (the seat's only legal card, or the rules' lowest club).

        >>> import random
        >>> deal = Deal.shuffled(Rules(), random.Random(2))
        >>> view = view_of(deal, 1, (3, 0, 14, 9))
        >>> View.from_json(view.to_json(), Rules()) == view
        True
        """
        n = rules.players
        seat = int(data["seat"])

        def mask(names: Sequence[str] | None) -> int:
            out = 0
            for name in names or ():
                out |= 1 << parse_card(name)
            return out

        def optional(names: Sequence[str] | None) -> int | None:
            return None if names is None else mask(names)

        tricks: tuple[Trick, ...] = tuple(
            (int(t["leader"]), tuple(parse_card(c) for c in t["cards"]), int(t["winner"]), int(t["points"]))
            for t in data["tricks"]
        )
        trick = tuple(parse_card(c) for c in data["trick"])
        trick_leader = int(data["trick_leader"])
        plays = tuple(((leader + i) % n, c) for leader, cards, _, _ in tricks for i, c in enumerate(cards))
        plays += tuple(((trick_leader + i) % n, c) for i, c in enumerate(trick))
        phase = Phase(data["phase"])
        to_act = data["to_act"]
        hand = mask(data["hand"])
        passed, received = optional(data["passed"]), optional(data["received"])
        pass_to = data["pass_to"]
        kitty = mask(data["kitty"])
        played = 0
        for s, c in plays:
            if s == seat:
                played |= 1 << c
        dealt = (hand | played) & ~(received or 0) | (passed or 0)
        jack_seat = None
        for i, (_, cards, winner, _) in enumerate(tricks):
            if JD in cards or (i == 0 and kitty >> JD & 1):
                jack_seat = winner
        lead_card = None
        if phase == PLAY and not plays and rules.first_lead == "two_of_clubs":
            legal = mask(data["legal"])
            if to_act == seat:
                lead_card = legal.bit_length() - 1
            elif not rules.kitty_size:
                clubs = rules.deck_cards & SUIT_MASKS[0]
                lead_card = (clubs & -clubs).bit_length() - 1
        taken_points = tuple(int(p) for p in data["taken_points"])
        result = data["result"]
        return cls(
            rules=rules,
            seat=seat,
            number=int(data["deal"]),
            phase=phase,
            to_act=to_act,
            hand=hand,
            dealt=dealt,
            pass_offset=0 if pass_to is None else (int(pass_to) - seat) % n,
            passed=passed,
            received=received,
            passed_seats=tuple(bool(p) for p in data["passed_seats"]),
            plays=plays,
            trick=trick,
            trick_leader=trick_leader,
            tricks=tricks,
            hearts_broken=bool(data["hearts_broken"]),
            taken_points=taken_points,
            jack_seat=jack_seat,
            voids=tuple(_suits_mask(suits) for suits in data["voids"]),
            hand_sizes=tuple(int(h) for h in data["hand_sizes"]),
            kitty=kitty,
            lead_card=lead_card,
            totals=tuple(int(t) for t in data["totals"]),
            result=None
            if result is None
            else DealResult(tuple(int(p) for p in result["points"]), result["moon"], taken_points, True),
        )


def _suits_mask(suits: Sequence[int]) -> int:
    out = 0
    for s in suits:
        out |= SUIT_MASKS[s]
    return out


def decision_id(deal: int, phase: str, index: int) -> str:
    """A decision's id: ``DEAL:pass:SEAT`` (a seat's pass in deal DEAL, from 0)
    or ``DEAL:play:K`` (the K-th card of deal DEAL, from 0): unique within a game.

    >>> decision_id(3, "play", 17)
    '3:play:17'
    """
    return f"{deal}:{phase}:{index}"


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
    seats = deal.seats
    played_count = [0] * n
    for s in seats:
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
        plays=tuple(zip(seats, deal.plays, strict=True)),
        trick=tuple(deal.trick),
        trick_leader=deal.trick_leader if deal.trick else (deal.to_act if deal.phase == PLAY else -1),
        tricks=tuple(deal.tricks),
        hearts_broken=deal.hearts_broken,
        taken_points=tuple(deal.taken_points),
        jack_seat=deal.jack_seat,
        voids=tuple(deal.voids),
        hand_sizes=hand_sizes,
        kitty=deal.kitty if deal.tricks_played else 0,
        # The card that must lead is the one its holder must play; under a
        # hidden kitty it tells the others which low clubs lie there.
        lead_card=deal.lead_card if deal.to_act == seat or not deal.rules.kitty_size else None,
        totals=tuple(totals),
        result=deal.result() if deal.phase == DONE else None,
    )


def event_for(event: Mapping[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """What ``seat`` (-1: a spectator) may know of a logged event (``events``'
    JSON): never the hands dealt, and a pass's cards only for the seat that
    passed them; a play is public."""
    if event is None:
        return None
    kind = event["type"]
    if kind == "deal":
        return {"type": "deal", "number": event["number"]}
    if kind == "pass":
        out = {"type": "pass", "seat": event["seat"], "complete": event["complete"]}
        if event["seat"] == seat:
            out["cards"] = list(event["cards"])
        return out
    return dict(event)
