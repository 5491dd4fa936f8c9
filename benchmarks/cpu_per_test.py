"""A pytest plugin: the CPU seconds each test took (this process and the
children it waited for, so a test's own process pool counts), written out
at the end, busiest first, with the total. CPU time, unlike ``--durations``,
hardly moves with the load of a machine others share: the figure to compare
for CPU-bound tests (issue 24), the two trees run one after the other.

    git worktree add --detach /tmp/before COMMIT
    (cd /tmp/before && CPU_PER_TEST=/tmp/before.txt PYTHONPATH=/tmp/before/src:$OLDPWD/benchmarks \\
        python -m pytest -q -p cpu_per_test tests/bots tests/engine)
    CPU_PER_TEST=/tmp/after.txt PYTHONPATH=benchmarks \\
        python -m pytest -q -p cpu_per_test tests/bots tests/engine

Work done in processes the test did not start (a server's worker pools
started by a forkserver) is not counted.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from typing import Any

import pytest

_rows: list[tuple[float, float, str]] = []


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    cpu, wall = _cpu(), time.perf_counter()
    yield
    _rows.append((_cpu() - cpu, time.perf_counter() - wall, item.nodeid))


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("CPU_PER_TEST")
    if not out:
        return
    with open(out, "w", encoding="utf-8") as f:
        cpu, wall = sum(r[0] for r in _rows), sum(r[1] for r in _rows)
        f.write(f"total cpu {cpu:.1f} s, wall {wall:.1f} s, {len(_rows)} tests\n")
        for cpu, wall, name in sorted(_rows, reverse=True):
            f.write(f"{cpu:8.2f} {wall:8.2f} {name}\n")
