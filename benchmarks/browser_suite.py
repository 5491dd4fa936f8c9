"""The tests' time, before and after, side by side on one machine.

Runs the same browser test files (those of the commit before issue 24:
``tests/browser/test_{features,multiplayer,pages,play,table,training}.py``
and ``tests/scorer/test_browser.py``) in two trees, alternating for
``--rounds`` rounds: ``--before`` (a git worktree of an older commit, for
example ``git worktree add /tmp/before 9c7b5cc``) and this tree. With
``--all``, each run also runs every other test file that both trees hold,
as the suite runs them (``-m "not browser" -n 2``, before the browser
files): the whole suite at a constant set of test files. With
``--together``, the two trees run at the same time instead of one after
the other, so that both see the same load on a machine others share.
Each tree runs both parts with its own ``scripts/test`` flags (its workers:
the browser files on two since 4e70614, on one before). Each run is its own
pytest process with that tree's ``src`` first on
``PYTHONPATH`` (its servers too), so one virtual environment serves both.
Prints each run's wall time, its outcome and the load average beside it;
each run's whole output is in its tree's ``test-artifacts/browser-suite.log``.

    python benchmarks/browser_suite.py --before /tmp/before --rounds 1
    nice -n 10 python benchmarks/browser_suite.py --before /tmp/before --all --together
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
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


def common_files(before: Path) -> list[str]:
    """The test files, other than ``FILES`` and the browser folder, that both trees hold."""

    def files(tree: Path) -> set[str]:
        return {str(p.relative_to(tree)) for p in (tree / "tests").rglob("test_*.py")}

    both = files(before) & files(HERE)
    return sorted(f for f in both if f not in FILES and not f.startswith("tests/browser/"))


def suite_flags(tree: Path, browser: bool = False) -> list[str]:
    """The flags that tree's ``scripts/test`` runs the files other than the browser's
    with (its ``run -m "not browser" ...`` line), or the browser files (``run -m
    browser ...``: two workers since 4e70614): each tree as its own suite runs them."""
    start = "run -m browser" if browser else 'run -m "not browser"'
    for line in (tree / "scripts" / "test").read_text().splitlines():
        if line.startswith(start):
            return [a for a in shlex.split(line)[1:] if a not in ("$@", "tests")]
    return ["-m", "browser"] if browser else ["-m", "not browser", "-n", "2"]


def pytest(tree: Path, args: list[str], log: str) -> dict[str, object]:
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    (tree / "test-artifacts").mkdir(exist_ok=True)
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=tree, env=env, capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    wall = time.monotonic() - start
    (tree / "test-artifacts" / log).write_text(proc.stdout + proc.stderr)
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-300:]
    part = {"seconds": round(wall, 1), "rc": proc.returncode, "summary": tail}
    # Said at once: a run cut short still leaves the parts it finished.
    print(
        json.dumps({"tree": str(tree), "part": log, "load": round(os.getloadavg()[0], 1), **part}), flush=True
    )
    return part


def run(
    tree: Path, extra: list[str], others: list[str] | None = None, browser: bool = True
) -> dict[str, object]:
    """One tree's run: ``others`` (the suite's way) when given, then the browser files."""
    load = os.getloadavg()[0]
    start = time.monotonic()
    result: dict[str, object] = {"tree": str(tree)}
    if others:
        result["others"] = pytest(tree, [*suite_flags(tree), *others, *extra], "others-suite.log")
    if browser:
        result["browser"] = pytest(tree, [*suite_flags(tree, True), *FILES, *extra], "browser-suite.log")
    result["seconds"] = round(time.monotonic() - start, 1)
    result["load_before"] = round(load, 1)
    result["load_after"] = round(os.getloadavg()[0], 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", required=True, type=Path, help="a worktree of the older commit")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="the other test files both trees hold too")
    parser.add_argument("--no-browser", action="store_true", help="with --all: the other files only")
    parser.add_argument("--together", action="store_true", help="both trees at once, not in turn")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments, after --")
    args = parser.parse_args()
    before_tree = args.before.resolve()
    others = common_files(before_tree) if args.all else None
    if others:
        print(f"{len(others)} other test files in both trees", flush=True)
    results = []
    for _ in range(max(1, min(args.rounds, 5))):
        trees = (before_tree, HERE)
        if args.together:
            with ThreadPoolExecutor(2) as pool:
                done = list(
                    pool.map(lambda tree: run(tree, args.pytest_args, others, not args.no_browser), trees)
                )
        else:
            done = [run(tree, args.pytest_args, others, not args.no_browser) for tree in trees]
        for result in done:
            print(json.dumps(result), flush=True)
            results.append(result)
    before = [r["seconds"] for r in results if r["tree"] == str(before_tree)]
    after = [r["seconds"] for r in results if r["tree"] == str(HERE)]
    print(f"before {before} s, after {after} s: after/before {sum(after) / sum(before):.2f}")  # type: ignore[arg-type]
    for part in ("others", "browser"):
        b = [r[part]["seconds"] for r in results if r["tree"] == str(before_tree) and part in r]  # type: ignore[index]
        a = [r[part]["seconds"] for r in results if r["tree"] == str(HERE) and part in r]  # type: ignore[index]
        if a and b:
            print(f"  {part}: before {b} s, after {a} s: after/before {sum(a) / sum(b):.2f}")


if __name__ == "__main__":
    main()
