"""Play patches: a card's update that leaves out what the card says (``docs/protocol.md``).

After cards are played in the middle of a deal, a patch (``patches.Update``)
rewrites the trick, every finished trick when one ends, the hand sizes and
the hand of the seat that played: a tenth of a card's bytes early in a deal,
most of them late. A client whose ``hello`` said ``"plays": true`` lays the
cards over its view itself (``wire.lay_plays``, ``web/patch.js``), so such an
update's patches (``"plays": true``) say only the cards, whose turn it is,
what a trick's end changed that the cards do not say (points taken, hearts
broken, a void shown, the kitty) and the own fields of the seats that played
or must act. It is sent when every seated connection at the table that gets
patches asked for them (``Hub.take_plays``); whole states are ``Update``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from damepique.engine import Deal
from damepique.wire import PLAYED_KEYS, StateCommon, state_patch_parts, state_patch_text

from .patches import CardNames, Update, own_changes, told_events
from .protocol import Json, Ref, dumps
from .public_view import played_changes


class PlayUpdate(Update):
    """An update made only of cards played in the middle of a deal (nothing
    else changed but whose turn it is and the timer), sent to a table whose
    every seated connection that gets patches asked for play patches. Its patches
    (``"plays": true``) say the cards, whose turn it is, what a trick's end
    changed that the cards do not say, and the own fields of the seats that
    played or must act; not the trick, the finished tricks, the hand sizes or
    the hand, which the client lays itself (``wire.lay_plays``). Its whole
    states are ``Update``'s."""

    _played: tuple[str, str, str] | None = None
    """The public view's changes the cards do not say, the timer if it changed, and the events, as text."""
    _timer = False
    """The timer changed since ``prev`` (it goes in every patch)."""

    @classmethod
    def after(
        cls,
        prev: Update,
        kept: Json,
        deal: Deal,
        events: Sequence[Json],
        names: CardNames,
        ack_seat: int | None,
        ack: Ref | bool,
        timer: Any,
    ) -> PlayUpdate | None:
        """The update after ``events`` (cards just played), over ``prev``, whose
        view was ``kept``; None when it cannot be one (not only cards, the deal
        ended, nobody got ``prev``): the caller builds an ``Update`` then. The
        caller vouches that nothing at the top of the state changed but ``timer``."""
        if not events or not prev._used or prev.common["view"] is not kept:
            return None
        if any(e["type"] != "play" for e in events):
            return None
        changes = played_changes(deal, kept, events)
        if changes is None:
            return None
        common: StateCommon = {
            **prev.common,
            "view": {**kept, **changes} if changes else kept,
            "timer": timer,
        }
        update = cls(common, deal, events, names, prev, ack_seat, ack, changes, kept)
        update._timer = timer != prev.common["timer"]
        return update

    def patch(self, seat: int) -> str | None:
        prev = self._prev
        if prev is None or seat < 0 or self._touched is None or self._view_changes is None:
            return None
        old = prev._own.get(seat)
        if old is None:
            return None
        self._used = True
        if self._played is None:
            told = {k: v for k, v in self._view_changes.items() if k not in PLAYED_KEYS}
            timer = dumps({"timer": self.common["timer"]})[1:-1] if self._timer else ""
            # No ``event``: the last of ``events`` (cards are public: the same for every seat).
            events = '"events":' + dumps(told_events(self.events, -1))
            self._played = (dumps(told)[1:-1], timer, events)
        public, top, events = self._played
        assert self.deal is not None and self.base is not None  # cards were played over an update
        if seat not in self._touched and seat != self.ack_seat:
            # Neither played nor must act: only whose turn it is changed, which ``public`` says.
            self._own[seat] = (self.deal.to_act, *old[1:])
            if self._quiet is None:
                self._quiet = state_patch_parts(
                    events, public, top, n=self.n, base=self.base, ack=None, plays=True
                )
            return self._quiet[0] + str(seat) + self._quiet[1]
        own = self._seat_part(seat)
        if own is None:
            return None
        # The hand is what the cards leave of it (the client lays them): not written.
        mine = own_changes(own, (old[0], old[1], own[2], *old[3:]), self.names, turn=False)
        view = mine + ("," if mine and public else "") + public
        return state_patch_text(
            seat,
            events,
            view,
            top,
            n=self.n,
            base=self.base,
            ack=self._ack(seat),
            plays=True,
        )


__all__ = ["PlayUpdate"]
