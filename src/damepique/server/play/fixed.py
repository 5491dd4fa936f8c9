"""A game of a fixed number of deals whose secret is kept past its end.

The daily deal and a club's duplicate tournament deal the same cards to many
games at once, from one secret: a game that ends keeps it (the others are
still playing those cards) until ``revealed()`` says it may go, and once
``closed()`` (the day is over, the director ended the round) nothing more is
played. Its deals are a ``FixedMatch``: a fixed number of deals, every one
played wherever it is played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from damepique.bots.par import FixedMatch
from damepique.engine import Rules
from damepique.engine.fairness import fairness_json

from ..errors import Refusal
from ..protocol import Json
from .game import Game, Seat


class FixedGame(Game):
    """``deals`` deals from ``secret``; ``closed()``: nothing more is played
    (``refusal`` says why); ``revealed()``: the secret may be told."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[Seat],
        secret: bytes,
        *,
        deals: int,
        closed: Callable[[], bool],
        revealed: Callable[[], bool],
        refusal: Refusal,
    ) -> None:
        super().__init__(rules, seats, secret)
        self.match = FixedMatch(rules, deals)
        self._closed = closed
        self._revealed = revealed
        self._refusal = refusal
        self._replaying = False

    @property
    def closed(self) -> bool:
        return not self._replaying and self._closed()

    def fairness(self) -> dict[str, str] | None:
        return fairness_json(self.secret, revealed=self._revealed())

    def waiting_on(self) -> list[int]:
        return [] if self.closed else super().waiting_on()

    def needs_deal(self) -> bool:
        return not self.closed and super().needs_deal()

    def _check_open(self) -> None:
        if self.closed:
            raise self._refusal

    def pass_cards(self, seat: int, cards: Sequence[int]) -> Json:
        self._check_open()
        return super().pass_cards(seat, cards)

    def play(self, seat: int, card: int) -> Json:
        self._check_open()
        return super().play(seat, card)

    def claim(self, seat: int) -> list[Json]:
        self._check_open()
        return super().claim(seat)

    def replayed(self, events: Sequence[Json]) -> FixedGame:
        """This new game with its stored ``events`` applied (even once closed)."""
        self._replaying = True
        try:
            for e in events:
                self.apply_stored(e)
        finally:
            self._replaying = False
        return self


__all__ = ["FixedGame"]
