"""Frozen events: what each action did, appended to a deal's log.

The log is what the server stores and streams; ``views`` turns it into what
one seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_NAMES


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


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a deal: ``points`` after the moon and J♦ rules, the
    shooter's seat or None, and the points taken before those rules."""

    points: tuple[int, ...]
    moon: int | None
    taken: tuple[int, ...]
    complete: bool = True
