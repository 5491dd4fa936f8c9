"""Fair ranked play: repeated leaving bars quick ranked matches for a while.

A ranked game a bot finished for a player (they left for good, or were still
away past the grace period when it ended) is a loss for their rating (last
place: ``ratings``) and counts as a *leave*. ``LEAVES_TO_BAR`` leaves within
``WINDOW_S`` bar the player from quick ranked matches until ``BAR_S`` after
the last of them (tables with friends stay open to them).

>>> hour = 3600.0
>>> barred_until([0.0, hour, 2 * hour], now=2.5 * hour)  # three in a day: one hour after the last
10800.0
>>> barred_until([0.0, hour, 2 * hour], now=3 * hour) is None  # and then no longer
True
>>> barred_until([0.0, hour], now=hour) is None  # two are not enough
True
"""

from __future__ import annotations

from collections.abc import Iterable

LEAVES_TO_BAR = 3
WINDOW_S = 24 * 3600.0
BAR_S = 3600.0


def recent(leaves: Iterable[float], now: float) -> list[float]:
    """The leaves that count now (within ``WINDOW_S``), oldest first."""
    return sorted(t for t in leaves if now - WINDOW_S < t <= now)


def barred_until(leaves: Iterable[float], now: float) -> float | None:
    """When a player who left ranked games at these times may queue for quick
    ranked matches again, or None when they may now."""
    counted = recent(leaves, now)
    if len(counted) < LEAVES_TO_BAR:
        return None
    until = counted[-1] + BAR_S
    return until if until > now else None


__all__ = ["BAR_S", "LEAVES_TO_BAR", "WINDOW_S", "barred_until", "recent"]
