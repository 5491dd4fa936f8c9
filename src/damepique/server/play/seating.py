"""What a runner asks of the place its game is played: who plays each seat now.

A solo game and a table with others run the same way (``Runner``); what
differs is who sits where and what happens around the game: at a table
with others a bot stands in for a player who is away or left, turns are
timed, a finished game is rated. The runner takes one ``Seating`` for all of
that (``tables.seating`` has both kinds), and asks it, never the other way
round.
"""

from __future__ import annotations

from typing import Protocol

from ..protocol import Json
from .game import Game


class Seating(Protocol):
    @property
    def speed(self) -> str:
        """``normal`` (bots wait as a person would) or ``fast``."""

    @property
    def timer(self) -> int:
        """Seconds per turn for the people at the table (0: no timer)."""

    def stand_in(self, seat: int) -> bool:
        """Whether a bot plays this seat now (a bot's seat, or a person away or gone)."""

    def player_for(self, seat: int) -> tuple[str, str | None]:
        """The bot level that plays ``seat`` now, and the mark (``auto``) its moves
        carry: None for the seat's own bot, ``stand_in`` for a person's seat."""

    def readers(self) -> list[int]:
        """The seats whose people read a finished deal's summary before the next
        deal goes on (none: nothing waits)."""

    def shared(self) -> Json:
        """The keys every state message of this table carries besides the game's
        (``mode``, ``table``): the same object as long as nothing in it changed."""

    async def game_over(self, game_id: str, game: Game) -> None:
        """The game's end is stored: record what follows from it (results, ratings),
        before anyone hears of it."""

    async def after_update(self, game: Game) -> None:
        """An update went out (the table may have something to say: the game ended)."""

    async def notice(self, kind: str, seat: int) -> None:
        """Tell the table something happened to a seat (``timeout``)."""


__all__ = ["Seating"]
