"""The training review of each deal, prepared while the deal is played.

Reviewing a deal runs the expert's search on every decision its player made
(a second or so each): done only once the deal is over, the review came many
seconds after it. Once a seat asks for training (advice or a review), each of
its decisions is reviewed in the background as soon as it is made, in order
(``bots.advice.review_next`` carries the search's generator from one decision
to the next, so the items are exactly those of reviewing the finished deal);
the review asked at the deal's end then only waits for the decisions not
reviewed yet. The background work is dropped when the machine is busy
(``Thinker.background``) and is kept in memory only: after a restart the
review is computed whole when it is asked for, as it always could be.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from damepique.bots.advice import ADVICE_PLAYOUTS, ReviewSoFar, review_start
from damepique.engine import DONE, Deal

from ..protocol import Json
from .game import Game
from .thinking import Thinker, review_step

log = logging.getLogger("damepique.server")


@dataclass
class _Sheet:
    """One seat's review of one deal: how far it got, or its answer once given."""

    so_far: ReviewSoFar
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a decision is reviewed: one generator, one decision at a time."""
    items: list[Json] | None = None


class Reviews:
    """The reviews of one game's deals (``Runner.reviews``)."""

    playouts = ADVICE_PLAYOUTS
    """The search's play-outs for each decision (``bots.advice.review``'s)."""

    def __init__(self, thinker: Thinker) -> None:
        self.thinker = thinker
        self.training: set[int] = set()
        """Seats that asked for training: their decisions are reviewed as they come."""
        self._sheets: dict[tuple[int, int], _Sheet] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def _sheet(self, game: Game, seat: int, deal: Deal) -> _Sheet:
        key = (seat, deal.number)
        sheet = self._sheets.get(key)
        if sheet is None:
            sheet = self._sheets[key] = _Sheet(review_start(seat, game.totals_before(deal), self.playouts))
            # Kept: the reviews given (a few items each) and the two last deals' under way.
            for k in [k for k, s in self._sheets.items() if s.items is None and k[1] < deal.number - 1]:
                del self._sheets[k]
        return sheet

    def train(self, game: Game, seat: int) -> None:
        """``seat`` trains: its decisions in the deal being played are reviewed from now on."""
        if seat not in self.training:
            self.training.add(seat)
            self.made(game, seat)

    def made(self, game: Game, seat: int) -> None:
        """``seat`` decided: if it trains, review in the background its decisions
        made in the deal being played (and the rest of the deal just finished,
        when its review was under way and not asked for yet)."""
        deal = game.deal
        if seat not in self.training or deal is None:
            return
        task = self._tasks.get(seat)
        if task is not None and not task.done():
            return  # it goes on to the decisions made since, or the next call starts one
        deals = game.match.deals
        todo = [(self._sheet(game, seat, deal), deal)]
        before = self._sheets.get((seat, deal.number - 1))
        if before is not None and before.items is None:
            todo.insert(0, (before, deals[deal.number - 1]))
        self._tasks[seat] = asyncio.create_task(self._prepare(todo))

    async def _prepare(self, todo: list[tuple[_Sheet, Deal]]) -> None:
        try:
            for sheet, deal in todo:
                while True:
                    async with sheet.lock:
                        if sheet.items is not None:
                            break
                        # Copied now, on the loop: the deal goes on while the copy is sent.
                        further = await self.thinker.background(review_step, deal.copy(), sheet.so_far)
                        if further is None:
                            break  # nothing new made to review, or the machine is busy
                        sheet.so_far = further
        except Exception:
            # Nothing lost: what was not prepared is done when the review is asked for.
            log.exception("preparing a review failed")

    async def review(self, game: Game, seat: int, number: int) -> list[Json]:
        """The seat's costliest choices in finished deal ``number`` (JSON items),
        from what the background reviewed on (``Thinker.review``)."""
        done = game.match.deals[number]
        assert done.phase == DONE
        sheet = self._sheet(game, seat, done)
        async with sheet.lock:  # a decision being reviewed in the background is waited for
            if sheet.items is None:
                sheet.items = await self.thinker.review(done, sheet.so_far)
            return sheet.items

    async def settled(self) -> None:
        """Once the background work under way is done: a review asked then
        waits for no decision made so far."""
        while running := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.wait(running)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()


__all__ = ["Reviews"]
