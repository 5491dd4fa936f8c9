"""Every word of the multiplayer pages exists in English and in French, and
every quick message the server accepts has its words (web/strings/en.js and
fr.js, read by Node)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from damepique.server.tables.session import QUICK_MESSAGES

WEB = Path(__file__).resolve().parents[2] / "src" / "damepique" / "web"


def _keys() -> tuple[set[str], set[str]]:
    node = shutil.which("node")
    assert node is not None, "Node.js reads the pages' strings (scripts/_system.sh installs it)"
    script = (
        "const [en, fr] = await Promise.all(['en', 'fr']"
        ".map((l) => import(process.argv[1] + '/' + l + '.js')));"
        "console.log(JSON.stringify([Object.keys(en.default), Object.keys(fr.default)]));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script, (WEB / "strings").as_uri()],
        capture_output=True,
        text=True,
    )
    en, fr = json.loads(out.stdout)
    return set(en), set(fr)


def test_every_new_word_in_both_languages() -> None:
    en, fr = _keys()
    assert {k for k in en if k.startswith(("mp_", "acc_", "lb_", "pf_", "qm_", "nav_"))} <= fr
    used: set[str] = set()
    for module in ("tables.js", "accounts.js", "app.js"):
        used |= set(re.findall(r"t\(\"((?:mp|acc|lb|pf|qm|nav)_\w+)\"", (WEB / module).read_text()))
    used = {k for k in used if not k.endswith("_")}
    assert len(used) > 30
    assert used <= en, used - en
    assert {f"qm_{q}" for q in QUICK_MESSAGES} <= en
    for kind in ("timeout", "stand_in", "back", "left"):
        assert f"mp_notice_{kind}" in en
