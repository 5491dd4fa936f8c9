"""What a runner is told of the place its game is played: who plays each seat now.

A solo game and a table with others run the same way (``Runner``); what
differs is who sits where and what happens around the game: at a table
with others a bot stands in for a player who is away or left, turns are
timed, a finished game is rated. Who plays each seat, the timer and the
speed change only when seats change hands, so the table hands the runner a
frozen ``SeatPlan`` then (``Runner.reseat``), and the runner reads it for
every card without asking back. What the runner tells its place (the game
is over, a seat timed out) goes through one ``Seating``
(``tables.seating`` has both kinds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from damepique.wire import StateMode

from .game import Game

Player = tuple[str, str | None]
"""A bot's level and the mark its moves carry (None: the seat's own bot; ``stand_in``)."""


@dataclass(frozen=True)
class SeatPlan:
    """Who plays each seat and how the game goes around them, as the table says now.

    >>> plan = SeatPlan("fast", 30, (None, ("expert", None)), "table")
    >>> plan.stand_in(0), plan.stand_in(1), plan.bots
    (False, True, (1,))
    """

    speed: str = "normal"
    """``normal`` (bots wait as a person would) or ``fast``."""
    timer: int = 0
    """Seconds per turn for the people at the table (0: no timer)."""
    players: tuple[Player | None, ...] = ()
    """Per seat: None while a person plays it, else the bot that plays it now
    (a bot's seat, or a person's who is away or gone)."""
    mode: StateMode = "solo"
    """What every state message says the game is: ``solo`` or ``table``."""

    def stand_in(self, seat: int) -> bool:
        """Whether a bot plays this seat now."""
        return self.players[seat] is not None

    @property
    def bots(self) -> tuple[int, ...]:
        """The seats a bot plays now."""
        return tuple(i for i, p in enumerate(self.players) if p is not None)


class Seating(Protocol):
    def plan(self, game: Game) -> SeatPlan:
        """Who plays each seat of ``game`` now (read when seats change, not per card)."""

    def readers(self) -> list[int]:
        """The seats whose people read a finished deal's summary before the next
        deal goes on (none: nothing waits)."""

    async def game_over(self, game_id: str, game: Game) -> None:
        """The game's end is stored: record what follows from it (results, ratings),
        before anyone hears of it."""

    async def after_game(self, game: Game) -> None:
        """The update that ended the game went out (the table has something to say)."""

    async def notice(self, kind: str, seat: int) -> None:
        """Tell the table something happened to a seat (``timeout``)."""


__all__ = ["Player", "SeatPlan", "Seating"]
