"""The daily deal's days and its game.

A day is a UTC calendar day, written ``YYYY-MM-DD``; it starts at 00:00 UTC
and is over at the next midnight, read on the app's clock
(``Settings.clock``), so a test crosses midnight by moving the clock.

``daily_game`` makes a solo game dealt from the day's secret: a fixed number
of deals (``FixedMatch``), and a secret that stays hidden when the player's
game ends (everybody else is still playing the same cards) and is revealed
only once the day is over. At midnight a game still in progress stops: no
card may be played after the day's secret can be known.

>>> day_of(1_700_000_000.0)
'2023-11-14'
>>> bounds("2023-11-14")
(1699920000.0, 1700006400.0)
>>> parse_date("2023-02-30")
Traceback (most recent call last):
...
damepique.server.errors.Refusal: a date is written YYYY-MM-DD
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from damepique.engine import Rules

from ..clock import Clock
from ..errors import Refusal
from ..play.fixed import FixedGame
from ..play.game import Seat

DAY = 86_400.0


def day_of(t: float) -> str:
    """The UTC day of the time ``t`` (seconds since the epoch)."""
    return dt.datetime.fromtimestamp(t, dt.UTC).date().isoformat()


def bounds(date: str) -> tuple[float, float]:
    """When the day starts and when it is over (seconds since the epoch)."""
    start = dt.datetime.combine(dt.date.fromisoformat(date), dt.time(), dt.UTC).timestamp()
    return start, start + DAY


def parse_date(text: object) -> str:
    """``YYYY-MM-DD`` as written in a URL, checked; ``Refusal("bad_date")`` otherwise."""
    if isinstance(text, str) and len(text) == 10:
        try:
            return dt.date.fromisoformat(text).isoformat()
        except ValueError:
            pass
    raise Refusal("bad_date", "a date is written YYYY-MM-DD")


def previous(date: str) -> str:
    return (dt.date.fromisoformat(date) - dt.timedelta(days=1)).isoformat()


def daily_game(
    rules: Rules, seats: Sequence[Seat], secret: bytes, *, deals: int, ends: float, clock: Clock
) -> FixedGame:
    """A solo game of the daily deal: ``deals`` deals, the secret hidden until
    ``ends`` on ``clock``, and no card played from then on."""

    def over() -> bool:
        return clock.time() >= ends

    refusal = Refusal("day_over", "the day is over: its game can no longer be played")
    return FixedGame(rules, seats, secret, deals=deals, closed=over, revealed=over, refusal=refusal)


__all__ = ["DAY", "bounds", "daily_game", "day_of", "parse_date", "previous"]
