"""The garbage collector paced by time in a long-running server (``damepique serve``).

Python's collector starts a young collection when allocations outrun frees by
a threshold. A busy server in a steady state frees about as much as it makes,
so that count hardly grows: at 4,900 tables at human pace the young
generation held 170,000 to 200,000 objects when it was finally collected
(each card's update and views, which live until the table's next card, 2 to
5 s later), and each collection stopped the loop for 160 ms on average, a
middle-generation one for 0.7 s: a card's p99 was 340 ms, where it is 13 ms
with no collection at all (benchmarks/README.md, issue 30). Almost nothing it
traversed was garbage (15 objects a collection): reference counting frees
nearly everything, the collector only has cycles to find.

``Collector`` takes the trigger away from Python (``gc.disable``) and, every
``period`` seconds (up to ``longest`` while the collections are cheap: an
idle server wakes once a second):

- collects the young generation: what was made since the last tick and still
  lives (about ``period`` seconds of cards), each object traversed once, so
  the pause stays short and the cycles made and dropped at once are freed;
- freezes what survived (``gc.freeze``: moved out of every later collection
  at no cost): a table's state is not traversed again and again while it waits
  for its next card;
- once the heap (``sys.getallocatedblocks``: some 0.5 ms at 15 million
  blocks, looked at every ``check_every`` ticks; counting the frozen objects
  walks a list of millions, 50 to 400 ms) has grown by ``growth`` (a quarter,
  the rule Python applies to its oldest generation) since the last full
  collection, and ``spacing`` seconds at least have passed since it, makes
  one (``gc.unfreeze``, ``gc.collect``, ``gc.freeze``): the cycles that
  became garbage after they were frozen (0.24 objects a card, measured: some
  30 MB in ten minutes at 4,900 busy tables) wait for it. Such a collection
  traverses the whole heap: 2.1 s at 4,900 tables, where a young one takes
  5 ms. While tables are added the heap grows by live objects, not garbage,
  which is why the spacing: at most one in ten minutes; at a steady number of
  tables, only the cycles make it grow (some hours at 4,900 tables).

``DAMEPIQUE_GC`` chooses: ``paced`` (the default) or Python's own collector at
thresholds ``g0,g1,g2`` (``700,10,10`` is Python's default).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .clock import Clock

PERIOD_S = 0.1
"""Between two young collections while they cost something: at 4,900 busy
tables some 10,000 objects, 5 ms, each."""

LONGEST_S = 1.0
"""The longest wait between two young collections, reached while they are cheap."""

CHEAP_S = 0.001
"""A young collection shorter than this doubles the wait before the next (up to
``LONGEST_S``); a longer one brings it back to ``PERIOD_S``. Each wake-up costs
some 0.1 ms of CPU on these machines: ten a second were 2.3 ms a second at
an idle server, where a tick's collection is microseconds."""

CHECK_EVERY = 10
"""Ticks between two looks at the heap's size."""

GROWTH = 0.25
"""A full collection once the heap has grown by this share since the last."""

FLOOR = 1_000_000
"""No full collection for growth alone while the heap has fewer blocks than this."""

SPACING_S = 600.0
"""At least this long between two full collections (the start counts as one)."""


@dataclass
class Collector:
    """Young collections every ``period`` to ``longest`` seconds, survivors
    frozen, full collections as the heap grows (the module's docstring says why)."""

    period: float = PERIOD_S
    longest: float = LONGEST_S
    cheap: float = CHEAP_S
    growth: float = GROWTH
    floor: int = FLOOR
    check_every: int = CHECK_EVERY
    spacing: float = SPACING_S
    young: int = 0
    """Young collections made."""
    full: int = 0
    """Full collections made."""
    freed: int = 0
    """Objects the collections found unreachable (cycles)."""
    _base: int = field(default=0, repr=False)
    """The heap's blocks after the last full collection (or the start)."""
    wait: float = field(default=PERIOD_S, init=False, repr=False)
    """Seconds until the next tick (``run``), ``period`` to ``longest``."""
    timer: Callable[[], float] = field(default=time.perf_counter, repr=False)
    """What a young collection's duration is read on (a test gives its own)."""
    _since: float = field(default=0.0, repr=False)
    """Seconds of ticks since the last full collection (or the start)."""
    _was_enabled: bool = field(default=True, repr=False)

    def __post_init__(self) -> None:
        self.wait = self.period

    def start(self) -> None:
        """Take the trigger from Python; what exists now is frozen (the app as built)."""
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.freeze()
        self._base = sys.getallocatedblocks()

    def stop(self) -> None:
        """Give the trigger back to Python (its thresholds as they were); what is frozen stays so."""
        if self._was_enabled:
            gc.enable()

    def tick(self) -> None:
        """One young collection, its survivors frozen, the next wait set by its
        duration; a full collection if the heap grew enough. ``wait`` seconds are
        taken to have passed since the last tick."""
        began = self.timer()
        self.freed += gc.collect(0)
        took = self.timer() - began
        self.young += 1
        self._since += self.wait
        gc.freeze()
        self.wait = min(self.wait * 2, self.longest) if took < self.cheap else self.period
        if self.young % self.check_every or self._since < self.spacing:
            return
        if sys.getallocatedblocks() > max(self.floor, self._base * (1 + self.growth)):
            gc.unfreeze()
            self.freed += gc.collect()
            self.full += 1
            gc.freeze()
            self._base = sys.getallocatedblocks()
            self._since = 0.0

    async def run(self, clock: Clock) -> None:
        """``tick`` after ``wait`` seconds of ``clock``, again and again until cancelled."""
        while True:
            await clock.sleep(self.wait)
            self.tick()


def gc_setting(text: str) -> Collector | tuple[int, ...]:
    """``DAMEPIQUE_GC``: empty or ``paced``, a ``Collector``; ``"g0,g1,g2"`` (one to
    three numbers), Python's own collector at those thresholds.

    >>> c = gc_setting("")
    >>> type(c).__name__, c.period, c.longest, c.growth, c.spacing
    ('Collector', 0.1, 1.0, 0.25, 600.0)
    >>> gc_setting("700, 10")
    (700, 10)
    """
    if text.strip() in ("", "paced"):
        return Collector()
    try:
        numbers = tuple(int(x) for x in text.split(","))
    except ValueError:
        numbers = ()
    if not 1 <= len(numbers) <= 3 or min(numbers) < 0:
        raise ValueError(f"DAMEPIQUE_GC: 'paced' or one to three whole numbers (thresholds), not {text!r}")
    return numbers


def start_collector(setting: Collector | tuple[int, ...], clock: Clock) -> asyncio.Task[None] | None:
    """Apply ``setting`` in this process (``serve`` does, once its app is built):
    a ``Collector`` started and run on the running loop (its task returned), or
    Python's collector at those thresholds, what exists now frozen out of it."""
    if isinstance(setting, Collector):
        setting.start()
        return asyncio.get_running_loop().create_task(setting.run(clock))
    gc.freeze()
    gc.set_threshold(*setting)
    return None


__all__ = [
    "CHEAP_S",
    "CHECK_EVERY",
    "FLOOR",
    "GROWTH",
    "LONGEST_S",
    "PERIOD_S",
    "SPACING_S",
    "Collector",
    "gc_setting",
    "start_collector",
]
