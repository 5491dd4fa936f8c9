"""One table: the match, its seats, and one command at a time.

A ``Table`` has no sockets, no database and no clock: it takes a command for a
seat, checks it with the engine, applies it and returns the events it caused.
The runner stores those events before anyone hears of them, and the same
events replayed through a fresh table rebuild it exactly (``Table.replay``).

>>> seats = [Seat("human", "You")] + [Seat("bot", "B", "random")] * 3
>>> t = Table.new(Rules(target=50, passing=False), seats, secret=bytes(32))
>>> [e["type"] for e in t.start()]
['deal']
>>> t.match.deal.phase
'play'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from damepique.engine import (
    CARD_NAMES,
    DONE,
    PASS,
    PLAY,
    Deal,
    IllegalAction,
    Match,
    Rules,
    cards_of,
    parse_card,
    view_of,
)
from damepique.engine.errors import CardError
from damepique.engine.fairness import derived_seed, fairness_json, sealed_deal
from damepique.engine.record import dump_match


class CommandError(Exception):
    """A command the table refuses; nothing changed. ``code`` is stable, ``reason`` readable."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: ``kind`` is ``"human"`` or ``"bot"``; ``level`` names the bot."""

    kind: str
    name: str
    level: str | None = None
    player: str | None = None
    """The player id (a human's browser) holding this seat, if any."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(data["kind"], data["name"], data.get("level"), data.get("player"))


class Table:
    """The one writer of a match: applies commands in order and returns events.

    Events are JSON-ready dicts: ``deal`` (the hands dealt: secret, stored,
    never sent), ``pass`` and ``play``. They are the stored log.

    Every deal comes from the game's ``secret`` (``engine.fairness``): the
    seats are told its commitment at the start and the secret itself once the
    game is over. ``sealed`` is False for a game begun before deals were
    sealed: its later deals come from a secret too, but none was committed to
    at its start, so it has nothing to prove.
    """

    def __init__(self, rules: Rules, seats: list[Seat], secret: bytes, sealed: bool = True) -> None:
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats for {rules.players} players")
        self.rules = rules
        self.seats = list(seats)
        self.secret = secret
        self.sealed = sealed
        self.match = Match(rules)
        self.log: list[dict[str, Any]] = []

    @classmethod
    def new(cls, rules: Rules, seats: list[Seat], secret: bytes, sealed: bool = True) -> Table:
        return cls(rules, seats, secret, sealed)

    # -- state ---------------------------------------------------------------

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

    def view(self, seat: int) -> dict[str, Any] | None:
        deal = self.deal
        if deal is None:
            return None
        return view_of(deal, seat, self.totals_before(deal)).to_json()

    def view_object(self, seat: int):  # type: ignore[no-untyped-def]
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

    def record(self) -> dict[str, Any]:
        record = dump_match(self.match, [s.name for s in self.seats])
        fairness = self.fairness()
        if fairness is not None:
            record["fairness"] = fairness
        return record

    def results(self) -> list[dict[str, Any]]:
        """Finished deals: points per seat and the moon shooter, for the score sheet."""
        out = []
        for d in self.match.deals:
            if d.phase == DONE:
                r = d.result()
                out.append({"points": list(r.points), "moon": r.moon, "taken": list(r.taken)})
        return out

    # -- commands --------------------------------------------------------------

    def start(self) -> list[dict[str, Any]]:
        """Deal the next hands if the previous deal is finished and the game goes on."""
        if not self.needs_deal():
            return []
        # Each deal from the secret and its number alone: the same hands after a
        # restart whatever happened before, with no generator state to store.
        number = len(self.match.deals)
        shuffled = sealed_deal(self.rules, self.secret, number)
        deal = self.match.next_deal(shuffled.dealt, shuffled.kitty)
        event = {
            "type": "deal",
            "number": deal.number,
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in deal.dealt],
            "kitty": [CARD_NAMES[c] for c in cards_of(deal.kitty)],
        }
        self.log.append(event)
        return [event]

    def pass_cards(self, seat: int, cards: object) -> dict[str, Any]:
        deal = self.deal
        if deal is None or self.over:
            raise CommandError("no_game", "the game is over" if self.over else "no deal in progress")
        if deal.phase != PASS:
            raise CommandError("not_passing", "there is no passing now")
        if deal.passes[seat] is not None:
            raise CommandError("already_passed", "you have already passed")
        parsed = _parse_cards(cards)
        try:
            ev = deal.pass_cards(seat, parsed)
        except IllegalAction as e:
            raise CommandError("illegal_pass", e.reason) from None
        event = {
            "type": "pass",
            "seat": seat,
            "cards": [CARD_NAMES[c] for c in ev.cards],
            "complete": ev.complete,
        }
        self.log.append(event)
        return event

    def play(self, seat: int, card: object) -> dict[str, Any]:
        deal = self.deal
        if deal is None or self.over:
            raise CommandError("no_game", "the game is over" if self.over else "no deal in progress")
        if not isinstance(card, str):
            raise CommandError("bad_card", "a card is a string such as 'QS'")
        try:
            c = parse_card(card)
        except CardError as e:
            raise CommandError("bad_card", e.reason) from None
        if deal.phase == PASS:
            raise CommandError("not_playing", "cards are still being passed")
        if deal.phase != PLAY:
            raise CommandError("not_playing", "the deal is over")
        if deal.to_act != seat:
            raise CommandError("not_your_turn", f"it is {self.seats[deal.to_act].name}'s turn")
        try:
            ev = deal.play(c, seat)
        except IllegalAction as e:
            raise CommandError("illegal_play", e.reason) from None
        event: dict[str, Any] = {"type": "play", "seat": seat, "card": CARD_NAMES[c]}
        if ev.trick_winner is not None:
            event["trick_winner"] = ev.trick_winner
            event["trick_points"] = ev.trick_points
        if ev.deal_over:
            event["deal_over"] = True
            event["game_over"] = self.match.over
        self.log.append(event)
        return event

    # -- rebuilding --------------------------------------------------------------

    def apply_stored(self, event: dict[str, Any]) -> None:
        """Apply one stored event (after a restart); raises if it does not fit."""
        kind = event["type"]
        if kind == "deal":
            deal = self.match.next_deal(event["hands"], event.get("kitty") or [])
            if deal.number != event["number"]:
                raise ValueError("stored deal number does not match")
            self.log.append(event)
        elif kind == "pass":
            self.pass_cards(event["seat"], event["cards"])
        elif kind == "play":
            self.play(event["seat"], event["card"])
        else:
            raise ValueError(f"unknown stored event {kind!r}")

    @classmethod
    def replay(
        cls, rules: Rules, seats: list[Seat], secret: bytes, events: list[dict[str, Any]], sealed: bool = True
    ) -> Table:
        table = cls(rules, seats, secret, sealed)
        for e in events:
            table.apply_stored(e)
        return table


def _parse_cards(cards: object) -> list[int]:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise CommandError("bad_card", "cards must be a list of card strings such as 'QS'")
    if len(cards) > 52:
        raise CommandError("illegal_pass", "too many cards")
    try:
        return [parse_card(c) for c in cards]
    except CardError as e:
        raise CommandError("bad_card", e.reason) from None


__all__ = ["CommandError", "Seat", "Table"]
