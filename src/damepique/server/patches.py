"""State messages written as text, whole or as patches (``docs/protocol.md``).

After every card each seat's connections get that seat's whole picture of
the game, or, when they asked for patches and hold the previous update, only
what changed. Both are written here as JSON text, from parts: the public view
of the deal (``public_view.public_json``, the same for every seat, built once
per update and carried forward from the last one while a deal is played) and
each seat's own fields (``seat_fields``: numbers and card masks, cheap to
build and to compare), so that a table of four costs one public view and four
small pieces of text per card. After cards are played, a patch is built from
them: the view's keys they changed (``public_view.played_changes``), and the
own fields of the seats that played or must act (the others' are the last
update's with whose turn it is). An ``Update`` is one such broadcast; the hub
asks it for each connection's text.

>>> import random
>>> from damepique.engine import Deal, Rules, view_of
>>> from damepique.server.public_view import public_json
>>> deal = Deal.shuffled(Rules(), random.Random(2))
>>> {**public_json(deal), **seat_json(deal, 0)} == view_of(deal, 0).to_json()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from damepique.engine import (
    CARD_NAMES,
    PASS,
    PLAY,
    Deal,
    cards_of,
    claim_plan_of,
    decision_id,
    event_for,
)
from damepique.wire import (
    StateCommon,
    StateMessage,
    state_events,
    state_message,
    state_patch_parts,
    state_patch_text,
    state_text,
)

from .protocol import Json, Ref, dumps
from .public_view import PLAY_FIELDS


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


SEAT_FIELDS = frozenset(
    {"seat", "to_act", "decision", "hand", "legal", "claim", "pass_to", "passed", "received"}
)
"""The keys of ``seat_json``: those of a seat's view that ``public_json`` holds
only as blanks (a server writing the view as text leaves them out of the public part)."""


SeatFields = tuple[int | None, str | None, int, int, bool, int | None, int | None, int | None]
"""``seat_json``'s fields as numbers: ``to_act``, the ``decision`` asked of
the seat (its id, or None), then the cards of ``hand`` and ``legal`` as masks,
``claim``, ``pass_to``, and ``passed`` and ``received`` as masks (None: not
passed, not received)."""

SEAT_FIELD_KEYS = ("to_act", "decision", "hand", "legal", "claim", "pass_to", "passed", "received")
"""The keys of ``SeatFields``, in its order."""
SEAT_FIELD_CARDS = (False, False, True, True, False, False, True, True)
"""For each of ``SeatFields``: whether it is a set of cards (a mask, written as names)."""


def seat_fields(deal: Deal, seat: int) -> SeatFields:
    """What ``seat_json`` writes, as numbers and card masks (``SeatFields``):
    cheap to build and to compare, for a server that writes only what changed."""
    n = deal.players
    offset = deal.pass_offset % n
    phase = deal.phase
    passed = deal.passes[seat]
    hand = deal.hands[seat]
    received = None
    legal = 0
    claim = False
    decision = None
    if phase == PASS:
        to_act: int | None = seat if passed is None else None
        if passed is not None:
            hand &= ~passed  # set aside, no longer in hand
        else:
            decision = decision_id(deal.number, "pass", seat)
    else:
        to_act = deal.to_act if phase == PLAY else None
        if offset:
            received = deal.passes[deal.pass_source(seat)]
        if to_act == seat:
            decision = decision_id(deal.number, "play", deal.play_count)
            legal = deal.legal_mask()
            # Only the seat to act may claim, from what it may know (its view's fields).
            claim = claim_plan_of(deal, seat) is not None
    return (to_act, decision, hand, legal, claim, (seat + offset) % n if offset else None, passed, received)


def seat_json(deal: Deal, seat: int, names: Callable[[int], list[str]] = _names) -> Json:
    """The fields of ``view_of(deal, seat).to_json()`` that only ``seat`` may see
    (and ``to_act``, which differs by seat while passing); laid over
    ``public_json(deal)`` they give the seat's whole view. ``names`` writes a
    set of cards as a list of names (a server may pass one that remembers its
    lists, so that an unchanged hand is the very same list, cheap to compare)."""
    return seat_fields_json(seat, seat_fields(deal, seat), names)


def seat_fields_json(seat: int, fields: SeatFields, names: Callable[[int], list[str]] = _names) -> Json:
    """``seat_json`` from ``seat_fields``."""
    to_act, decision, hand, legal, claim, pass_to, passed, received = fields
    return {
        "seat": seat,
        "to_act": to_act,
        "decision": decision,
        "hand": names(hand),
        "legal": names(legal),
        "claim": claim,
        "pass_to": pass_to,
        "passed": None if passed is None else names(passed),
        "received": None if received is None else names(received),
    }


# -- the texts of one broadcast --------------------------------------------------------

_MISSING = object()


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
            # Not through ``__call__``: a patch needs only the text, not a list kept for whole states.
            text = self._texts[mask] = (
                '["' + '","'.join([CARD_NAMES[c] for c in cards_of(mask)]) + '"]' if mask else "[]"
            )
        return text


_OWN_KEYS_TEXT = tuple(f'"{k}":' for k in SEAT_FIELD_KEYS)


def own_changes(new: SeatFields, old: SeatFields, names: CardNames, turn: bool = True) -> str:
    """The seat's own view fields that differ from ``old``, as the inside of a
    JSON object (what ``_changed`` over two ``seat_json`` would say). ``turn``
    False: whose turn it is left out (the public view's changes say it, while
    cards are played: the same value for every seat)."""
    if new[1:] == old[1:]:  # most seats after most cards: only whose turn it is
        value = new[0]
        if not turn or value == old[0]:
            return ""
        return _OWN_KEYS_TEXT[0] + ("null" if value is None else str(value))
    parts = []
    for i in range(0 if turn else 1, len(new)):
        item = new[i]
        if item != old[i]:
            if item is None:
                parts.append(_OWN_KEYS_TEXT[i] + "null")
            elif isinstance(item, str):  # a decision id: digits, a word, colons
                parts.append(_OWN_KEYS_TEXT[i] + '"' + item + '"')
            elif SEAT_FIELD_CARDS[i]:
                parts.append(_OWN_KEYS_TEXT[i] + names.text(item))
            elif isinstance(item, bool):
                parts.append(_OWN_KEYS_TEXT[i] + ("true" if item else "false"))
            else:
                parts.append(_OWN_KEYS_TEXT[i] + str(item))
    return ",".join(parts)


def _changed(new: Mapping[str, Any], old: Mapping[str, Any], keys: Iterable[str] | None = None) -> Json:
    """The keys of ``new`` (or only ``keys`` of them) whose value is not
    ``old``'s; a value that is the very same object is not even compared."""
    if keys is None:
        keys = new
    return {k: v for k in keys if (v := new[k]) is not (o := old.get(k, _MISSING)) and v != o}


_PLAY_PUBLIC = tuple(sorted(PLAY_FIELDS - SEAT_FIELDS))


def _play_changes(view: Json, old: Json) -> Iterable[str]:
    """The public view's keys worth comparing with ``old``'s: while the same deal
    is played only those that cards change (``PLAY_FIELDS``), else all of them."""
    if view["deal"] == old["deal"] and view["phase"] == old["phase"] == PLAY:
        return _PLAY_PUBLIC
    return [k for k in view if k not in SEAT_FIELDS]


class Update:
    """The state messages of one broadcast, as JSON text: ``text(seat)`` is a
    seat's whole state (-1: a spectator's), ``patch(seat)`` only what changed
    since the previous update (number ``base``), for a connection that holds
    that one and asked for patches.

    ``common`` is everything in a state message that is the same for every
    seat (``wire.StateCommon``: the public view, scores, seats, rules), never to be
    changed: an unchanged part is the same object from one update to the
    next, which a patch compares at no cost. Each seat's text adds only its
    own fields (its seat, events, ack and the private half of its view, from
    ``deal``). An update must be asked for its messages before the next one
    is made: a patch is the difference between the two, as they were built."""

    _used: bool
    """Someone was sent this update's messages (a patch may build on it)."""

    def __init__(
        self,
        common: StateCommon,
        deal: Deal | None,
        events: Sequence[Json],
        names: CardNames,
        prev: Update | None = None,
        ack_seat: int | None = None,
        ack: Ref | bool = None,
        view_changes: Json | None = None,
        changes_from: Json | None = None,
        numbered: bool = True,
        same_top: bool = False,
    ) -> None:
        self.common = common
        self._same_top = same_top
        """Every member of ``common`` but the view is ``prev``'s (the maker knows it
        at no cost): no top-level change to look for."""
        self.deal = deal
        self.events = events
        self.names = names
        self.ack_seat = ack_seat
        self.ack = ack
        self.n: int = 1 if prev is None else prev.n + 1
        self.numbered = numbered
        """False: a state outside the updates (a hello's), with no ``n``: no patch builds on it."""
        # Patches only over an update whose messages were built (someone got them).
        self._prev = prev if prev is not None and prev._used else None
        self.base = None if self._prev is None else self._prev.n
        if prev is not None:
            prev._prev = None  # a chain of one: nothing older is ever needed
        self._used = False
        self._shared: tuple[str, str] | None = None
        self._own: dict[int, SeatFields | None] = {}
        """Each seat's ``seat_fields`` as written in this update (None: no view)."""
        self._patch_shared: tuple[str, str] | bool | None = None
        """The top-level and public view changes as text (False: no patch)."""
        self._public_events: str | None = None
        self._view_changes: Json | None = None
        """The public view's changes since ``base``, built from the events
        (``played_changes``): no whole view to compare."""
        self._touched: frozenset[int] | None = None
        """With ``_view_changes``: the seats whose own fields may have changed
        beyond whose turn it is (those that played, and the one to act)."""
        self._quiet: tuple[str, str] | None = None
        """With ``_view_changes``: the patch of every other seat, cut where its
        number goes (``wire.state_patch_parts``): they all say the same."""
        if (
            self._prev is not None
            and view_changes is not None
            and changes_from is not None
            and self._prev.common["view"] is changes_from
            and deal is not None
        ):
            self._view_changes = view_changes
            self._touched = frozenset([*(e["seat"] for e in events), deal.to_act])

    @property
    def from_events(self) -> bool:
        """Its patches are built from its events (cards played), not by comparison."""
        return self._view_changes is not None

    def message(self, seat: int) -> StateMessage:
        """``seat``'s whole state (the text's content; -1: a spectator's)."""
        view = self.common["view"]
        if seat >= 0 and self.deal is not None and view is not None:
            view = {**view, **seat_json(self.deal, seat, self.names)}
        return state_message(
            self.common,
            None if seat < 0 else seat,
            view,
            told_events(self.events, seat),
            n=self.n if self.numbered else None,
            ack=self.ack if seat == self.ack_seat else None,
        )

    def _seat_part(self, seat: int) -> SeatFields | None:
        if seat in self._own:
            return self._own[seat]
        deal = self.deal
        touched, prev = self._touched, self._prev
        if touched is not None and prev is not None and seat not in touched and deal is not None:
            # A seat that neither played nor must act: only whose turn it is changed.
            old = prev._own.get(seat)
            if old is not None:
                own: SeatFields | None = (deal.to_act, *old[1:])
                self._own[seat] = own
                return own
        own = None if deal is None or self.common["view"] is None else seat_fields(deal, seat)
        self._own[seat] = own
        return own

    def _ack(self, seat: int) -> str | None:
        """The JSON of ``seat``'s acknowledgement in this update, if any."""
        return dumps(self.ack) if seat == self.ack_seat and self.ack is not None else None

    def text(self, seat: int) -> str:
        """``seat``'s whole state as text (-1: a spectator's)."""
        self._used = True
        if seat < 0:
            return dumps(self.message(seat))
        if self._shared is None:
            rest = dumps({k: v for k, v in self.common.items() if k != "view"})[1:-1]
            view = self.common["view"]
            public = (
                "" if view is None else dumps({k: v for k, v in view.items() if k not in SEAT_FIELDS})[1:-1]
            )
            self._shared = (rest, public)
        rest, public_view = self._shared
        part = self._seat_part(seat)
        if part is None or not public_view:
            view_text = "null"
        else:
            view_text = dumps(seat_fields_json(seat, part, self.names))[:-1] + "," + public_view + "}"
        n = self.n if self.numbered else None
        return state_text(seat, self._events_text(seat), view_text, rest, n=n, ack=self._ack(seat))

    def _events_text(self, seat: int) -> str:
        """``"event":...,"events":[...]`` for ``seat``: written once for every
        seat unless a pass is among the events (its cards go to its seat only)."""
        if self._public_events is None:
            private = any(e["type"] == "pass" for e in self.events)
            self._public_events = "" if private else self._write_events(-1)
        return self._public_events or self._write_events(seat)

    def _write_events(self, seat: int) -> str:
        return dumps(state_events(told_events(self.events, seat)))[1:-1]

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
        self._used = True
        if self._patch_shared is None:
            common, before = self.common, prev.common
            view, old = common["view"], before["view"]
            if (view is None) != (old is None):
                self._patch_shared = False
            else:
                if self._same_top:
                    top = ""
                else:
                    top = dumps(_changed(common, before, [k for k in common if k != "view"]))[1:-1]
                if self._view_changes is not None:
                    changed = dumps(self._view_changes)[1:-1]
                elif view is None or old is None:
                    changed = ""
                else:
                    changed = dumps(_changed(view, old, _play_changes(view, old)))[1:-1]
                self._patch_shared = (top, changed)
        if isinstance(self._patch_shared, bool):
            return None
        top_text, public_changes = self._patch_shared
        old_own = prev._own.get(seat)
        touched = self._touched
        if touched is not None and seat not in touched and seat != self.ack_seat and old_own is not None:
            # Cards were played and this seat neither played nor must act: its own
            # fields are the last update's but whose turn it is, which the public
            # view's changes say, so its patch is every such seat's.
            assert self.deal is not None  # built from events: there is a deal
            self._own[seat] = (self.deal.to_act, *old_own[1:])
            quiet = self._quiet
            if quiet is None:
                assert self.base is not None
                quiet = self._quiet = state_patch_parts(
                    self._events_text(seat), public_changes, top_text, n=self.n, base=self.base, ack=None
                )
            return quiet[0] + str(seat) + quiet[1]
        own_part = self._seat_part(seat)
        if (old_own is None) != (own_part is None):
            return None
        view_changes = None
        if own_part is not None and old_own is not None:
            # Built from events, whose turn it is is among the public view's changes.
            mine = own_changes(own_part, old_own, self.names, turn=touched is None)
            view_changes = mine + ("," if mine and public_changes else "") + public_changes
        assert self.base is not None  # a previous update: a number to build on
        events = self._events_text(seat)
        return state_patch_text(
            seat, events, view_changes, top_text, n=self.n, base=self.base, ack=self._ack(seat)
        )


def told_events(events: Sequence[Json], seat: int) -> list[Json]:
    """What ``seat`` (-1: a spectator) may know of ``events`` (``event_for``),
    without when each happened (``at``: the stored log's, for the turn timer;
    ``timer.stamp``)."""
    out = []
    for e in events:
        told = event_for(e, seat)  # a copy
        if told is not None:
            told.pop("at", None)
            out.append(told)
    return out


__all__ = [
    "SEAT_FIELDS",
    "SEAT_FIELD_CARDS",
    "SEAT_FIELD_KEYS",
    "CardNames",
    "SeatFields",
    "Update",
    "own_changes",
    "seat_fields",
    "seat_fields_json",
    "seat_json",
    "told_events",
]
