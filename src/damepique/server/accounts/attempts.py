"""Wrong passwords, remembered to make guessing them slow without letting a
stranger lock anybody out (issue 20).

Every login attempt counts as a failure from the moment it begins, before its
password is checked, and is forgiven only once it has succeeded: so sixty
guesses sent at once are held to the same limit as sixty in a row. Failures
are counted in a window of ``WINDOW`` seconds:

- for a pair (address, nickname): ``PAIR`` failures, then that address may not
  try that nickname again until the window has passed;
- for an address the account was signed in from lately (its owner's): never
  refused, only slowed down, by ``STEP`` seconds more at each failure past
  ``PAIR`` (up to ``MAX_DELAY``); a stranger's guesses from elsewhere change
  nothing for it;
- for a nickname, from all other addresses together: past ``ACCOUNT``
  failures the account is under attack, and each address that is not its
  owner's has ``PAIR_UNDER_ATTACK`` tries instead of ``PAIR``. The budget is
  the pair's: no number of strangers can spend the one of an address they do
  not hold, so the owner signing in from a new address (a phone, a friend's
  computer) still gets in while a hundred addresses guess (issue 25), and
  guessing from many addresses is bounded by ``PAIR_UNDER_ATTACK`` per address
  and window. (An account-wide limit, as before, let 20 strangers' failures
  lock the owner out of every new address.)
- for an address, over all nicknames: ``ADDRESS`` failures (trying one
  password on every account).

Nicknames nobody has are counted exactly like the others (the answer and its
time do not tell who has an account). What this remembers lives in the
process's memory: several processes each keep their own counts.

>>> a = Attempts()
>>> [a.begin("192.0.2.1", "lea", now=0.0).delay for _ in range(5)]
[0.0, 0.0, 0.0, 0.0, 0.0]
>>> a.begin("192.0.2.1", "lea", now=1.0)
Traceback (most recent call last):
...
damepique.server.errors.Refusal: too many wrong passwords; try again in 15 minutes
>>> a.known("198.51.100.7", "lea", now=2.0)
>>> [a.begin("198.51.100.7", "lea", now=3.0).delay for _ in range(7)]
[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0]

Hashing the password of an attempt waits its turn in a queue shared fairly by
addresses (``fair.FairQueue``, in ``accounts``): a spray from many addresses
delays the owner by one turn of each, and refuses nobody who waits for one.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import TypeVar

from ..clock import Clock
from ..errors import Refusal

WINDOW = 900.0
"""Seconds a failure is remembered."""
PAIR = 5
ACCOUNT = 20
PAIR_UNDER_ATTACK = 2
ADDRESS = 30
STEP = 1.0
MAX_DELAY = 10.0
KNOWN_FOR = 30 * 24 * 3600.0
"""Seconds an address stays its owner's after a successful login from it."""
MAX_KEYS = 200_000
"""Entries kept at most in each table (old ones are dropped first)."""

K = TypeVar("K")


@dataclass(frozen=True)
class Attempt:
    address: str
    key: str
    delay: float
    """Seconds to wait before the password is checked (the owner's slow-down)."""
    owner: bool
    """From an address of the account's owner: counted for the pair only."""


class Attempts:
    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        """What the window and the owners' addresses are timed on (the app's clock)."""
        self.pairs: dict[tuple[str, str], deque[float]] = {}
        self.accounts: dict[str, deque[float]] = {}
        self.addresses: dict[str, deque[float]] = {}
        self.owners: dict[tuple[str, str], float] = {}

    def begin(self, address: str, key: str, now: float | None = None) -> Attempt:
        """An attempt to sign in to ``key`` from ``address``, counted as a failure
        at once (and forgiven by ``succeeded``); or ``Refusal("too_many_attempts")``,
        and nothing counted."""
        now = self.clock.monotonic() if now is None else now
        pair = _recent(self.pairs, (address, key), now)
        owner = now - self.owners.get((address, key), -math.inf) < KNOWN_FOR
        if owner:
            delay = min(MAX_DELAY, STEP * max(0, len(pair) + 1 - PAIR))
        else:
            delay = 0.0
            account = _recent(self.accounts, key, now)
            by_address = _recent(self.addresses, address, now)
            per_pair = PAIR_UNDER_ATTACK if len(account) >= ACCOUNT else PAIR
            for times, limit in ((pair, per_pair), (by_address, ADDRESS)):
                if len(times) >= limit:
                    wait = max(1, math.ceil(times[0] + WINDOW - now))
                    raise Refusal(
                        "too_many_attempts",
                        f"too many wrong passwords; try again in {math.ceil(wait / 60)} minutes",
                        retry_after=wait,
                    )
            _add(self.accounts, key, now)
            _add(self.addresses, address, now)
        _add(self.pairs, (address, key), now)
        return Attempt(address, key, delay, owner)

    def succeeded(self, attempt: Attempt, now: float | None = None) -> None:
        """The attempt signed in: it was no failure, and its address is the owner's."""
        self.withdrawn(attempt)
        self.known(attempt.address, attempt.key, now)

    def withdrawn(self, attempt: Attempt) -> None:
        """The attempt's password was never checked (the server was too busy)."""
        _forgive(self.pairs, (attempt.address, attempt.key))
        if not attempt.owner:
            _forgive(self.accounts, attempt.key)
            _forgive(self.addresses, attempt.address)

    def known(self, address: str, key: str, now: float | None = None) -> None:
        """``address`` belongs to the owner of ``key`` (a login or a registration from it)."""
        now = self.clock.monotonic() if now is None else now
        self.owners[(address, key)] = now
        if len(self.owners) > MAX_KEYS:
            for k in sorted(self.owners, key=self.owners.__getitem__)[: MAX_KEYS // 10]:
                del self.owners[k]


def _recent(table: dict[K, deque[float]], key: K, now: float) -> deque[float]:
    times = table.get(key)
    if times is None:
        return deque()
    while times and now - times[0] >= WINDOW:
        times.popleft()
    if not times:
        del table[key]
    return times


def _add(table: dict[K, deque[float]], key: K, now: float) -> None:
    times = table.get(key)
    if times is None:
        if len(table) >= MAX_KEYS:
            _prune(table, now)
        times = table[key] = deque()
    times.append(now)


def _forgive(table: dict[K, deque[float]], key: K) -> None:
    times = table.get(key)
    if times:
        times.pop()  # any one of its times: only their number counts


def _prune(table: dict[K, deque[float]], now: float) -> None:
    """Forget what has expired; if that is not enough, the oldest tenth."""
    for k in [k for k, t in table.items() if not t or now - t[-1] >= WINDOW]:
        del table[k]
    if len(table) >= MAX_KEYS:
        for k in sorted(table, key=lambda k: table[k][-1])[: MAX_KEYS // 10]:
            del table[k]


__all__ = ["Attempt", "Attempts"]
