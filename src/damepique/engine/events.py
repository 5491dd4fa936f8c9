"""Frozen events: what each action did, appended to a deal's log.

The log is what the server stores and streams, each event as the JSON its
``to_json`` writes (cards as the record's strings); ``views.event_for`` turns
one into what a seat may know.

>>> Played(2, 49, trick_winner=3, trick_points=13).to_json()
{'type': 'play', 'seat': 2, 'card': 'QS', 'trick_winner': 3, 'trick_points': 13}
>>> Dealt(0, (0b111,), 0).to_json()
{'type': 'deal', 'number': 0, 'hands': [['2C', '3C', '4C']], 'kitty': []}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES, cards_of


@dataclass(frozen=True, slots=True)
class Dealt:
    """Deal ``number`` was dealt: each seat's cards (masks) and the kitty's."""

    number: int
    hands: tuple[int, ...]
    kitty: int

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "deal",
            "number": self.number,
            "hands": [[CARD_NAMES[c] for c in cards_of(h)] for h in self.hands],
            "kitty": [CARD_NAMES[c] for c in cards_of(self.kitty)],
        }


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` gave ``cards`` to ``to_seat``; ``complete`` once every seat has
    passed and the cards have changed hands."""

    seat: int
    cards: tuple[int, ...]
    to_seat: int
    complete: bool

    def __str__(self) -> str:
        names = " ".join(CARD_NAMES[c] for c in self.cards)
        return f"seat {self.seat} passes {names} to seat {self.to_seat}"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "pass",
            "seat": self.seat,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``card``. When it closed a trick, ``trick_winner`` took
    it with ``trick_points`` (kitty and last-trick points included)."""

    seat: int
    card: int
    trick_winner: int | None = None
    trick_points: int = 0
    deal_over: bool = False

    def __str__(self) -> str:
        text = f"seat {self.seat} plays {CARD_NAMES[self.card]}"
        if self.trick_winner is not None:
            text += f"; seat {self.trick_winner} takes the trick"
        return text

    def to_json(self) -> dict[str, Any]:
        """The play; who took the trick it closed, and whether it ended the deal."""
        out: dict[str, Any] = {"type": "play", "seat": self.seat, "card": CARD_NAMES[self.card]}
        if self.trick_winner is not None:
            out["trick_winner"] = self.trick_winner
            out["trick_points"] = self.trick_points
        if self.deal_over:
            out["deal_over"] = True
        return out


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a deal: ``points`` after the moon and J♦ rules, the
    shooter's seat or None, and the points taken before those rules."""

    points: tuple[int, ...]
    moon: int | None
    taken: tuple[int, ...]
    complete: bool = True


# The engine builds its events on the hot path of play: filling the slots
# directly costs half of a frozen dataclass's __init__ (which goes through
# object.__setattr__ once per field). The events are the same: same class,
# equal to ones built the usual way, just as frozen to everybody else.
_new = object.__new__
_PLAYED_SEAT, _PLAYED_CARD, _PLAYED_WINNER, _PLAYED_POINTS, _PLAYED_OVER = (
    vars(Played)[name].__set__ for name in ("seat", "card", "trick_winner", "trick_points", "deal_over")
)
_PASSED_SEAT, _PASSED_CARDS, _PASSED_TO, _PASSED_COMPLETE = (
    vars(Passed)[name].__set__ for name in ("seat", "cards", "to_seat", "complete")
)


def played(
    seat: int, card: int, trick_winner: int | None = None, trick_points: int = 0, deal_over: bool = False
) -> Played:
    """``Played(seat, card, ...)``, built faster.

    >>> played(1, 50, 1, 13) == Played(1, 50, 1, 13)
    True
    """
    event: Played = _new(Played)
    _PLAYED_SEAT(event, seat)
    _PLAYED_CARD(event, card)
    _PLAYED_WINNER(event, trick_winner)
    _PLAYED_POINTS(event, trick_points)
    _PLAYED_OVER(event, deal_over)
    return event


def passed(seat: int, cards: tuple[int, ...], to_seat: int, complete: bool) -> Passed:
    """``Passed(seat, cards, to_seat, complete)``, built faster.

    >>> passed(0, (1, 2, 3), 1, False) == Passed(0, (1, 2, 3), 1, False)
    True
    """
    event: Passed = _new(Passed)
    _PASSED_SEAT(event, seat)
    _PASSED_CARDS(event, cards)
    _PASSED_TO(event, to_seat)
    _PASSED_COMPLETE(event, complete)
    return event
