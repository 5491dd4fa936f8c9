"""The one writer of a game: a command at a time, stored, then sent.

Every command, a person's or a bot's, takes the runner's lock, is applied
by the ``Game``, written by the ``GameStore``, and only then acknowledged and
broadcast through the ``Hub``; when a deal ends the next is dealt. Bots act
for the seats the ``Seating`` says they play, thinking off the loop
(``Thinker``); the turn timer (``TurnTimer``) has a bot act for a person who
ran out of time. A solo game and a table with others run here the same way:
only their ``Seating`` differs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from damepique.engine import PASS
from damepique.wire import HintMessage

from ..clock import Clock
from ..errors import Refusal
from ..patches import Update
from ..protocol import Claim, Json, Pass, Play, Ref, StateMessage
from ..storage.games import GameRow, GameStore
from . import training
from .game import Game
from .hub import Hub
from .pace import Pace
from .reviews import Reviews
from .seating import Seating, SeatPlan
from .states import States
from .summary import DealSummary
from .thinking import Decision, Thinker
from .timer import Position, TurnTimer, position_of, stamp

log = logging.getLogger("damepique.server")

TIMEOUT_LEVEL = "intermediate"
"""The level that plays for a person who ran out of time."""


class Runner:
    def __init__(
        self,
        row: GameRow,
        game: Game,
        key: str,
        store: GameStore,
        hub: Hub,
        thinker: Thinker,
        seating: Seating,
        pace: Pace,
        *,
        clock: Clock,
    ) -> None:
        self.row = row
        self.clock = clock
        """The app's clock: the bots' pace, the turn timer, the summary, the events' times."""
        self.id = row.id
        self.game = game
        self.key = key
        """The table's code: the hub's name for the connections watching this game."""
        self.store = store
        self.hub = hub
        self.thinker = thinker
        self.seating = seating
        self.plan: SeatPlan = seating.plan(game)
        """Who plays each seat, timer, speed: pushed by the table (``reseat``), read per card."""
        self.pace = pace
        self.lock = asyncio.Lock()
        self.broken = False
        """Memory and store may disagree (a write failed): the game is loaded again."""
        self.timer = TurnTimer(self._out_of_time, clock)
        self.summary = DealSummary(self._summary_read, clock)
        """At a table with others, the next deal waits while the last one's summary is read."""
        self._bots: asyncio.Task[None] | None = None
        self.reviews = Reviews(thinker)
        """The training mode's reviews of this game's deals (``training``), prepared as they are played."""
        self._finished = row.finished is not None
        self.states = States(self, row.options.get("level"))
        """Its state messages, whole and as patches."""

    @property
    def idle(self) -> bool:
        """No bot is thinking or about to act."""
        return self._bots is None or self._bots.done()

    # -- messages --------------------------------------------------------------------

    def state(self, seat: int | None, ack: Ref = None) -> StateMessage:
        """The whole picture for ``seat`` (None: a spectator), with no number (no patch builds on it)."""
        self._arm()
        return self.states.state(seat, ack)

    def state_text(self, seat: int | None, ack: Ref = None) -> str:
        """``state`` as text, written as an update's messages are (what a hello gets)."""
        self._arm()
        return self.states.state_text(seat, ack)

    def _broadcast(self, events: list[Json], ack_seat: int | None = None, ack: Ref | bool = None) -> None:
        """Send every connection its state after ``events`` (timer armed first: its deadline goes out)."""
        self._arm()
        if not self.hub.count(self.key):
            self.states.last = None  # nobody got it: the next update is whole for everybody
            return
        plays = self.hub.take_plays(self.key)
        self.hub.broadcast(self.key, self.states.next_update(events, ack_seat, ack, plays))

    def next_update(
        self, events: list[Json], ack_seat: int | None = None, ack: Ref | bool = None, plays: bool = False
    ) -> Update:
        """``States.next_update``: the update after ``events`` (timer not armed)."""
        return self.states.next_update(events, ack_seat, ack, plays)

    def announce(self) -> None:
        """Send everybody the state as it is (a seat changed hands)."""
        self._broadcast([])

    # -- commands --------------------------------------------------------------------

    async def command(self, seat: int, msg: Pass | Play | Claim) -> str | None:
        """Apply a person's pass, play or claim; raises ``Refusal`` (nothing changed).

        A pass or play naming a decision already made changes nothing and
        returns that decision (the session acknowledges it); one naming a
        decision this game never asked of anybody is refused (``bad_decision``).
        At ``fast`` speed the cheap bots' replies are applied at once and go
        out in the same update (``events``), one message instead of four."""
        async with self.lock:
            if self.broken:
                raise Refusal("unavailable", "the game is being reloaded; try again")
            asked = None if isinstance(msg, Claim) else msg.decision
            if asked is not None and asked != self.game.decision_of(seat):
                if self.game.answered(asked):
                    return asked
                raise Refusal("bad_decision", f"no decision {asked!r} has been asked in this game")
            if isinstance(msg, Pass):
                events = [self.game.pass_cards(seat, msg.cards)]
            elif isinstance(msg, Claim):
                events = self.game.claim(seat)
            else:
                events = [self.game.play(seat, msg.card)]
            if self.plan.speed == "fast":
                events += self._bots_now()
            await self._commit(events, ack_seat=seat, ack=True if msg.ref is None else msg.ref)
        self.reviews.made(self.game, seat)
        self.kick()
        return None

    async def _commit(self, new: list[Json], ack_seat: int | None = None, ack: Ref | bool = None) -> None:
        """Store, then broadcast, the events just applied (lock held); deal on when a deal ends."""
        try:
            stamp(new, self.clock.time())
            first = len(self.game.log) - len(new)
            if self.game.over and not self._finished:
                await self._finish((first, new))  # the last events and the end, together
            else:
                await self.store.append_many(self.id, first, new)
            self._broadcast(new, ack_seat, ack)
            dealt = self.game.deal_next()
            if dealt:
                stamp(dealt, self.clock.time())
                await self.store.append_many(self.id, len(self.game.log) - 1, dealt)
                if self.game.match.deals[:-1]:  # not the first deal: the one before has a summary
                    self.summary.open(len(self.game.match.deals) - 2, self.seating.readers())
                self._broadcast(dealt)
        except Exception as e:
            # Memory and store may disagree now: stop; the table loads the game again.
            self.broken = True
            if isinstance(e, Refusal):
                raise
            log.exception("storing game %s failed", self.id)
            raise Refusal("storage_failed", "the move could not be saved; it did not count") from e
        if self.game.over:
            await self.seating.after_game(self.game)

    async def _finish(self, last: tuple[int, list[Json]] = (0, [])) -> None:
        """A game that is over: its end stored (with its record, in one
        transaction with ``last``, the events that ended it), and what follows
        from it recorded, before anybody hears of it."""
        m = self.game.match
        hints = [self.game.hints_of(s) for s in range(self.game.rules.players)]
        await self.store.finish(self.id, m.totals, m.winner, self.game.record(), hints, last)
        self._finished = True
        await self.seating.game_over(self.id, self.game)

    async def start(self) -> None:
        """Deal if a deal is due (a new game, or one that ended just before a crash),
        finish a game whose end was not stored yet, and set the bots going."""
        async with self.lock:
            if self.game.over and not self._finished:
                # Its last card stored and its end not: a crash in between,
                # from before the two were one transaction.
                await self._finish()
            elif self.game.over:
                # Stored, but what follows (results, ratings) may not be: recording
                # them is idempotent, so it is done again.
                await self.seating.game_over(self.id, self.game)
            dealt = self.game.deal_next()
            if dealt:
                await self._commit(dealt)
        self.kick()

    # -- bots --------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the bot task if a bot must act and none is running."""
        if self.idle and self._bot_seats():
            self._bots = asyncio.create_task(self._drive_bots())

    def _bot_seats(self) -> list[int]:
        plan = self.plan
        if not any(plan.players) or self.summary.holding:
            # People at every seat (asked twice a card: whose turn it is not even
            # looked up), or they are reading the last deal's summary.
            return []
        return [s for s in self.game.waiting_on() if plan.stand_in(s)]

    def _seed(self, seat: int) -> int:
        return self.game.bot_seed(seat)

    def _bots_now(self, limit: int = 64) -> list[Json]:
        """Apply the moves of the table's own bots whose level decides on the loop, while bots must act."""
        out: list[Json] = []
        while len(out) < limit:
            seats = self._bot_seats()
            if not seats:
                break
            seat = seats[0]
            level, auto = self.plan.players[seat] or (TIMEOUT_LEVEL, "stand_in")
            if auto is not None or not self.thinker.inline(level):
                break
            decision = self.thinker.decide_now(level, self.game.view(seat), self._seed(seat))
            out.append(self._apply_bot(seat, decision))
        return out

    def _apply_bot(self, seat: int, decision: Decision) -> Json:
        if decision[0] == "pass":
            return self.game.pass_cards(seat, decision[1])
        return self.game.play(seat, decision[1])

    async def _pause(self) -> None:
        """At "normal" speed, wait as a person would before the next bot acts
        (longer after a trick, so the finished trick stays visible)."""
        if self.plan.speed != "normal":
            return
        deal = self.game.deal
        assert deal is not None
        if deal.phase == PASS:
            delay = self.pace.pass_
        elif not deal.trick and deal.tricks:
            delay = self.pace.after_trick
        else:
            delay = self.pace.play
        await self.clock.sleep(delay)

    async def _drive_bots(self) -> None:
        """Act for the seats a bot plays while one must act: the levels that
        decide on the loop at once (at ``fast`` speed a whole run of them in
        one update), the others after thinking in an executor."""
        while not self.broken:
            seats = self._bot_seats()
            if not seats:
                return
            seat = seats[0]
            await self._pause()
            if seat not in self._bot_seats():
                continue
            level, auto = self.plan.players[seat] or (TIMEOUT_LEVEL, "stand_in")
            if auto is None and self.thinker.inline(level):
                async with self.lock:
                    if self.broken:
                        return
                    events = self._bots_now(limit=64 if self.plan.speed == "fast" else 1)
                    if events:
                        try:
                            await self._commit(events)
                        except Exception:
                            log.exception("store failed in game %s", self.id)
                            return
                continue

            def still(s: int = seat) -> bool:
                return s in self._bot_seats()

            if not await self._act_for(seat, level, auto, check=still):
                return

    async def _act_for(self, seat: int, level: str, auto: str | None, check: Callable[[], bool]) -> bool:
        """Think for ``seat`` off the loop, then apply the choice if the position
        did not change meanwhile and ``check()`` still holds (a move marked
        ``auto`` when given); False when the bot or the store failed."""
        view = self.game.view(seat)
        mark = len(self.game.log)
        try:
            decision = await self.thinker.decide(level, view, self._seed(seat))
        except Exception:
            log.exception("bot %s failed in game %s", level, self.id)
            return False
        async with self.lock:
            if self.broken:
                return False
            if len(self.game.log) != mark or not check():
                return True  # the position changed while it thought: think again
            try:
                event = self._apply_bot(seat, decision)
            except Refusal:
                return True
            if auto:
                event["auto"] = auto
            try:
                await self._commit([event])
            except Exception:
                log.exception("store failed in game %s", self.id)
                return False
        return True

    # -- the turn timer --------------------------------------------------------------------

    def _arm(self) -> None:
        """Time the people who must act now (bots have no timer)."""
        game = self.game
        plan = self.plan
        seconds = plan.timer
        waiting = []
        if seconds and not game.over and not self.summary.holding:
            waiting = [s for s in game.waiting_on() if not plan.stand_in(s)]
        self.timer.arm(seconds, game.deal, waiting)

    # -- the deal's summary ------------------------------------------------------------------

    def read_summary(self, seat: int, deal: int) -> None:
        """``seat`` pressed "Continue" on deal ``deal``'s summary."""
        if self.summary.read(seat, deal) and self.summary.holding:
            self.announce()  # who is still reading

    def _summary_read(self) -> None:
        """Everybody read it (or its time ran out): the next deal goes on."""
        self.announce()
        self.kick()

    def reseat(self) -> None:
        """Seats changed hands (away, back, left): the new plan read once; the timer and bots follow."""
        self.plan = self.seating.plan(self.game)
        self.summary.keep(self.seating.readers())  # nobody waits on a seat its person left
        self._arm()
        self.kick()

    def resume_from(self, events: list[Json]) -> None:
        self.timer.resume_from(self.game.deal, events)

    async def _out_of_time(self, key: Position) -> None:
        try:
            while not self.broken and not self.game.over:
                deal = self.game.deal
                if deal is None or position_of(deal) != key:
                    return
                seats = [s for s in self.game.waiting_on() if not self.plan.stand_in(s)]
                if not seats:
                    return
                seat = seats[0]

                def still(seat: int = seat) -> bool:
                    d = self.game.deal
                    if d is None or position_of(d) != key:
                        return False
                    return seat in self.game.waiting_on() and not self.plan.stand_in(seat)

                before = len(self.game.log)
                if not await self._act_for(seat, TIMEOUT_LEVEL, "timeout", still):
                    return
                if len(self.game.log) > before:
                    await self.seating.notice("timeout", seat)
        finally:
            self.kick()

    # -- training ------------------------------------------------------------------------

    async def hint(self, seat: int) -> HintMessage:
        """A hint for ``seat``: counted (stored) first, then searched."""
        async with self.lock:
            event = self.game.hint(seat)
            stamp([event], self.clock.time())
            await self.store.append_many(self.id, len(self.game.log) - 1, [event])
        return await training.hint(self.game, seat, self.thinker)

    async def stop(self) -> None:
        self.timer.cancel()
        self.summary.cancel()
        await self.reviews.stop()
        if self._bots is not None:
            self._bots.cancel()
            with contextlib.suppress(BaseException):
                await self._bots


__all__ = ["TIMEOUT_LEVEL", "Runner", "stamp"]
