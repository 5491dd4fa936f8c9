"""The two seatings a runner plays with (``play.seating.Seating``).

``SoloSeating``: one person and the table's bots; nobody stands in for the
person (the bots wait for them), there is no timer and nothing to rate.
``TableSeating``: people and bots; a bot of ``STAND_IN_LEVEL`` plays for a
person away past the grace period or gone for good, turns are timed as the
table says, and a finished game's results and ratings are recorded.
"""

from __future__ import annotations

from ..play.game import Game
from ..protocol import Json
from .seats import STAND_IN_LEVEL
from .table import Table


class SoloSeating:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def speed(self) -> str:
        return self.table.options.speed

    @property
    def timer(self) -> int:
        return 0

    def stand_in(self, seat: int) -> bool:
        return self.table.seats[seat].kind == "bot"

    def player_for(self, seat: int) -> tuple[str, str | None]:
        return self.table.seats[seat].level or "random", None

    def readers(self) -> list[int]:
        return []  # the page holds a solo game's summary: the bots wait for the person anyway

    def shared(self) -> Json:
        return {"mode": "solo", "table": self.table.info()}

    async def game_over(self, game_id: str, game: Game) -> None:
        await self.table.game_over()

    async def after_update(self, game: Game) -> None:
        return None

    async def notice(self, kind: str, seat: int) -> None:
        return None


class TableSeating(SoloSeating):
    """A table with others: what it adds to a solo game's seating."""

    @property
    def timer(self) -> int:
        return self.table.options.timer

    def stand_in(self, seat: int) -> bool:
        runner = self.table.runner
        if runner is not None and runner.game.seats[seat].kind == "bot":
            return True  # a bot's seat, or one a person left for good
        ts = self.table.seats[seat]
        return ts.kind == "bot" or ts.left or ts.away

    def player_for(self, seat: int) -> tuple[str, str | None]:
        runner = self.table.runner
        own = runner.game.seats[seat] if runner is not None else None
        if own is not None and own.kind == "bot":
            return own.level or "random", None
        return STAND_IN_LEVEL, "stand_in"  # a person who is away

    def readers(self) -> list[int]:
        """The people at the table now (not away, not gone, connected)."""
        return [
            i
            for i, s in enumerate(self.table.seats)
            if s.kind == "human" and not s.left and not s.away and self.table.connected(i)
        ]

    def shared(self) -> Json:
        return {"mode": "table", "table": self.table.info()}

    async def after_update(self, game: Game) -> None:
        if game.over:
            self.table.announce()

    async def notice(self, kind: str, seat: int) -> None:
        await self.table.notice(kind, seat)


__all__ = ["SoloSeating", "TableSeating"]
