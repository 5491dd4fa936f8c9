"""The browser tests' time, before and after, side by side on one machine.

Runs the same browser test files (those of the commit before issue 24:
``tests/browser/test_{features,multiplayer,pages,play,table,training}.py``
and ``tests/scorer/test_browser.py``) in two trees one after the other,
alternating for ``--rounds`` rounds: ``--before`` (a git worktree of an older
commit, for example ``git worktree add /tmp/before 9c7b5cc``) and this tree.
Each run is its own pytest process with that tree's ``src`` first on
``PYTHONPATH`` (its servers too), so one virtual environment serves both.
Prints each run's wall time, its outcome and the load average beside it;
each run's whole output is in its tree's ``test-artifacts/browser-suite.log``.

    python benchmarks/browser_suite.py --before /tmp/before --rounds 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FILES = [
    "tests/browser/test_features.py",
    "tests/browser/test_multiplayer.py",
    "tests/browser/test_pages.py",
    "tests/browser/test_play.py",
    "tests/browser/test_table.py",
    "tests/browser/test_training.py",
    "tests/scorer/test_browser.py",
]


def run(tree: Path, extra: list[str]) -> dict[str, object]:
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    (tree / "test-artifacts").mkdir(exist_ok=True)
    load = os.getloadavg()[0]
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "browser", *FILES, *extra],
        cwd=tree, env=env, capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    wall = time.monotonic() - start
    (tree / "test-artifacts" / "browser-suite.log").write_text(proc.stdout + proc.stderr)
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-300:]
    return {
        "tree": str(tree),
        "seconds": round(wall, 1),
        "rc": proc.returncode,
        "summary": tail,
        "load_before": round(load, 1),
        "load_after": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", required=True, type=Path, help="a worktree of the older commit")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args()
    results = []
    for _ in range(max(1, min(args.rounds, 5))):
        for tree in (args.before.resolve(), HERE):
            result = run(tree, args.pytest_args)
            print(json.dumps(result), flush=True)
            results.append(result)
    before = [r["seconds"] for r in results if r["tree"] == str(args.before.resolve())]
    after = [r["seconds"] for r in results if r["tree"] == str(HERE)]
    print(f"before {before} s, after {after} s: after/before {sum(after) / sum(before):.2f}")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
