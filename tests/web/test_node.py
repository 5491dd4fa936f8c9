"""The front end's unit tests (``tests/web/*.test.mjs``) under Node's own test
runner: no npm, no build step. ``scripts/_system.sh`` installs Node.js where it
is missing, so a machine without it fails here rather than skip them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).parent


def test_front_end_unit_tests_pass() -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed for the front end's tests (scripts/_system.sh installs it)"
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert len(files) >= 2
    done = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout
