"""The garbage collector paced by time (``server/collector.py``): cycles dropped
between two ticks freed at the next, survivors frozen out of later
collections, a full collection once the frozen heap has grown enough (and
not before), ``DAMEPIQUE_GC`` read, and ticks driven by the app's clock (the
test moves it). Each test leaves Python's collector as it found it."""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from damepique.server.clock import ManualClock
from damepique.server.collector import Collector, gc_setting, start_collector


class Node:
    """A cycle's link: only the collector frees a ring of these."""

    def __init__(self) -> None:
        self.other: Node | None = None


def ring() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


def frozen_then_dropped(c: Collector) -> weakref.ref[Node]:
    """Start ``c``, make a ring that lives through one tick (frozen with the rest),
    then drop it: from then on only a full collection frees it."""
    c.start()
    a, alive = ring()
    c.tick()
    del a
    return alive


@pytest.fixture
def python_gc() -> Iterator[None]:
    enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.collect()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()
        else:
            gc.disable()
        gc.collect()


def test_a_cycle_dropped_between_ticks_is_freed_at_the_next(python_gc: None) -> None:
    c = Collector()
    c.start()
    assert not gc.isenabled()  # Python's trigger is off: only ticks collect
    a, alive = ring()
    del a
    assert alive() is not None  # nothing collected it yet
    c.tick()
    assert alive() is None
    assert c.young == 1 and c.full == 0 and c.freed >= 2
    c.stop()
    assert gc.isenabled()


def test_survivors_are_frozen_then_a_full_collection_frees_their_cycles(python_gc: None) -> None:
    c = Collector(floor=0, growth=0.25, check_every=1, spacing=0)
    c.start()
    base = gc.get_freeze_count()
    blocks = sys.getallocatedblocks()
    a, alive = ring()
    c.tick()  # the ring lives: frozen with the rest
    assert gc.get_freeze_count() >= base + 2
    assert c.full == 0
    del a
    c.tick()  # dropped once frozen: a young collection no longer sees it
    assert alive() is not None
    assert c.full == 0
    # The frozen heap grows by more than a quarter: the next tick collects it all.
    grown = [[i] for i in range(blocks // 4 + 1000)]
    c.tick()
    assert c.full == 1
    assert alive() is None
    assert gc.get_freeze_count() >= len(grown)  # what lives is frozen again
    c.tick()
    assert c.full == 1  # no growth since: no other full collection
    c.stop()


def test_no_full_collection_under_the_floor(python_gc: None) -> None:
    c = Collector(floor=10**9, growth=0.0, check_every=1, spacing=0)
    alive = frozen_then_dropped(c)
    keep = [[i] for i in range(10_000)]
    c.tick()
    assert c.full == 0 and alive() is not None and keep
    c.stop()


def test_the_heap_is_looked_at_every_few_ticks(python_gc: None) -> None:
    c = Collector(floor=0, growth=0.0, check_every=3, spacing=0)
    alive = frozen_then_dropped(c)
    keep = [[i] for i in range(10_000)]
    c.tick()
    assert c.full == 0 and alive() is not None  # grown, but not looked at yet
    c.tick()
    assert c.full == 1 and alive() is None and keep
    c.stop()


def test_full_collections_are_spaced(python_gc: None) -> None:
    """Growth alone waits ``spacing`` seconds (of ticks) after the start or the last full collection."""
    c = Collector(floor=0, growth=0.0, check_every=1, period=0.5, longest=0.5, spacing=2.0)
    alive = frozen_then_dropped(c)
    keep = [[i] for i in range(10_000)]
    for _ in range(2):
        c.tick()
    assert c.full == 0 and alive() is not None  # 1.5 s since the start
    c.tick()
    assert c.full == 1 and alive() is None
    more = [[i] for i in range(10_000)]
    for _ in range(3):
        c.tick()
    assert c.full == 1  # grown again, 1.5 s since the last
    c.tick()
    assert c.full == 2 and keep and more
    c.stop()


class Stopwatch:
    """A young collection's duration, taken from ``durations`` in turn (read before and after each)."""

    def __init__(self, durations: list[float]) -> None:
        self.durations = iter(durations)
        self.now = 0.0
        self.running = False

    def __call__(self) -> float:
        if self.running:
            self.now += next(self.durations)
        self.running = not self.running
        return self.now


def test_the_wait_grows_while_collections_are_cheap(python_gc: None) -> None:
    """Doubled after each cheap young collection up to ``longest``; back to ``period`` after a long one."""
    cheap, long = 0.0001, 0.005
    c = Collector(period=0.1, longest=0.4, cheap=0.001, timer=Stopwatch([cheap] * 5 + [long, cheap]))
    c.start()
    waits = []
    for _ in range(7):
        c.tick()
        waits.append(c.wait)
    assert waits == [0.2, 0.4, 0.4, 0.4, 0.4, 0.1, 0.2]
    c.stop()


def test_the_setting() -> None:
    assert isinstance(gc_setting(""), Collector)
    assert isinstance(gc_setting(" paced "), Collector)
    assert gc_setting("700,10,10") == (700, 10, 10)
    for bad in ("fast", "1,2,3,4", "-1", "1,,2"):
        with pytest.raises(ValueError, match="DAMEPIQUE_GC"):
            gc_setting(bad)


def test_ticks_follow_the_apps_clock(python_gc: None) -> None:
    async def scenario() -> None:
        clock = ManualClock()
        c = Collector(period=0.5, longest=0.5)
        task = start_collector(c, clock)
        assert task is not None
        await clock.settle()
        assert c.young == 0
        await clock.advance(0.5)
        assert c.young == 1
        await clock.advance(2.0)
        assert c.young == 5
        task.cancel()
        c.stop()

    asyncio.run(scenario())


def test_thresholds_leave_pythons_collector_on(python_gc: None) -> None:
    async def scenario() -> None:
        assert start_collector((5000, 7, 9), ManualClock()) is None

    asyncio.run(scenario())
    assert gc.isenabled() and gc.get_threshold() == (5000, 7, 9)
    assert gc.get_freeze_count() > 0


def test_serve_refuses_a_bad_setting_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from damepique.server.run import serve

    monkeypatch.setenv("DAMEPIQUE_GC", "often")
    assert serve(port=1, db=str(tmp_path / "never.sqlite3")) == 2
    assert (
        "DAMEPIQUE_GC: 'paced' or one to three whole numbers (thresholds), not 'often'"
        in capsys.readouterr().err
    )
    assert gc.isenabled()  # nothing was started
