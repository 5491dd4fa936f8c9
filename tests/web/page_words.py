"""The keys of the pages' words (``web/strings/en.js`` and ``fr.js``), read by
Node: the one translation system every words test checks against."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

STRINGS = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web" / "strings"


def page_string_keys() -> tuple[set[str], set[str]]:
    """The English keys and the French keys."""
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    script = (
        "const [en, fr] = await Promise.all(['en', 'fr']"
        ".map((l) => import(process.argv[1] + '/' + l + '.js')));"
        "console.log(JSON.stringify([Object.keys(en.default), Object.keys(fr.default)]));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, STRINGS.as_uri()], capture_output=True, text=True
    )
    en, fr = json.loads(out.stdout)
    return set(en), set(fr)
