"""Kinds of table whose games are made their own way (``Tables.kinds``).

An ordinary table deals each game from a fresh secret and plays to the
target. The daily deal's tables (``server/daily``) deal from the day's
secret, play a fixed number of deals and keep the secret until the day is
over; their module registers a ``GameKind`` under the table's ``kind``, and
the registry asks it for the secret, the game and what follows its end,
without importing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from damepique.engine import Rules

from ..play.game import Game, Seat
from ..protocol import Json

if TYPE_CHECKING:
    from .table import Table


class GameKind(Protocol):
    async def new_secret(self, table: Table) -> tuple[bytes, Json]:
        """The deal secret of the table's next game, and what its stored options add."""

    def game(
        self, rules: Rules, seats: Sequence[Seat], secret: bytes, options: Json, events: Sequence[Json]
    ) -> Game:
        """The game (its stored ``events`` replayed: none for a new one)."""

    async def finished(self, table: Table, game_id: str, game: Game) -> None:
        """The game's end is stored (called again after a restart: idempotent)."""


__all__ = ["GameKind"]
