"""The state messages of one game's run: whole, as patches, as play patches.

A runner sends every connection its seat's state after each update
(``Runner._broadcast``, through the ``Hub``), and a connection that says
``hello`` the state as it stands. ``States`` builds them: the parts that are
the same for every seat once per update (``StateCommon``), each kept as the
very same object while it does not change, so that a patch compares it at no
cost (``patches.Update``); after cards are played in the middle of a deal,
a play update (``plays.PlayUpdate``) when every seated connection that gets
patches lays them (``Hub.take_plays``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from damepique.engine import Deal
from damepique.wire import DealResult, StateSeat, SummaryInfo, TimerInfo, state_seat

from ..patches import CardNames, Update
from ..plays import PlayUpdate
from ..protocol import Json, Ref, StateCommon, StateMessage
from ..public_view import played_changes, public_json
from .game import Game, Seat
from .seating import SeatPlan
from .summary import DealSummary
from .timer import TurnTimer


class Source(Protocol):
    """What the states are made of: the runner's game, its plan, timer and summary, read as they are."""

    id: str
    game: Game
    plan: SeatPlan
    timer: TurnTimer
    summary: DealSummary


History = tuple[list[DealResult], list[int] | None, list[int], bool, int | None, list[int]]
"""What the finished deals decide: results, totals before the deal and after, over, winner(s)."""

Fairness = tuple[bool | None, dict[str, str] | None]
"""Whether the game is over, and the fairness member written for that."""

Top = tuple[History, list[StateSeat], SeatPlan, Fairness, TimerInfo | None, SummaryInfo | None]
"""What a state's members but the view are made of (``States._top_now``)."""


class States:
    """The state messages of ``run``'s game (its seats, plan, timer and summary read as they are)."""

    def __init__(self, run: Source, level: str | None) -> None:
        self.run = run
        self._rules_json = run.game.rules.to_json()
        self._level = level
        self.last: Update | None = None
        """The last update sent (None: nobody got it; the next is whole for everybody)."""
        self._names = CardNames()
        # Parts of the state messages rebuilt only when they change, so that an
        # unchanged part is the same object from one update to the next (a patch
        # compares it at no cost).
        self._history_key: tuple[int, int, str | None] | None = None
        self._history: History = ([], None, [], False, None, [])
        self._seats_key: tuple[Seat, ...] = ()
        self._seats_json: list[StateSeat] = []
        self._view: tuple[Deal | None, Json | None] = (None, None)
        self._fairness: Fairness = (None, None)
        self._top: Top | None = None
        """What ``_common``'s members but the view were made of, last time it ran."""
        self._last_top: Top | None = None
        """The same for ``last``'s (equal: no top-level change since)."""

    def _top_now(self) -> Top:
        """What the members of a state but the view are made of, each rebuilt only
        when it changed (the very same object otherwise): the finished deals, the
        seats, the plan, the fairness, the timer and the summary."""
        g = self.run.game
        match = g.match
        deal = g.deal
        # The finished deals change only when a deal ends: ``History`` is kept until then.
        key = (id(match), len(match.deals), None if deal is None else deal.phase)
        if key != self._history_key:
            self._history = (
                g.results(),
                None if deal is None else g.totals_before(deal),
                match.totals,
                match.over,
                match.winner,
                list(match.winners),
            )
            self._history_key = key
        seats = tuple(g.seats)
        if seats != self._seats_key:
            self._seats_key = seats
            self._seats_json = [state_seat(s.name, s.kind, s.level) for s in seats]
        over = self._history[3]
        if self._fairness[0] is not over:
            self._fairness = (over, g.fairness())
        run = self.run
        return (
            self._history,
            self._seats_json,
            run.plan,
            self._fairness,
            run.timer.info(),
            run.summary.info(),
        )

    def _common(self, events: Sequence[Json] = ()) -> tuple[StateCommon, Json | None, Json | None]:
        """Everything in a state message that is the same for every seat, after
        ``events``; and, when cards played changed the last view, those changes
        and that view (``Update``'s ``view_changes`` and ``changes_from``)."""
        # What the members but the view are made of: the same objects (or equal
        # ones: the timer's and summary's) from one card to the next while a deal goes on.
        self._top = self._top_now()
        results, totals_before, totals, over, winner, winners = self._history
        deal = self.run.game.deal
        view = changes = kept = None
        if deal is not None and totals_before is not None:
            # The view of the last update, when it is of this very deal: cards
            # played change a few known fields of it (``played_changes``), else
            # its unchanged parts are kept (``public_json``'s ``before``).
            kept_deal, kept = self._view
            if kept_deal is not deal:
                kept = None
            elif kept is not None and all(e["type"] == "play" for e in events):
                changes = played_changes(deal, kept, events)
            if changes is not None and kept is not None:
                view = {**kept, **changes} if changes else kept
            else:
                view = public_json(deal, totals_before, kept)
            self._view = (deal, view)
        timer, summary = self._top[4:]
        common: StateCommon = {
            "game": self.run.id,
            "seats": self._seats_json,
            "rules": self._rules_json,
            "mode": self.run.plan.mode,
            "speed": self.run.plan.speed,
            "level": self._level,
            "view": view,
            "results": results,
            "totals": totals,
            "over": over,
            "winner": winner,
            "winners": winners,
            "fairness": self._fairness[1],
            "timer": timer,
            "summary": summary,
        }
        return common, changes, kept

    def state(self, seat: int | None, ack: Ref = None) -> StateMessage:
        """The whole picture for ``seat`` (None: a spectator), with no number (no patch builds on it)."""
        s = -1 if seat is None else seat
        return self._state_update(s, ack).message(s)

    def state_text(self, seat: int | None, ack: Ref = None) -> str:
        """``state`` as text, written as an update's messages are (what a hello gets)."""
        s = -1 if seat is None else seat
        return self._state_update(s, ack).text(s)

    def _state_update(self, seat: int, ack: Ref) -> Update:
        return Update(
            self._common()[0], self.run.game.deal, (), self._names, ack_seat=seat, ack=ack, numbered=False
        )

    def next_update(
        self, events: list[Json], ack_seat: int | None = None, ack: Ref | bool = None, plays: bool = False
    ) -> Update:
        """The update after ``events`` (numbered after the last one); ``plays``:
        as a ``PlayUpdate`` when it can be one (only cards, mid-deal)."""
        played = self._plays(events, ack_seat, ack) if plays else None
        if played is not None:
            return played
        common, changes, kept = self._common(events)
        last, same = self.last, self.last is not None and self._top == self._last_top
        self._last_top = self._top
        self.last = Update(
            common, self.run.game.deal, events, self._names, last, ack_seat, ack, changes, kept, same_top=same
        )
        return self.last

    def _plays(self, events: list[Json], ack_seat: int | None, ack: Ref | bool) -> PlayUpdate | None:
        """``PlayUpdate.after`` when nothing at the top of the state changed but the timer."""
        last, deal, (kept_deal, kept) = self.last, self.run.game.deal, self._view
        if last is None or deal is None or kept is None or kept_deal is not deal:
            return None
        top, before = self._top_now(), self._last_top
        if before is None or top[:4] != before[:4] or top[5] != before[5]:
            return None
        timer = top[4]
        update = PlayUpdate.after(last, kept, deal, events, self._names, ack_seat, ack, timer)
        if update is not None:
            self._view = (deal, update.common["view"])
            self._top = self._last_top = top
            self.last = update
        return update


__all__ = ["History", "Source", "States"]
