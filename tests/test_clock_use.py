"""Time is an input: nothing in the server reads the real clock but ``server/clock.py``.

Every timer, deadline, grace period, expiry, time-out, rate limit and back-off
of the server reads the app's one clock (``Settings.clock``), so that a test
moves a ``ManualClock`` instead of sleeping, and a busy machine cannot change
its outcome. This test (standard-library ``ast``, like ``test_layers.py``)
fails on any call to the real clock in a server module outside ``clock.py``.

CPU time (``time.thread_time``, ``time.process_time``) is not the clock: a
bot's thinking is measured with it, so that a busy machine does not make a
cheap bot look slow.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "damepique"
SERVER = SRC / "server"
ALLOWED = {SERVER / "clock.py"}
"""The one module that reads the real clock."""

REAL_TIME = {
    "time": {"time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "sleep"},
    "asyncio": {"sleep", "wait_for", "timeout", "timeout_at"},
    "datetime": {"now", "utcnow", "today"},
    "date": {"today"},
}
"""Module (or class) -> its functions that read or wait on the real clock."""
LOOP_TIME = {"call_later", "call_at", "time"}
"""An event loop's own clock (``asyncio.get_running_loop().call_later``)."""


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` for a chain of names and attributes; calls in it as ``f()``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}()"
    return "?"


def _is_zero(call: ast.Call) -> bool:
    """``asyncio.sleep(0)``: a turn of the event loop, not a wait."""
    args = call.args or [k.value for k in call.keywords if k.arg == "delay"]
    return bool(args) and isinstance(args[0], ast.Constant) and args[0].value == 0


def real_clock_calls(source: str) -> list[tuple[int, str]]:
    """(line, what) of each reading of, or wait on, the real clock in ``source``."""
    tree = ast.parse(source)
    imported: dict[str, str] = {}  # a name from ``from time import monotonic`` -> "time.monotonic"
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in REAL_TIME and not node.level:
            for alias in node.names:
                if alias.name in REAL_TIME[node.module]:
                    found.append((node.lineno, f"from {node.module} import {alias.name}"))
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        name = imported.get(name, name)
        parts = name.split(".")
        owner, attr = ".".join(parts[:-1]), parts[-1]
        last = owner.rsplit(".", 1)[-1]
        if last in REAL_TIME and attr in REAL_TIME[last]:
            if name.endswith("asyncio.sleep") and _is_zero(node):
                continue
            found.append((node.lineno, name))
        elif attr in LOOP_TIME and ("loop" in last.lower() or last.endswith("_loop()")):
            found.append((node.lineno, name))
    return sorted(found)


def test_no_server_module_reads_the_real_clock() -> None:
    bad = []
    for path in sorted(SERVER.rglob("*.py")):
        if path in ALLOWED or "migrations" in path.parts:
            continue  # (a migration runs once, outside the app, and stamps rows it moves)
        for line, what in real_clock_calls(path.read_text(encoding="utf-8")):
            bad.append(f"{path.relative_to(SRC)}:{line} {what}")
    assert not bad, "server modules reading the real clock (use the app's: Settings.clock):\n" + "\n".join(
        bad
    )


def test_the_checker_sees_each_form() -> None:
    # A test that cannot fail is worse than none: every form it must catch, and what it must not.
    probe = """
import time, asyncio, datetime
from time import monotonic as mono
from asyncio import sleep
time.time(); time.monotonic(); mono(); time.sleep(1)
asyncio.sleep(0.5); await asyncio.sleep(0); sleep(2)
asyncio.wait_for(x, 3); asyncio.timeout(4)
asyncio.get_running_loop().call_later(1, f); loop.call_at(2, f); self._loop.time()
datetime.datetime.now(); datetime.date.today()
clock.sleep(5); self.clock.call_later(1, f); time.thread_time(); clock.monotonic()
"""
    got = [what for _, what in real_clock_calls(probe)]
    assert sorted(got) == sorted(
        [
            "from time import monotonic",
            "from asyncio import sleep",
            "time.time",
            "time.monotonic",
            "time.monotonic",
            "time.sleep",
            "asyncio.sleep",
            "asyncio.sleep",
            "asyncio.wait_for",
            "asyncio.timeout",
            "asyncio.get_running_loop().call_later",
            "loop.call_at",
            "self._loop.time",
            "datetime.datetime.now",
            "datetime.date.today",
        ]
    )


# -- the tests themselves ------------------------------------------------------------------------

TESTS = Path(__file__).resolve().parent
SLEEPS_ALLOWED: dict[Path, str] = {}
"""Test modules that may wait on real time, each with its reason: none now (the
real-process tests of the cluster reconnect at once, the process that takes a
table over waiting out its dead owner's lease itself; the browser tests wait on
what the page says it drew, or on the page's own messages)."""


def sleeps(source: str) -> list[tuple[int, str]]:
    """(line, call) of each ``time.sleep`` or ``asyncio.sleep`` with a delay other than 0."""
    return [
        (line, what)
        for line, what in real_clock_calls(source)
        if what in ("time.sleep", "asyncio.sleep", "from time import sleep", "from asyncio import sleep")
    ]


def test_no_test_sleeps_to_let_something_happen() -> None:
    """A test moves the app's clock (``tests/clocks.py``) or waits on a signal (a
    message, a line, an event), with a generous limit that only stops a hang;
    ``asyncio.sleep(0)``, a turn of the event loop, is not a sleep."""
    bad = []
    for path in sorted(TESTS.rglob("*.py")):
        if path in SLEEPS_ALLOWED:
            continue
        bad += [f"{path.relative_to(TESTS)}:{line} {what}" for line, what in sleeps(path.read_text("utf-8"))]
    assert not bad, "tests that sleep (move a ManualClock or wait on a signal instead):\n" + "\n".join(bad)


def test_the_sleep_checker_sees_each_form() -> None:
    probe = "import time, asyncio\ntime.sleep(0.2)\nawait asyncio.sleep(0.01)\nawait asyncio.sleep(0)\n"
    probe += "clock.sleep(3)\n"
    assert sleeps(probe) == [(2, "time.sleep"), (3, "asyncio.sleep")]
    assert all(path.exists() for path in SLEEPS_ALLOWED)  # an allowance for a file gone is a stale one
