"""A rate limit per connection: a token bucket."""

from __future__ import annotations

import time


class RateLimit:
    """``rate`` messages a second on average, up to ``burst`` at once.

    >>> limit = RateLimit(rate=0.0, burst=2)
    >>> limit.allow(), limit.allow(), limit.allow()
    (True, True, False)
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one message from the bucket; False when it is empty (the message is refused)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
