"""One game: the match, its seats and its event log, one command at a time.

A ``Game`` has no sockets, no database and no clock: it takes a command for
a seat (cards as ints: parsing stays at the protocol's edge), checks it with
the engine, applies it and returns the events it caused, as the JSON the
engine writes (``events``). The runner stores those events before anyone
hears of them, and the same events replayed through a fresh game rebuild it
exactly (``Game.replay``). Every deal comes from the game's secret
(``engine.fairness``).

>>> seats = [Seat("human", "You")] + [Seat("bot", "B", "random")] * 3
>>> g = Game(Rules(target=50, passing=False), seats, secret=bytes(32))
>>> [e["type"] for e in g.deal_next()]
['deal']
>>> g.play(0, 0)
Traceback (most recent call last):
...
damepique.server.errors.Refusal: it is B's turn
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from damepique.engine import (
    CARD_NAMES,
    DONE,
    PASS,
    PLAY,
    ClaimError,
    Deal,
    Dealt,
    IllegalAction,
    Match,
    Rules,
    View,
    claim_plan_of,
    parse_card,
    view_of,
)
from damepique.engine.claims import finish_claim
from damepique.engine.fairness import derived_seed, fairness_json, sealed_deal
from damepique.engine.record import dump_match
from damepique.wire import DealResult, claim_event, deal_result, decision_id, hint_event, parse_decision

from ..errors import Refusal
from ..protocol import Json


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: ``kind`` is ``"human"`` or ``"bot"``; ``level`` names the bot."""

    kind: str
    name: str
    level: str | None = None
    player: str | None = None
    """The browser id of the person in this seat, if known (a solo game's history)."""

    def to_json(self) -> Json:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Json) -> Seat:
        return cls(data["kind"], data["name"], data.get("level"), data.get("player"))


NO_CLAIM = "these cards are not sure to take every trick left, or none with no points left: play on"


class Game:
    """The one writer of a match: applies commands in order and returns events.

    ``sealed`` is False for a game begun before deals were sealed: its later
    deals come from a secret too, but none was committed to at its start, so
    it has nothing to prove (no ``fairness``)."""

    def __init__(self, rules: Rules, seats: Sequence[Seat], secret: bytes, sealed: bool = True) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats for {rules.players} players")
        self.rules = rules
        self.seats = list(seats)
        self.secret = secret
        self.sealed = sealed
        self.match = Match(rules)
        self.log: list[Json] = []
        self.hints: set[tuple[int, int, int]] = set()
        """(seat, deal, trick) of every hint given: one a trick."""

    # -- state ---------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        return self.match.deal

    @property
    def over(self) -> bool:
        return self.match.over

    def totals_before(self, deal: Deal) -> list[int]:
        totals = [0] * self.rules.players
        for d in self.match.deals:
            if d is deal:
                break
            for s, p in enumerate(d.result().points):
                totals[s] += p
        return totals

    def view(self, seat: int) -> View:
        """What ``seat`` knows now (there is a deal)."""
        deal = self.deal
        assert deal is not None
        return view_of(deal, seat, self.totals_before(deal))

    def waiting_on(self) -> list[int]:
        """Seats that must act now (all passers in the pass phase, else the seat to play)."""
        deal = self.deal
        if deal is None or self.over:
            return []
        if deal.phase == PASS:
            return deal.passing_seats
        if deal.phase == PLAY:
            return [deal.to_act]
        return []

    def needs_deal(self) -> bool:
        deal = self.deal
        return (deal is None or deal.phase == DONE) and not self.over

    def fairness(self) -> dict[str, str] | None:
        """The record's ``fairness`` object as the seats may know it now: the
        commitment, and the secret once the game is over (None: not sealed)."""
        return fairness_json(self.secret, revealed=self.over) if self.sealed else None

    def bot_seed(self, seat: int) -> int:
        """The seed of a bot's decision now: from the secret, apart from the deals' streams."""
        return derived_seed(self.secret, f"bot:{len(self.log)}:{seat}") & 0xFFFFFFFF

    def record(self) -> Json:
        """The ``damepique-game/1`` record (every hand: only once the game is over)."""
        record = dump_match(self.match, [s.name for s in self.seats])
        fairness = self.fairness()
        if fairness is not None:
            record["fairness"] = fairness
        return record

    def results(self) -> list[DealResult]:
        """Finished deals: points per seat and the moon shooter, for the score sheet."""
        out = []
        for d in self.match.deals:
            if d.phase == DONE:
                r = d.result()
                out.append(deal_result(list(r.points), r.moon, list(r.taken)))
        return out

    # -- commands ------------------------------------------------------------------

    def deal_next(self) -> list[Json]:
        """Deal the next hands if the previous deal is finished and the game goes on."""
        if not self.needs_deal():
            return []
        # Each deal from the secret and its number alone: the same hands after a
        # restart whatever happened before, with no generator state to store.
        number = len(self.match.deals)
        shuffled = sealed_deal(self.rules, self.secret, number)
        deal = self.match.next_deal(shuffled.dealt, shuffled.kitty)
        event = Dealt(deal.number, deal.dealt, deal.kitty).to_json()
        self.log.append(event)
        return [event]

    def decision_of(self, seat: int) -> str | None:
        """The id of the decision asked of ``seat`` now (its view's ``decision``), or None."""
        deal = self.match.deal
        if deal is None or self.over:
            return None
        if deal.phase == PASS and deal.passes[seat] is None:
            return decision_id(deal.number, "pass", seat)
        if deal.phase == PLAY and deal.to_act == seat:
            return decision_id(deal.number, "play", deal.play_count)
        return None

    def answered(self, decision: str) -> bool:
        """Whether ``decision`` names a decision of this game already made (by
        anybody: a stand-in or the timer's card counts too)."""
        parsed = parse_decision(decision)
        if parsed is None:
            return False
        number, phase, index = parsed
        if number >= len(self.match.deals):
            return False
        deal = self.match.deals[number]
        if phase == "pass":
            return index < len(deal.passes) and deal.passes[index] is not None
        return index < deal.play_count

    def pass_cards(self, seat: int, cards: Sequence[int]) -> Json:
        deal = self._deal_in_progress()
        if deal.phase != PASS:
            raise Refusal("not_passing", "there is no passing now")
        if deal.passes[seat] is not None:
            raise Refusal("already_passed", "you have already passed")
        try:
            event = deal.pass_cards(seat, list(cards)).to_json()
        except IllegalAction as e:
            raise Refusal.from_engine(e) from None
        self.log.append(event)
        return event

    def play(self, seat: int, card: int) -> Json:
        deal = self._deal_in_progress()
        if deal.phase == PASS:
            raise Refusal("not_playing", "cards are still being passed")
        if deal.phase != PLAY:
            raise Refusal("not_playing", "the deal is over")
        if deal.to_act != seat:
            raise Refusal("not_your_turn", f"it is {self.seats[deal.to_act].name}'s turn", seat=seat)
        try:
            played = deal.play(card, seat)
        except IllegalAction as e:
            raise Refusal.from_engine(e) from None
        event = played.to_json()
        if played.deal_over:
            event["game_over"] = self.match.over
        self.log.append(event)
        return event

    def claim(self, seat: int) -> list[Json]:
        """``seat`` ends the deal now: its cards take every trick left, or none
        with no points left (``engine.claims``). A ``claim`` event showing the
        cards it holds in the order they are played and ``tricks`` (``"all"``
        or ``"none"``), then the rest of the deal played out (the claimer's
        cards by the proved plan, the others' lowest legal cards: the score
        does not depend on them), each a ``play`` event as if played. Raises
        ``Refusal`` (nothing changed) when it is not that seat's turn or its
        view cannot prove the claim."""
        deal = self._deal_in_progress()
        if deal.phase != PLAY:
            raise Refusal("not_playing", "a claim is made while cards are played")
        if deal.to_act != seat:
            raise Refusal("not_your_turn", f"it is {self.seats[deal.to_act].name}'s turn", seat=seat)
        plan = claim_plan_of(deal, seat)
        try:
            if plan is None:
                raise ClaimError("no claim proved", seat)
            # Played on a copy first: a claim that fails changes nothing.
            played = finish_claim(deal.copy(), plan)
        except ClaimError:  # its words would name a hidden card
            raise Refusal("no_claim", NO_CLAIM, seat=seat) from None
        cards = [CARD_NAMES[e.card] for e in played if e.seat == seat]
        # A logged event (stamped, stored): a dict of its own.
        claim: Json = dict(claim_event(seat, deal.number, cards, plan.tricks))
        self.log.append(claim)
        return [claim, *finish_claim(deal, plan, self.play)]

    def hint(self, seat: int) -> Json:
        """A hint for ``seat`` now: once a trick (raises ``Refusal`` past that)."""
        deal = self._deal_in_progress()
        if seat not in self.waiting_on():
            raise Refusal("not_your_turn", "a hint is given when it is your turn")
        key = (seat, deal.number, len(deal.tricks))
        if key in self.hints:
            raise Refusal("hint_used", "one hint a trick")
        self.hints.add(key)
        event: Json = dict(hint_event(seat, deal.number, len(deal.tricks)))
        self.log.append(event)
        return event

    def hints_of(self, seat: int) -> int:
        return sum(1 for s, _, _ in self.hints if s == seat)

    def _deal_in_progress(self) -> Deal:
        deal = self.deal
        if deal is None or self.over:
            raise Refusal("no_game", "the game is over" if self.over else "no deal in progress")
        return deal

    # -- rebuilding ------------------------------------------------------------------

    def apply_stored(self, event: Json) -> None:
        """Apply one stored event (after a restart); raises if it does not fit."""
        kind = event["type"]
        if kind == "deal":
            deal = self.match.next_deal(event["hands"], event.get("kitty") or [])
            if deal.number != event["number"]:
                raise ValueError("stored deal number does not match")
            self.log.append(event)
        elif kind == "pass":
            self.pass_cards(event["seat"], [parse_card(c) for c in event["cards"]])
        elif kind == "play":
            self.play(event["seat"], parse_card(event["card"]))
        elif kind == "hint":
            self.hints.add((event["seat"], event["deal"], event["trick"]))
            self.log.append(event)
        elif kind == "claim":
            self.log.append(event)  # the plays that follow it are stored one by one
        else:
            raise ValueError(f"unknown stored event {kind!r}")

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seats: Sequence[Seat],
        secret: bytes,
        events: Sequence[Json],
        sealed: bool = True,
    ) -> Game:
        game = cls(rules, seats, secret, sealed)
        for e in events:
            game.apply_stored(e)
        return game


__all__ = ["Game", "Seat"]
