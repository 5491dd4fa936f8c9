"""Limits per client address: unknown table codes, tables and games created.

A token bucket per address. It is what keeps private tables private: a
table's code (about 39 bits) is its only secret, so each client address may
name only a few codes that lead nowhere before every lookup it makes is
refused for a while, whichever connection or route it comes through. (A
connection's own rate of messages is ``connection.RateLimit``.)
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from ..clock import Clock
from ..http import address_key


class CodeLimitSettings(Protocol):
    """The knobs ``UnknownCodes`` reads at each lookup (``MpSettings`` has them)."""

    @property
    def unknown_codes(self) -> int:
        """Unknown codes an address may name at once; 0 turns the limit off."""

    @property
    def unknown_codes_window(self) -> float:
        """Seconds in which the allowance comes back in full (one code every window/limit)."""

    @property
    def clock(self) -> Clock:
        """The app's clock (tests move a ``ManualClock``)."""


class Allowance:
    """A token bucket per client address, ``limit()`` deep, refilled in full
    over ``window()`` seconds (read at each call, so that a change of settings
    applies at once; a limit of 0 turns it off). Only addresses that spent
    within the last window are kept, and at most ``max_addresses`` of them (the
    longest quiet go first), so memory stays bounded.

    >>> now = [0.0]
    >>> a = Allowance(lambda: 2, lambda: 60.0, lambda: now[0])
    >>> a.take("203.0.113.9"), a.take("203.0.113.9"), a.take("203.0.113.9"), a.take("198.51.100.7")
    (0.0, 0.0, 30.0, 0.0)
    >>> now[0] = 30.0
    >>> a.wait("203.0.113.9")
    0.0
    """

    MAX_ADDRESSES = 50_000

    def __init__(
        self,
        limit: Callable[[], int],
        window: Callable[[], float],
        clock: Callable[[], float],
        max_addresses: int = MAX_ADDRESSES,
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.max_addresses = max_addresses
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """Address key -> (allowance left, when counted), the least recently counted first."""

    def __len__(self) -> int:
        return len(self._buckets)

    def _left(self, key: str, now: float, limit: int, window: float) -> float:
        bucket = self._buckets.get(key)
        if bucket is None:
            return float(limit)
        left, stamp = bucket
        return min(float(limit), left + max(0.0, now - stamp) * limit / window)

    def wait(self, host: str | None) -> float:
        """0 when this address may spend now, else the seconds until it may."""
        limit, window = self.limit(), self.window()
        if limit <= 0:
            return 0.0
        left = self._left(address_key(host), self.clock(), limit, window)
        return 0.0 if left >= 1 else (1 - left) * window / limit

    def spend(self, host: str | None) -> None:
        """Count one against this address."""
        limit, window = self.limit(), self.window()
        if limit <= 0:
            return
        key, now = address_key(host), self.clock()
        left = self._left(key, now, limit, window)
        self._buckets[key] = (max(0.0, left - 1), now)
        self._buckets.move_to_end(key)
        # Buckets counted a whole window ago are full again: the same as none.
        while self._buckets:
            oldest, (_, stamp) = next(iter(self._buckets.items()))
            if now - stamp < window and len(self._buckets) <= self.max_addresses:
                break
            del self._buckets[oldest]

    def take(self, host: str | None) -> float:
        """``wait``, and when it is 0, ``spend`` at once (nothing in between)."""
        wait = self.wait(host)
        if not wait:
            self.spend(host)
        return wait


class UnknownCodes(Allowance):
    """Table codes that named no table, per client address: ``unknown_codes``
    deep, refilled in full over ``unknown_codes_window`` seconds.

    ``wait`` is asked before any lookup of a code (known or not: the answer must not
    tell whether a code exists); ``miss`` counts one that named no table.

    >>> from types import SimpleNamespace
    >>> from damepique.server.clock import ManualClock
    >>> codes = UnknownCodes(SimpleNamespace(unknown_codes=2, unknown_codes_window=60.0,
    ...     clock=ManualClock()))
    >>> codes.miss("203.0.113.9"); codes.miss("203.0.113.9")
    >>> codes.wait("203.0.113.9"), codes.wait("198.51.100.7")
    (30.0, 0.0)
    """

    def __init__(self, settings: CodeLimitSettings, max_addresses: int = Allowance.MAX_ADDRESSES) -> None:
        super().__init__(
            lambda: settings.unknown_codes,
            lambda: settings.unknown_codes_window,
            lambda: settings.clock.monotonic(),
            max_addresses,
        )

    def miss(self, host: str | None) -> None:
        """This address named a code that leads to no table."""
        self.spend(host)


TOO_MANY_CODES = "too_many_codes"
"""The error code of a lookup refused because its address named too many unknown codes."""


def too_many_codes(seconds: float) -> str:
    """The reason given with ``too_many_codes``."""
    return (
        f"too many table codes that lead to no table from your address; try again in {retry_after(seconds)} s"
    )


def retry_after(seconds: float) -> int:
    """Whole seconds for a ``Retry-After`` header or a reason (at least 1).

    >>> retry_after(0.2), retry_after(20.0), retry_after(20.1)
    (1, 20, 21)
    """
    return max(1, math.ceil(seconds))


__all__ = [
    "TOO_MANY_CODES",
    "Allowance",
    "CodeLimitSettings",
    "UnknownCodes",
    "retry_after",
    "too_many_codes",
]
