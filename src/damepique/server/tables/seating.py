"""The two seatings a runner plays with (``play.seating.Seating``).

``SoloSeating``: one person and the table's bots; nobody stands in for the
person (the bots wait for them), there is no timer and nothing to rate.
``TableSeating``: people and bots; a bot of ``STAND_IN_LEVEL`` plays for a
person away past the grace period or gone for good, turns are timed as the
table says, and a finished game's results and ratings are recorded. Each
writes the runner's ``SeatPlan`` from the table's seats when they change.
"""

from __future__ import annotations

from ..play.game import Game
from ..play.seating import Player, SeatPlan
from .seats import STAND_IN_LEVEL
from .table import Table


class SoloSeating:
    def __init__(self, table: Table) -> None:
        self.table = table

    def plan(self, game: Game) -> SeatPlan:
        players: list[Player | None] = [
            (s.level or "random", None) if s.kind == "bot" else None for s in self.table.seats
        ]
        return SeatPlan(self.table.options.speed, 0, tuple(players), "solo")

    def readers(self) -> list[int]:
        return []  # the page holds a solo game's summary: the bots wait for the person anyway

    async def game_over(self, game_id: str, game: Game) -> None:
        await self.table.game_over()

    async def after_game(self, game: Game) -> None:
        return None

    async def notice(self, kind: str, seat: int) -> None:
        return None


class TableSeating(SoloSeating):
    """A table with others: what it adds to a solo game's seating."""

    def plan(self, game: Game) -> SeatPlan:
        players: list[Player | None] = []
        for ts, own in zip(self.table.seats, game.seats, strict=False):
            if own.kind == "bot":
                players.append((own.level or "random", None))  # a bot's seat, or one a person left
            elif ts.kind == "bot" or ts.left or ts.away:
                players.append((STAND_IN_LEVEL, "stand_in"))  # a person who is away
            else:
                players.append(None)
        o = self.table.options
        return SeatPlan(o.speed, o.timer, tuple(players), "table")

    def readers(self) -> list[int]:
        """The people at the table now (not away, not gone, connected)."""
        return [
            i
            for i, s in enumerate(self.table.seats)
            if s.kind == "human" and not s.left and not s.away and self.table.connected(i)
        ]

    async def after_game(self, game: Game) -> None:
        self.table.announce()

    async def notice(self, kind: str, seat: int) -> None:
        await self.table.notice(kind, seat)


__all__ = ["SoloSeating", "TableSeating"]
