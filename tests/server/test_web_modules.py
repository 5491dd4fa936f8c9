"""The page's pure JavaScript modules, under Node's built-in test runner (skipped without Node)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_web_modules_under_node() -> None:
    out = subprocess.run(
        ["node", "--test", str(ROOT / "tests" / "web")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_page_is_package_data() -> None:
    web = ROOT / "src" / "damepique" / "web"
    for name in ("index.html", "app.js", "i18n.js", "cards.js", "pages.js", "style.css"):
        assert (web / name).is_file(), name
