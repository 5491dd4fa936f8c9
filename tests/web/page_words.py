"""The pages' words (``web/strings/en.js`` and ``fr.js``), read by Node: the
one translation system every words test checks against."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

STRINGS = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web" / "strings"


def _read() -> dict[str, dict[str, str | None]]:
    """Each language's keys, with the words where they are plain text (None
    for plurals and sentences built by a function)."""
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    script = (
        "const [en, fr] = await Promise.all(['en', 'fr']"
        ".map((l) => import(process.argv[1] + '/' + l + '.js')));"
        "const plain = (t) => Object.fromEntries(Object.entries(t.default)"
        ".map(([k, v]) => [k, typeof v === 'string' ? v : null]));"
        "console.log(JSON.stringify({en: plain(en), fr: plain(fr)}));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, STRINGS.as_uri()],
        capture_output=True,
        text=True,
        check=True,
    )
    words: dict[str, dict[str, str | None]] = json.loads(out.stdout)
    return words


def page_string_keys() -> tuple[set[str], set[str]]:
    """The English keys and the French keys."""
    words = _read()
    return set(words["en"]), set(words["fr"])


def page_words() -> dict[str, dict[str, str]]:
    """Each language's plain-text words, by key."""
    return {lang: {k: v for k, v in table.items() if v is not None} for lang, table in _read().items()}
