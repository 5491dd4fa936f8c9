"""Running games: one runner per table, the registry that loads them.

A ``Runner`` is the only writer of its table: every command (a person's or a
bot's) takes the table's lock, is applied by the ``Table``, written by the
``Store``, and only then acknowledged and broadcast through the ``Hub``.
Bots are driven by a task per table that thinks in an executor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from damepique.engine import CARD_NAMES, DONE, PASS, PLAY, Deal, Rules, view_of
from damepique.engine.cards import cards_of
from damepique.engine.fairness import new_secret
from damepique.engine.views import (
    PLAY_FIELDS,
    SEAT_FIELD_CARDS,
    SEAT_FIELD_KEYS,
    SEAT_FIELDS,
    SeatFields,
    public_json,
    seat_fields,
    seat_fields_json,
    seat_json,
)

from .codes import new_token
from .hub import Hub
from .protocol import VERSION, dumps
from .store import GameRow, Store
from .table import CommandError, Seat, Table
from .thinking import Thinker, resolve_level

log = logging.getLogger("damepique.server")

LEVELS = ("beginner", "intermediate", "expert")
SPEEDS = ("normal", "fast")
# Bots sit clockwise from the person (seat 0, south); the page translates these names.
BOT_NAMES = {
    3: ("West", "East"),
    4: ("West", "North", "East"),
    5: ("West", "North-West", "North-East", "East"),
}


@dataclass(frozen=True)
class Pace:
    """Seconds a bot waits at ``normal`` speed (``fast`` never waits)."""

    play: float = 0.8
    after_trick: float = 1.6
    pass_: float = 0.4


def stamp(events: list[dict[str, Any]]) -> None:
    """Write down when each event happened (``at``, seconds since the epoch), in
    the stored log only: a restarted table gives a turn timer the time it had
    left. The table itself keeps no clock; replays ignore the field."""
    now = round(time.time(), 3)
    for e in events:
        e.setdefault("at", now)


_MISSING = object()

# The keys of a state message that differ from seat to seat.
_OWN_KEYS = frozenset({"seat", "view", "event", "events", "ack"})


def _shared_texts(common: dict[str, Any]) -> tuple[str, str]:
    """The part of every seat's state message that is the same for all, as the
    inside of two JSON objects: the message without its per-seat keys, and the
    public view without the seat's fields ("" when there is no view)."""
    rest = dumps({k: v for k, v in common.items() if k not in _OWN_KEYS})[1:-1]
    view = common["view"]
    public_view = "" if view is None else dumps({k: v for k, v in view.items() if k not in SEAT_FIELDS})[1:-1]
    return rest, public_view


def public_event(event: dict[str, Any] | None, seat: int) -> dict[str, Any] | None:
    """What ``seat`` may know of a stored event: never the hands dealt, and a
    pass's cards only for the seat that passed them."""
    if event is None:
        return None
    kind = event["type"]
    if kind == "deal":
        return {"type": "deal", "number": event["number"]}
    if kind == "pass":
        out = {"type": "pass", "seat": event["seat"], "complete": event["complete"]}
        if event["seat"] == seat:
            out["cards"] = list(event["cards"])
        return out
    return dict(event)


class CardNames:
    """Sets of cards written as lists of names, each list kept while it is in
    use: a hand that did not change since the last update is the same list,
    which a patch compares at no cost (``is``). Never change a list it gave."""

    LIMIT = 64

    def __init__(self) -> None:
        self._lists: dict[int, list[str]] = {}
        self._texts: dict[int, str] = {}

    def __call__(self, mask: int) -> list[str]:
        names = self._lists.get(mask)
        if names is None:
            if len(self._lists) >= self.LIMIT:
                self._lists.clear()  # a few tricks' worth: start again
            names = self._lists[mask] = [CARD_NAMES[c] for c in cards_of(mask)]
        return names

    def text(self, mask: int) -> str:
        """The list as JSON text (card names need no escaping)."""
        text = self._texts.get(mask)
        if text is None:
            if len(self._texts) >= self.LIMIT:
                self._texts.clear()
            names = self(mask)
            text = self._texts[mask] = '["' + '","'.join(names) + '"]' if names else "[]"
        return text


_OWN_KEYS_TEXT = tuple(f'"{k}":' for k in SEAT_FIELD_KEYS)


def _own_changes(new: SeatFields, old: SeatFields, names: CardNames) -> str:
    """The seat's own view fields that differ from ``old``, as the inside of a
    JSON object (what ``_changed`` over two ``seat_json`` would say)."""
    if new[1:] == old[1:]:  # most seats after most cards: only whose turn it is
        value = new[0]
        if value == old[0]:
            return ""
        return _OWN_KEYS_TEXT[0] + ("null" if value is None else str(value))
    parts = []
    for i, value in enumerate(new):
        if value != old[i]:
            if value is None:
                parts.append(_OWN_KEYS_TEXT[i] + "null")
            elif SEAT_FIELD_CARDS[i]:
                parts.append(_OWN_KEYS_TEXT[i] + names.text(value))
            else:
                parts.append(_OWN_KEYS_TEXT[i] + str(value))
    return ",".join(parts)


def _changed(new: dict[str, Any], old: dict[str, Any], keys: Iterable[str] | None = None) -> dict[str, Any]:
    """The keys of ``new`` (or only ``keys`` of them) whose value is not
    ``old``'s; a value that is the very same object is not even compared."""
    if keys is None:
        keys = new
    return {k: v for k in keys if (v := new[k]) is not (o := old.get(k, _MISSING)) and v != o}


def _play_changes(view: dict[str, Any], old: dict[str, Any]) -> Iterable[str]:
    """The public view's keys worth comparing with ``old``'s: while the same deal
    is played only those that cards change (``PLAY_FIELDS``), else all of them."""
    if view["deal"] == old["deal"] and view["phase"] == old["phase"] == PLAY:
        return _PLAY_PUBLIC
    return [k for k in view if k not in SEAT_FIELDS]


_PLAY_PUBLIC = tuple(sorted(PLAY_FIELDS - SEAT_FIELDS))


class Update:
    """The messages of one broadcast, as JSON text: ``update(seat)`` is a seat's
    whole state (what ``Runner._update`` says), ``update.patch(seat)`` only what
    changed since the previous update (number ``base``), for a connection that
    has that one and asked for patches (``docs/multiplayer.md``).

    The common part (``Runner._common``) is built at the first message asked
    for and written as text once; each seat's text adds only its own fields
    (its seat, events, ack and the private half of its view). An update must
    be asked for its messages before the next one is made: a patch is the
    difference between the two, as they were built."""

    def __init__(
        self,
        runner: Runner,
        events: list[dict[str, Any]],
        ack_seat: int | None,
        ack: Any,
        prev: Update | None,
    ) -> None:
        self.runner = runner
        self.events = events
        self.ack_seat = ack_seat
        self.ack = ack
        self.n: int = 1 if prev is None else prev.n + 1
        # Patches only over an update whose messages were built (someone got them).
        self._prev = prev if prev is not None and prev._common is not None else None
        self.base = None if self._prev is None else self._prev.n
        if prev is not None:
            prev._prev = None  # a chain of one: nothing older is ever needed
        self._common: dict[str, Any] | None = None
        self._shared: tuple[str, str] | None = None
        self._own: dict[int, SeatFields | None] = {}
        """Each seat's ``seat_fields`` as written in this update (None: no view)."""
        self._patch_shared: tuple[str, str] | bool | None = None
        """The top-level and public view changes as text (False: no patch)."""
        self._public_events: str | None = None

    def common(self) -> dict[str, Any]:
        if self._common is None:
            self._common = self.runner._common()
        return self._common

    def _seat_part(self, seat: int) -> SeatFields | None:
        if seat in self._own:
            return self._own[seat]
        deal = self.runner.table.deal
        own = None if deal is None or self.common()["view"] is None else seat_fields(deal, seat)
        self._own[seat] = own
        return own

    def _head(self, seat: int, patch: bool = False) -> str:
        """The start of ``seat``'s message: its number (and, in a ``patch``, the
        base it builds on), its seat, its events and its ack, if any."""
        base = f',"base":{self.base}' if patch else ""
        text = f'{{"n":{self.n}{base},"seat":{seat},' + self._events_text(seat)
        if seat == self.ack_seat and self.ack is not None:
            text += ',"ack":' + dumps({"a": self.ack})[5:-1]  # the value's JSON: '{"a":' is 5 characters
        return text

    def __call__(self, seat: int) -> str:
        common = self.common()
        if seat < 0:  # a spectator: its whole message, as the subclass builds it
            own_ack = self.ack if seat == self.ack_seat else None
            return dumps(self.runner._update(seat, self.events, own_ack, common))
        if self._shared is None:
            self._shared = _shared_texts(common)
        rest, public_view = self._shared
        part = self._seat_part(seat)
        if part is None or not public_view:
            view = "null"
        else:
            view = dumps(seat_fields_json(seat, part, self.runner._names))[:-1] + "," + public_view + "}"
        return self._head(seat) + ',"view":' + view + "," + rest + "}"

    def _events_text(self, seat: int) -> str:
        """``"event":...,"events":[...]`` for ``seat``: written once for every
        seat unless a pass is among the events (its cards go to its seat only)."""
        if self._public_events is None:
            private = any(e["type"] == "pass" for e in self.events)
            self._public_events = "" if private else self._write_events(-1)
        return self._public_events or self._write_events(seat)

    def _write_events(self, seat: int) -> str:
        events = self.events
        return dumps(
            {
                "event": public_event(events[-1], seat) if events else None,
                "events": [public_event(e, seat) for e in events],
            }
        )[1:-1]

    def patch(self, seat: int) -> str | None:
        """What changed for ``seat`` since update ``base``: the seat's own fields,
        the top-level keys whose value changed, and a ``view`` holding only the
        view's changed keys (to lay over the previous view). None when there is
        no patch to write (no previous update, a spectator, a view that appeared
        or went away): send the whole state then.

        Written as text from parts: the top-level and public view changes once
        per update, the events once unless a pass is among them (as in a whole
        message); per seat only its head and its own view changes."""
        prev = self._prev
        if prev is None or seat < 0:
            return None
        if self._patch_shared is None:
            common, before = self.common(), prev.common()
            view, old = common["view"], before["view"]
            if (view is None) != (old is None):
                self._patch_shared = False
            else:
                top = dumps(_changed(common, before, self.runner._top_keys(common)))[1:-1]
                changed = "" if view is None else dumps(_changed(view, old, _play_changes(view, old)))[1:-1]
                self._patch_shared = ("," + top if top else "", changed)
        if isinstance(self._patch_shared, bool):
            return None
        top_text, public_changes = self._patch_shared
        old_own = prev._own.get(seat)
        own_part = self._seat_part(seat)
        if (old_own is None) != (own_part is None):
            return None
        text = f'{{"v":{VERSION},"type":"state",' + self._head(seat, patch=True)[1:]
        if own_part is not None and old_own is not None:
            own_changes = _own_changes(own_part, old_own, self.runner._names)
            joint = "," if own_changes and public_changes else ""
            text += ',"view":{' + own_changes + joint + public_changes + "}"
        return text + top_text + "}"


class Runner:
    def __init__(self, game: GameRow, table: Table, store: Store, hub: Hub, thinker: Thinker, pace: Pace):
        self.game = game
        self.id = game.id
        self.table = table
        self.store = store
        self.hub = hub
        self.thinker = thinker
        self.pace = pace
        self.lock = asyncio.Lock()
        self.broken = False
        self._bots: asyncio.Task[None] | None = None
        self._finished_stored = game.finished is not None
        self._rules_json = table.rules.to_json()
        """A game's rules never change: their JSON is built once (and never changed)."""
        self._history_key: Any = None
        self._history: tuple[list[dict[str, Any]], list[int] | None, list[int], bool, int | None] = (
            [],
            None,
            [],
            False,
            None,
        )
        self._last_update: Update | None = None
        self._names = CardNames()
        self._seats_json: tuple[tuple[Seat, ...], list[dict[str, Any]]] = ((), [])
        self._view_json: tuple[Deal | None, dict[str, Any] | None] = (None, None)
        self._top: tuple[str, ...] | None = None
        self._fairness: tuple[bool | None, dict[str, str] | None] = (None, None)

    @property
    def speed(self) -> str:
        return str(self.game.options.get("speed", "normal"))

    # -- messages ----------------------------------------------------------------

    def state(self, seat: int, event: dict[str, Any] | None = None, ack: Any = None) -> dict[str, Any]:
        """The whole picture for ``seat``; ``event`` is what just happened."""
        return self._seat_state(self._common(), seat, event, ack)

    def _common(self) -> dict[str, Any]:
        """Everything in a state message that is the same for every seat (the
        public view, scores, seats, rules): built once per update, shared by the
        seats' messages, which only lay their own fields over it."""
        t = self.table
        match = t.match
        deal = t.deal
        # The finished deals change only when a deal ends: their results and the
        # totals before the current deal are kept until then (shared, never changed).
        key = (id(match), len(match.deals), None if deal is None else deal.phase)
        if key != self._history_key:
            totals = None if deal is None else t.totals_before(deal)
            self._history = (t.results(), totals, match.totals, match.over, match.winner)
            self._history_key = key
        results, totals_before, match_totals, over, winner = self._history
        # Parts rebuilt only when they change, so that an unchanged part is the
        # same object from one update to the next (a patch compares it at no cost).
        seats = tuple(t.seats)
        if seats != self._seats_json[0]:
            self._seats_json = (seats, [{"name": s.name, "kind": s.kind, "level": s.level} for s in seats])
        view = None
        if deal is not None and totals_before is not None:
            # The view of the last update, when it is of this very deal: its
            # unchanged parts are kept (``public_json``'s ``before``).
            kept_deal, kept = self._view_json
            view = public_json(deal, totals_before, kept if kept_deal is deal else None)
            self._view_json = (deal, view)
        return {
            "v": VERSION,
            "type": "state",
            "game": self.id,
            "seat": None,
            "seats": self._seats_json[1],
            "rules": self._rules_json,
            "speed": self.speed,
            "level": self.game.options.get("level"),
            "view": view,
            "results": results,
            "totals": match_totals,
            "over": over,
            "winner": winner,
            "fairness": self._fairness_json(over),
            "event": None,
        }

    def _fairness_json(self, over: bool) -> dict[str, str] | None:
        """The commitment, and the secret once the game is over: the same object
        from one update to the next until then (a patch compares it at no cost)."""
        kept_over, kept = self._fairness
        if kept_over is not over:
            kept = self.table.fairness()
            self._fairness = (over, kept)
        return kept

    def _top_keys(self, common: dict[str, Any]) -> tuple[str, ...]:
        """The keys of a state message that are the same for every seat (those a
        patch compares), from the first common part built: every other has them."""
        if self._top is None:
            self._top = tuple(k for k in common if k not in _OWN_KEYS)
        return self._top

    def _seat_state(
        self, common: dict[str, Any], seat: int, event: dict[str, Any] | None, ack: Any
    ) -> dict[str, Any]:
        """``seat``'s message from the common part: its own view and event (a new
        top-level dict and view; the rest is shared, never to be changed)."""
        msg = dict(common)
        msg["seat"] = seat
        deal = self.table.deal
        if deal is not None and common["view"] is not None:
            msg["view"] = {**common["view"], **seat_json(deal, seat)}
        msg["event"] = public_event(event, seat)
        if ack is not None:
            msg["ack"] = ack
        return msg

    # -- commands ----------------------------------------------------------------

    async def command(self, seat: int, msg: dict[str, Any]) -> None:
        """Apply a person's ``pass`` or ``play``; raises CommandError (nothing changed).

        At ``fast`` speed the cheap bots' replies are applied at once and go
        out in the same update (``events``), one message instead of four.
        """
        async with self.lock:
            if self.broken:
                raise CommandError("unavailable", "the game is being reloaded; try again")
            if msg["type"] == "pass":
                event = self.table.pass_cards(seat, msg.get("cards"))
            else:
                event = self.table.play(seat, msg.get("card"))
            events = [event]
            if self.speed == "fast":
                events += self._bots_now()
            await self._commit(events, ack_seat=seat, ack=msg.get("id", True))
        self.kick()

    def _bots_now(self, limit: int = 64) -> list[dict[str, Any]]:
        """Apply the moves of bots whose level decides on the loop, while bots must act."""
        out: list[dict[str, Any]] = []
        while len(out) < limit:
            seats = self._bot_seats()
            if not seats:
                break
            seat = seats[0]
            level = self._inline_level(seat)
            if level is None or not self.thinker.inline(level):
                break
            view = self.table.view_object(seat)
            kind, choice = self.thinker.decide_now(level, view, self._seed(seat))
            out.append(self._apply_bot(seat, kind, choice))
        return out

    def _inline_level(self, seat: int) -> str | None:
        """The level to decide for ``seat`` in a batch of bot moves, or None to leave it to the bot task."""
        own = self.table.seats[seat]
        return (own.level or "random") if own.kind == "bot" else None

    def _seed(self, seat: int) -> int:
        return self.table.bot_seed(seat)

    def _apply_bot(self, seat: int, kind: str, choice: Any) -> dict[str, Any]:
        if kind == "pass":
            return self.table.pass_cards(seat, [CARD_NAMES[c] for c in choice])
        return self.table.play(seat, CARD_NAMES[choice])

    async def _commit(self, new: list[dict[str, Any]], ack_seat: int | None = None, ack: Any = None) -> None:
        """Store, then broadcast, the events just applied (lock held); deal on when a deal ends."""
        try:
            base = len(self.table.log) - len(new)
            stamp(new)
            await self.store.append_many(self.id, base, new)
            if self.table.over and not self._finished_stored:
                m = self.table.match
                await self.store.finish(self.id, m.totals, m.winner, self.table.record())
                self._finished_stored = True
            await self.hub.broadcast(self.id, self._updates(new, ack_seat, ack))
            dealt = self.table.start()
            if dealt:
                stamp(dealt)
                await self.store.append_many(self.id, len(self.table.log) - 1, dealt)
                await self.hub.broadcast(self.id, self._updates(dealt))
        except Exception:
            # Memory and store may disagree now: stop; the registry reloads from the store.
            self.broken = True
            raise

    def _updates(self, events: list[dict[str, Any]], ack_seat: int | None = None, ack: Any = None) -> Update:
        """The hub's ``text_for(seat)`` after ``events`` (an ``Update``, numbered
        after the previous one, whose patches it can write)."""
        prev = self._last_update
        self._last_update = update = Update(self, events, ack_seat, ack, prev)
        return update

    def _update(
        self, seat: int, events: list[dict[str, Any]], ack: Any, common: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The state after ``events`` (oldest first): ``event`` is the last, ``events`` all of them."""
        if common is None:
            common = self._common()
        msg = self._seat_state(common, seat, events[-1] if events else None, ack)
        msg["events"] = [public_event(e, seat) for e in events]
        return msg

    async def start(self) -> None:
        async with self.lock:
            dealt = self.table.start()
            if dealt:
                await self._commit(dealt)
        self.kick()

    # -- bots --------------------------------------------------------------------

    def kick(self) -> None:
        """Start the bot task if a bot must act and none is running."""
        if (self._bots is None or self._bots.done()) and self._bot_seats():
            self._bots = asyncio.create_task(self._drive_bots())

    def _bot_seats(self) -> list[int]:
        return [s for s in self.table.waiting_on() if self.table.seats[s].kind == "bot"]

    async def _pause(self) -> None:
        """At "normal" speed, wait as a person would before the next bot acts
        (longer after a trick, so the finished trick stays visible)."""
        if self.speed != "normal":
            return
        deal = self.table.deal
        assert deal is not None
        if deal.phase == PASS:
            delay = self.pace.pass_
        elif not deal.trick and deal.tricks:
            delay = self.pace.after_trick
        else:
            delay = self.pace.play
        await asyncio.sleep(delay)

    def _bot_for(self, seat: int) -> tuple[str, str | None]:
        """The level that plays ``seat`` now, and the mark (``auto``) its moves
        carry: None for the seat's own bot."""
        return self.table.seats[seat].level or "random", None

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
            level, auto = self._bot_for(seat)
            if auto is None and self.thinker.inline(level):
                async with self.lock:
                    if self.broken:
                        return
                    events = self._bots_now(limit=64 if self.speed == "fast" else 1)
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
        view = self.table.view_object(seat)
        mark = len(self.table.log)
        try:
            kind, choice = await self.thinker.decide(level, view, self._seed(seat))
        except Exception:
            log.exception("bot %s failed in game %s", level, self.id)
            return False
        async with self.lock:
            if self.broken:
                return False
            if len(self.table.log) != mark or not check():
                return True  # the position changed while it thought: think again
            try:
                event = self._apply_bot(seat, kind, choice)
            except CommandError:
                return True
            if auto:
                event["auto"] = auto
            try:
                await self._commit([event])
            except Exception:
                log.exception("store failed in game %s", self.id)
                return False
        return True

    async def stop(self) -> None:
        if self._bots is not None:
            self._bots.cancel()
            with contextlib.suppress(BaseException):
                await self._bots

    # -- training ------------------------------------------------------------------

    async def advice(self, seat: int) -> dict[str, Any]:
        t = self.table
        if seat not in t.waiting_on():
            raise CommandError("not_your_turn", "advice is given when it is your turn")
        view = t.view_object(seat)
        deal = t.deal
        assert deal is not None
        options = await self.thinker.advise(view)
        return {
            "v": VERSION,
            "type": "advice",
            "deal": deal.number,
            "phase": deal.phase,
            "play": len(deal.plays),
            "options": options,
        }

    async def review(self, seat: int, number: object) -> dict[str, Any]:
        deals = self.table.match.deals
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(deals):
            raise CommandError("bad_deal", "no such deal")
        done = deals[number]
        if done.phase != DONE:
            raise CommandError("bad_deal", "the deal is not finished")
        rules = self.table.rules
        deal = Deal(rules, done.dealt, done.kitty, done.number)
        if deal.phase == PASS:
            for s, p in enumerate(done.passes):
                assert p is not None
                deal.pass_cards(s, p)
        totals = self.table.totals_before(done)
        expert = resolve_level("expert")
        items = []
        for i, (who, card) in enumerate(zip(done.seats, done.plays, strict=True)):
            if who == seat:
                view = view_of(deal, seat, totals)
                advice = await self.thinker.advise(view)
                best = next((a for a in advice if a["best"]), None)
                if best is not None and len(best["cards"]) == 1 and best["cards"][0] != CARD_NAMES[card]:
                    scores = {tuple(a["cards"]): a["score"] for a in advice}
                    mine, theirs = scores.get((CARD_NAMES[card],)), best["score"]
                    cost = None if mine is None or theirs is None else round(mine - theirs, 2)
                    items.append(
                        {
                            "trick": i // rules.players,
                            "play": i,
                            "played": CARD_NAMES[card],
                            "expert": best["cards"][0],
                            "cost": cost,
                            "trick_cards": [CARD_NAMES[c] for c in done.tricks[i // rules.players][1]],
                        }
                    )
            deal.play(card)
        return {"v": VERSION, "type": "review", "deal": number, "expert": expert, "items": items}


class Games:
    """The registry: creates games, finds a seat by token, loads games after a restart."""

    def __init__(self, store: Store, hub: Hub, thinker: Thinker, pace: Pace | None = None) -> None:
        self.store = store
        self.hub = hub
        self.thinker = thinker
        self.pace = pace or Pace()
        self.runners: dict[str, Runner] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def create_solo(
        self,
        *,
        rules: Rules,
        level: str = "intermediate",
        speed: str = "normal",
        name: str = "You",
        owner: str | None = None,
    ) -> tuple[str, str, int]:
        """A table with one person (seat 0) and bots elsewhere; returns (game id, seat token, seat)."""
        if level not in LEVELS and level != "random":
            raise CommandError("bad_level", f"level must be one of {', '.join(LEVELS)}")
        if speed not in SPEEDS:
            raise CommandError("bad_speed", "speed must be normal or fast")
        names = BOT_NAMES[rules.players]
        seats = [Seat("human", name[:24] or "You", None, owner)]
        seats += [Seat("bot", n, level) for n in names]
        token = new_token()
        game = GameRow(
            id=secrets.token_hex(8),
            owner=owner,
            rules=rules.to_json(),
            seats=[s.to_json() for s in seats],
            secret=new_secret().hex(),
            options={"level": level, "speed": speed, "kind": "solo"},
        )
        await self.store.create_game(game, {token: 0})
        table = Table(rules, seats, game.secret_bytes, game.sealed)
        runner = Runner(game, table, self.store, self.hub, self.thinker, self.pace)
        self.runners[game.id] = runner
        await runner.start()
        return game.id, token, 0

    async def get(self, game_id: str) -> Runner | None:
        runner = self.runners.get(game_id)
        if runner is not None and not runner.broken:
            return runner
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            runner = self.runners.get(game_id)
            if runner is not None and not runner.broken:
                return runner
            loaded = await self.store.load_game(game_id)
            if loaded is None:
                return None
            game, events = loaded
            rules = Rules.from_json(game.rules)
            seats = [Seat.from_json(s) for s in game.seats]
            table = Table.replay(rules, seats, game.secret_bytes, events, game.sealed)
            runner = Runner(game, table, self.store, self.hub, self.thinker, self.pace)
            self.runners[game_id] = runner
        # A deal that ended just before a crash may not have its successor yet.
        await runner.start()
        return runner

    async def join(self, token: object) -> tuple[Runner, int] | None:
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        found = await self.store.find_seat(token)
        if found is None:
            return None
        game_id, seat = found
        runner = await self.get(game_id)
        return None if runner is None else (runner, seat)

    def release(self, runner: Runner) -> None:
        """Forget a solo game nobody is connected to once nothing runs for it (it
        stays in the store; the next ``join`` rebuilds it): memory follows the
        games being played, not every game ever started."""
        idle = runner._bots is None or runner._bots.done()
        alone = self.hub.connections(runner.id) == 0 and self.runners.get(runner.id) is runner
        if type(runner) is Runner and idle and alone:
            self.runners.pop(runner.id, None)
            self._loading.pop(runner.id, None)

    async def close(self) -> None:
        for r in list(self.runners.values()):
            await r.stop()
